import Foundation

/// JSON text read token by token over its UTF-8 bytes: Sculpt's one reader of JSON's grammar, under
/// the type-field peek (``DiscriminatorScanner``), the nesting check and the fixture parser
/// (SculptTesting).
///
/// ```swift
/// var lexer = JSONLexer(bytes)             // bytes: UnsafeBufferPointer<UInt8>
/// lexer.skipByteOrderMark()
/// lexer.skipWhitespace()
/// try lexer.expect(UInt8(ascii: "{"))
/// let key = try lexer.string()              // a token: where the string's content lies
/// let text = try lexer.text(of: key)        // its content unescaped, as a String
/// ```
///
/// It reads tokens, not documents: the caller walks objects and arrays by asking for what it
/// expects next, and decides how much to check. Moving past a string or a value checks no more
/// than `JSONDecoder`'s scanner does for what it has not read yet (the quotes, the shape of
/// escapes, the brackets); reading a string's text checks the rest (control characters, escapes,
/// UTF-8). Numbers follow RFC 8259's grammar exactly. Every error names what was expected and
/// what is there, at a byte offset into the text.
///
/// A public type whose members are all `package`, as ``JSONTape`` is and for the same reason: the
/// decoder in another module creates a lexer for each number it reads, and only a public type's
/// `@inlinable` members inline across modules.
public struct JSONLexer {
    /// The text.
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    /// Where `bytes` starts in the text the caller reports offsets in (a slice of a body).
    @usableFromInline let base: Int
    /// The position of the next byte to read.
    @usableFromInline package var index = 0

    /// A lexer at the start of `bytes`, which start at offset `base` of the text errors are
    /// reported in.
    @inlinable
    package init(_ bytes: UnsafeBufferPointer<UInt8>, base: Int = 0) {
        self.bytes = bytes
        self.base = base
    }

    /// A string token: where its content lies (between the quotes) and what kinds of bytes it holds.
    package struct StringToken: Sendable {
        /// The content's bytes, escapes as written.
        package var content: Range<Int>
        /// Whether the content has a backslash.
        package var hasEscapes: Bool
        /// Whether every byte of the content is ASCII (below 0x80).
        package var isASCII: Bool

        @inline(__always)
        package init(content: Range<Int>, hasEscapes: Bool, isASCII: Bool) {
            (self.content, self.hasEscapes, self.isASCII) = (content, hasEscapes, isASCII)
        }
    }

    /// The byte here, or `nil` at the end.
    @inlinable @inline(__always)
    package func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    /// The offset of the next byte in the text errors are reported in.
    package var offset: Int { base + index }

