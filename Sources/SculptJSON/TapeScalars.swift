import Foundation
import Sculpt
import SculptShared

/// Reading one scalar of a ``JSONTape`` as `JSONDecoder` reads it: strings checked for control
/// characters, escapes and UTF-8 only when read; numbers by JSON's grammar, then as the type asks
/// (an `Int` exactly as `JSONDecoder` reads one, a `Double` rounded once).
enum TapeScalars {
    /// A fault `JSONDecoder` finds only when it reads the value, by where it is; the decoder that
    /// reads it throws it as the ``JSONError`` `JSONDecoder` throws (see
    /// ``TapeStorage/error(for:)``), and the decode fails with `DecodingError.dataCorrupted` at the
    /// top level, as `JSONDecoder`'s does.
    enum Invalid: Error {
        /// A string, its content (between the quotes) at these offsets of the text, that does not
        /// read: a control character, an escape, or bytes that are not UTF-8.
        case string(Range<Int>)
        /// A number, at these offsets of the text, outside JSON's grammar (`01`, `1.`, `-`).
        case number(Range<Int>)
        /// A number the type asked for cannot hold.
        case notRepresentable(parsed: String)
    }

    // MARK: - Strings

    /// The string an entry holds.
    ///
    /// - Throws: ``Invalid`` at a control character, an invalid escape or bytes that are not UTF-8.
    @inline(__always)
    static func string(_ entry: JSONTape.Entry, in text: UnsafeBufferPointer<UInt8>) throws(Invalid) -> String {
        let range = entry.offset..<(entry.offset + entry.length)
        let content = UnsafeBufferPointer(rebasing: text[range])
        if entry.isSimpleString {
            if entry.isASCII {
                // ASCII needs no validation but for control characters.
                guard !Self.hasControlCharacter(content) else { throw .string(range) }
                return String(decoding: content, as: UTF8.self)
            }
            guard !Self.hasControlCharacter(content), let text = JSONLexer.string(validating: content) else { throw .string(range) }
            return text
        }
        return try escapedString(content, range)
    }

    /// A string with escapes, decoded; out of line, so the common string stays small.
    @inline(never)
    private static func escapedString(_ content: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(Invalid) -> String {
        let lexer = JSONLexer(content)
        let token = JSONLexer.StringToken(content: 0..<content.count, hasEscapes: true, isASCII: false)
        do {
            return try lexer.text(of: token)
        } catch {
            throw .string(range)
        }
    }

    /// Whether bytes hold one below 0x20, which JSON requires escaped: eight at a time.
    @inline(__always)
    static func hasControlCharacter(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        // A byte below 0x20 is one whose top three bits are all zero: the "has a byte below n"
        // test on the word, exact as a yes or no.
        while index + 8 <= raw.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080 != 0 { return true }
            index += 8
        }
        while index < raw.count {
            if raw[index] < 0x20 { return true }
            index += 1
        }
        return false
    }

    // MARK: - Numbers

    /// The text of a number entry, checked against JSON's grammar.
    ///
    /// - Throws: ``Invalid`` for a number outside the grammar (`01`, `1.`, `-`).
    @inline(__always)
    static func number(_ entry: JSONTape.Entry, in text: UnsafeBufferPointer<UInt8>) throws(Invalid) -> UnsafeBufferPointer<UInt8> {
        let range = entry.offset..<(entry.offset + entry.length)
        let bytes = UnsafeBufferPointer(rebasing: text[range])
        // The common number: digits, perhaps after a minus, with no leading zero.
        var index = bytes.first == UInt8(ascii: "-") ? 1 : 0
        let digitsStart = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        if index == bytes.count, index > digitsStart, bytes[digitsStart] != UInt8(ascii: "0") || index == digitsStart + 1 {
            return bytes
        }
        guard followsGrammar(bytes) else { throw .number(range) }
        return bytes
    }

    @inline(never)
    private static func followsGrammar(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var lexer = JSONLexer(bytes)
        do throws(JSONSyntaxError) {
            _ = try lexer.number()
            return lexer.peek() == nil
        } catch {
            return false
        }
    }

    /// The integer of type `T` `JSONDecoder` decodes from a number's text (grammar checked).
    ///
    /// - Throws: ``Invalid`` where `JSONDecoder` throws: a number that is not a whole number of
    ///   `T`'s range by its rules (see `JSONNumber.integer(fromLiteral:)`).
    @inline(__always)
    static func integer<T: FixedWidthInteger>(_ bytes: UnsafeBufferPointer<UInt8>, as type: T.Type) throws(Invalid) -> T {
        if let value = plainInteger(bytes, as: T.self) { return value }
        return try slowInteger(bytes, as: T.self)
    }

    /// Digits with an optional minus, read exactly; `nil` for anything else or an overflow.
    @inline(__always)
    static func plainInteger<T: FixedWidthInteger>(_ bytes: UnsafeBufferPointer<UInt8>, as type: T.Type) -> T? {
        guard !bytes.isEmpty else { return nil }
        let negative = bytes[0] == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        guard index < bytes.count else { return nil }
        var value: T = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            let (next, overflow2) = negative ? scaled.subtractingReportingOverflow(T(digit)) : scaled.addingReportingOverflow(T(digit))
            guard !overflow2 else { return nil }
            value = next
            index += 1
        }
        return value
    }

    @inline(never)
    private static func slowInteger<T: FixedWidthInteger>(_ bytes: UnsafeBufferPointer<UInt8>, as type: T.Type) throws(Invalid) -> T {
        let literal = String(decoding: bytes, as: UTF8.self)
        guard let value = JSONNumber.integer(fromLiteral: literal, as: T.self) else {
            throw .notRepresentable(parsed: literal)
        }
        return value
    }

    /// The `Float` `JSONDecoder` decodes from a number's text.
    static func float(_ bytes: UnsafeBufferPointer<UInt8>) throws(Invalid) -> Float {
        let literal = String(decoding: bytes, as: UTF8.self)
        guard let value = Float(literal), value.isFinite, value != 0 || JSONNumber.isZero(literal) else {
            throw .notRepresentable(parsed: literal)
        }
        return value
    }
}
