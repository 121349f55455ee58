import Foundation

extension SecretPolicy {
    /// The ranges of the values that secret parameters hold wherever they are written in text: a
    /// query or a form inside a JSON string or an XML element (`"a=1&token=..."`,
    /// `<link>https://h/cb?access_token=...</link>`), and the credential after `Bearer` or `Basic`
    /// and white space. A name runs back from its `=` to the byte after a delimiter; a value runs
    /// on to the next delimiter, and is read only after a secret name, the scan going on past it.
    /// One pass: each byte is read a bounded number of times, whatever the text holds. In text
    /// as written (`escapes`), an escape does not end a value: JSON's `\/` and `\u0041`, XML's
    /// character references (`&#99;`).
    ///
    /// ```swift
    /// SecretPolicy.default.embeddedParameterValueRanges(in: Array(#"{"d":"a=1&token=abc123"}"#.utf8))   // [16..<22]
    /// ```
    package func embeddedParameterValueRanges(in bytes: [UInt8], escapes: EscapeSyntax = .none) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var nameStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "=") {
                // A longer run before the `=` (a path, `a/b/token`) is judged by its end, as a
                // name ending as a credential's is. A name that ends in brackets
                // (`user[password]`, as Rails writes a form) runs back over them.
                var nameFrom = nameStart
                if index > 0, bytes[index - 1] == UInt8(ascii: "]") {
                    nameFrom = index - 1
                    while nameFrom > max(0, index - Self.longestEmbeddedName), !Self.endsName(bytes[nameFrom - 1]) || bytes[nameFrom - 1] == UInt8(ascii: "[") || bytes[nameFrom - 1] == UInt8(ascii: "]") {
                        nameFrom -= 1
                    }
                }
                let name = max(nameFrom, index - Self.longestEmbeddedName)..<index
                if !name.isEmpty, isSecret(parameter: String(decoding: bytes[name], as: UTF8.self), besideOAuth: false) {
                    // A quoted value (`password="a b"`) runs to its closing quote.
                    let quote = index + 1 < bytes.count && (bytes[index + 1] == UInt8(ascii: "\"") || bytes[index + 1] == UInt8(ascii: "'")) ? bytes[index + 1] : nil
                    let value = quote.map { quote in (index + 2)..<(bytes[min(index + 2, bytes.count)...].firstIndex(of: quote) ?? bytes.count) }
                        ?? (index + 1)..<Self.valueEnd(in: bytes, from: index + 1, escapes: escapes)
                    if !value.isEmpty { ranges.append(value) }
                    index = value.upperBound
                    nameStart = index
                    continue
                }
                nameStart = index + 1
            } else if let credential = Self.schemeCredential(at: index, in: bytes, escapes: escapes) {
                if credential.count >= Self.shortestSchemeCredential { ranges.append(credential) }
                index = credential.upperBound
                nameStart = index
                continue
            } else if Self.endsName(byte) {
                nameStart = index + 1
            }
            index += 1
        }
        return ranges
    }

    /// `text` with the credential after each `Bearer` or `Basic` (and white space) replaced by
    /// ``Secrets/marker``, as a header's value would be: `Bearer abc…` written in a text body.
    /// `text` itself when it holds none, or when this policy redacts no URL (``disabled``).
    ///
    /// ```swift
    /// SecretPolicy.default.redactingSchemeCredentials(in: "curl -H 'Authorization: Bearer abcdefgh12'")
    /// // curl -H 'Authorization: Bearer REDACTED'
    /// ```
    package func redactingSchemeCredentials(in text: String) -> String {
        guard redactsURLs, text.utf8.contains(where: { $0 | 0x20 == UInt8(ascii: "b") }) else { return text }
        let bytes = Array(text.utf8)
        return Self.replacing(schemeCredentialRanges(in: bytes), in: bytes) ?? text
    }

    /// Where `bytes` hold a credential after `Bearer` or `Basic` that
    /// ``redactingSchemeCredentials(in:)`` replaces: what a checker of recordings flags.
    package func schemeCredentialRanges(in bytes: [UInt8]) -> [Range<Int>] {
        guard redactsURLs else { return [] }
        var ranges: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            guard let credential = Self.schemeCredential(at: index, in: bytes, escapes: .none) else {
                index += 1
                continue
            }
            if credential.count >= Self.shortestSchemeCredential, !bytes[credential].elementsEqual(Secrets.marker.utf8) { ranges.append(credential) }
            index = max(credential.upperBound, index + 1)
        }
        return ranges
    }

    /// `bytes` (JSON text) with every string escape decoded in place, leniently (an escape that
    /// does not decode stays as written): the text a decoded value is taken from, so that a query
    /// written with `\u0026` for `&` or `\/` for `/` is read as a decoder gives it.
    package static func unescapingJSON(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "\\")) else { return bytes }
        return bytes.withUnsafeBufferPointer { buffer in
            var output: [UInt8] = []
            output.reserveCapacity(buffer.count)
            var index = 0
            while index < buffer.count {
                let byte = buffer[index]
                index += 1
                guard byte == UInt8(ascii: "\\") else {
                    output.append(byte)
                    continue
                }
                let escape = index
                do throws(JSONEscape.Invalid) {
                    try JSONEscape.decode(buffer, at: &index, end: buffer.count, into: &output)
                } catch {
                    output.append(byte)
                    index = escape
                }
            }
            return output
        }
    }

    /// The most bytes before an `=` read as a name: a longer run is judged by its end.
    private static let longestEmbeddedName = 256

    /// The shortest credential after `Bearer` or `Basic` taken for one: a shorter word is prose
    /// (`Basic plan`), which a description would lose wherever it appears.
    private static let shortestSchemeCredential = 8

    private static let credentialSchemes = [Array("bearer".utf8), Array("basic".utf8)]

    /// Whether `byte` ends a name, or a value.
    private static func endsName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "?"), UInt8(ascii: "&"), UInt8(ascii: ";"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"),
            UInt8(ascii: ">"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ","),
            UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "#"), UInt8(ascii: "\\"):
            true
        default: false
        }
    }

    /// An ASCII letter or digit: a scheme's name must not be the end of a longer word.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Where a value starting at `start` ends: at the first delimiter (an `=` belongs to the
    /// value: base64 ends in them).
    private static func valueEnd(in bytes: [UInt8], from start: Int, escapes: EscapeSyntax = .none) -> Int {
        var end = start
        while end < bytes.count {
            if let escape = escapes.escape(at: end, in: bytes) {
                end = escape.upperBound
                continue
            }
            guard !endsName(bytes[end]) else { break }
            end += 1
        }
        return end
    }

    /// The escapes of the text a value is read from as written: none, JSON's or XML's.
    package enum EscapeSyntax {
        case none, json, xml

        /// The escape that starts at `index` and stands for a character of a value: JSON's
        /// `\/` or `\uXXXX` (not `\"`, which ends a string), XML's `&#...;`.
        package func escape(at index: Int, in bytes: [UInt8]) -> Range<Int>? {
            switch self {
            case .none: return nil
            case .json:
                guard bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count else { return nil }
                if bytes[index + 1] == UInt8(ascii: "/") { return index..<(index + 2) }
                guard bytes[index + 1] == UInt8(ascii: "u"), index + 6 <= bytes.count else { return nil }
                return index..<(index + 6)
            case .xml:
                guard bytes[index] == UInt8(ascii: "&"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "#"),
                    let semicolon = bytes[index..<min(bytes.count, index + 12)].firstIndex(of: UInt8(ascii: ";"))
                else { return nil }
                return index..<(semicolon + 1)
            }
        }
    }

    /// The credential after a scheme that starts a word at `start` (`Bearer abc…`, not
    /// `Superbasic abc…`); `nil` when none does.
    private static func schemeCredential(at start: Int, in bytes: [UInt8], escapes: EscapeSyntax) -> Range<Int>? {
        guard bytes[start] | 0x20 == UInt8(ascii: "b"), start == 0 || !isWordByte(bytes[start - 1]) else { return nil }
        return credentialAfterScheme(at: start, in: bytes, escapes: escapes)
    }

    /// The credential after the scheme (`Bearer`, `Basic`, any case) at `start`: past the white
    /// space after it (spaces, tabs, no-break spaces), to the next delimiter; `nil` when no scheme
    /// and white space are there.
    private static func credentialAfterScheme(at start: Int, in bytes: [UInt8], escapes: EscapeSyntax) -> Range<Int>? {
        guard let scheme = credentialSchemes.first(where: { scheme in
            start + scheme.count <= bytes.count && zip(bytes[start..<(start + scheme.count)], scheme).allSatisfy { $0 | 0x20 == $1 }
        }) else { return nil }
        var index = start + scheme.count
        let afterScheme = index
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                index += 1
            } else if bytes[index] == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xA0 {
                index += 2
            } else {
                break
            }
        }
        guard index > afterScheme else { return nil }
        return index..<valueEnd(in: bytes, from: index, escapes: escapes)
    }
}
