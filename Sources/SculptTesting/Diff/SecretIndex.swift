import Foundation
import SculptShared

/// Secret values found by their first bytes, so that each line a diff shows is compared with the
/// few secrets it may hold rather than with all of them: linear in the line for any number of
/// secrets.
struct SecretIndex {
    private var byStart: [[UInt8]: Set<String>] = [:]

    /// Indexes `secrets`, each by the start of every spelling a line may show it in: as held,
    /// percent-decoded, and in either canonical form.
    init(_ secrets: some Sequence<String>) {
        for secret in secrets {
            let spellings = [secret, secret.removingPercentEncoding, secret.precomposedStringWithCanonicalMapping, secret.decomposedStringWithCanonicalMapping]
            for spelling in Set(spellings.compactMap { $0 }) where spelling.utf8.count >= Self.width {
                byStart[Self.key(spelling.utf8.prefix(Self.width)), default: []].insert(secret)
            }
        }
    }

    /// The secrets `text` may hold: those whose start (in any case) it holds as written, or
    /// decoded as ``ShownText`` decodes escapes, up to three times.
    func candidates(in text: String) -> [String] {
        guard !byStart.isEmpty else { return [] }
        var readings = [Array(text.utf8)]
        while readings.count < 4, let last = readings.last, let view = EscapedText(last) { readings.append(view.decoded) }
        var found = Set<String>()
        for bytes in readings where bytes.count >= Self.width {
            for start in 0...(bytes.count - Self.width) {
                if let hits = byStart[Self.key(bytes[start..<(start + Self.width)])] { found.formUnion(hits) }
            }
        }
        return Array(found)
    }

    /// How many first bytes a secret is found by: the shortest secret value hidden.
    private static let width = SecretPolicy.shortestSecretValue

    private static func key(_ bytes: some Collection<UInt8>) -> [UInt8] { bytes.map(ASCII.lowercased) }
}
