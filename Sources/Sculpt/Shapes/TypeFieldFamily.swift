import SculptShared
/// A family of model types told apart by a discriminator field in each JSON object: the table a
/// ``PolymorphicArray`` decodes its elements with.
///
/// ```swift
/// enum GitHubEvents: TypeFieldFamily {
///     static let field = "type"
///     static let types: [String: any (Decodable & Sendable).Type] = [
///         "PushEvent": PushEvent.self,
///         "IssuesEvent": IssuesEvent.self,
///     ]
/// }
/// try routes.add("/users/*/events", PolymorphicArray<GitHubEvents>.self)
/// ```
///
/// Only the types in ``types`` are ever decoded; nothing is looked up by a name from the wire.
public protocol TypeFieldFamily {
    /// The discriminator field in each element: a key or a dotted path (`meta.type`). Default `type`.
    static var field: String { get }
    /// The model type for each discriminator value. String values match as Swift strings compare
    /// (canonically equivalent spellings are equal, as they are to `JSONDecoder`); booleans match
    /// `"true"` and `"false"`; numbers match by value, as `TypeFieldModelMatcher` matches them:
    /// `3`, `3.0` and `3e0` all match `"3"`, and `2.50` matches `"2.5"`.
    static var types: [String: any (Decodable & Sendable).Type] { get }
    /// The model type for an element whose value is missing or not in ``types``; default `nil`.
    static var fallback: (any (Decodable & Sendable).Type)? { get }
}

extension TypeFieldFamily {
    /// `type`.
    public static var field: String { "type" }
    /// None: unknown values are an error (``PolymorphicArray``) or skipped (``LossyPolymorphicArray``).
    public static var fallback: (any (Decodable & Sendable).Type)? { nil }
}

/// A family's table read once per array, and the element decode it drives.
struct TypeFieldTable {
    let field: String
    let keys: [String]
    let types: [String: any (Decodable & Sendable).Type]
    let fallback: (any (Decodable & Sendable).Type)?
    /// The fallback's name, as events give it.
    private let fallbackName: String

    init<Family: TypeFieldFamily>(_ family: Family.Type) {
        field = Family.field
        keys = ModelKeyPath.fieldKeys(Family.field)
        types = Family.types
        fallback = Family.fallback
        fallbackName = Family.fallback.map { "\($0)" } ?? ""
    }

    /// What stands at an element's tag field.
    enum Read {
        case missing
        /// A string, number or boolean: its text (a number's canonical text, see `JSONNumber`).
        case scalar(text: String, isString: Bool)
        /// `null`, an object or an array, as ``TagText`` names it.
        case other(String)

        /// The tag's text, for a scalar.
        var text: String? {
            if case .scalar(let text, _) = self { text } else { nil }
        }

        /// The tag as every message writes it (``TagText``); `nil` when it is missing.
        var shown: String? {
            switch self {
            case .missing: nil
            case .scalar(let text, let isString): isString ? TagText.quoted(text) : text
            case .other(let what): what
            }
        }
    }

    /// The element's discriminator value as text (a number's canonical text, see `JSONNumber`), or
    /// `nil` when it is missing or not a string, number or boolean.
    func tag(of element: any Decoder) throws -> String? {
        try read(element).text
    }

    /// What the element holds at the tag field.
    func read(_ element: any Decoder) throws -> Read {
        var container = try element.container(keyedBy: AnyCodingKey.self)
        for key in keys.dropLast() {
            let key = AnyCodingKey(key)
            guard container.contains(key), !(try container.decodeNil(forKey: key)) else { return .missing }
            container = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)
        }
        let key = AnyCodingKey(keys.last ?? field)
        guard container.contains(key) else { return .missing }
        if (try? container.decodeNil(forKey: key)) == true { return .other(TagText.null) }
        if let text = try? container.decode(String.self, forKey: key) { return .scalar(text: text, isString: true) }
        if let text = scalarTag(container, key) { return .scalar(text: text, isString: false) }
        if (try? container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)) != nil { return .other(TagText.object) }
        if (try? container.nestedUnkeyedContainer(forKey: key)) != nil { return .other(TagText.array) }
        return .missing
    }

    /// A boolean's or a number's tag text.
    private func scalarTag(_ container: KeyedDecodingContainer<AnyCodingKey>, _ key: AnyCodingKey) -> String? {
        if let flag = try? container.decode(Bool.self, forKey: key) { return String(flag) }
        if let number = try? container.decode(Int.self, forKey: key) { return String(number) }
        return (try? container.decode(Double.self, forKey: key)).flatMap(JSONNumber.canonicalText(of:))
    }

    /// Decodes one element as the type its tag names, or as the fallback (which a decoding
    /// observer hears of).
    ///
    /// - Parameters:
    ///   - element: the element's decoder.
    ///   - unknown: set to the unknown tag when the fallback is decoded for it and an observer
    ///     listens, so that a fallback that fails can be told as such.
    /// - Throws: `DecodingError.dataCorrupted` at the element's field for a missing or unknown tag
    ///   without a fallback, naming the registered values; the element type's own errors.
    func decode(_ element: any Decoder, fallingBack unknown: inout DecodingObservation.UnknownTag?) throws -> (tag: String?, value: any Decodable & Sendable) {
        let read = try read(element)
        let tag = read.text
        if let type = tag.flatMap({ types[$0] }) { return (tag, try type.init(from: element)) }
        guard let type = fallback else {
            let registered = types.keys.sorted().map(TagText.quoted).joined(separator: ", ")
            throw DecodingError.dataCorrupted(.init(
                codingPath: element.codingPath + keys.map { AnyCodingKey($0) },
                debugDescription: "Unknown discriminator \(TagText.quoted(field)): found \(read.shown ?? "missing"); registered: \(registered)."))
        }
        let raw: String? = if case .scalar(let text, _) = read { text } else { nil }
        unknown = DecodingObservation.sharedUnknownTag(field: field, found: read.shown, raw: raw, fallback: fallbackName)
        let value = try type.init(from: element)
        if let unknown { DecodingObservation.unknownTag(unknown, at: element.codingPath) }
        return (tag, value)
    }
}
