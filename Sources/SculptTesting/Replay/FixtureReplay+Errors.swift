import Foundation
import SculptShared
import Sculpt

extension FixtureReplay {
    /// A request that no recorded interaction answers, with the closest recorded ones and how
    /// each differs.
    ///
    /// ```
    /// No recorded interaction matches GET /repos/a/b/issues?state=open.
    /// Closest recorded:
    /// - GET /repos/a/b/issues?state=closed (session.json #2): query: has state=open, lacks state=closed
    /// ```
    ///
    /// The description shows no secret (``Redaction``'s rules, plus any name the recording redacted),
    /// is at most 4,096 bytes, and its lines are only the ones above: every value it quotes from
    /// the request or the recordings has its control characters escaped (`\r`, `\n`, `\u{1B}`).
    /// ``FixtureServer`` sends it as a miss's body. Finding the closest recorded interactions
    /// compares the request in full with at most 64 of them, however large the cassette: those of
    /// its method and path first, then those of the paths most like its own.
    public struct MissError: Error, Sendable, CustomStringConvertible {
        /// A recorded interaction and how the request differs from it.
        public struct Candidate: Sendable {
            /// The recorded interaction.
            public var fixture: Fixture
            /// One line per difference (method, path, query, a matched header, body).
            public var differences: [String]
        }

        /// The request that went unanswered.
        public var request: Fixture.Request
        /// How many recorded interactions matched it but were already used.
        public var usedUp: Int
        /// The closest recorded interactions, fewest differences first (at most three).
        public var nearest: [Candidate]
        /// How many recorded interactions were compared in full to find ``nearest`` (at most
        /// ``FixtureReplay/nearestBudget``).
        package var comparedInFull = 0
        /// What the description redacts: the replay's names (``FixtureReplay/redaction``).
        var redaction = SecretPolicy.default

        /// The most a description holds, in UTF-8 bytes.
        static let descriptionLimit = 4_096
        /// The most one candidate's line holds, in UTF-8 bytes.
        static let candidateLimit = 900
        /// The most candidates a description lists.
        static let shownCandidates = 3

        /// What was asked, what is recorded, and how they differ; secrets redacted, at most 4,096
        /// bytes.
        public var description: String {
            let policy = redaction
            let asked = Self.line(request, policy)
            // A secret value of one URL shown, or of its request's secret headers, is hidden
            // wherever another shows it under an ordinary name.
            let hidden = ([request] + nearest.prefix(Self.shownCandidates).map(\.fixture.request)).flatMap {
                policy.secretValues(in: $0.url) + policy.secretValues(in: $0.headerFields)
            }
            if usedUp > 0 {
                return ShownText.line(
                    "No unused recorded interaction matches \(asked): its \(ClippedText.count(usedUp)) recorded response\(usedUp == 1 ? " was" : "s were") already used. Set repeatsLastResponse to serve the last one again.",
                    limit: Self.descriptionLimit, hiding: hidden, policy: policy)
            }
            var lines = ["No recorded interaction matches \(asked)."]
            if nearest.isEmpty {
                lines.append("Nothing is recorded.")
            } else {
                lines.append("Closest recorded:")
                for candidate in nearest.prefix(Self.shownCandidates) {
                    let source = candidate.fixture.source.map { " (\(ClippedText.value($0, limit: 128)))" } ?? ""
                    let differences = ClippedText.list(candidate.differences, separator: "; ", limit: Self.candidateLimit)
                    lines.append(ShownText.line("- \(Self.line(candidate.fixture.request, policy))\(source): \(differences)", limit: Self.candidateLimit, hiding: hidden, policy: policy))
                }
                if nearest.count > Self.shownCandidates {
                    lines.append("and \(ClippedText.count(nearest.count - Self.shownCandidates)) more")
                }
            }
            return ClippedText.value(lines.map { ShownText.line($0, limit: Self.descriptionLimit, hiding: hidden, policy: policy) }.joined(separator: "\n"), limit: Self.descriptionLimit)
        }

        /// `GET /path?query`, redacted, escaped and bounded.
        static func line(_ request: Fixture.Request, _ policy: SecretPolicy) -> String {
            "\(PrintableText.value(request.method.rawValue, limit: 64)) \(target(of: request.url, policy))"
        }

        /// The path and query, redacted (``Redaction``'s rules and `policy`'s names; the user name,
        /// password and fragment are not shown), escaped (``PrintableText``) and cut at 1,024
        /// bytes, without joining a long path and query first: descriptions end up in logs and,
        /// from ``FixtureServer``, in response bodies.
        static func target(of url: URL, _ policy: SecretPolicy = .default) -> String {
            // A secret value the URL repeats elsewhere (`?token=abc123&state=abc123`) is hidden
            // there too.
            let values = policy.secretValues(in: url)
            let url = policy.redacting(url)
            let query = url.query(percentEncoded: true).map { ["?", $0] } ?? []
            let parts = [RequestComparison.shownPath(of: url)] + query
            guard !values.isEmpty else { return PrintableText.value(joining: parts, limit: 1_024) }
            // Looked for in what can be shown: each part's first 64 KiB.
            return PrintableText.value(joining: parts.map { SecretPolicy.redacting(values: values, in: ClippedText.prefix($0, bytes: 64 << 10)) }, limit: 1_024)
        }
    }

    /// Recorded interactions that no request used, from ``FixtureReplay/verifyAllUsed()``.
    public struct UnusedInteractionsError: Error, Sendable, CustomStringConvertible {
        /// The interactions left unused, in recorded order.
        public var interactions: [Fixture]
        /// What the description redacts: the replay's names (``FixtureReplay/redaction``).
        var redaction = SecretPolicy.default

        /// E.g. `2 recorded interactions were not used: GET /a (a.json), POST /b (b.json)`; secrets
        /// redacted, at most 4,096 bytes (`… and 9,990 more`).
        public var description: String {
            let list = interactions.lazy.map { fixture in
                let source = fixture.source.map { " (\(ClippedText.value($0, limit: 128)))" } ?? ""
                return ShownText.line("\(MissError.line(fixture.request, redaction))\(source)", limit: MissError.candidateLimit, policy: redaction)
            }
            let count = ClippedText.count(interactions.count)
            let head = "\(count) recorded interaction\(interactions.count == 1 ? " was" : "s were") not used: "
            return head + ClippedText.list(list, limit: MissError.descriptionLimit - head.utf8.count)
        }
    }
}
