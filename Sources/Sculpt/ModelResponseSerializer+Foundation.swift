public import Foundation
import SculptShared
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension ModelResponseSerializer {
    /// Serializes the body of a Foundation response: ``serialize(_:for:)`` for the response
    /// URLSession gives, with the same typed throws.
    ///
    /// ```swift
    /// let (data, response) = try await session.data(for: request)
    /// let model = try serializer.serialize(data, for: response, request: request)
    /// ```
    /// - Parameters:
    ///   - data: the body.
    ///   - response: the response URLSession gave.
    ///   - request: the request, whose method (and URL, when the response has none) matchers see.
    /// - Throws: ``SculptError``, at the first step of the pipeline that fails.
    public func serialize(_ data: Data, for response: URLResponse, request: URLRequest? = nil) throws(SculptError) -> Output {
        try serialize(data, for: ResponseContext(response, request: request))
    }

    /// Serializes the body of a Foundation response into a model of type `M`, checking that the
    /// matcher agrees: ``serialize(_:for:as:)`` for the response URLSession gives.
    ///
    /// ```swift
    /// let (data, response) = try await session.data(for: request)
    /// let user = try serializer.serialize(data, for: response, request: request, as: User.self)
    /// ```
    /// - Parameters:
    ///   - data: the body.
    ///   - response: the response URLSession gave.
    ///   - request: the request, whose method (and URL, when the response has none) matchers see.
    ///   - type: the model the matcher must resolve.
    /// - Throws: ``SculptError``, at the first step of the pipeline that fails.
    public func serialize<M: Decodable & Sendable>(_ data: Data, for response: URLResponse, request: URLRequest? = nil, as type: M.Type) throws(SculptError) -> M {
        try serialize(data, for: ResponseContext(response, request: request), as: M.self)
    }

    /// The outcome of a completion handler's arguments as a model of type `M`, for code built on
    /// `dataTask`.
    ///
    /// ```swift
    /// session.dataTask(with: request) { data, response, error in
    ///     let user = serializer.result(data: data, response: response, error: error, request: request, as: User.self)
    /// }.resume()
    /// ```
    /// - Parameters:
    ///   - data: the body, `nil` counting as empty.
    ///   - response: the response; `nil` is `URLError(.badServerResponse)`.
    ///   - error: the transport error, passed through unchanged.
    ///   - request: the request, whose method (and URL, when the response has none) matchers see.
    ///   - type: the model the matcher must resolve.
    /// - Returns: the model, or the transport error or ``SculptError``.
    public func result<M: Decodable & Sendable>(
        data: Data?, response: URLResponse?, error: (any Error)?, request: URLRequest? = nil, as type: M.Type
    ) -> Result<M, any Error> {
        Self.completionResult(data: data, response: response, error: error, request: request) { try serialize($0, for: $1, as: M.self) }
    }
}
