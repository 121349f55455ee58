package import HTTPTypes
import Foundation

extension SecretPolicy {
    /// Parts of a secret value shorter than this are not looked for on their own: `theme=dark`'s
    /// `dark` would replace parts of words.
    package static let shortestSecretPart = 8

    /// The words of a secret value that may be written alone elsewhere: a credential after a
    /// scheme of any name (`Token abc…`, `Bearer abc…`), a cookie's values (`sid=abc…; theme=…`),
    /// a list's items. The pieces between white space, `;` and `,`, and what follows an `=` in
    /// one, without the quotes around it, of ``shortestSecretPart`` bytes or more; none for a
    /// value of one word.
    ///
    /// ```swift
    /// SecretPolicy.secretParts(of: Array("sid=cookieVal99; theme=dark".utf8)).map { String(decoding: $0, as: UTF8.self) }
    /// // ["cookieVal99"]
    /// ```
    package static func secretParts<Bytes: BidirectionalCollection<UInt8>>(of value: Bytes) -> [Bytes.SubSequence] {
        let pieces = value.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
            || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",")
        }
        var parts: [Bytes.SubSequence] = []
        for piece in pieces {
            var word = piece.firstIndex(of: UInt8(ascii: "=")).map { piece[piece.index(after: $0)...] } ?? piece
            // Quoted, as a cookie or an `Authorization` parameter may be (`sid="abc…"`, `token="abc…"`).
            while let first = word.first, first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") { word = word.dropFirst() }
            while let last = word.last, last == UInt8(ascii: "\"") || last == UInt8(ascii: "'") { word = word.dropLast() }
            if word.count >= shortestSecretPart, word.count < value.count { parts.append(word) }
        }
        return parts
    }

    /// `value` and its ``secretParts(of:)``, as text: what hiding a secret value hides.
    ///
    /// ```swift
    /// SecretPolicy.withParts("Token abcdEFGH1234")   // ["Token abcdEFGH1234", "abcdEFGH1234"]
    /// ```
    package static func withParts(_ value: String) -> [String] {
        [value] + secretParts(of: Array(value.utf8)).map { String(decoding: $0, as: UTF8.self) } + basicCredentials(in: value)
    }

    /// What a `Basic` credential (`Basic YWRtaW46cHc=`, or its base64 alone) holds: the
    /// `user:password` its base64 decodes to, and the password, which a text may repeat on its
    /// own; none for another value.
    private static func basicCredentials(in value: String) -> [String] {
        let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 1 || (words.count == 2 && words[0].lowercased() == "basic"), let encoded = words.last,
            encoded.utf8.count >= shortestSecretPart, let data = Data(base64Encoded: String(encoded)),
            let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":"),
            !pair.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return [] }
        return [pair, String(pair[pair.index(after: colon)...])]
    }

    /// A parameter's value (a query's, a form's) as text and as a form decodes it (`+` a space,
    /// escapes decoded, up to three times as a value encoded again is), each with its
    /// ``secretParts(of:)``: `Token+abc%E2…` holds `abc…`, and so does `Bearer%2520abc…`.
    package static func parameterValues(_ value: some StringProtocol) -> [String] {
        let written = String(value)
        var decoded = [written.removingPercentEncoding, written.replacingOccurrences(of: "+", with: " ").removingPercentEncoding].compactMap { $0 }
        while decoded.count < 4, let last = decoded.last, let again = last.removingPercentEncoding, again != last { decoded.append(again) }
        return ([written] + decoded).flatMap(withParts)
    }

    /// The secret values header fields hold: each secret field's value (`Authorization`,
    /// `Cookie`, an API key's), whole and in its ``secretParts(of:)``. At most 1,024.
    ///
    /// ```swift
    /// SecretPolicy.default.secretValues(in: [.authorization: "token abcdEFGH1234"])   // ["token abcdEFGH1234", "abcdEFGH1234"]
    /// ```
    package func secretValues(in fields: HTTPFields) -> [String] {
        var values: [String] = []
        for field in fields where isSecret(header: field.name) {
            for text in Self.withParts(field.value) {
                guard text.utf8.count >= Self.shortestSecretValue, values.count < Self.mostSecretValues, !values.contains(text) else { continue }
                values.append(text)
            }
        }
        return values
    }
}
