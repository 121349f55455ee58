public import Foundation
import SculptShared
public import Sculpt

/// Resolves a response to a model type by a discriminator field in its JSON body, such as
/// `"type": "question"`.
///
/// ```swift
/// var matcher = TypeFieldModelMatcher(field: "type")
/// try matcher.add("question", Question.self)
/// try matcher.add("answer", Answer.self)
/// try matcher.add("PushEvent", PushEvent.self)
/// matcher.fallback = ModelType(UnknownEvent.self)
/// ```
///
/// The field is a key, or a dotted path into nested objects (`"meta.type"`, in `ModelKeyPath`
/// syntax; a field that is not a valid key-only path is taken as one literal key). Its value may
/// be a JSON string, a boolean (matching `"true"` or `"false"`), or a number, matching the value
/// registered as its text and compared by value: `3`, `3.0` and `3e0` all match `"3"`, and `2.50`
/// matches `"2.5"` (register a number by its shortest spelling). `TypeFieldFamily` compares by the
/// same rule. Keys and values compare after JSON unescaping and as Swift strings compare
/// (canonically equivalent spellings are equal: `"cafe\u0301"` is `café`), and a duplicated key
/// resolves to its first occurrence, as `JSONDecoder` resolves it, so the peek and the decode
/// always agree.
///
/// The peek is a bounded scan of the bytes, not a parse: other members, nested values and long
/// strings are skipped by looking only for the bytes that can end them. Only registered types are
/// ever decoded; nothing is looked up by a name from the wire.
///
/// A missing or unregistered value answers ``fallback``; without one it throws
/// `SculptError.Reason.unknownDiscriminator(field:found:registered:)`, or answers `nil` when
/// ``unknownValuesMatchNothing`` is set (to sit in a ``FirstMatchModelMatcher`` before other
/// matchers). A body that is not JSON throws `SculptError.Reason.invalidJSON(reason:offset:)`; so does a
/// discriminator that no decode could read (`"type": 03`, a string with an invalid escape), unless
/// there is a fallback or unknown values match nothing, since `JSONDecoder` accepts such a body for
/// a model that does not read the field. An empty body answers `nil`. The peek reads JSON (RFC
/// 8259), not JSON5: a decoder with `allowsJSON5` set decodes bodies this matcher refuses.
public struct TypeFieldModelMatcher: ModelMatcher {
    /// The discriminator field as given.
    public let field: String

    /// The model type for a missing or unregistered value; `nil` makes those an error.
    public var fallback: ModelType?

    /// Whether a missing or unregistered value (with no ``fallback``) answers `nil` instead of
    /// throwing. Default `false`.
    public var unknownValuesMatchNothing = false

    private let scanner: DiscriminatorScanner
    private var types: [String: ModelType] = [:]

    /// Creates a matcher for the discriminator `field`.
    ///
    /// ```swift
    /// let byKind = TypeFieldModelMatcher(field: "kind")
    /// let nested = TypeFieldModelMatcher(field: "meta.type")
    /// ```
    /// - Parameter field: the member whose value names the type; a dotted path (`meta.type`) reaches
    ///   into nested objects.
    public init(field: String = "type") {
        self.field = field
        self.scanner = DiscriminatorScanner(path: ModelKeyPath.fieldKeys(field))
    }

    /// Creates a matcher for `field` from a table of values and model types.
    ///
    /// ```swift
    /// let matcher = TypeFieldModelMatcher(field: "object", ["charge": Charge.self, "customer": Customer.self])
    /// ```
    ///
    /// Use ``add(_:_:at:)`` for a type found at a key path.
    /// - Parameters:
    ///   - field: the member whose value names the type.
    ///   - types: each value and the model type it names.
    public init(field: String = "type", _ types: [String: any (Decodable & Sendable).Type]) {
        self.init(field: field)
        self.types = types.mapValues { ModelType($0) }
    }

    /// Registers the model type for a discriminator value, replacing an earlier registration of
    /// the same value, as ``URLModelMatcher`` replaces a route registered again.
    ///
    /// ```swift
    /// try matcher.add("question", [Question].self, at: "items")   // a wrapper's tag selects its items
    /// try matcher.add("3", Version3.self)                          // a number tag: 3, 3.0 and 3e0 match
    /// ```
    ///
    /// `keyPath` is from the body's root, so a wrapper-level tag can select the type of a sibling
    /// array (Stack Exchange's `"type": "question"` beside `"items": [...]`).
    /// - Parameters:
    ///   - value: the discriminator's value, as its JSON text reads (`question`, `3`, `true`).
    ///   - type: the model type the value selects.
    ///   - keyPath: where in the body the model is, from the root; `nil` for the whole body.
    /// - Throws: `ModelKeyPath.SyntaxError` for an invalid key path (the registration is left
    ///   as it was).
    public mutating func add<M: Decodable & Sendable>(_ value: String, _ type: M.Type, at keyPath: String? = nil) throws {
        types[value] = try ModelType(type, at: keyPath).validated()
    }

    /// The registered values, sorted.
    public var registeredValues: [String] { types.keys.sorted() }

