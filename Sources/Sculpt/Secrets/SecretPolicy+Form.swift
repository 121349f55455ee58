import Foundation

/// Bodies in `application/x-www-form-urlencoded` (`grant_type=refresh_token&refresh_token=r1`):
/// an OAuth token request, or GitHub's token response to a client that did not ask for JSON.
/// Their parameters are redacted as a query's are, by the query parameter and body field names.
extension SecretPolicy {
    /// Whether a `Content-Type` value names a form-encoded body.
    ///
    /// ```swift
    /// SecretPolicy.isForm(contentType: "application/x-www-form-urlencoded; charset=utf-8")   // true
    /// ```
    package static func isForm(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let media = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }
        return SecretPolicy.lowercased(String(decoding: media, as: UTF8.self)).trimmingCharacters(in: .whitespaces)
            == "application/x-www-form-urlencoded"
    }

    /// `body` with the value of every parameter named in ``parameters`` or ``bodyFields``
    /// replaced by ``Secrets/marker``; `body` itself when it holds none.
    ///
    /// ```swift
    /// SecretPolicy.default.redacting(form: Data("refresh_token=r1&scope=repo".utf8))   // refresh_token=REDACTED&scope=repo
    /// ```
    package func redacting(form body: Data) -> Data {
        guard !body.isEmpty else { return body }
        let text = String(decoding: body, as: UTF8.self)
        let redacted = formPolicy.redacting(parameters: text)
        return redacted == text ? body : Data(redacted.utf8)
    }

    /// The start of a form body as text for a description, at most `bytes` bytes of it, secret
    /// values replaced, and how many bytes were left out. Reads at most `bytes` plus 64 KB.
    package func excerpt(ofForm body: Data, bytes: Int) -> (text: String, remaining: Int) {
        let scanned = body.prefix(bytes + (64 << 10))
        let redacted = formPolicy.redacting(parameters: String(decoding: scanned, as: UTF8.self))
        let (text, remaining) = ClippedText.prefix(ofBytes: Array(redacted.utf8), bytes: bytes)
        return (text, remaining + body.count - scanned.count)
    }

    /// This policy with body field names counting as parameter names.
    private var formPolicy: SecretPolicy {
        var policy = self
        policy.parameters.formUnion(bodyFields)
        return policy
    }
}
