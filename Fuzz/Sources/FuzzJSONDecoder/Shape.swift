import Foundation
import FuzzSupport

/// A Decodable shape, read from text: what a type asks of a decoder, so that the fuzzer varies
/// types as it varies documents.
///
///     i Int   b Int8   u UInt64   U UInt8   d Double   f Float   s String   B Bool
///     D Decimal   t Date   x Data   l URL   a AnyJSON   A [Int]   M [String: Int]
///     S? optional   [S] array   <S> [String: S]   {name:S,name:S} object
///
/// `{id:i,tags:[s],owner:{login:s}?}` reads an object with an `Int`, an array of strings and an
/// optional object. Text that is not a shape reads `a`.
indirect enum Shape: Sendable {
    case scalar(Character)
    case optional(Shape)
    case array(Shape)
    case map(Shape)
    case object([(name: String, shape: Shape)])

    static let scalars: Set<Character> = ["i", "b", "u", "U", "d", "f", "s", "B", "D", "t", "x", "l", "a", "A", "M"]

    /// The shape `text` describes, or `a` for anything else.
    static func parse(_ text: Substring) -> Shape {
        var rest = text
        guard let shape = parseOne(&rest), rest.isEmpty else { return .scalar("a") }
        return shape
    }

    private static func parseOne(_ text: inout Substring, depth: Int = 0) -> Shape? {
        guard depth < 32, let first = text.popFirst() else { return nil }
        var shape: Shape
        switch first {
        case let scalar where scalars.contains(scalar):
            shape = .scalar(scalar)
        case "[":
            guard let element = parseOne(&text, depth: depth + 1), text.popFirst() == "]" else { return nil }
            shape = .array(element)
        case "<":
            guard let value = parseOne(&text, depth: depth + 1), text.popFirst() == ">" else { return nil }
            shape = .map(value)
        case "{":
            var fields: [(String, Shape)] = []
            while text.first != "}" {
                let name = text.prefix { $0 != ":" && $0 != "}" && $0 != "," }
                text = text.dropFirst(name.count)
                guard text.popFirst() == ":", let value = parseOne(&text, depth: depth + 1) else { return nil }
                fields.append((String(name), value))
                if text.first == "," { text.removeFirst() }
            }
            text.removeFirst()
            shape = .object(fields)
        default:
            return nil
        }
        while text.first == "?" {
            text.removeFirst()
            shape = .optional(shape)
        }
        return shape
    }

    /// Whether reading the shape lists an object's keys in the decoder's own order (AnyJSON's
    /// objects, `[String: Int]`): `JSONDecoder`'s is its dictionary's, which varies by process,
    /// so which bad member fails first may differ.
    var listsKeysInDecoderOrder: Bool {
        switch self {
        case .scalar(let scalar): scalar == "a" || scalar == "M"
        case .optional(let shape), .array(let shape), .map(let shape): shape.listsKeysInDecoderOrder
        case .object(let fields): fields.contains { $0.shape.listsKeysInDecoderOrder }
        }
    }
}

/// A value read by a ``Shape`` (given in `userInfo`), written out canonically: two decoders that
/// read the same values write the same text.
struct Shaped: Decodable {
    static let shapeKey = CodingUserInfoKey(rawValue: "shape")!
    let text: String

    init(from decoder: any Decoder) throws {
        guard let shape = decoder.userInfo[Self.shapeKey] as? Shape else { throw CocoaError(.coderInvalidValue) }
        text = try Self.read(shape, from: decoder)
    }

    private static func read(_ shape: Shape, from decoder: any Decoder) throws -> String {
        switch shape {
        case .scalar(let scalar):
            return try scalarValue(scalar, single: decoder.singleValueContainer())
        case .optional(let inner):
            return try decoder.singleValueContainer().decodeNil() ? "nil" : read(inner, from: decoder)
        case .array(let element):
            var container = try decoder.unkeyedContainer()
            return try readElements(element, in: &container)
        case .map(let value):
            return try readMembers(value, in: decoder.container(keyedBy: AnyKey.self))
        case .object(let fields):
            return try readFields(fields, in: decoder.container(keyedBy: AnyKey.self))
        }
    }

