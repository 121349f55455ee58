public import Foundation
import SculptShared
public import Sculpt

/// Resolves every response to one model type.
///
/// ```swift
/// let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Issue].self))
/// let envelope = StaticModelMatcher([Item].self, at: "data.items")
/// ```
public struct StaticModelMatcher: ModelMatcher {
    /// The model type every response resolves to.
    public let modelType: ModelType

    /// Creates a matcher that always answers `type` at `keyPath`.
    ///
    /// ```swift
    /// let matcher = StaticModelMatcher(User.self)
    /// ```
    ///
    /// An invalid key path is reported when a body is decoded
    /// (`SculptError.Reason.invalidKeyPath(_:)`); check one up front with `ModelType.validated()`.
    /// - Parameters:
    ///   - type: the model type every response decodes into.
    ///   - keyPath: where the model sits in the body; `nil` for the whole body.
    public init<M: Decodable & Sendable>(_ type: M.Type, at keyPath: String? = nil) {
        self.modelType = ModelType(type, at: keyPath)
    }

    /// Always ``modelType``.
    /// - Parameters:
    ///   - response: the response, which is not read.
    ///   - data: its body, which is not read.
    public func modelType(for response: ResponseContext, data: Data) throws -> ModelType? {
        modelType
    }
}
