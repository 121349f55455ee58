import Foundation
import SculptShared

/// A JSON value that keeps what `JSONSerialization` loses: the order of object members (and any
/// repeated keys) and the literal text of numbers. Fixture bodies round-trip through it unchanged
/// but for white space.
enum OrderedJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number as written, e.g. `-1.50e3`.
    case number(String)
    case string(String)
    case array([OrderedJSON])
    case object([Member])

    /// One member of an object, in document order.
    struct Member: Equatable, Sendable {
        var key: String
        var value: OrderedJSON
    }

    /// The first member named `key`, as `JSONDecoder` resolves repeated keys.
    subscript(key: String) -> OrderedJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var array: [OrderedJSON]? {
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
    func isEquivalent(to other: OrderedJSON) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)):
            return a == b || Self.numberValue(a).map { $0 == Self.numberValue(b) } ?? false
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let a), .object(let b)):
            return Self.membersMatch(a, b) { $0.isEquivalent(to: $1) }
        default:
            return self == other
        }
    }

    /// A number's exact value: its sign, its significant digits and the power of ten after them
    /// (`1.50e3` and `1500` are both `(false, "15", 2)`), so that numbers past a `Double`'s
    /// precision compare exactly; `nil` for text that is not a JSON number.
    static func numberValue(_ text: String) -> NumberValue? {
        var bytes = Array(text.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        let integer = bytes.prefix { (48...57).contains($0) }
        bytes = bytes.dropFirst(integer.count)
        var fraction: ArraySlice<UInt8> = []
        if bytes.first == UInt8(ascii: ".") {
            fraction = bytes.dropFirst().prefix { (48...57).contains($0) }
            bytes = bytes.dropFirst(1 + fraction.count)
        }
        var exponent = 0
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            let sign = bytes.first == UInt8(ascii: "-") ? -1 : 1
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            let digits = bytes.prefix { (48...57).contains($0) }
            guard !digits.isEmpty else { return nil }
            // Beyond nine digits an exponent is clamped: such numbers are compared as written.
            exponent = sign * digits.prefix(9).reduce(0) { $0 * 10 + Int($1 - 48) }
            bytes = bytes.dropFirst(digits.count)
        }
        guard bytes.isEmpty, !integer.isEmpty else { return nil }
        var digits = Array((integer + fraction).drop { $0 == 48 })
        exponent -= fraction.count
        while digits.last == 48 {
            digits.removeLast()
            exponent += 1
        }
        return digits.isEmpty ? NumberValue(negative: false, digits: [], exponent: 0) : NumberValue(negative: negative, digits: digits, exponent: exponent)
    }

    /// A number's exact value (``numberValue(_:)``).
    struct NumberValue: Equatable {
        var negative: Bool
        var digits: [UInt8]
        var exponent: Int
    }

    /// Whether two objects' members, by key (the first occurrence of a repeated one), have the
    /// same keys and values that `match`; linear in the members, however many there are.
    static func membersMatch(_ a: [Member], _ b: [Member], _ match: (OrderedJSON, OrderedJSON) -> Bool) -> Bool {
        let left = firstByKey(a)
        let right = firstByKey(b)
        guard left.count == right.count else { return false }
        return left.allSatisfy { key, value in right[key].map { match(value, $0) } ?? false }
    }

    private static func firstByKey(_ members: [Member]) -> [String: OrderedJSON] {
        Dictionary(members.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
