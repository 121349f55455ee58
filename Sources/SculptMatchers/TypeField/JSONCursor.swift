import Foundation
import Sculpt

/// A position in JSON bytes, with the few moves the discriminator scan needs.
struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where `bytes` starts in the body, so errors report offsets in the body.
    private let base: Int
    private(set) var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, base: Int = 0) {
        self.bytes = bytes
        self.base = base
    }

    @inline(__always)
    func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    // The errors are built out of line: the scan's hot loops stay small.
    @inline(never)
    func malformed(_ reason: String) -> DiscriminatorScanner.Malformed {
        DiscriminatorScanner.Malformed(reason: reason, offset: base + index)
    }

    /// "expected `what`, found" what is here.
    @inline(never)
    func malformed(expected what: String) -> DiscriminatorScanner.Malformed {
        malformed("expected \(what), found \(describeNext())")
    }

    mutating func skipByteOrderMark() {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count, JSONBytes.isWhitespace(bytes[index]) { index += 1 }
    }

    /// From the `{` of an object, moves to the value of the first member named `key`; `false`
    /// (positioned after the object) when there is none.
    mutating func moveToValue(ofKey key: DiscriminatorScanner.Key) throws(DiscriminatorScanner.Malformed) -> Bool {
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return false
        }
        while true {
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {  // after a trailing comma, which JSONDecoder accepts
                index += 1
                return false
            }
            guard peek() == UInt8(ascii: "\"") else { throw malformed(expected: "a key in quotes") }
            let matches = try readKey(equalTo: key)
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            if matches { return true }
            try skipValue()
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return false
            default: throw malformed(expected: "',' or '}' after a value")
            }
        }
    }

    /// Reads the value here.
    mutating func readValue() throws(DiscriminatorScanner.Malformed) -> DiscriminatorScanner.Value {
        guard let byte = peek() else { throw malformed("the body ends where a value should be") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default: throw malformed(expected: "a JSON value")
        }
    }

    // MARK: - Skipping

    /// Moves past the value here without reading it.
    private mutating func skipValue() throws(DiscriminatorScanner.Malformed) {
        switch peek() {
        case UInt8(ascii: "\""):
            index += 1
            try skipStringBody()
        case UInt8(ascii: "{"), UInt8(ascii: "["): try skipContainer()
        case nil: throw malformed("the body ends where a value should be")
        default:
            let start = index
            while index < bytes.count, !Self.endsScalar(bytes[index]) { index += 1 }
            if index == start { throw malformed(expected: "a JSON value") }
        }
    }

    /// Moves past an object or array, counting brackets and skipping strings; nesting depth costs
    /// nothing but a counter.
    private mutating func skipContainer() throws(DiscriminatorScanner.Malformed) {
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): try skipStringBody()
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return }
            default: break
            }
        }
        throw malformed("the body ends inside an object or array")
    }

    /// From just after an opening quote, moves past the closing one.
    @inline(__always)
    private mutating func skipStringBody() throws(DiscriminatorScanner.Malformed) {
        while true {
            moveToQuoteOrBackslash()
            guard index < bytes.count else { throw malformed("the body ends inside a string") }
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                return
            }
            try skipEscape()
        }
    }

    /// Moves past a backslash and what it escapes, checking no more than `JSONDecoder`'s scanner
    /// does for a string it has not read yet: a `\u` takes the next four bytes, none of them a quote.
    @inline(__always)
    private mutating func skipEscape() throws(DiscriminatorScanner.Malformed) {
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
            index = Swift.min(index + 2, bytes.count)
            return
        }
        guard index + 6 <= bytes.count else {
            index = bytes.count
            return
        }
        if let quote = bytes[(index + 2)..<(index + 6)].firstIndex(of: UInt8(ascii: "\"")) {
            index = quote
            throw malformed("\\u needs four hexadecimal digits")
        }
        index += 6
    }

    /// Moves to the next `"` or `\` (or the end), eight bytes at a time: a word is tested for
    /// either byte with the "has a zero byte" trick, and the first hit's position read from the
    /// mask's trailing zeros, so long strings and short ones both cost little.
    ///
    /// Returns whether a byte it moved past is 0x80 or above (not ASCII): the bytes are OR-ed
    /// together on the way, which a caller that ignores the answer does not pay for once inlined.
    @inline(__always) @discardableResult
    private mutating func moveToQuoteOrBackslash() -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var passed: UInt64 = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let mask = Self.quoteOrBackslashMask(word)
            if mask != 0 {
                index += mask.trailingZeroBitCount / 8
                // The bits below the first hit's flag (its bit 7) cover the bytes before it.
                passed |= word & ((mask & (0 &- mask)) &- 1)
                return passed & Self.highBits != 0
            }
            passed |= word
            index += 8
        }
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            passed |= UInt64(bytes[index])
            index += 1
        }
        return passed & Self.highBits != 0
    }

    // MARK: - Reading

    /// Reads a key and says whether it names `key` after unescaping.
    private mutating func readKey(equalTo key: DiscriminatorScanner.Key) throws(DiscriminatorScanner.Malformed) -> Bool {
        let start = index + 1
        index = start
        let passedNonASCII = moveToQuoteOrBackslash()
        guard index < bytes.count else { throw malformed("the body ends inside a key") }
        if bytes[index] == UInt8(ascii: "\"") {
            let candidate = UnsafeBufferPointer(rebasing: bytes[start..<index])
            index += 1
            return key.matches(candidate, candidateIsASCII: !passedNonASCII)
        }
        try skipStringBody()
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)])
        var unescaper = Cursor(bytes: raw, base: base + start)
        return try unescaper.unescaped(until: raw.count).withUnsafeBufferPointer { candidate in
            key.matches(candidate, candidateIsASCII: candidate.allSatisfy { $0 < 0x80 })
        }
    }

    /// Reads a string value, unescaped.
    private mutating func readString() throws(DiscriminatorScanner.Malformed) -> String {
        index += 1
        let start = index
        moveToQuoteOrBackslash()
        let hasEscapes = index < bytes.count && bytes[index] == UInt8(ascii: "\\")
        try skipStringBody()
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)])
        var unescaper = Cursor(bytes: raw, base: base + start)
        let text: String?
        if hasEscapes {
            text = try unescaper.unescaped(until: raw.count).withUnsafeBufferPointer(Self.string(validating:))
        } else {
            // The common case: the bytes are the string, read in place once checked.
            try unescaper.checkNoControlCharacters()
            text = Self.string(validating: raw)
        }
        guard let text else { throw malformed("the string value is not valid UTF-8") }
        return text
    }

    /// Throws at the first control character from here on, which JSON requires to be escaped.
    private mutating func checkNoControlCharacters() throws(DiscriminatorScanner.Malformed) {
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte < 0x20 { throw malformed("a control character must be escaped in a string") }
        }
    }

    /// `utf8` as a string, or `nil` when it is not valid UTF-8.
    static func string(validating utf8: UnsafeBufferPointer<UInt8>) -> String? {
        // Decoding repairs invalid UTF-8 with U+FFFD; a repair changes the bytes, which is the check.
        // (Foundation's generic `String(bytes:encoding:)` costs a metadata lookup per call.)
        var text = String(decoding: utf8, as: UTF8.self)
        let unchanged = text.withUTF8 { decoded in
            guard decoded.count == utf8.count, let left = decoded.baseAddress, let right = utf8.baseAddress else {
                return decoded.count == utf8.count
            }
            return memcmp(left, right, decoded.count) == 0
        }
        return unchanged ? text : nil
    }

    /// The bytes from here to `end` with JSON escapes decoded (surrogate pairs joined).
    private mutating func unescaped(until end: Int) throws(DiscriminatorScanner.Malformed) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(end - index)
        while index < end {
            let byte = bytes[index]
            index += 1
            if byte < 0x20 { throw malformed("a control character must be escaped in a string") }
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                continue
            }
            do {
                try JSONEscape.decode(bytes, at: &index, end: end, into: &output)
            } catch {
                throw malformed(error.reason)
            }
        }
        return output
    }

    /// Reads a number in JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func readNumber() throws(DiscriminatorScanner.Malformed) -> String {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            guard try digits() > 0 else { throw malformed("a number needs digits") }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard try digits() > 0 else { throw malformed("a number needs digits after '.'") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard try digits() > 0 else { throw malformed("a number needs digits in its exponent") }
        }
        if let next = peek(), !Self.endsScalar(next) { throw malformed("unexpected \(describeNext()) in a number") }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private mutating func digits() throws(DiscriminatorScanner.Malformed) -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    @inline(__always)
    private mutating func expect(_ byte: UInt8) throws(DiscriminatorScanner.Malformed) {
        guard peek() == byte else { throw malformed(expected: Self.describe(byte)) }
        index += 1
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(DiscriminatorScanner.Malformed) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count,
            UnsafeBufferPointer(rebasing: bytes[index..<(index + expected.count)]).elementsEqual(expected)
        else { throw malformed(expected: literal.description) }
        index += expected.count
        if let next = peek(), !Self.endsScalar(next) { throw malformed("unexpected \(describeNext()) after \(literal)") }
    }

    // MARK: - Bytes

    private func describeNext() -> String {
        peek().map(Self.describe) ?? "the end of the body"
    }

    static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    @inline(__always)
    private static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || JSONBytes.isWhitespace(byte)
    }

    /// Bit 7 of each of a word's eight bytes: the bit set in every byte that is not ASCII.
    @inline(__always)
    private static var highBits: UInt64 { 0x8080_8080_8080_8080 }

    /// A mask with the high bit set in (at least) the first byte of `word` that is `"` or `\`: the
    /// classic "has a zero byte" test on the word XOR-ed with each byte repeated. Bytes after the
    /// first hit may be flagged falsely; the first flagged byte is always a real hit.
    @inline(__always)
    private static func quoteOrBackslashMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        return ((quotes &- ones) & ~quotes & highs) | ((backslashes &- ones) & ~backslashes & highs)
    }
}
