import Foundation
import SculptShared

/// Resolves a response to the model type its body should be decoded into.
///
/// ```swift
/// struct VersionedMatcher: ModelMatcher {
///     func modelType(for response: ResponseContext, data: Data) throws -> ModelType? {
///         response.headerFields[.init("X-Api-Version")!] == "2" ? ModelType(UserV2.self) : ModelType(User.self)
///     }
/// }
/// ```
///
/// `SculptMatchers` has the common ones: a static type, URL patterns, a discriminator field in
/// the body, and composition. A matcher is consulted once per response, from any thread.
public protocol ModelMatcher: Sendable {
    /// The model type for this response, or `nil` when this matcher has none for it.
    ///
    /// - Throws: only when the matcher must read the body and cannot (a discriminator matcher given
    ///   bytes that are not JSON). A ``SculptError`` is passed on as its case says, with the
    ///   serializer's response and body as its context whatever it was built with; the serializer
    ///   wraps any other error in ``SculptError/Reason/matcherFailed(underlying:)``.
    func modelType(for response: ResponseContext, data: Data) throws -> ModelType?

    /// What this matcher has registered that comes closest to `response`, for the message of
    /// ``SculptError/Reason/noModelMatched(candidates:)``: say, the URL patterns nearest to its path.
    ///
    /// ```swift
    /// matcher.nearestCandidates(for: context)  // ["GET /users/*", "/users/*/repos"]
    /// ```
    ///
    /// The default is none.
    func nearestCandidates(for response: ResponseContext) -> [String]

    /// Why this matcher resolved `response` to `resolved` (`nil`: to nothing) when the caller
    /// asked for `expected`, in lines for ``SculptError/diagnosis``: say, that the path lacks the
    /// matcher's prefix, or which route won and why the route of the asked type lost.
    ///
    /// ```swift
    /// matcher.diagnosis(for: context, data: body, resolved: ModelType([Issue].self), expected: Issue.self)
    /// // ["The route that won: GET /repos/*/*/issues -> Array<Issue>.",
    /// //  "POST /repos/*/*/issues (201) -> Issue gives Issue; it does not apply: limited to status 201, the response's is 200."]
    /// ```
    ///
    /// Called only to build an error, so it may take time in the number of routes. The default
    /// is none.
    /// - Parameters:
    ///   - response: the response the matcher was asked about.
    ///   - data: its body, for a matcher that reads it (or asks one that does).
    ///   - resolved: what it resolved the response to, or `nil`.
    ///   - expected: the type the caller asked for, if any.
    /// - Returns: sentences, one per line; empty when there is nothing to add to the error's reason.
    func diagnosis(for response: ResponseContext, data: Data, resolved: ModelType?, expected: (any (Decodable & Sendable).Type)?) -> [String]

    /// The route or rule that resolves `response`, and the type it gives, as one line for a
    /// ``DecodingEvent``: say, `GET /repos/{owner}/{repo}/issues -> LossyArray<Issue>`, or
    /// `type: "question" -> Question`.
    ///
    /// ```swift
    /// matcher.matchedRoute(for: context, data: body)  // "GET /users/{login} -> User"
    /// ```
    ///
    /// Called only when a decode reports what it lost, at most once per response. The default is
    /// the type ``modelType(for:data:)`` resolves, described (`User`), or `nil` when it resolves
    /// none or throws.
    /// - Parameters:
    ///   - response: the response the matcher resolved.
    ///   - data: its body.
    /// - Returns: the line, or `nil` when the matcher resolves nothing for the response.
    func matchedRoute(for response: ResponseContext, data: Data) -> String?
}

extension ModelMatcher {
    /// No candidates: a matcher with nothing registered to compare has nothing to suggest.
    /// - Parameter response: the response no model matched.
    public func nearestCandidates(for response: ResponseContext) -> [String] { [] }

    /// Nothing to add: a matcher that does not explain its answers leaves the reason to speak.
    /// - Parameters:
    ///   - response: the response the matcher was asked about.
    ///   - data: its body.
    ///   - resolved: what it resolved the response to, or `nil`.
    ///   - expected: the type the caller asked for, if any.
    /// - Returns: no lines.
    public func diagnosis(for response: ResponseContext, data: Data, resolved: ModelType?, expected: (any (Decodable & Sendable).Type)?) -> [String] { [] }

    /// The type the matcher resolves, described: `User`, `Array<Issue> at items`.
    /// - Parameters:
    ///   - response: the response the matcher resolved.
    ///   - data: its body.
    /// - Returns: the type's description, or `nil` when the matcher resolves none or throws.
    public func matchedRoute(for response: ResponseContext, data: Data) -> String? {
        (try? modelType(for: response, data: data))?.description
    }
}
