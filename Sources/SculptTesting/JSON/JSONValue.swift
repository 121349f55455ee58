import Foundation
import SculptShared

/// A JSON value that keeps what `JSONSerialization` loses: the order of object members (and any
/// repeated keys) and the literal text of numbers. Fixture bodies round-trip through it unchanged
/// but for white space.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number as written, e.g. `-1.50e3`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One member of an object, in document order.
    struct Member: Equatable, Sendable {
        var key: String
        var value: JSONValue
    }

    /// The first member named `key`, as `JSONDecoder` resolves repeated keys.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// A number's value as an `Int`, when it is a whole number in range.
    var int: Int? {
        guard case .number(let text) = self else { return nil }
        return Int(text) ?? Double(text).flatMap { $0.rounded() == $0 ? Int(exactly: $0) : nil }
    }

    /// Whether two values mean the same JSON: objects compared as sets of members (first
    /// occurrence of a repeated key), numbers by value.
    func isEquivalent(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)):
            return a == b || (Double(a).map { $0 == Double(b) } ?? false)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let a), .object(let b)):
            return Self.membersMatch(a, b) { $0.isEquivalent(to: $1) }
        default:
            return self == other
        }
    }

    /// Whether two objects' members, by key (the first occurrence of a repeated one), have the
    /// same keys and values that `match`; linear in the members, however many there are.
    static func membersMatch(_ a: [Member], _ b: [Member], _ match: (JSONValue, JSONValue) -> Bool) -> Bool {
        let left = firstByKey(a)
        let right = firstByKey(b)
        guard left.count == right.count else { return false }
        return left.allSatisfy { key, value in right[key].map { match(value, $0) } ?? false }
    }

    private static func firstByKey(_ members: [Member]) -> [String: JSONValue] {
        Dictionary(members.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
