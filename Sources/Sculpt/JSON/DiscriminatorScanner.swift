import Foundation

/// The type-field peek, `TypeFieldModelMatcher`'s: finds one field of a JSON object by scanning
/// bytes, without parsing the document. Keys are compared as they pass, and every other value
/// (nested objects, arrays, long strings) is skipped by looking only for the bytes that can end it.
/// It lives beside ``JSONLexer``, in this module, so that the lexer's steps are inlined into its
/// loop (across modules they were calls: 900 instructions more for GitHub's 1.2 KB user).
///
/// It agrees with `JSONDecoder` on what it reports: keys compare after unescaping and as Swift
/// strings compare (canonically equivalent spellings are one key, see ``Key``), the first
/// occurrence of a duplicate key wins, a UTF-8 byte order mark is ignored, UTF-16 and UTF-32
/// bodies are read after transcoding, and a trailing comma before `}` is accepted. A string value
/// is reported as a `String`, so it too compares as Swift compares strings. It checks only what
/// it reads; the decode that follows validates the rest.
package struct DiscriminatorScanner: Sendable {
    /// What stands at the field.
    package enum Value: Equatable, Sendable {
        case string(String)
        /// A number, as written (`3`, `-1.5e3`).
        case number(String)
        case bool(Bool)
        case null
        case object
        case array
    }

    /// The result of a scan.
    package enum Outcome: Equatable, Sendable {
        case found(Value)
        /// The field (or an object on the way to it) is not there.
        case missing
        /// The body is valid JSON so far but not an object: `"an array"`, `"a string"`, ...
        case notAnObject(String)
        /// The body is empty or only white space.
        case empty
    }

    /// The field's keys, outermost first.
    let path: [Key]

    package init(path: [String]) {
        self.path = path.map(Key.init)
    }

    /// Scans `data` for the field: one access to its bytes, unless it must be transcoded.
    package func scan(_ data: Data) throws(JSONSyntaxError) -> Outcome {
        let scanned = data.withUnsafeBytes { raw -> Result<Outcome, JSONSyntaxError>? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard Self.encoding(of: bytes) == nil else { return nil }
            var lexer = JSONLexer(bytes)
            lexer.skipByteOrderMark()
            do throws(JSONSyntaxError) {
                return .success(try find(in: &lexer))
            } catch {
                return .failure(error)
            }
        }
        if let scanned { return try scanned.get() }
        return try scanTranscoded(data)
    }

    /// A UTF-16 or UTF-32 body, scanned after transcoding to UTF-8.
    private func scanTranscoded(_ data: Data) throws(JSONSyntaxError) -> Outcome {
        guard let (encoding, orderMark) = data.withUnsafeBytes({ Self.encoding(of: $0.bindMemory(to: UInt8.self)) }),
            let transcoded = String(data: data.dropFirst(orderMark), encoding: encoding).map({ Data($0.utf8) })
        else {
            throw JSONSyntaxError(reason: "the body looks like UTF-16 or UTF-32 but does not decode as it", offset: 0)
        }
        let scanned = transcoded.withUnsafeBytes { raw -> Result<Outcome, JSONSyntaxError> in
            var lexer = JSONLexer(raw.bindMemory(to: UInt8.self))
            do throws(JSONSyntaxError) {
                return .success(try find(in: &lexer))
            } catch {
                return .failure(error)
            }
        }
        do throws(JSONSyntaxError) {
            return try scanned.get()
        } catch {
            // The offset the caller sees is into the body as it arrived, not into our UTF-8 copy.
            throw JSONSyntaxError(
                reason: error.reason, offset: Self.offset(error.offset, in: transcoded, of: data, encodedAs: encoding, after: orderMark))
        }
    }

    /// The offset in the UTF-16 or UTF-32 `original` of the character at `offset` in its UTF-8
    /// `transcoded` form, which starts after the byte order mark's `orderMark` bytes.
    private static func offset(
        _ offset: Int, in transcoded: Data, of original: Data, encodedAs encoding: String.Encoding, after orderMark: Int
    ) -> Int {
        let isUTF32 = encoding == .utf32BigEndian || encoding == .utf32LittleEndian
        var result = orderMark
        var consumed = 0
        for scalar in String(decoding: transcoded, as: UTF8.self).unicodeScalars {
            guard consumed < offset else { break }
            consumed += UTF8.width(scalar)
            result += isUTF32 ? 4 : UTF16.width(scalar) * 2
        }
        return min(result, original.count)
    }

    private func find(in lexer: inout JSONLexer) throws(JSONSyntaxError) -> Outcome {
        lexer.skipWhitespace()
        guard let first = lexer.peek() else { return .empty }
        guard first == UInt8(ascii: "{") else {
            return .notAnObject(try Self.kind(of: first, at: lexer))
        }
        for (depth, key) in path.enumerated() {
            guard try Self.moveToValue(ofKey: key, in: &lexer) else { return .missing }
            if depth == path.count - 1 {
                return .found(try Self.readValue(in: &lexer))
            }
            guard lexer.peek() == UInt8(ascii: "{") else { return .missing }
        }
        return .missing
    }

    /// From the `{` of an object, moves to the value of the first member named `key`; `false`
    /// (positioned after the object) when there is none. Other members' values are skipped.
    private static func moveToValue(ofKey key: Key, in lexer: inout JSONLexer) throws(JSONSyntaxError) -> Bool {
        try lexer.expect(UInt8(ascii: "{"))
        while true {
            lexer.skipWhitespace()
            // Also after a trailing comma, which JSONDecoder accepts.
            if lexer.peek() == UInt8(ascii: "}") {
                lexer.index += 1
                return false
            }
            guard lexer.peek() == UInt8(ascii: "\"") else { throw lexer.error(expected: "a key in quotes") }
            let matches = try Self.key(try lexer.string(), in: lexer, matches: key)
            lexer.skipWhitespace()
            try lexer.expect(UInt8(ascii: ":"))
            lexer.skipWhitespace()
            if matches { return true }
            try lexer.skipValue()
            lexer.skipWhitespace()
            switch lexer.peek() {
            case UInt8(ascii: ","): lexer.index += 1
            case UInt8(ascii: "}"):
                lexer.index += 1
                return false
            default: throw lexer.error(expected: "',' or '}' after a value")
            }
        }
    }

    /// Whether a key's token names `key` after unescaping.
    @inline(__always)
    private static func key(_ token: JSONLexer.StringToken, in lexer: JSONLexer, matches key: Key) throws(JSONSyntaxError) -> Bool {
        guard token.hasEscapes else {
            return key.matches(UnsafeBufferPointer(rebasing: lexer.bytes[token.content]), candidateIsASCII: token.isASCII)
        }
        return try lexer.unescaped(token).withUnsafeBufferPointer { candidate in
            key.matches(candidate, candidateIsASCII: candidate.allSatisfy { $0 < 0x80 })
        }
    }

    /// Reads the value here: a scalar whole (checked to end where a scalar may), a container by
    /// its kind.
    private static func readValue(in lexer: inout JSONLexer) throws(JSONSyntaxError) -> Value {
        guard let byte = lexer.peek() else { throw lexer.error("the text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try lexer.text(of: try lexer.string()))
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "t"):
            try lexer.literal("true")
            try lexer.expectEndOfScalar(after: "true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try lexer.literal("false")
            try lexer.expectEndOfScalar(after: "false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try lexer.literal("null")
            try lexer.expectEndOfScalar(after: "null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let text = try lexer.number()
            try lexer.expectEndOfScalar(after: "a number")
            return .number(String(decoding: UnsafeBufferPointer(rebasing: lexer.bytes[text]), as: UTF8.self))
        default: throw lexer.error(expected: "a JSON value")
        }
    }

    private static func kind(of byte: UInt8, at lexer: JSONLexer) throws(JSONSyntaxError) -> String {
        switch byte {
        case UInt8(ascii: "["): "an array"
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): "a number"
        default: throw lexer.error(expected: "a JSON value")
        }
    }

    /// The body's encoding when it is UTF-16 or UTF-32, and the length of the byte order mark
    /// before the text (0 when the encoding is told by the zero bytes ASCII characters leave);
    /// `nil` for UTF-8. Exactly as `JSONDecoder` detects it, quirks included: it takes a body
    /// starting `FE FF 00 00` for UTF-32LE after a 4-byte mark (the UTF-32LE mark, `FF FE 00 00`,
    /// with its first two bytes swapped), and one starting `FF FE 00 00` for UTF-16LE after a
    /// 2-byte mark, followed by a NUL. It looks for marks and zeros only in a body of 4 bytes or
    /// more, and at zeros alone in one of 2 or 3.
    private static func encoding(of bytes: UnsafeBufferPointer<UInt8>) -> (String.Encoding, orderMark: Int)? {
        if bytes.count >= 4 {
            switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
            case (0x00, 0x00, 0xFE, 0xFF): return (.utf32BigEndian, 4)
            case (0xFE, 0xFF, 0x00, 0x00): return (.utf32LittleEndian, 4)
            case (0xFF, 0xFE, _, _): return (.utf16LittleEndian, 2)
            case (0xFE, 0xFF, _, _): return (.utf16BigEndian, 2)
            case (0x00, 0x00, 0x00, _): return (.utf32BigEndian, 0)
            case (_, 0x00, 0x00, 0x00): return (.utf32LittleEndian, 0)
            case (0x00, _, 0x00, _): return (.utf16BigEndian, 0)
            case (_, 0x00, _, 0x00): return (.utf16LittleEndian, 0)
            default: return nil
            }
        }
        guard bytes.count >= 2 else { return nil }
        if bytes[0] == 0x00 { return (.utf16BigEndian, 0) }
        if bytes[1] == 0x00 { return (.utf16LittleEndian, 0) }
        return nil
    }
}
