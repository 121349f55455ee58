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
/// it reads, and of the value it reads only what `JSONDecoder`'s scanner checks before a decode
/// (a number's grammar, a string's escapes and UTF-8 are the decode's, reported as
/// ``Value/invalid(_:)``): a body `JSONDecoder` accepts is never refused.
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
        /// A value `JSONDecoder`'s scanner accepts and its decode refuses, and why: a number
        /// outside JSON's grammar (`03`, `3.`), a string with an invalid escape, a control
        /// character or bytes that are not UTF-8. Only a model that reads it fails on it.
        case invalid(JSONSyntaxError)
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
    package let path: [Key]

    package init(path: [String]) {
        self.path = path.map(Key.init)
    }

    /// Scans `data` for the field: one access to its bytes, unless it must be transcoded.
    package func scan(_ data: Data) throws(JSONSyntaxError) -> Outcome {
        let scanned = data.withUnsafeBytes { raw -> Result<Outcome, JSONSyntaxError>? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard !JSONText.mayNeedTranscoding(raw) || JSONText.encoding(of: bytes) == nil else { return nil }
            var lexer = JSONLexer(bytes)
            lexer.skipByteOrderMark()
            // Inside a serializer that decodes with SculptJSONDecoder: one scan for both.
            let text = UnsafeBufferPointer(rebasing: bytes[lexer.index...])
            if let entries = SharedScan.entries(for: text, of: data), let outcome = find(in: entries, body: bytes, start: lexer.index) {
                return .success(outcome)
            }
            return Result { () throws(JSONSyntaxError) in try find(in: &lexer) }
        }
        if let scanned { return try scanned.get() }
        return try scanTranscoded(data)
    }

    /// A UTF-16 or UTF-32 body, scanned after transcoding to UTF-8.
    private func scanTranscoded(_ data: Data) throws(JSONSyntaxError) -> Outcome {
        guard let text = JSONText(data) else {
            throw JSONSyntaxError(reason: "the body looks like UTF-16 or UTF-32 but does not decode as it", offset: 0)
        }
        let scanned = text.utf8.withUnsafeBytes { raw -> Result<Outcome, JSONSyntaxError> in
            var lexer = JSONLexer(raw.bindMemory(to: UInt8.self))
            return Result { () throws(JSONSyntaxError) in try find(in: &lexer) }
        }
        do throws(JSONSyntaxError) {
            return try scanned.get()
        } catch {
            // The offset the caller sees is into the body as it arrived, not into the UTF-8 copy.
            throw JSONSyntaxError(reason: error.reason, offset: text.originalOffset(of: error.offset))
        }
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
        case UInt8(ascii: "\""):
            let token = try lexer.string()
            do {
                return .string(try lexer.text(of: token))
            } catch {
                return .invalid(error)
            }
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
            // Read as JSONDecoder's scanner reads it: the run now, its grammar when decoded.
            let run = lexer.numberRun()
            try lexer.expectEndOfScalar(after: "a number")
            do {
                try lexer.validateNumber(run)
            } catch {
                return .invalid(error)
            }
            return .number(String(decoding: UnsafeBufferPointer(rebasing: lexer.bytes[run]), as: UTF8.self))
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
}
