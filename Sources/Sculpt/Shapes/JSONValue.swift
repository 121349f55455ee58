public import Foundation
import SculptShared

/// Any JSON value, decoded as it is and encodable again: the fallback type that keeps an element
/// whose type tag names no registered type, so that nothing the server sent is lost.
///
/// ```swift
/// enum GitHubEvents: TypeFieldFamily {
///     static let types: [String: any (Decodable & Sendable).Type] = ["PushEvent": PushEvent.self]
///     static var fallback: (any (Decodable & Sendable).Type)? { JSONValue.self }
/// }
/// let events = try serializer.serialize(data, for: context, as: PolymorphicArray<GitHubEvents>.self)
/// for case let unknown as JSONValue in events.elements {
///     unknown["type"]                       // .string("SponsorshipEvent")
///     let json = try JSONEncoder().encode(unknown)  // the element, to store or forward
/// }
/// ```
///
/// A type-field matcher's fallback keeps a whole body the same way
/// (`matcher.fallback = ModelType(JSONValue.self)`). A whole number is kept exactly, in an `Int`
/// or, past its range, a `Decimal` (38 digits: a 64-bit unsigned ID fits); a fraction keeps what
/// a `Double` holds (`-0.0` reads as `0`). Object members are kept by name, in no order; keys are
/// as the decoder gives them (after its key decoding strategy). A value the decoders build is at
/// most as deep as they read (512 levels for JSON); one built in code much deeper than that is
/// past what its encoding and description recurse through.
public enum JSONValue: Codable, Sendable, Hashable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number that fits an `Int`.
    case integer(Int)
    /// A whole number past `Int`'s range, exactly (up to 38 digits).
    case decimal(Decimal)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object, by member name.
    case object([String: JSONValue])

    /// The member named `key` of an object; `nil` for a value that is not an object or has no
    /// such member.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The element at `index` of an array; `nil` for a value that is not an array or an index out
    /// of its range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// Decodes whatever value the decoder holds.
    /// - Parameter decoder: the decoder to read the value from.
    /// - Throws: `DecodingError.dataCorrupted` for a value that is none of JSON's (a number
    ///   no `Int`, `Decimal` or `Double` holds), or the decoder's own error.
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(object.allKeys.count)
            for key in object.allKeys where members[key.stringValue] == nil {
                members[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            elements.reserveCapacity(array.count ?? 0)
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
        } else {
            self = try Self.scalar(try decoder.singleValueContainer(), decoder.codingPath)
        }
    }

    /// The scalar a single-value container holds: tried as a string, a boolean, an `Int`, then a
    /// `Double`, the order in which no decoder takes one kind for another.
    private static func scalar(_ value: any SingleValueDecodingContainer, _ codingPath: [any CodingKey]) throws -> JSONValue {
        if value.decodeNil() { return .null }
        if let text = try? value.decode(String.self) { return .string(text) }
        if let flag = try? value.decode(Bool.self) { return .bool(flag) }
        if let number = try? value.decode(Int.self) { return .integer(number) }
        // A whole number past Int's range is kept exactly; a fraction as a Double.
        let exact = try? value.decode(Decimal.self)
        if let exact, exact.exponent >= 0 { return .decimal(exact) }
        if let number = try? value.decode(Double.self) { return .double(number) }
        if let exact { return .decimal(exact) }
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Expected a JSON value: null, a boolean, a number an Int, a Decimal or a Double holds, a string, an array or an object."))
    }

    /// Encodes the value as the decoder read it.
    /// - Parameter encoder: the encoder to write the value to.
    /// - Throws: the encoder's error (`JSONEncoder` refuses a `Double` that is not finite).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let members):
            var object = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in members { try object.encode(value, forKey: AnyCodingKey(key)) }
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .null:
            var value = encoder.singleValueContainer()
            try value.encodeNil()
        case .bool(let flag):
            var value = encoder.singleValueContainer()
            try value.encode(flag)
        case .integer(let number):
            var value = encoder.singleValueContainer()
            try value.encode(number)
        case .decimal(let number):
            var value = encoder.singleValueContainer()
            try value.encode(number)
        case .double(let number):
            var value = encoder.singleValueContainer()
            try value.encode(number)
        case .string(let text):
            var value = encoder.singleValueContainer()
            try value.encode(text)
        }
    }

    /// The value as compact JSON text, members sorted by name: `{"id":3,"type":"Poll"}`.
    public var description: String {
        var text = ""
        write(to: &text)
        return text
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .integer(let number): text += String(number)
        case .decimal(let number): text += number.description
        case .double(let number): text += number.isFinite ? "\(number)" : "null"
        case .string(let string): JSONEscape.appendQuoted(string, to: &text)
        case .array(let elements):
            text += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { text += "," }
                element.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (position, key) in members.keys.sorted().enumerated() {
                if position > 0 { text += "," }
                JSONEscape.appendQuoted(key, to: &text)
                text += ":"
                members[key]?.write(to: &text)
            }
            text += "}"
        }
    }
}
