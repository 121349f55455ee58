/// A kind of credential recognisable by its form: a fixed prefix and a run of the characters the
/// issuer uses, as secret scanners (GitHub's, gitleaks) know them; and ``find(in:)``, which finds
/// every credential of a known shape (these, JWTs and private keys) in one pass.
///
/// ```swift
/// CredentialShape.find(in: Array("token ghp_\(String(repeating: "a1", count: 18))".utf8)).map(\.kind)   // ["a GitHub token"]
/// ```
package struct CredentialShape: Sendable {
    /// What it is, for a report: `a GitHub token`.
    package let kind: String
    /// The text it starts with: `ghp_`.
    package let prefix: String
    /// The same, as bytes.
    private let prefixBytes: [UInt8]
    /// The fewest and the most characters after the prefix the issuer documents: fewer is taken
    /// for an example or a mention (`ghp_...` in a message). A longer run is some other text to a
    /// report of what a file holds; to what masks text before it is shown, its start is the key
    /// (`AIza…-staging`), and is masked.
    private let lengths: ClosedRange<Int>
    /// The characters it is made of after the prefix.
    private let allows: @Sendable (UInt8) -> Bool

    private init(_ kind: String, prefix: String, lengths: ClosedRange<Int>, allows: @escaping @Sendable (UInt8) -> Bool) {
        self.kind = kind
        self.prefix = prefix
        self.prefixBytes = Array(prefix.utf8)
        self.lengths = lengths
        self.allows = allows
    }

    /// The shapes known, with the lengths their issuers document (a longest of 255 where they
    /// state none).
    package static let known: [CredentialShape] = {
        let github = ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"].map { CredentialShape("a GitHub token", prefix: $0, lengths: 30...255, allows: isAlphanumeric) }
        let slack = ["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xoxc-", "xoxd-"].map { CredentialShape("a Slack token", prefix: $0, lengths: 20...255, allows: isTokenByte) }
        let stripe = ["sk_live_", "rk_live_"].map { CredentialShape("a live Stripe key", prefix: $0, lengths: 20...255, allows: isAlphanumeric) }
        let aws = ["AKIA", "ASIA"].map { CredentialShape("an AWS access key ID", prefix: $0, lengths: 16...16, allows: isUpperOrDigit) }
        return github + slack + stripe + aws + [
            CredentialShape("a GitHub fine-grained token", prefix: "github_pat_", lengths: 40...255, allows: isTokenByte),
            CredentialShape("a Google API key", prefix: "AIza", lengths: 35...35, allows: isTokenByte),
            CredentialShape("a GitLab token", prefix: "glpat-", lengths: 20...255, allows: isTokenByte),
            CredentialShape("an npm token", prefix: "npm_", lengths: 36...36, allows: isAlphanumeric),
            CredentialShape("an OpenAI key", prefix: "sk-proj-", lengths: 40...255, allows: isTokenByte),
            // `SG.` + 22 characters + `.` + 43 characters.
            CredentialShape("a SendGrid key", prefix: "SG.", lengths: 60...66, allows: { isTokenByte($0) || $0 == UInt8(ascii: ".") }),
        ]
    }()

    /// The shapes by the first byte of their prefix (256 lists, most of them empty).
    private static let byFirstByte: [[CredentialShape]] = (0...255).map { byte in known.filter { $0.prefixBytes[0] == byte } }

    /// A credential found: its kind, where it is, and how much of its start is the fixed prefix
    /// (what a report may show of it).
    package struct Found: Equatable, Sendable {
        package var kind: String
        package var range: Range<Int>
        package var prefixLength: Int
    }

    /// Every credential of a known shape in `bytes` (a shape above, a JWT, a private key from its
    /// `BEGIN` line through its `END` line, or through the base64 after it when it has none), in
    /// order, none inside another. Linear in the length of `bytes` whatever they hold: each shape's
    /// run is read at most to its longest length, and each marker a private key needs is searched
    /// for once for the whole text.
    ///
    /// - Parameters:
    ///   - bytes: the text.
    ///   - insideWords: whether a credential may start inside a longer word (`x=ghp_...` encoded
    ///     as `x%3Dghp_...`): what is masked before it is shown looks there too; a report of what
    ///     a file holds does not, so that `xghp_...` in prose is no finding.
    package static func find(in bytes: [UInt8], insideWords: Bool = false) -> [Found] {
        // The shortest credential known: `AKIA` and 16 characters.
        guard bytes.count >= 20 else { return [] }
        var found: [Found] = []
        var index = 0
        var keyEnds = PatternCursor(Array("-----".utf8))
        var keyFooters = PatternCursor(Array("-----END ".utf8))
        // No JWT starts before this: a JWT tried at an earlier start failed after its first part,
        // and one starting inside that part would fail the same way.
        var jwtFrom = 0
        scan: while index < bytes.count {
            let byte = bytes[index]
            for shape in byFirstByte[Int(byte)] {
                if let length = shape.match(in: bytes, at: index, insideWords: insideWords) {
                    found.append(Found(kind: shape.kind, range: index..<(index + length), prefixLength: shape.prefixBytes.count))
                    index += length
                    continue scan
                }
            }
            if byte == UInt8(ascii: "e"), index >= jwtFrom {
                let attempt = jwt(in: bytes, at: index, insideWords: insideWords)
                if let length = attempt.length {
                    found.append(Found(kind: "a JWT", range: index..<(index + length), prefixLength: 3))
                    index += length
                    continue
                }
                jwtFrom = attempt.firstPartEnd
            }
            if byte == UInt8(ascii: "-"), let length = privateKey(in: bytes, at: index, ends: &keyEnds, footers: &keyFooters) {
                found.append(Found(kind: "a private key", range: index..<(index + length), prefixLength: 0))
                index += length
                continue
            }
            index += 1
        }
        return found
    }

    /// The length of this shape's match at `start` of `bytes` (the prefix included), or `nil`.
    private func match(in bytes: [UInt8], at start: Int, insideWords: Bool) -> Int? {
        guard bytes.count - start >= prefixBytes.count + lengths.lowerBound, bytes[start..<(start + prefixBytes.count)].elementsEqual(prefixBytes) else {
            return nil
        }
        // A prefix inside a longer word (`xghp_`) is not one, unless asked.
        if !insideWords, start > 0, Self.isTokenByte(bytes[start - 1]) { return nil }
        let runStart = start + prefixBytes.count
        var end = runStart
        // One past the longest, and a dot more: a run is read no further.
        let limit = Swift.min(bytes.count, runStart + lengths.upperBound + 2)
        while end < limit, allows(bytes[end]) { end += 1 }
        // A run ends in a letter or digit: a dot after it ends a sentence.
        while end > runStart, bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
        if end - runStart > lengths.upperBound {
            // Glued to more of its characters: its start is a key to what masks text.
            guard insideWords else { return nil }
            end = runStart + lengths.upperBound
        }
        guard end - runStart >= lengths.lowerBound else { return nil }
        // An issuer's random part has digits: `ASIAPACIFICSOUTHEAST` is a word, not a key.
        guard bytes[runStart..<end].contains(where: { (0x30...0x39).contains($0) }) else { return nil }
        return end - start
    }

    /// A JWT at `start`: `eyJ` base64url, a dot, `eyJ` base64url, a dot, and base64url (the
    /// signature, of any length: none for an unsigned token, `alg: none`, and the last dot left
    /// out too when a text drops it), the first two parts at
    /// least 10 characters, not inside a longer word or token unless asked: its length, or `nil`
    /// and where its first part ended.
    private static func jwt(in bytes: [UInt8], at start: Int, insideWords: Bool) -> (length: Int?, firstPartEnd: Int) {
        if !insideWords, start > 0, isTokenByte(bytes[start - 1]) || bytes[start - 1] == UInt8(ascii: ".") { return (nil, start + 1) }
        let header = Array("eyJ".utf8)
        var index = start
        var firstPartEnd = start + 1
        for part in 0..<3 {
            let partStart = index
            if part < 2, !bytes[index...].starts(with: header) { return (nil, firstPartEnd) }
            while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
            if part == 0 { firstPartEnd = index }
            // The header and the claims say it is a JWT: the signature may be short, or none.
            guard part == 2 || index - partStart >= 10 else { return (nil, firstPartEnd) }
            if part < 2 {
                // A header and claims with no dot after them: a JWT written without its signature.
                guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return (part == 1 ? index - start : nil, firstPartEnd) }
                index += 1
            }
        }
        return (index - start, firstPartEnd)
    }

    /// A private key at `start`: its `-----BEGIN ... PRIVATE KEY-----` line, its material, and its
    /// `-----END ...-----` line; without an end line (a key cut short), the base64 that follows,
    /// its line breaks (raw, or `\n` as JSON writes them) and white space. `ends` finds the
    /// `-----` after the label and `footers` the `-----END ` after the key, each searching each
    /// part of the text once.
    private static func privateKey(in bytes: [UInt8], at start: Int, ends: inout PatternCursor, footers: inout PatternCursor) -> Int? {
        let begin = Array("-----BEGIN ".utf8)
        guard bytes[start...].starts(with: begin), let end = ends.next(in: bytes, from: start + begin.count) else { return nil }
        let label = bytes[(start + begin.count)..<end]
        guard label.count <= 64, ["PRIVATE KEY", "PRIVATE KEY BLOCK"].contains(where: { label.reversed().starts(with: $0.utf8.reversed()) }) else {
            return nil
        }
        let headerEnd = end + 5
        // The material runs to the end line, when one follows it directly: `-----END RSA PRIVATE KEY-----`.
        let footer = footers.next(in: bytes, from: headerEnd)
        let material = keyMaterialEnd(in: bytes, from: headerEnd, before: footer ?? bytes.count)
        if let footer, footer == material, let close = ends.next(in: bytes, from: footer + 9), close - footer <= 80 {
            return close + 5 - start
        }
        return material - start
    }

    /// Where a private key's material that starts at `start` ends: past its armor headers
    /// (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`, `Version: …`) and base64, white space and line
    /// breaks, raw or written as `\n` or `\r`.
    private static func keyMaterialEnd(in bytes: [UInt8], from start: Int, before limit: Int) -> Int {
        var index = start
        while index < limit {
            let byte = bytes[index]
            if isAlphanumeric(byte) || "+/=:,.-_()".utf8.contains(byte) || byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                index += 1
            } else if byte == UInt8(ascii: "\\"), index + 1 < limit, bytes[index + 1] == UInt8(ascii: "n") || bytes[index + 1] == UInt8(ascii: "r") {
                index += 2
            } else {
                break
            }
        }
        return index
    }

    package static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    package static func isUpperOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
    }

    /// Letters, digits, `_` and `-`.
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}

/// The next place a pattern occurs at or after an offset, for offsets asked in increasing order:
/// each byte of the text is searched once, however many times it is asked.
private struct PatternCursor {
    package let pattern: [UInt8]
    /// Where the pattern was last found, and up to where the text was searched for it.
    private var foundAt: Int?
    private var searchedTo = 0

    package init(_ pattern: [UInt8]) {
        self.pattern = pattern
    }

    package mutating func next(in bytes: [UInt8], from offset: Int) -> Int? {
        if let foundAt, foundAt >= offset { return foundAt }
        var index = Swift.max(offset, searchedTo)
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                foundAt = index
                searchedTo = index + 1
                return index
            }
            index += 1
        }
        searchedTo = index
        foundAt = nil
        return nil
    }
}