    // MARK: - Keyed

    private static func read(_ shape: Shape, in container: KeyedDecodingContainer<AnyKey>, key: AnyKey) throws -> String {
        switch shape {
        case .scalar(let scalar):
            return try scalarValue(scalar, in: container, key: key)
        case .optional(.scalar(let scalar)):
            return try optionalScalar(scalar, in: container, key: key)
        case .optional(let inner):
            guard container.contains(key), try !container.decodeNil(forKey: key) else { return "nil" }
            return try read(inner, in: container, key: key)
        case .array(let element):
            var nested = try container.nestedUnkeyedContainer(forKey: key)
            return try readElements(element, in: &nested)
        case .map(let value):
            return try readMembers(value, in: container.nestedContainer(keyedBy: AnyKey.self, forKey: key))
        case .object(let fields):
            return try readFields(fields, in: container.nestedContainer(keyedBy: AnyKey.self, forKey: key))
        }
    }

    private static func readFields(_ fields: [(name: String, shape: Shape)], in container: KeyedDecodingContainer<AnyKey>) throws -> String {
        "{" + (try fields.map { "\($0.name):" + (try read($0.shape, in: container, key: AnyKey($0.name))) }).joined(separator: ",") + "}"
    }

    /// Every member, in the order of their keys' text (the same for both decoders).
    private static func readMembers(_ shape: Shape, in container: KeyedDecodingContainer<AnyKey>) throws -> String {
        let keys = container.allKeys.sorted { $0.stringValue < $1.stringValue }
        return "<" + (try keys.map { "\($0.stringValue.debugDescription):" + (try read(shape, in: container, key: $0)) }).joined(separator: ",") + ">"
    }

    // MARK: - Unkeyed

    private static func read(_ shape: Shape, in container: inout any UnkeyedDecodingContainer) throws -> String {
        switch shape {
        case .scalar(let scalar):
            return try scalarValue(scalar, in: &container)
        case .optional(let inner):
            return try container.decodeNil() ? "nil" : read(inner, in: &container)
        case .array(let element):
            var nested = try container.nestedUnkeyedContainer()
            return try readElements(element, in: &nested)
        case .map(let value):
            return try readMembers(value, in: container.nestedContainer(keyedBy: AnyKey.self))
        case .object(let fields):
            return try readFields(fields, in: container.nestedContainer(keyedBy: AnyKey.self))
        }
    }

    private static func readElements(_ shape: Shape, in container: inout any UnkeyedDecodingContainer) throws -> String {
        var elements: [String] = []
        while !container.isAtEnd {
            elements.append(try read(shape, in: &container))
        }
        return "[\(container.count.map(String.init) ?? "?")|" + elements.joined(separator: ",") + "]"
    }

    // MARK: - Scalars

    private static func scalarValue(_ scalar: Character, single container: any SingleValueDecodingContainer) throws -> String {
        switch scalar {
        case "i": "\(try container.decode(Int.self))"
        case "b": "\(try container.decode(Int8.self))"
        case "u": "\(try container.decode(UInt64.self))"
        case "U": "\(try container.decode(UInt8.self))"
        case "d": describe(try container.decode(Double.self))
        case "f": describe(try container.decode(Float.self))
        case "s": try container.decode(String.self).debugDescription
        case "B": "\(try container.decode(Bool.self))"
        default: try generic(scalar) { try container.decode($0) }
        }
    }

