import Foundation
public import Sculpt
import SculptShared

extension URLModelMatcher {
    /// Why no route matched the response, or why the route that matched gives another type than
    /// the one asked for, in sentences for `SculptError.diagnosis`.
    ///
    /// When no route matched:
    /// - with a prefix, whether the path starts with it; a path without it is matched as if it
    ///   had it, and the route that would then win is named;
    /// - each route whose pattern matches but whose method or status does not apply, and why;
    /// - without one, the route that would win were the path's first segments (up to four) part
    ///   of the prefix, and the prefix to give the matcher.
    ///
    /// When the caller asked for another type than the winner's: the route that won, and each
    /// route (up to three) that gives the asked type, with why it lost: of those whose pattern
    /// matches the path, its method, its status or a pattern before it; when no such route
    /// matches, that its pattern does not.
    ///
    /// ```swift
    /// // No model type matched GET /users/octocat.
    /// // The path /users/octocat does not start with the prefix /v3: no route was tried.
    /// // Were it /v3/users/octocat, GET /users/* -> User would win.
    /// ```
    /// - Parameters:
    ///   - response: the response the matcher was asked about.
    ///   - data: its body, which the matchers of routes that delegate are asked about again.
    ///   - resolved: what the matcher resolved it to, or `nil`.
    ///   - expected: the type the caller asked for, if any.
    /// - Returns: the sentences; empty when the response has no URL.
    public func diagnosis(for response: ResponseContext, data: Data, resolved: ModelType?, expected: (any (Decodable & Sendable).Type)?) -> [String] {
        guard let url = response.url else { return [] }
        let explanation = explain(url, method: response.method, status: response.status)
        let lines: [String]
        if let resolved {
            guard let expected, resolved.type != expected else { return [] }
            lines = DecodingObservation.rereading { mismatched(explanation, expected: expected, response, data) }
        } else {
            lines = unmatched(explanation, url: url)
        }
        let secrets = SecretPolicy.default.secretValues(in: url)
        return lines.map { ShownText.line($0, limit: 1_024, hiding: secrets) }
    }

    /// Why no route matched `url`: the prefix, and the candidates that did not apply.
    private func unmatched(_ explanation: Explanation, url: URL) -> [String] {
        switch explanation.prefix {
        case .missing(let prefix, let path):
            // The path as the matcher reads it, matched as if the prefix were there.
            let segments = PathBytes.segments(of: url)
            let sent = PathBytes.segmentsAsSent(of: url)
            if let lines = prefixAfterBasePath(segments, sent, path: path, explanation) { return lines }
            let winner = candidates(for: segments, shown: sent, method: explanation.method, status: explanation.status).first { $0.outcome == .wins }
            let prefixed = prefix + (path == "/" ? "" : path)
            return ["The path \(path) does not start with the prefix \(prefix): no route was tried."]
                + (winner.map { ["Were it \(prefixed), \($0.route) would win."] } ?? [])
        case .stripped(let prefix):
            return ["The prefix \(prefix) was stripped; routes were matched against /\(explanation.segments.joined(separator: "/"))."]
                + notApplyingOrBasePath(explanation, url: url)
        case .none:
            return notApplyingOrBasePath(explanation, url: url)
        }
    }

    /// When the prefix comes after a few segments of the path (`/api/v3/users` for the prefix
    /// `/v3`): the base path to give as the prefix, and the route that would then win.
    /// - Parameters:
    ///   - segments: the path's decoded segments, as matched.
    ///   - sent: the same segments as sent.
    private func prefixAfterBasePath(_ segments: [[UInt8]], _ sent: [String], path: String, _ explanation: Explanation) -> [String]? {
        let count = prefixBytes.count
        let start = stride(from: 1, through: Swift.min(Self.basePathLimit, segments.count - count), by: 1).first { start in
            segments[start..<(start + count)].elementsEqual(prefixBytes)
        }
        guard let start else { return nil }
        let text = { (part: ArraySlice<String>) in part.map { "/" + $0 }.joined() }
        let rest = Array(segments.dropFirst(start + count))
        let winner = candidates(for: rest, shown: Array(sent.dropFirst(start + count)), method: explanation.method, status: explanation.status)
            .first { $0.outcome == .wins }
        return ["The path \(path) does not start with the prefix \(text(sent[start..<(start + count)])), but has it after \(text(sent[..<start])).",
                "A base path before every route belongs in the prefix: URLModelMatcher(pathPrefix: \"\(text(sent[..<(start + count)]))\")."]
            + (winner.map { ["With it, \($0.route) would win."] } ?? [])
    }

    /// The most leading segments tried as a base path the prefix lacks.
    private static let basePathLimit = 4

