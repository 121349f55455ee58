import Foundation

/// Any JSON value, as `JSONDecoder` sees it: the reference the fuzz targets compare Sculpt with.
public enum AnyJSON: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    /// A number `Double` cannot hold (JSONDecoder refuses it as a `Double`).
    case unrepresentableNumber
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    /// Decodes whatever value is there. Only "not this kind of value" (`typeMismatch`) moves on to
    /// the next kind; anything JSONDecoder finds corrupt is thrown, as it would be for a model.
    public init(from decoder: any Decoder) throws {
        if try decoder.singleValueContainer().decodeNil() {
            self = .null
        } else if let object = try Self.ifOfKind({ try decoder.container(keyedBy: AnyKey.self) }) {
            var members: [String: AnyJSON] = [:]
            for key in object.allKeys where members[key.stringValue] == nil {
                members[key.stringValue] = try object.decode(AnyJSON.self, forKey: key)
            }
            self = .object(members)
        } else if var array = try Self.ifOfKind({ try decoder.unkeyedContainer() }) {
            var elements: [AnyJSON] = []
            while !array.isAtEnd { elements.append(try array.decode(AnyJSON.self)) }
            self = .array(elements)
        } else {
            let value = try decoder.singleValueContainer()
            if let bool = try Self.ifOfKind({ try value.decode(Bool.self) }) {
                self = .bool(bool)
            } else if let string = try Self.ifOfKind({ try value.decode(String.self) }) {
                self = .string(string)
            } else {
                do {
                    self = .number(try value.decode(Double.self))
                } catch DecodingError.dataCorrupted {
                    self = .unrepresentableNumber
                }
            }
        }
    }

    /// `read()`'s value, or `nil` when the value is of another kind.
    private static func ifOfKind<T>(_ read: () throws -> T) throws -> T? {
        do {
            return try read()
        } catch DecodingError.typeMismatch {
            return nil
        }
    }

    /// The value at `components` (keys into objects, indices into arrays), if there is one.
    public func value(at components: some Sequence<(key: String?, index: Int?)>) -> AnyJSON? {
        var current = self
        for component in components {
            switch (current, component.key, component.index) {
            case (.object(let members), let key?, _):
                guard let next = members[key] else { return nil }
                current = next
            case (.array(let elements), _, let index?):
                guard elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}

/// A coding key for any member name.
public struct AnyKey: CodingKey {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(_ name: String) { stringValue = name }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}
