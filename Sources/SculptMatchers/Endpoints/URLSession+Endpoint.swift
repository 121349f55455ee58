public import Foundation
public import Sculpt
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension URLSession {
    /// Sends an endpoint's request to `baseURL` and serializes its response as the endpoint's
    /// model type.
    ///
    /// ```swift
    /// let issue = try await URLSession.shared.model(
    ///     GitHub.issue(["owner": "apple", "repo": "swift", "number": 1]), baseURL: api, serializer: serializer)
    /// ```
    /// - Parameters:
    ///   - request: the endpoint's request.
    ///   - baseURL: where the API is (``EndpointRequest/urlRequest(baseURL:)``).
    ///   - serializer: the serializer whose matcher resolves the endpoint's model type, as one with
    ///     the endpoint registered does.
    /// - Returns: the model.
    /// - Throws: `URLError(.badURL)` for a base URL without a scheme or host, the session's
    ///   transport error, or a `SculptError` (its reason
    ///   `SculptError.Reason.typeMismatch(expected:matched:)` when the matcher resolved another type).
    public func model<Matcher, M>(
        _ request: EndpointRequest<M>, baseURL: URL, serializer: ModelResponseSerializer<Matcher>
    ) async throws -> M {
        try await model(for: request.urlRequest(baseURL: baseURL), serializer: serializer, as: M.self)
    }
}