    /// The candidates whose pattern matches but whose method or status does not apply; without
    /// any, the route that would win were the path's first segments (up to four) part of the
    /// prefix: a base path the matcher was not given.
    private func notApplyingOrBasePath(_ explanation: Explanation, url: URL) -> [String] {
        let lines = notApplying(explanation)
        guard lines.isEmpty else { return lines }
        let segments = Array(PathBytes.segments(of: url).dropFirst(prefixBytes.count))
        let sent = Array(PathBytes.segmentsAsSent(of: url).dropFirst(prefixBytes.count))
        for dropped in stride(from: 1, to: Swift.min(segments.count, Self.basePathLimit + 1), by: 1) {
            let rest = Array(segments.dropFirst(dropped))
            guard let winner = candidates(for: rest, shown: Array(sent.dropFirst(dropped)), method: explanation.method, status: explanation.status)
                .first(where: { $0.outcome == .wins }) else { continue }
            let base = sent.prefix(dropped).map { "/" + $0 }.joined()
            return ["Without its first segments \(base), the path would match \(winner.route).",
                    "A base path before every route belongs in the prefix: URLModelMatcher(pathPrefix: \"\(prefix.isEmpty ? "" : shownPrefix)\(base)\")."]
        }
        return []
    }

    /// The candidates whose pattern matches but whose method or status does not apply: the first
    /// ``notApplyingLimit``, then how many more.
    private func notApplying(_ explanation: Explanation) -> [String] {
        let candidates = explanation.candidates.lazy.compactMap { candidate -> (Route, String)? in
            guard case .doesNotApply(let reason) = candidate.outcome else { return nil }
            return (candidate.route, reason)
        }
        var lines = Array(candidates.prefix(Self.notApplyingLimit).map { route, reason in "\(route) matches the path but does not apply: \(reason)." })
        let more = candidates.count - lines.count
        if more > 0 { lines.append("… and \(ClippedText.count(more)) more route\(more == 1 ? "" : "s") that match the path but do not apply.") }
        return lines
    }

    /// The most routes that do not apply a diagnosis names one by one.
    private static let notApplyingLimit = 8

    /// The route that won, and why each route of the asked type lost. A route that delegates and
    /// whose matcher answered nothing for the body did not win: the next did.
    private func mismatched(_ explanation: Explanation, expected: any (Decodable & Sendable).Type, _ response: ResponseContext, _ data: Data) -> [String] {
        let name = String(describing: expected)
        let giving = routes.filter { $0.modelType?.type == expected }
        var passed: [Route] = []
        let winner = explanation.candidates.first { candidate in
            switch (candidate.outcome, candidate.route.target) {
            case (.doesNotApply, _): return false
            case (_, .model): return true
            case (_, .matcher(let matcher)):
                if (try? matcher.modelType(for: response, data: data)) != nil { return true }
                passed.append(candidate.route)
                return false
            }
        }?.route
        guard let winner else {
            return giving.isEmpty ? [] : ["No route of this matcher won; \(giving[0]) gives \(name)."]
        }
        let passing = passed.prefix(3).map { "\($0) applies, but its matcher answered nothing for this body." }
        guard !giving.isEmpty else {
            let delegating = routes.filter { if case .matcher = $0.target { true } else { false } }
            let none = delegating.isEmpty ? "No route gives \(name)." : "No route gives \(name) but through a matcher: \(ClippedText.list(delegating.lazy.map(\.description), limit: 512))."
            return passing + ["The route that won: \(winner).", none]
        }
        // The routes of the asked type whose pattern matches the path, when there are any: why
        // those lost is the answer; the others are listed only when no such route exists.
        // Looked up by registration, not searched: time in proportion to the routes, however many
        // of them match the path.
        var candidates: [ObjectIdentifier: Explanation.Candidate] = [:]
        for candidate in explanation.candidates where candidates[candidate.route.registration] == nil {
            candidates[candidate.route.registration] = candidate
        }
        let matching = giving.lazy.compactMap { candidates[$0.registration] }.prefix(3)
        guard !matching.isEmpty else {
            return passing + ["The route that won: \(winner)."] + giving.prefix(3).map { "\($0) gives \(name); its pattern does not match \(explanation.path)." }
        }
        return passing + ["The route that won: \(winner)."] + matching.map { candidate in
            let route = candidate.route
            return switch candidate.outcome {
            case .wins: "\(route) gives \(name) and won."
            case .loses(let reason): "\(route) gives \(name); it loses: \(reason)."
            case .doesNotApply(let reason): "\(route) gives \(name); it does not apply: \(reason)."
            }
        }
    }
}
