import Foundation
import SculptShared

/// A model type a matcher resolved a response to, and where in the body the model sits.
///
/// ```swift
/// let user = ModelType(User.self)                        // the whole body is a User
/// let items = ModelType([Issue].self, at: "data.items")  // the array at data.items
/// ```
///
/// Two model types are equal when their Swift types and key paths are.
public struct ModelType: Sendable, Hashable, CustomStringConvertible {
    /// Everything a model type holds, immutable and shared: a model type is copied several times
    /// per response, and a copy is then one reference.
    @usableFromInline final class Storage: Sendable {
        let type: any (Decodable & Sendable).Type
        let keyPath: String?
        @usableFromInline let parsedKeyPath: Result<ModelKeyPath, ModelKeyPath.SyntaxError>?
        @usableFromInline let isErrorResponse: Bool

        init(_ type: any (Decodable & Sendable).Type, keyPath: String?) {
            self.type = type
            self.keyPath = keyPath
            self.parsedKeyPath = keyPath.map { path in Result { () throws(ModelKeyPath.SyntaxError) in try ModelKeyPath(path) } }
            self.isErrorResponse = type is any ErrorResponseModel.Type
        }
    }

    @usableFromInline let storage: Storage

    /// The Swift type to decode.
    public var type: any (Decodable & Sendable).Type { storage.type }

    /// Where the model sits in the body (see ``ModelKeyPath`` for the syntax), or `nil` for the
    /// whole body.
    public var keyPath: String? { storage.keyPath }

    /// Whether the type is an ``ErrorResponseModel``: a model the serializer throws.
    @usableFromInline var isErrorResponse: Bool { storage.isErrorResponse }

    /// Creates a model type for `type`, found at `keyPath` in the body (the whole body by default).
    ///
    /// ```swift
    /// let results = ModelType([Track].self, at: "results[0].tracks")
    /// ```
    ///
    /// An invalid key path is not a trap: it is reported as
    /// ``SculptError/Reason/invalidKeyPath(_:)`` when a response is decoded. Matchers whose
    /// registration throws (``ModelType/validated()``) report it at registration instead.
    /// - Parameters:
    ///   - type: the Swift type to decode.
    ///   - keyPath: where the model sits in the body, such as `data.items`; `nil` for the whole body.
    public init<M: Decodable & Sendable>(_ type: M.Type, at keyPath: String? = nil) {
        self.storage = Storage(type, keyPath: keyPath)
    }

    /// This model type, after checking that its key path parses.
    ///
    /// ```swift
    /// let items = try ModelType([Issue].self, at: "data.items").validated()
    /// ```
    /// - Throws: ``ModelKeyPath/SyntaxError`` when the key path is not valid.
    public func validated() throws(ModelKeyPath.SyntaxError) -> ModelType {
        if case .failure(let error) = storage.parsedKeyPath { throw error }
        return self
    }

    /// The type's name, plus ` at <keyPath>` when there is one: `Array<Issue> at data.items`.
    public var description: String {
        let name = String(describing: type)
        return ShownText.line(keyPath.map { "\(name) at \($0)" } ?? name, limit: 1_024)
    }

    /// Decodes the model from a body, following the key path: a body without one goes straight to
    /// the decoder; with one, the document is parsed once and only the value at the path is built.
    /// `M` is ``type`` (the caller has checked it, or passes ``type`` itself, opened).
    @inlinable
    func decode<M: Decodable & Sendable>(_ model: M.Type, from data: Data, using decoder: any ModelDecoder) throws -> M {
        guard storage.parsedKeyPath != nil else { return try decoder.decodeBody(M.self, from: data) }
        return try RootDecoding.decode(data, using: decoder) { try self.decode(M.self, from: $0) }
    }

    /// Decodes the model from a `Decoder` already inside a decode (the root of a body, an
    /// envelope), following the key path from there. `M` is ``type``, as for the body's decode.
    @usableFromInline
    func decode<M: Decodable & Sendable>(_ model: M.Type, from decoder: any Decoder) throws -> M {
        guard let keyPath = try storage.parsedKeyPath?.get() else { return try M(from: decoder) }
        return try KeyPathWalk.decode(M.self, at: keyPath, from: decoder)
    }

    /// The value a bodiless response (204, 205, `HEAD`) stands for, when the type has one
    /// (``EmptyBodyRepresentable``: ``NoContent``, any `Optional`).
    var emptyValue: (any Decodable & Sendable)? {
        Self.emptyBodyValue(of: storage.type)
    }

    /// `M`'s value for "no body", when `M` is ``EmptyBodyRepresentable``.
    static func emptyBodyValue<M: Decodable & Sendable>(of model: M.Type) -> M? {
        (M.self as? any EmptyBodyRepresentable.Type)?.emptyBodyValue as? M
    }

    /// Whether two model types have the same Swift type and key path.
    /// - Parameters:
    ///   - lhs: a model type.
    ///   - rhs: another model type.
    public static func == (lhs: ModelType, rhs: ModelType) -> Bool {
        lhs.type == rhs.type && lhs.keyPath == rhs.keyPath
    }

    /// Hashes the Swift type's identity and the key path.
    /// - Parameter hasher: the hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
        hasher.combine(keyPath)
    }
}
