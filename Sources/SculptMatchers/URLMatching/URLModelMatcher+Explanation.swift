public import Foundation
import SculptShared
public import HTTPTypes
import Sculpt

extension URLModelMatcher {
    /// How a ``URLModelMatcher`` decides one URL, method and status, step by step; printing it
    /// shows the steps.
    ///
    /// ```
    /// GET /v3/users/octocat/repos (status 200)
    /// prefix /v3: stripped
    /// matched against: /users/octocat/repos
    /// candidates, in precedence order:
    ///   1. GET /users/*/repos -> Array<Repository>: wins
    ///   2. /users/*/** -> Any: loses: at segment 3 ('repos') a literal 'repos' comes before '**'
    ///   3. POST /users/*/repos -> Repository: does not apply: limited to POST, the request is GET
    /// ```
    public struct Explanation: Sendable, CustomStringConvertible {
        /// What became of the matcher's path prefix.
        public enum PrefixStep: Sendable, Equatable {
            /// The matcher has no prefix.
            case none
            /// The prefix was there and was stripped.
            case stripped(String)
            /// The path does not start with the prefix: no route is tried.
            case missing(expected: String, path: String)
        }

        /// A route whose pattern matches the path, and how it fared.
        public struct Candidate: Sendable, CustomStringConvertible {
            /// What became of a candidate.
            public enum Outcome: Sendable, Equatable {
                /// The route the matcher picks (a delegating route: whose matcher is asked first).
                case wins
                /// It applies, but the winner comes first; why.
                case loses(because: String)
                /// Its method or status is not the response's; why.
                case doesNotApply(because: String)
            }

            /// The route.
            public var route: Route
            /// How it fared.
            public var outcome: Outcome

            /// E.g. `GET /users/*/repos -> Array<Repository>: wins`.
            public var description: String {
                let text = switch outcome {
                case .wins: "\(route): wins"
                case .loses(let reason): "\(route): loses: \(reason)"
                case .doesNotApply(let reason): "\(route): does not apply: \(reason)"
                }
                return ShownText.line(text, limit: 4_096)
            }
        }

        /// The method asked about, if any.
        public var method: HTTPRequest.Method?
        /// The status asked about, if any.
        public var status: HTTPResponse.Status?
        /// The URL's path as matched and shown as sent: `.` and `..` resolved, each segment with
        /// `%`, `/`, `?` and `#` percent-encoded, so that it decodes to the segments matched.
        public var path: String
        /// What became of the prefix.
        public var prefix: PrefixStep
        /// The segments the routes were matched against, after the prefix, written as ``path``
        /// writes them; empty when the prefix was missing.
        public var segments: [String]
        /// Every route whose pattern matches ``segments``, in precedence order, with its outcome.
        public var candidates: [Candidate]

        /// The winning route, if any.
        public var winner: Route? {
            candidates.first { $0.outcome == .wins }?.route
        }

        /// The explanation as lines: the request, the prefix, the candidates and why each lost.
        public var description: String {
            var lines = ["\(method.map { "\($0.rawValue) " } ?? "")\(path)\(status.map { " (status \($0.code))" } ?? "")"]
            switch prefix {
            case .none: break
            case .stripped(let prefix): lines.append("prefix \(prefix): stripped")
            case .missing(let expected, let path): lines.append("prefix \(expected): not found at the start of \(path); no route is tried")
            }
            guard prefix.isFound else { return ShownText.lines(lines, lineLimit: 1_024, limit: .max) }
            lines.append("matched against: /" + segments.joined(separator: "/"))
            if candidates.isEmpty {
                lines.append("no route's pattern matches")
            } else {
                lines.append("candidates, in precedence order:")
                lines += candidates.enumerated().map { "  \($0.offset + 1). \($0.element)" }
                if winner == nil { lines.append("no candidate applies") }
            }
            // Each line through the gate: a path or a pattern may hold anything.
            return ShownText.lines(lines, lineLimit: 1_024, limit: .max)
        }
    }

