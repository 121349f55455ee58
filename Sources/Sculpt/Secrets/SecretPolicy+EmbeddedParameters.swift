import Foundation

extension SecretPolicy {
    /// The ranges of the values that secret parameters hold wherever they are written in text: a
    /// query or a form inside a JSON string or an XML element (`"a=1&token=..."`,
    /// `<link>https://h/cb?access_token=...</link>`), and the credential after `Bearer ` or
    /// `Basic `. A name runs back from its `=` to the byte after a delimiter; a value runs on to
    /// the next delimiter. One pass: each byte is read at most twice, whatever the text holds.
    ///
    /// ```swift
    /// SecretPolicy.default.embeddedParameterValueRanges(in: Array(#"{"d":"a=1&token=abc123"}"#.utf8))   // [16..<22]
    /// ```
    func embeddedParameterValueRanges(in bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var nameStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "=") {
                let name = nameStart..<index
                let valueEnd = Self.valueEnd(in: bytes, from: index + 1)
                if name.count <= Self.longestEmbeddedName, !name.isEmpty,
                    isSecret(parameter: String(decoding: bytes[name], as: UTF8.self), besideOAuth: false),
                    valueEnd > index + 1 {
                    ranges.append((index + 1)..<valueEnd)
                    index = valueEnd
                    nameStart = index
                    continue
                }
                nameStart = index + 1
            } else if Self.endsName(byte) {
                // Both schemes end in `r` or `c`: most spaces follow neither.
                if byte == UInt8(ascii: " "), index > 0, bytes[index - 1] | 0x20 == UInt8(ascii: "r") || bytes[index - 1] | 0x20 == UInt8(ascii: "c"),
                    Self.followsCredentialScheme(index, in: bytes) {
                    let valueEnd = Self.valueEnd(in: bytes, from: index + 1)
                    if valueEnd - (index + 1) >= Self.shortestSchemeCredential { ranges.append((index + 1)..<valueEnd) }
                    index = max(valueEnd, index + 1)
                    nameStart = index
                    continue
                }
                nameStart = index + 1
            }
            index += 1
        }
        return ranges
    }

    /// The longest name read before an `=`: longer runs are not a parameter's name.
    private static let longestEmbeddedName = 256

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

    /// Where a value starting at `start` ends: at the first delimiter (an `=` belongs to the
    /// value: base64 ends in them).
    private static func valueEnd(in bytes: [UInt8], from start: Int) -> Int {
        var end = start
        while end < bytes.count, !endsName(bytes[end]) { end += 1 }
        return end
    }

    /// The shortest word after `Bearer ` or `Basic ` taken for a credential: a shorter one is a
    /// word of prose (`Basic plan`), which a description would lose wherever it appears.
    private static let shortestSchemeCredential = 8

    /// Whether the word before the space at `space` is `Bearer` or `Basic` (any case), the
    /// schemes whose credential follows them.
    private static func followsCredentialScheme(_ space: Int, in bytes: [UInt8]) -> Bool {
        credentialSchemes.contains { scheme in
            guard space >= scheme.count else { return false }
            let start = space - scheme.count
            guard start == 0 || endsName(bytes[start - 1]) || bytes[start - 1] == UInt8(ascii: ":") else { return false }
            return zip(bytes[start..<space], scheme).allSatisfy { $0 | 0x20 == $1 }
        }
    }

    private static let credentialSchemes = [Array("bearer".utf8), Array("basic".utf8)]
}
