public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension EnvelopeResponseSerializer {
    /// Serializes the body of a Foundation response into the metadata and a model of type `M`:
    /// ``serialize(_:for:as:)`` for the response URLSession gives.
    ///
    /// ```swift
    /// let (data, response) = try await session.data(for: request)
    /// let page = try serializer.serialize(data, for: response, request: request, as: [Question].self)
    /// ```
    /// - Parameters:
    ///   - data: the body.
    ///   - response: the response.
    ///   - request: the request, whose method (and URL, when the response has none) matchers see.
    ///   - type: the model the matcher must resolve.
    /// - Returns: the metadata and the model.
    /// - Throws: ``SculptError``, at the first step of the pipeline that fails.
    public func serialize<M: Decodable & Sendable>(
        _ data: Data, for response: URLResponse, request: URLRequest? = nil, as type: M.Type
    ) throws(SculptError) -> Envelope<Meta, M> {
        try serialize(data, for: ResponseContext(response, request: request), as: M.self)
    }

    /// The outcome of a completion handler's arguments as the metadata and a model of type `M`.
    ///
    /// ```swift
    /// session.dataTask(with: request) { data, response, error in
    ///     let page = serializer.result(data: data, response: response, error: error, request: request, as: [Question].self)
    /// }.resume()
    /// ```
    /// - Parameters:
    ///   - data: the body, `nil` counting as empty.
    ///   - response: the response; `nil` is `URLError(.badServerResponse)`.
    ///   - error: the transport error, passed through unchanged.
    ///   - request: the request.
    ///   - type: the model the matcher must resolve.
    /// - Returns: the metadata and the model, or the transport error or ``SculptError``.
    public func result<M: Decodable & Sendable>(
        data: Data?, response: URLResponse?, error: (any Error)?, request: URLRequest? = nil, as type: M.Type
    ) -> Result<Envelope<Meta, M>, any Error> {
        Self.completionResult(data: data, response: response, error: error, request: request) { try serialize($0, for: $1, as: M.self) }
    }
}