    /// Moves past a UTF-8 byte order mark at the start, which `JSONDecoder` ignores.
    package mutating func skipByteOrderMark() {
        if index == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    /// Moves past white space: space, tab, line feed, carriage return.
    @inline(__always)
    package mutating func skipWhitespace() {
        while index < bytes.count, JSONBytes.isWhitespace(bytes[index]) { index += 1 }
    }

    /// Moves past `byte` (a structural character), or throws naming it.
    ///
    /// - Throws: ``JSONSyntaxError``: "expected ':', found 'x'".
    @inline(__always)
    package mutating func expect(_ byte: UInt8) throws(JSONSyntaxError) {
        guard index < bytes.count, bytes[index] == byte else { throw error(expected: Self.describe(byte)) }
        index += 1
    }

    /// Moves past `true`, `false` or `null`.
    ///
    /// - Throws: ``JSONSyntaxError`` when the text here is not `literal`.
    package mutating func literal(_ literal: StaticString) throws(JSONSyntaxError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count,
            UnsafeBufferPointer(rebasing: bytes[index..<(index + expected.count)]).elementsEqual(expected)
        else { throw error(expected: literal.description) }
        index += expected.count
    }

    /// Moves past a number and returns where its text lies: `-? (0 | [1-9][0-9]*) (. [0-9]+)?
    /// ([eE] [+-]? [0-9]+)?`, RFC 8259's grammar. What follows it is the caller's to check.
    ///
    /// - Throws: ``JSONSyntaxError`` for a number without digits where they are due, or with a
    ///   leading zero (`01`).
    package mutating func number() throws(JSONSyntaxError) -> Range<Int> {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        let integer = index
        guard skipDigits() > 0 else { throw error("a number needs digits") }
        if bytes[integer] == UInt8(ascii: "0"), index - integer > 1 {
            index = integer + 1
            throw error("a number cannot have leading zeros")
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { throw error("a number needs digits after '.'") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw error("a number needs digits in its exponent") }
        }
        return start..<index
    }

    /// Moves past what `JSONDecoder`'s scanner takes for a number, which it checks only when the
    /// number is decoded: from a digit or `-`, the run of digits, `.`, `+`, `-`, `e` and `E`.
    /// ``number()`` reads the same run by JSON's grammar.
    package mutating func numberRun() -> Range<Int> {
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "e"),
                UInt8(ascii: "E"):
                index += 1
            default:
                return start..<index
            }
        }
        return start..<index
    }

    /// Throws unless the bytes of `run` (a ``numberRun()``) are one number by JSON's grammar.
    ///
    /// - Throws: ``JSONSyntaxError`` at the first byte that breaks the grammar.
    package func validateNumber(_ run: Range<Int>) throws(JSONSyntaxError) {
        var number = JSONLexer(UnsafeBufferPointer(rebasing: bytes[run]), base: base + run.lowerBound)
        _ = try number.number()
        if let extra = number.peek() { throw number.error("unexpected \(Self.describe(extra)) in a number") }
    }

    /// Throws unless what is here may follow a number or literal, `what`: a `,`, `}`, `]`, white
    /// space or the end (for a caller that reads a value and no further).
    ///
    /// - Throws: ``JSONSyntaxError``: "unexpected 'x' after a number".
    package func expectEndOfScalar(after what: String) throws(JSONSyntaxError) {
        if let next = peek(), !Self.endsScalar(next) { throw error("unexpected \(Self.describe(next)) after \(what)") }
    }

    // MARK: - Strings

    /// From an opening quote, moves past the closing one and returns the string's token, its
    /// content not yet checked (see ``text(of:)``). Long strings cost little: the scan tests eight
    /// bytes at a time for a quote or a backslash.
    ///
    /// - Throws: ``JSONSyntaxError`` when there is no string here or the text ends inside it, or
    ///   a `\u` is cut short by a quote.
    @inline(__always)
    package mutating func string() throws(JSONSyntaxError) -> StringToken {
        guard peek() == UInt8(ascii: "\"") else { throw error(expected: "a string") }
        index += 1
        let start = index
        var isASCII = !moveToQuoteOrBackslash()
        var hasEscapes = false
        while true {
            guard index < bytes.count else { throw error("the text ends inside a string") }
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                return StringToken(content: start..<(index - 1), hasEscapes: hasEscapes, isASCII: isASCII)
            }
            hasEscapes = true
            try skipEscape()
            isASCII = !moveToQuoteOrBackslash() && isASCII
        }
    }

    /// A string token's content with its escapes decoded, as text.
    ///
    /// - Throws: ``JSONSyntaxError`` at a control character (JSON requires it escaped), an invalid
    ///   escape or a lone surrogate, or bytes that are not UTF-8.
    package func text(of token: StringToken) throws(JSONSyntaxError) -> String {
        let text: String?
        if token.hasEscapes {
            text = try unescaped(token).withUnsafeBufferPointer(Self.string(validating:))
        } else {
            // The common case: the bytes are the string, read in place once checked.
            try checkNoControlCharacters(in: token.content)
            text = Self.string(validating: UnsafeBufferPointer(rebasing: bytes[token.content]))
        }
        guard let text else { throw error("a string is not valid UTF-8", at: token.content.lowerBound) }
        return text
    }

    /// A string token's content with its escapes decoded (surrogate pairs joined), as UTF-8 bytes
    /// not yet validated.
    ///
    /// - Throws: ``JSONSyntaxError`` at a control character, an invalid escape or a lone surrogate.
    package func unescaped(_ token: StringToken) throws(JSONSyntaxError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(token.content.count)
        var position = token.content.lowerBound
        while position < token.content.upperBound {
            let byte = bytes[position]
            position += 1
            if byte < 0x20 { throw error(Self.controlCharacter, at: position - 1) }
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                continue
            }
            let escape = position - 1
            do {
                try JSONEscape.decode(bytes, at: &position, end: token.content.upperBound, into: &output)
            } catch {
                throw self.error(error.reason, at: escape)
            }
        }
        return output
    }

    /// `utf8` as a string, or `nil` when it is not valid UTF-8.
    package static func string(validating utf8: UnsafeBufferPointer<UInt8>) -> String? {
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

    // MARK: - Skipping

    /// From an opening quote, moves past the closing one, reading nothing: ``string()`` without
    /// the token, for what is skipped.
    ///
    /// - Throws: ``JSONSyntaxError`` when the text ends inside the string, or a `\u` is cut short.
    @inline(__always)
    package mutating func skipString() throws(JSONSyntaxError) {
        index += 1
        while true {
            moveToQuoteOrBackslashSkipping()
            guard index < bytes.count else { throw error("the text ends inside a string") }
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                return
            }
            try skipEscape()
        }
    }

    /// Moves past the value here without building it: a string by its quotes, an object or array
    /// by counting brackets (strings inside skipped whole), a number or literal by the bytes that
    /// can end it. Nesting depth costs a counter, not a stack.
    ///
    /// - Throws: ``JSONSyntaxError`` at the end of the text, or where no value starts.
    package mutating func skipValue() throws(JSONSyntaxError) {
        switch peek() {
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["): try skipContainer()
        case nil: throw error("the text ends where a value should be")
        default:
            let start = index
            while index < bytes.count, !Self.endsScalar(bytes[index]) { index += 1 }
            if index == start { throw error(expected: "a JSON value") }
        }
    }

    /// Moves past an object or array, counting brackets and skipping strings.
    package mutating func skipContainer() throws(JSONSyntaxError) {
        var depth = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                try skipString()
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    index += 1
                    return
                }
            default: break
            }
            index += 1
        }
        throw error("the text ends inside an object or array")
    }

    /// Moves past a backslash and what it escapes, checking no more than `JSONDecoder`'s scanner
    /// does for a string it has not read yet: a `\u` takes the next four bytes, none of them a quote.
    @inline(__always)
    package mutating func skipEscape() throws(JSONSyntaxError) {
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
            throw error("\\u needs four hexadecimal digits")
        }
        index += 6
    }

    /// Moves to the next `"` or `\` (or the end), eight bytes at a time: a word is tested for
    /// either byte with the "has a zero byte" trick, and the first hit's position read from the
    /// mask's trailing zeros, so long strings and short ones both cost little.
    ///
    /// Returns whether a byte it moved past is 0x80 or above (not ASCII): the bytes are OR-ed
    /// together on the way.
    @inline(__always) @discardableResult
    package mutating func moveToQuoteOrBackslash() -> Bool {
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

    /// Moves to the next `"` or `\` (or the end) without noting what it passes: a word at a time
    /// for the first 64 bytes, where most strings end, then at `memchr`'s speed, to the next quote
    /// and, before it, the first backslash (a long string's text is passed over twice, each time
    /// many bytes to an instruction).
    @inline(__always)
    private mutating func moveToQuoteOrBackslashSkipping() {
        let raw = UnsafeRawBufferPointer(bytes)
        let wordsEnd = Swift.min(index + 64, bytes.count)
        while index + 8 <= wordsEnd {
            let mask = Self.quoteOrBackslashMask(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            if mask != 0 {
                index += mask.trailingZeroBitCount / 8
                return
            }
            index += 8
        }
        guard let base = raw.baseAddress, index < bytes.count else { return }
        let quote = memchr(base + index, Int32(UInt8(ascii: "\"")), bytes.count - index).map { base.distance(to: UnsafeRawPointer($0)) } ?? bytes.count
        let backslash = memchr(base + index, Int32(UInt8(ascii: "\\")), quote - index).map { base.distance(to: UnsafeRawPointer($0)) }
        index = backslash ?? quote
    }

    /// Throws at the first control character in `range`, which JSON requires to be escaped.
    private func checkNoControlCharacters(in range: Range<Int>) throws(JSONSyntaxError) {
        for position in range where bytes[position] < 0x20 {
            throw error(Self.controlCharacter, at: position)
        }
    }

    private static var controlCharacter: String { "a control character must be escaped in a string" }

    /// Moves past digits; how many.
    private mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    // MARK: - Bytes and errors

    /// Whether `byte` may follow a number or literal: `,`, `}`, `]` or white space.
    @inline(__always)
    package static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || JSONBytes.isWhitespace(byte)
    }

    /// An error at the byte here (or at `position`).
    // Built out of line: the hot loops stay small.
    @inline(never)
    package func error(_ reason: String, at position: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(reason: reason, offset: base + (position ?? index))
    }

    /// "expected `what`, found" what is here.
    @inline(never)
    package func error(expected what: String) -> JSONSyntaxError {
        error("expected \(what), found \(describeNext())")
    }

    /// What is here, for a message: `'x'`, `byte 0x1F`, or `the end`.
    package func describeNext() -> String {
        peek().map(Self.describe) ?? "the end"
    }

    /// A byte for a message: `'x'` when it is printable ASCII, else `byte 0x1F`.
    package static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// Bit 7 of each of a word's eight bytes: the bit set in every byte that is not ASCII.
    @inline(__always)
    package static var highBits: UInt64 { 0x8080_8080_8080_8080 }

    /// A mask with the high bit set in (at least) the first byte of `word` that is `"` or `\`: the
    /// classic "has a zero byte" test on the word XOR-ed with each byte repeated. Bytes after the
    /// first hit may be flagged falsely; the first flagged byte is always a real hit.
    @inline(__always)
    package static func quoteOrBackslashMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        return ((quotes &- ones) & ~quotes & highBits) | ((backslashes &- ones) & ~backslashes & highBits)
    }
}

/// Why bytes are not JSON, and where: what was expected and what is there, at a byte offset.
///
/// ```swift
/// JSONSyntaxError(reason: "expected ':', found '}'", offset: 7).description
/// // invalid JSON at byte 7: expected ':', found '}'
/// ```
package struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong.
    package var reason: String
    /// The byte offset where it was found.
    package var offset: Int

    package init(reason: String, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// `invalid JSON at byte 7: expected ':', found '}'`.
    package var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