    /// The model type registered for a discriminator value, if any.
    ///
    /// ```swift
    /// matcher.modelType(forValue: "question")  // ModelType(Question.self)
    /// ```
    /// - Parameter value: The discriminator's value, as registered.
    public func modelType(forValue value: String) -> ModelType? {
        types[value]
    }

    /// The model type for the body's discriminator.
    ///
    /// - Parameters:
    ///   - response: the response, whose content type is not read.
    ///   - data: the body whose discriminator is read.
    /// - Throws: `SculptError.Reason.invalidJSON(reason:offset:)` for a body that is not JSON;
    ///   `SculptError.Reason.unknownDiscriminator(field:found:registered:)` for a missing or
    ///   unregistered value when there is no ``fallback`` and ``unknownValuesMatchNothing`` is off.
    public func modelType(for response: ResponseContext, data: Data) throws -> ModelType? {
        let outcome: DiscriminatorScanner.Outcome
        do {
            outcome = try scanner.scan(data)
        } catch {
            throw SculptError(.invalidJSON(reason: error.reason, offset: error.offset), response: response, body: data)
        }
        // A mapping report counts the field as read: the matcher read it.
        if case .found = outcome { ReadTracking.noteRead(path: scanner.path.map(\.text), of: data) }
        if case .found(.string(let value)) = outcome, let modelType = types[value] {
            return modelType
        }
        return try modelType(for: outcome, response, data)
    }

    /// Any outcome but a registered string: a number or boolean registered as text, else the
    /// fallback, nothing, or the error. Out of line, so the common case stays small.
    @inline(never)
    private func modelType(for outcome: DiscriminatorScanner.Outcome, _ response: ResponseContext, _ data: Data) throws -> ModelType? {
        let found: String?
        switch outcome {
        case .found(.string(let value)): found = TagText.quoted(value)
        case .found(.number(let text)):
            let canonical = JSONNumber.canonicalText(of: text)
            if let modelType = canonical.flatMap({ types[$0] }) { return modelType }
            // By its value, as a family reads it: `3.0` is `3`.
            found = canonical ?? text
        case .found(.bool(let value)):
            if let modelType = types[String(value)] { return modelType }
            found = String(value)
        case .found(.invalid(let error)):
            // No decode reads this value; a model that does not read the field still may.
            if let fallback { return answered(fallback, found: "a value no decode reads", raw: nil) }
            if unknownValuesMatchNothing { return nil }
            throw SculptError(.invalidJSON(reason: error.reason, offset: error.offset), response: response, body: data)
        case .found(.null): found = TagText.null
        case .found(.object): found = TagText.object
        case .found(.array): found = TagText.array
        case .missing, .notAnObject: found = nil
        case .empty: return nil
        }
        if let fallback {
            // The tag's value, to hide it when the body holds it under a secret name.
            let raw: String? = switch outcome {
            case .found(.string(let value)): value
            case .found(.number): found
            default: nil
            }
            return answered(fallback, found: found, raw: raw)
        }
        if unknownValuesMatchNothing { return nil }
        throw SculptError(.unknownDiscriminator(field: field, found: found, registered: registeredValues), response: response, body: data)
    }

    /// `fallback`, answered for a value that is `found` (`nil`: missing) and not registered: a
    /// decoding observer hears of it.
    private func answered(_ fallback: ModelType, found: String?, raw: String?) -> ModelType {
        if let tag = DecodingObservation.sharedUnknownTag(field: field, found: found, raw: raw, fallback: fallback.description) {
            DecodingObservation.unknownTag(tag, at: [])
        }
        return fallback
    }

    /// The registered value the body's discriminator matches, and the type it gives:
    /// `type: "question" -> Question`; `type: fallback -> UnknownEvent` for the fallback.
    /// - Parameters:
    ///   - response: the response the matcher resolved.
    ///   - data: the body whose discriminator is read.
    /// - Returns: the line, or `nil` when the matcher resolves nothing for the body (or throws).
    public func matchedRoute(for response: ResponseContext, data: Data) -> String? {
        guard let modelType = try? modelType(for: response, data: data) else { return nil }
        guard let value = (try? scanner.scan(data)).flatMap(registeredValue(of:)) else { return ShownText.line("\(field): fallback -> \(modelType)", limit: 1_024) }
        return ShownText.line("\(field): \(TagText.quoted(value)) -> \(modelType)", limit: 1_024)
    }

    /// The registered value a scan found, as registered: a string as it is, a number by its
    /// canonical text, a boolean as `true` or `false`.
    private func registeredValue(of outcome: DiscriminatorScanner.Outcome) -> String? {
        let value: String? = switch outcome {
        case .found(.string(let value)): value
        case .found(.number(let text)): JSONNumber.canonicalText(of: text)
        case .found(.bool(let value)): String(value)
        default: nil
        }
        return value.flatMap { types[$0] == nil ? nil : $0 }
    }

    /// The registered values, as `type: "question"`.
    /// - Parameter response: the response no value matched.
    public func nearestCandidates(for response: ResponseContext) -> [String] {
        registeredValues.map { ShownText.line("\(field): \(TagText.quoted($0))", limit: 1_024) }
    }
}
