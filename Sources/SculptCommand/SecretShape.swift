/// A kind of credential recognisable by its form: a fixed prefix and a run of the characters the
/// issuer uses, as secret scanners (GitHub's, gitleaks) know them.
struct SecretShape: Sendable {
    /// What it is, for the report: `a GitHub token`.
    var name: String
    /// The text it starts with: `ghp_`.
    var prefix: String
    /// The fewest characters after the prefix for a real one; fewer is taken for an example
    /// or a mention (`ghp_...` in a message).
    var minimumLength: Int
    /// The characters it is made of after the prefix.
    var allows: @Sendable (UInt8) -> Bool
    /// The most characters after the prefix, for a shape of fixed length.
    var maximumLength = Int.max

    /// The shapes checked.
    static let known: [SecretShape] = {
        let github = ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"].map { SecretShape(name: "a GitHub token", prefix: $0, minimumLength: 30, allows: isAlphanumeric) }
        let slack = ["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-"].map { SecretShape(name: "a Slack token", prefix: $0, minimumLength: 20, allows: isTokenByte) }
        let stripe = ["sk_live_", "rk_live_"].map { SecretShape(name: "a live Stripe key", prefix: $0, minimumLength: 20, allows: isAlphanumeric) }
        let aws = ["AKIA", "ASIA"].map { SecretShape(name: "an AWS access key ID", prefix: $0, minimumLength: 16, allows: isUpperOrDigit, maximumLength: 16) }
        return github + slack + stripe + aws + [
            SecretShape(name: "a GitHub fine-grained token", prefix: "github_pat_", minimumLength: 40, allows: isTokenByte),
            SecretShape(name: "a Google API key", prefix: "AIza", minimumLength: 35, allows: isTokenByte),
            SecretShape(name: "a GitLab token", prefix: "glpat-", minimumLength: 20, allows: isTokenByte),
            SecretShape(name: "an npm token", prefix: "npm_", minimumLength: 36, allows: isAlphanumeric),
            SecretShape(name: "an OpenAI key", prefix: "sk-proj-", minimumLength: 40, allows: isTokenByte),
            SecretShape(name: "a SendGrid key", prefix: "SG.", minimumLength: 60, allows: { isTokenByte($0) || $0 == UInt8(ascii: ".") }),
        ]
    }()

    /// The length of this shape's match at `start` of `bytes` (the prefix included), or `nil`.
    func match(in bytes: [UInt8], at start: Int) -> Int? {
        let prefix = Array(self.prefix.utf8)
        guard bytes.count - start >= prefix.count + minimumLength, bytes[start..<(start + prefix.count)].elementsEqual(prefix) else { return nil }
        // A prefix inside a longer word (`xghp_`) is not one.
        if start > 0, Self.isTokenByte(bytes[start - 1]) { return nil }
        var end = start + prefix.count
        while end < bytes.count, allows(bytes[end]) { end += 1 }
        guard (minimumLength...maximumLength).contains(end - start - prefix.count) else { return nil }
        // An issuer's random part has digits: `ASIAPACIFICSOUTHEAST` is a word, not a key.
        guard bytes[(start + prefix.count)..<end].contains(where: { (0x30...0x39).contains($0) }) else { return nil }
        return end - start
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    static func isUpperOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
    }

    /// Letters, digits, `_` and `-`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
