import Foundation
public import Sculpt
import SculptShared

extension URLModelMatcher {
    /// Why no route matched the response, or why the route that matched gives another type than
    /// the one asked for, in sentences for ``SculptError/diagnosis``.
    ///
    /// When no route matched:
    /// - with a prefix, whether the path starts with it; a path without it is matched as if it
    ///   had it, and the route that would then win is named;
    /// - each route whose pattern matches but whose method or status does not apply, and why.
    ///
    /// When the caller asked for another type than the winner's: the route that won, and each
    /// route (up to three) that gives the asked type, with why it lost (its method, its status,
    /// a pattern before it, or a pattern that does not match the path).
    ///
    /// ```swift
    /// // No model type matched GET /users/octocat.
    /// // The path /users/octocat does not start with the prefix /v3: no route was tried.
    /// // Were it /v3/users/octocat, GET /users/* -> User would win.
    /// ```
    /// - Parameters:
    ///   - response: the response the matcher was asked about.
    ///   - resolved: what the matcher resolved it to, or `nil`.
    ///   - expected: the type the caller asked for, if any.
    /// - Returns: the sentences; empty when the response has no URL.
    public func diagnosis(for response: ResponseContext, resolved: ModelType?, expected: (any (Decodable & Sendable).Type)?) -> [String] {
        guard let url = response.url else { return [] }
        let explanation = explain(url, method: response.method, status: response.status)
        guard let resolved else { return unmatched(explanation, url: url) }
        guard let expected, resolved.type != expected else { return [] }
        return mismatched(explanation, expected: expected)
    }

    /// Why no route matched `url`: the prefix, and the candidates that did not apply.
    private func unmatched(_ explanation: Explanation, url: URL) -> [String] {
        switch explanation.prefix {
        case .missing(let prefix, let path):
            // The path as the matcher reads it, matched as if the prefix were there.
            let segments = PathBytes.withSegments(of: url) { bytes, ranges in ranges.map { Array(bytes[$0]) } }
            let shown = segments.map { String(decoding: $0, as: UTF8.self) }
            let winner = candidates(for: segments, shown: shown, method: explanation.method, status: explanation.status).first { $0.outcome == .wins }
            let prefixed = prefix + (path == "/" ? "" : path)
            return ["The path \(path) does not start with the prefix \(prefix): no route was tried."]
                + (winner.map { ["Were it \(prefixed), \($0.route) would win."] } ?? [])
        case .stripped(let prefix):
            return ["The prefix \(prefix) was stripped; routes were matched against /\(explanation.segments.joined(separator: "/"))."]
                + notApplying(explanation)
        case .none:
            return notApplying(explanation)
        }
    }

    /// The candidates whose pattern matches but whose method or status does not apply.
    private func notApplying(_ explanation: Explanation) -> [String] {
        explanation.candidates.compactMap { candidate in
            guard case .doesNotApply(let reason) = candidate.outcome else { return nil }
            return "\(candidate.route) matches the path but does not apply: \(reason)."
        }
    }

    /// The route that won, and why each route of the asked type lost.
    private func mismatched(_ explanation: Explanation, expected: any (Decodable & Sendable).Type) -> [String] {
        let name = String(describing: expected)
        let giving = routes.filter { $0.modelType?.type == expected }
        guard let winner = explanation.winner else {
            return giving.isEmpty ? [] : ["No route of this matcher won; \(giving[0]) gives \(name)."]
        }
        guard !giving.isEmpty else { return ["The route that won: \(winner).", "No route gives \(name)."] }
        return ["The route that won: \(winner)."] + giving.prefix(3).map { route in
            guard let candidate = explanation.candidates.first(where: { $0.route.isSame(as: route) }) else {
                return "\(route) gives \(name); its pattern does not match \(explanation.path)."
            }
            return switch candidate.outcome {
            case .wins: "\(route) gives \(name) and won."
            case .loses(let reason): "\(route) gives \(name); it loses: \(reason)."
            case .doesNotApply(let reason): "\(route) gives \(name); it does not apply: \(reason)."
            }
        }
    }
}
