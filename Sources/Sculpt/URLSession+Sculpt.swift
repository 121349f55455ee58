public import Foundation
import SculptShared
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension URLSession {
    /// Loads a request and serializes its response: the one-line drop-in for an existing session.
    ///
    /// ```swift
    /// let model = try await URLSession.shared.model(for: request, serializer: serializer)
    /// ```
    ///
    /// The serializer sees the final URL (after redirects) and the request's method.
    /// - Parameters:
    ///   - request: the request to load.
    ///   - serializer: turns the response into the serializer's output.
    /// - Throws: the session's transport error (`URLError`, with the URLs it carries redacted as
    ///   descriptions redact them), or the serializer's error (``SculptError`` for
    ///   ``ModelResponseSerializer``).
    public func model<S: ResponseSerializer>(for request: URLRequest, serializer: S) async throws -> S.Output {
        let (data, response) = try await redactedData(for: request)
        return try serializer.serialize(data, for: response, request: request)
    }

    /// Loads a URL with `GET` and serializes its response.
    ///
    /// ```swift
    /// let model = try await URLSession.shared.model(from: url, serializer: serializer)
    /// ```
    /// - Parameters:
    ///   - url: the URL to load with `GET`.
    ///   - serializer: turns the response into the serializer's output.
    /// - Throws: the session's transport error, or the serializer's error.
    public func model<S: ResponseSerializer>(from url: URL, serializer: S) async throws -> S.Output {
        try await model(for: URLRequest(url: url), serializer: serializer)
    }

    /// Loads a request and serializes its response as a model of type `M`.
    ///
    /// ```swift
    /// let user = try await URLSession.shared.model(for: request, serializer: serializer, as: User.self)
    /// ```
    /// - Parameters:
    ///   - request: the request to load.
    ///   - serializer: the serializer whose matcher must resolve `type`.
    ///   - type: the model to return.
    /// - Returns: the model.
    /// - Throws: the session's transport error, or a ``SculptError`` (including
    ///   ``SculptError/Reason/typeMismatch(expected:matched:)`` when the matcher resolved another type).
    public func model<Matcher, M: Decodable & Sendable>(
        for request: URLRequest,
        serializer: ModelResponseSerializer<Matcher>,
        as type: M.Type
    ) async throws -> M {
        let (data, response) = try await redactedData(for: request)
        return try serializer.serialize(data, for: ResponseContext(response, request: request), as: M.self)
    }

    /// Loads a URL with `GET` and serializes its response as a model of type `M`.
    ///
    /// ```swift
    /// let user = try await URLSession.shared.model(from: url, serializer: serializer, as: User.self)
    /// ```
    /// - Parameters:
    ///   - url: the URL to load with `GET`.
    ///   - serializer: the serializer whose matcher must resolve `type`.
    ///   - type: the model to return.
    /// - Returns: the model.
    /// - Throws: the session's transport error, or a ``SculptError``.
    public func model<Matcher, M: Decodable & Sendable>(
        from url: URL,
        serializer: ModelResponseSerializer<Matcher>,
        as type: M.Type
    ) async throws -> M {
        try await model(for: URLRequest(url: url), serializer: serializer, as: M.self)
    }

    /// Loads a request and serializes its response as metadata and a model of type `M`.
    ///
    /// ```swift
    /// let page = try await URLSession.shared.model(for: request, serializer: enveloped, as: [Question].self)
    /// page.meta.hasMore
    /// ```
    /// - Parameters:
    ///   - request: the request to load.
    ///   - serializer: an envelope serializer (``ModelResponseSerializer/enveloped(in:)``).
    ///   - type: the model the matcher must resolve.
    /// - Returns: the metadata and the model.
    /// - Throws: the session's transport error, or a ``SculptError``.
    public func model<Meta, Matcher, M: Decodable & Sendable>(
        for request: URLRequest,
        serializer: EnvelopeResponseSerializer<Meta, Matcher>,
        as type: M.Type
    ) async throws -> Envelope<Meta, M> {
        let (data, response) = try await redactedData(for: request)
        return try serializer.serialize(data, for: ResponseContext(response, request: request), as: M.self)
    }

    /// Loads a URL with `GET` and serializes its response as metadata and a model of type `M`.
    ///
    /// ```swift
    /// let page = try await URLSession.shared.model(from: url, serializer: enveloped, as: [Question].self)
    /// ```
    /// - Parameters:
    ///   - url: the URL to load.
    ///   - serializer: an envelope serializer.
    ///   - type: the model the matcher must resolve.
    /// - Returns: the metadata and the model.
    /// - Throws: the session's transport error, or a ``SculptError``.
    public func model<Meta, Matcher, M: Decodable & Sendable>(
        from url: URL,
        serializer: EnvelopeResponseSerializer<Meta, Matcher>,
        as type: M.Type
    ) async throws -> Envelope<Meta, M> {
        try await model(for: URLRequest(url: url), serializer: serializer, as: M.self)
    }

    /// `data(for:)`, with a transport error's URLs redacted: its description would print them.
    private func redactedData(for request: URLRequest) async throws -> (Data, URLResponse) {
        do {
            return try await cancellableData(for: request)
        } catch {
            throw SecretPolicy.default.redactingURLs(in: error)
        }
    }
}