    /// How the matcher decides `url` for `method` and `status`: the prefix stripped or why not,
    /// the segments, and every route whose pattern matches with why it wins, loses or does not
    /// apply. The answer ``route(for:method:status:)`` gives is the winner.
    ///
    /// ```swift
    /// print(matcher.explain(url, method: .get, status: .ok))
    /// ```
    ///
    /// A route that delegates to a matcher wins as any route would; at match time, when its
    /// matcher answers nil, the next applicable candidate is asked. Explaining reads every route,
    /// so it costs time in the number of routes: for diagnostics, not for each response.
    /// - Parameters:
    ///   - url: the URL to explain.
    ///   - method: the request's method, as `route(for:method:status:)` takes it.
    ///   - status: the response's status, as `route(for:method:status:)` takes it.
    public func explain(_ url: URL, method: HTTPRequest.Method? = nil, status: HTTPResponse.Status? = nil) -> Explanation {
        // Matched as bytes, as the lookup matches them; shown as text.
        let all = PathBytes.segments(of: url)
        let shown = PathBytes.segmentsAsSent(of: url)
        let shownPath = "/" + shown.joined(separator: "/")
        var explanation = Explanation(method: method, status: status, path: shownPath, prefix: .none, segments: [], candidates: [])
        let prefixText = shownPrefix
        if !prefix.isEmpty {
            guard all.starts(with: prefixBytes) else {
                explanation.prefix = .missing(expected: prefixText, path: shownPath)
                return explanation
            }
            explanation.prefix = .stripped(prefixText)
        }
        explanation.segments = Array(shown.dropFirst(prefix.count))
        explanation.candidates = candidates(for: Array(all.dropFirst(prefix.count)), shown: explanation.segments, method: method, status: status)
        return explanation
    }

    /// The routes whose patterns match `segments`, in precedence order, with their outcomes.
    func candidates(
        for segments: [[UInt8]], shown: [String], method: HTTPRequest.Method?, status: HTTPResponse.Status?
    ) -> [Explanation.Candidate] {
        let matching = routes.filter { RoutePrecedence.matches($0.pattern, segments) }
        let ordered = matching.sorted { first, second in
            if let difference = RoutePrecedence.firstDifference(first.pattern, second.pattern) { return difference.firstWins }
            return Self.specificity(first) < Self.specificity(second)
        }
        var winner: Route?
        return ordered.map { route in
            guard RoutePrecedence.specificity(method: route.method, status: route.status, for: method, status) != nil else {
                return .init(route: route, outcome: .doesNotApply(because: Self.notApplying(route, method: method, status: status)))
            }
            guard let winning = winner else {
                winner = route
                return .init(route: route, outcome: .wins)
            }
            return .init(route: route, outcome: .loses(because: Self.precedence(of: winning, over: route, segments: shown)))
        }
    }

    /// A route's rank among the routes of its pattern, whatever the response: with both a method
    /// and a status first.
    private static func specificity(_ route: Route) -> Int {
        RoutePrecedence.specificity(method: route.method, status: route.status, for: route.method, route.status) ?? 3
    }

    private static func notApplying(_ route: Route, method: HTTPRequest.Method?, status: HTTPResponse.Status?) -> String {
        if let required = route.method, required != method {
            return "limited to \(required.rawValue), the request is \(method?.rawValue ?? "of no known method")"
        }
        let required = route.status.map { "\($0.code)" } ?? ""
        return "limited to status \(required), the response's is \(status.map { "\($0.code)" } ?? "unknown")"
    }

    /// Why `winner` comes before `loser` for `segments`.
    static func precedence(of winner: Route, over loser: Route, segments: [String]) -> String {
        guard let difference = RoutePrecedence.firstDifference(winner.pattern, loser.pattern) else {
            let kinds = ["a method and a status", "a method", "a status", "neither a method nor a status"]
            return "same pattern; a route with \(kinds[specificity(winner)]) comes before one with \(kinds[specificity(loser)])"
        }
        let index = difference.segment
        let token = { (pattern: URLPattern) in index < pattern.tokens.count ? pattern.tokens[index] : nil }
        let place = index < segments.count ? "at segment \(index + 1) ('\(segments[index])')" : "after the last segment"
        return "\(place) \(RoutePrecedence.name(token(winner.pattern))) comes before \(RoutePrecedence.name(token(loser.pattern)))"
    }
}

extension URLModelMatcher {
    /// The prefix as a message shows it, as given (percent-encoded, `.` and `..` resolved):
    /// `/v3`, `/team%2Fx/api`; `/` for none.
    var shownPrefix: String {
        prefixSent.isEmpty ? "/" : prefixSent.map { "/" + $0 }.joined()
    }
}

extension URLModelMatcher.Explanation.PrefixStep {
    /// Whether matching went on past the prefix.
    var isFound: Bool {
        if case .missing = self { false } else { true }
    }
}
