public import Foundation
import SculptShared
public import Sculpt

/// Asks matchers in order; the first that resolves a model type wins.
///
/// ```swift
/// let matcher = FirstMatchModelMatcher([urlMatcher, typeFieldMatcher, StaticModelMatcher(Unknown.self)])
/// ```
///
/// A matcher that throws stops the search: its error is the answer, since it could not read a body
/// that later matchers would read the same way.
public struct FirstMatchModelMatcher: ModelMatcher {
    /// The matchers, in the order they are asked.
    public let matchers: [any ModelMatcher]

    /// Creates a matcher that asks `matchers` in order.
    ///
    /// ```swift
    /// let matcher = FirstMatchModelMatcher([v2Routes, v1Routes])
    /// ```
    /// - Parameter matchers: the matchers, first asked first.
    public init(_ matchers: [any ModelMatcher]) {
        self.matchers = matchers
    }

    /// The first non-`nil` answer of ``matchers``, or `nil` when none has one.
    ///
    /// - Parameters:
    ///   - response: the response to match.
    ///   - data: its body.
    /// - Throws: the first error a matcher throws.
    public func modelType(for response: ResponseContext, data: Data) throws -> ModelType? {
        for matcher in matchers {
            if let modelType = try matcher.modelType(for: response, data: data) {
                return modelType
            }
        }
        return nil
    }

    /// The candidates of every matcher, in order.
    /// - Parameter response: the response no matcher matched.
    public func nearestCandidates(for response: ResponseContext) -> [String] {
        matchers.flatMap { $0.nearestCandidates(for: response) }.map { ShownText.line($0, limit: 2_048) }
    }

    /// What each matcher asked says, in order: those that answered nothing, and the one that
    /// resolved the response (the matchers after it were not asked, and say nothing).
    /// - Parameters:
    ///   - response: the response the matchers were asked about.
    ///   - data: its body, which each matcher is asked about again to find the one that answered.
    ///   - resolved: what the first matcher to answer resolved it to, or `nil`.
    ///   - expected: the type the caller asked for, if any.
    /// - Returns: the matchers' lines, in order.
    public func diagnosis(for response: ResponseContext, data: Data, resolved: ModelType?, expected: (any (Decodable & Sendable).Type)?) -> [String] {
        DecodingObservation.rereading {
            var lines: [String] = []
            for matcher in matchers {
                let answer = resolved == nil ? nil : try? matcher.modelType(for: response, data: data)
                lines += matcher.diagnosis(for: response, data: data, resolved: answer, expected: expected)
                if answer != nil { break }
            }
            let secrets = response.url.map { SecretPolicy.default.secretValues(in: $0) } ?? []
            return lines.map { ShownText.line($0, limit: 1_024, hiding: secrets) }
        }
    }

    /// The line of the first matcher that resolves the response, as matching picks it.
    /// - Parameters:
    ///   - response: the response the matchers resolved.
    ///   - data: its body.
    /// - Returns: that matcher's line, or `nil` when none resolves the response (or one throws first).
    public func matchedRoute(for response: ResponseContext, data: Data) -> String? {
        for matcher in matchers {
            do {
                if try DecodingObservation.rereading({ try matcher.modelType(for: response, data: data) }) != nil {
                    return matcher.matchedRoute(for: response, data: data).map { ShownText.line($0, limit: 2_048) }
                }
            } catch {
                return nil
            }
        }
        return nil
    }
}
