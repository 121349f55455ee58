/// Names of members, headers and parameters that say their value is secret.
enum SecretNames {
    /// Parts of a name, lowercased with separators removed, that mark it secret:
    /// `X-Api-Key`, `client_secret`, `refreshToken`, `sessionId`.
    static let parts = [
        "token", "secret", "password", "passwd", "passphrase", "apikey", "accesskey", "privatekey", "signingkey", "credential",
        "signature", "session", "cookie", "authorization", "bearer", "jwt",
    ]

    /// Whether `name` says its value is secret.
    static func isSecret(_ name: String) -> Bool {
        let folded = String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
        return parts.contains { folded.contains($0) }
    }
}
