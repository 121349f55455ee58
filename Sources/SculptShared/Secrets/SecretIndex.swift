import Foundation

/// Secret values found where a text holds them, so that each text a report shows (a diff's line,
/// an event's coding path, a member's name) is compared with the few secrets it holds rather than
/// with all of them: a rolling hash over the text for each length a secret has, so the cost is
/// linear in the text for any number of secrets, however alike they are.
///
/// ```swift
/// let index = SecretIndex(["s3cretvalue9"])
/// index.hiding(in: "/n/S3CR%45TVALUE9")   // "/n/REDACTED"
/// ```
package struct SecretIndex: Sendable {
    /// Each spelling (ASCII lowercased) by its length and hash, with the secrets it spells.
    private var spellings: [Int: [UInt64: [(bytes: [UInt8], secret: String)]]] = [:]
    /// The secrets by their first bytes: a text cut short (`abc1…`) may show only their start.
    private var byStart: [[UInt8]: Set<String>] = [:]

    /// Indexes `secrets`, each by every spelling a text may show it in: as held, percent-decoded,
    /// in either canonical form, and upper- or lowercased.
    package init(_ secrets: some Sequence<String>) {
        for secret in Set(secrets) {
            let forms = [secret, secret.removingPercentEncoding, secret.precomposedStringWithCanonicalMapping, secret.decomposedStringWithCanonicalMapping, secret.uppercased(), secret.lowercased()]
            for form in Set(forms.compactMap { $0 }) where form.utf8.count >= Self.width {
                let bytes = form.utf8.map(ASCII.lowercased)
                spellings[bytes.count, default: [:]][Self.hash(bytes[...]), default: []].append((bytes, secret))
                byStart[Array(bytes.prefix(Self.width)), default: []].insert(secret)
            }
        }
    }

    /// The secrets `text` holds (in any case) as written, or decoded as ``ShownText`` decodes
    /// escapes, up to three times; and, where it is cut short (`…`), those whose start it shows.
    package func candidates(in text: some StringProtocol) -> [String] {
        guard !spellings.isEmpty else { return [] }
        let written = Array(text.utf8)
        let readings = ([written] + EscapeLayers(written).readings).map { $0.map(ASCII.lowercased) }
        var found = Set<String>()
        for bytes in readings {
            for (length, byHash) in spellings where length <= bytes.count {
                // A polynomial hash of each window of `length` bytes, rolled one byte at a time.
                var power: UInt64 = 1
                for _ in 1..<length { power = power &* Self.base }
                var hash = Self.hash(bytes[0..<length])
                var start = 0
                while true {
                    if let held = byHash[hash] {
                        for spelling in held where bytes[start..<(start + length)].elementsEqual(spelling.bytes) { found.insert(spelling.secret) }
                    }
                    guard start + length < bytes.count else { break }
                    hash = (hash &- UInt64(bytes[start]) &* power) &* Self.base &+ UInt64(bytes[start + length])
                    start += 1
                }
            }
        }
        if text.contains("…"), let bytes = readings.first, bytes.count >= Self.width {
            for start in 0...(bytes.count - Self.width) { found.formUnion(byStart[Array(bytes[start..<(start + Self.width)])] ?? []) }
        }
        return Array(found)
    }

    /// `text` with each secret it holds, in any spelling ``SecretPolicy/redacting(values:in:)``
    /// finds, replaced by ``Secrets/marker``.
    package func hiding(in text: some StringProtocol) -> String {
        let candidates = candidates(in: text)
        return candidates.isEmpty ? String(text) : SecretPolicy.redacting(values: candidates, in: String(text))
    }

    /// The shortest secret value hidden.
    private static let width = SecretPolicy.shortestSecretValue

    private static let base: UInt64 = 1_099_511_628_211

    private static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 &* base &+ UInt64($1) }
    }
}
