import Foundation

extension FixtureReplay {
    /// A request that no recorded interaction answers, with the closest recorded ones and how
    /// each differs.
    ///
    /// ```
    /// No recorded interaction matches GET /repos/a/b/issues?state=open.
    /// Closest recorded:
    /// - GET /repos/a/b/issues?state=closed (session.json #2): query: has state=open, lacks state=closed
    /// ```
    public struct Miss: Error, Sendable, CustomStringConvertible {
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

        /// What was asked, what is recorded, and how they differ.
        public var description: String {
            let asked = "\(request.method.rawValue) \(Self.target(of: request.url))"
            if usedUp > 0 {
                return "No unused recorded interaction matches \(asked): its \(usedUp) recorded response\(usedUp == 1 ? " was" : "s were") already used. Set repeatsLastResponse to serve the last one again."
            }
            var lines = ["No recorded interaction matches \(asked)."]
            if nearest.isEmpty {
                lines.append("Nothing is recorded.")
            } else {
                lines.append("Closest recorded:")
                for candidate in nearest {
                    let recorded = "\(candidate.fixture.request.method.rawValue) \(Self.target(of: candidate.fixture.request.url))"
                    let source = candidate.fixture.source.map { " (\($0))" } ?? ""
                    lines.append("- \(recorded)\(source): \(candidate.differences.joined(separator: "; "))")
                }
            }
            return lines.joined(separator: "\n")
        }

        /// The path and query, with secret query parameters redacted (``Redaction``'s defaults):
        /// descriptions end up in logs and, from ``FixtureServer``, in response bodies.
        static func target(of url: URL) -> String {
            let url = Redaction().redacting(url)
            return RequestComparison.path(of: url) + (url.query(percentEncoded: true).map { "?\($0)" } ?? "")
        }
    }

    /// Recorded interactions that no request used, from ``FixtureReplay/verifyAllUsed()``.
    public struct UnusedInteractions: Error, Sendable, CustomStringConvertible {
        /// The interactions left unused, in recorded order.
        public var interactions: [Fixture]

        /// E.g. `2 recorded interactions were not used: GET /a (a.json), POST /b (b.json)`.
        public var description: String {
            let list = interactions.map { "\($0.request.method.rawValue) \(Miss.target(of: $0.request.url))\($0.source.map { " (\($0))" } ?? "")" }
            return "\(interactions.count) recorded interaction\(interactions.count == 1 ? " was" : "s were") not used: \(list.joined(separator: ", "))"
        }
    }
}