    private static func scalarValue(_ scalar: Character, in container: KeyedDecodingContainer<AnyKey>, key: AnyKey) throws -> String {
        switch scalar {
        case "i": "\(try container.decode(Int.self, forKey: key))"
        case "b": "\(try container.decode(Int8.self, forKey: key))"
        case "u": "\(try container.decode(UInt64.self, forKey: key))"
        case "U": "\(try container.decode(UInt8.self, forKey: key))"
        case "d": describe(try container.decode(Double.self, forKey: key))
        case "f": describe(try container.decode(Float.self, forKey: key))
        case "s": try container.decode(String.self, forKey: key).debugDescription
        case "B": "\(try container.decode(Bool.self, forKey: key))"
        default: try generic(scalar) { try container.decode($0, forKey: key) }
        }
    }

    private static func optionalScalar(_ scalar: Character, in container: KeyedDecodingContainer<AnyKey>, key: AnyKey) throws -> String {
        switch scalar {
        case "i": "\(try container.decodeIfPresent(Int.self, forKey: key) as Any)"
        case "b": "\(try container.decodeIfPresent(Int8.self, forKey: key) as Any)"
        case "u": "\(try container.decodeIfPresent(UInt64.self, forKey: key) as Any)"
        case "U": "\(try container.decodeIfPresent(UInt8.self, forKey: key) as Any)"
        case "d": try container.decodeIfPresent(Double.self, forKey: key).map(describe) ?? "nil"
        case "f": try container.decodeIfPresent(Float.self, forKey: key).map(describe) ?? "nil"
        case "s": try container.decodeIfPresent(String.self, forKey: key)?.debugDescription ?? "nil"
        case "B": "\(try container.decodeIfPresent(Bool.self, forKey: key) as Any)"
        default: try generic(scalar) { try container.decodeIfPresent($0, forKey: key) } 
        }
    }

    private static func scalarValue(_ scalar: Character, in container: inout any UnkeyedDecodingContainer) throws -> String {
        switch scalar {
        case "i": return "\(try container.decode(Int.self))"
        case "b": return "\(try container.decode(Int8.self))"
        case "u": return "\(try container.decode(UInt64.self))"
        case "U": return "\(try container.decode(UInt8.self))"
        case "d": return describe(try container.decode(Double.self))
        case "f": return describe(try container.decode(Float.self))
        case "s": return try container.decode(String.self).debugDescription
        case "B": return "\(try container.decode(Bool.self))"
        default:
            var copy = container
            defer { container = copy }
            return try generic(scalar) { try copy.decode($0) }
        }
    }

    /// The types decoded through a container's generic `decode`: those `JSONDecoder` reads by
    /// its strategies, and collections.
    private static func generic(_ scalar: Character, _ decode: (any Decodable.Type) throws -> (any Decodable)?) throws -> String {
        switch scalar {
        case "D": return "\(try decode(Decimal.self) as Any)"
        case "t": return try (decode(Date.self) as? Date).map { describe($0.timeIntervalSinceReferenceDate) } ?? "nil"
        case "x": return try (decode(Data.self) as? Data)?.base64EncodedString() ?? "nil"
        case "l": return try (decode(URL.self) as? URL)?.absoluteString ?? "nil"
        case "A": return "\(try decode([Int].self) as Any)"
        case "M": return try (decode([String: Int].self) as? [String: Int]).map { "\($0.sorted { $0.key < $1.key })" } ?? "nil"
        default: return try (decode(AnyJSON.self) as? AnyJSON).map(describe) ?? "nil"
        }
    }

    private static func describe(_ value: Double) -> String { value.isNaN ? "nan" : "\(value)/\(value.bitPattern)" }
    private static func describe(_ value: Float) -> String { value.isNaN ? "nan" : "\(value)/\(value.bitPattern)" }

    private static func describe(_ value: AnyJSON) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): "\(bool)"
        case .number(let number): describe(number)
        case .unrepresentableNumber: "unrepresentable"
        case .string(let string): string.debugDescription
        case .array(let elements): "[" + elements.map(describe).joined(separator: ",") + "]"
        case .object(let members): "{" + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\(describe($0.value))" }.joined(separator: ",") + "}"
        }
    }
}
