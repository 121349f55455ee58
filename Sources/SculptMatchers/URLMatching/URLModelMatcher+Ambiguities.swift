import Foundation
import SculptShared
import Sculpt

extension URLModelMatcher {
    /// Two routes that can both match one response, told apart only by precedence: which wins,
    /// a path both match, and why.
    ///
    /// ```swift
    /// for ambiguity in matcher.ambiguities() { print(ambiguity) }
    /// // /users/# wins over /users/* for /users/1: at segment 2 ('1') '#' comes before '*'
    /// ```
    public struct Ambiguity: Sendable, CustomStringConvertible {
        /// The route that wins where both match.
        public var winner: Route
        /// The route that loses there.
        public var loser: Route
        /// A path (after the prefix) both patterns match, with `1` for `#` and `x` for `*`.
        public var example: String
        /// Why the winner comes first.
        public var reason: String

        /// E.g. `/users/# wins over /users/* for /users/1: at segment 2 ('1') '#' comes before '*'`.
        public var description: String {
            ShownText.line("\(winner.signature) wins over \(loser.signature) for \(example): \(reason)", limit: 2_048)
        }
    }

    /// Every pair of routes with different patterns that can both match one response (some path
    /// matches both, and their methods and statuses do not exclude each other), in registration
    /// order of the winner: where the table relies on precedence rather than on patterns that
    /// exclude each other. Routes of one pattern that differ by method or status are refinements,
    /// not ambiguities, and are not listed.
    ///
    /// ```swift
    /// matcher.ambiguities().map(\.description)
    /// ```
    ///
    /// It compares every pair of routes: it is for checking a table and for tests, not for each
    /// response.
    public func ambiguities() -> [Ambiguity] {
        var found: [Ambiguity] = []
        for (index, first) in routes.enumerated() {
            for second in routes[(index + 1)...] where first.pattern != second.pattern && Self.refinementsOverlap(first, second) {
                guard let example = Self.commonPath(first.pattern, second.pattern),
                    let difference = RoutePrecedence.firstDifference(first.pattern, second.pattern)
                else { continue }
                let (winner, loser) = difference.firstWins ? (first, second) : (second, first)
                found.append(Ambiguity(
                    winner: winner, loser: loser, example: "/" + example.map(Self.encoded).joined(separator: "/"),
                    reason: Self.precedence(of: winner, over: loser, segments: example)))
            }
        }
        // In the registration order of the winners (a stable sort keeps each winner's pairs in order).
        let order = Dictionary(routes.enumerated().map { ("\($0.element.signature)", $0.offset) }, uniquingKeysWith: { first, _ in first })
        return found.enumerated().sorted { ((order[$0.element.winner.signature] ?? 0), $0.offset) < ((order[$1.element.winner.signature] ?? 0), $1.offset) }.map(\.element)
    }

    /// Whether one response can satisfy both routes' methods and statuses.
    private static func refinementsOverlap(_ first: Route, _ second: Route) -> Bool {
        (first.method == nil || second.method == nil || first.method == second.method)
            && (first.status == nil || second.status == nil || first.status?.code == second.status?.code)
    }

    /// A path both patterns match, or `nil` when none does.
    private static func commonPath(_ first: URLPattern, _ second: URLPattern) -> [String]? {
        var path: [String] = []
        var index = 0
        while true {
            let left = index < first.tokens.count ? first.tokens[index] : nil
            let right = index < second.tokens.count ? second.tokens[index] : nil
            switch (left, right) {
            case (nil, nil), (.remainder, nil), (nil, .remainder), (.remainder, .remainder):
                return path
            case (.remainder, .some(let token)), (.some(let token), .remainder):
                // `**` takes the rest of the other pattern, whatever it is.
                let rest = left == .remainder ? second : first
                path.append(example(token))
                path += rest.tokens[(index + 1)...].compactMap { $0 == .remainder ? nil : example($0) }
                return path
            case (nil, .some), (.some, nil):
                return nil
            case (.some(let left), .some(let right)):
                guard let segment = commonSegment(left, right) else { return nil }
                path.append(segment)
            }
            index += 1
        }
    }

    /// A segment both tokens accept, or `nil`.
    private static func commonSegment(_ left: URLPattern.Token, _ right: URLPattern.Token) -> String? {
        switch (left, right) {
        case (.literal(let a), .literal(let b)): a.utf8.elementsEqual(b.utf8) ? a : nil
        case (.literal(let text), let other), (let other, .literal(let text)): RoutePrecedence.accepts(other, text.utf8) ? text : nil
        case (.digits, _), (_, .digits): "1"
        default: "x"
        }
    }

    /// A decoded segment as a path writes it: what a path reserves (`/`, `?`, `#`, `%`) and a
    /// dot segment percent-encoded, so that the example matches as shown.
    private static func encoded(_ segment: String) -> String {
        if segment == "." || segment == ".." { return String(repeating: "%2E", count: segment.count) }
        return PercentEncoding.encoded(segment)
    }

    /// A segment `token` accepts.
    private static func example(_ token: URLPattern.Token) -> String {
        switch token {
        case .literal(let text): text
        case .digits: "1"
        case .segment, .remainder: "x"
        }
    }
}
