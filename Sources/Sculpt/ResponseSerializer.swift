public import Foundation
import SculptShared
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Turns a response and its body into a value.
///
/// ```swift
/// let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))
/// let user = try serializer.serialize(data, for: response, request: request)
/// ```
///
/// Conform to it to plug any decoding into Sculpt's URLSession entry points; ``ModelResponseSerializer``
/// is the one that asks a ``ModelMatcher`` which model type to decode.
public protocol ResponseSerializer: Sendable {
    /// What a successful serialization produces.
    associatedtype Output: Sendable

    /// Serializes `data`, the body of `response`.
    ///
    /// ```swift
    /// let model = try serializer.serialize(data, for: ResponseContext(url: url, status: .ok))
    /// ```
    /// - Throws: ``SculptError`` for a response that does not become an `Output`.
    func serialize(_ data: Data, for response: ResponseContext) throws -> Output

    /// The most bytes of body this serializer accepts, or `nil` for no limit of its own.
    ///
    /// A client that streams bodies stops reading once a body passes it, rather than reading the
    /// rest only to have it refused:
    ///
    /// ```swift
    /// let limit = serializer.maximumBodySize.map { min($0, 16 << 20) } ?? 16 << 20
    /// ```
    ///
    /// The default is `nil`, so a serializer of your own needs no change.
    var maximumBodySize: Int? { get }
}

extension ResponseSerializer {
    /// No limit of the serializer's own: the client's applies.
    public var maximumBodySize: Int? { nil }

    /// Serializes the body of a Foundation response.
    ///
    /// ```swift
    /// let (data, response) = try await session.data(for: request)
    /// let model = try serializer.serialize(data, for: response, request: request)
    /// ```
    ///
    /// Pass the request so that matchers see its method and, when the response has none, its URL.
    /// - Parameters:
    ///   - data: the body.
    ///   - response: the response URLSession gave.
    ///   - request: the request, whose method (and URL, when the response has none) matchers see.
    /// - Throws: ``SculptError`` for a response that does not become an `Output`.
    public func serialize(_ data: Data, for response: URLResponse, request: URLRequest? = nil) throws -> Output {
        try serialize(data, for: ResponseContext(response, request: request))
    }

    /// The outcome of a completion handler's arguments, for code built on `dataTask`, as the
    /// serializer's `Output` (``ModelResponseSerializer`` and ``EnvelopeResponseSerializer`` also
    /// take `as:` for the caller's type).
    ///
    /// ```swift
    /// session.dataTask(with: request) { data, response, error in
    ///     let result = serializer.result(data: data, response: response, error: error, request: request)
    /// }.resume()
    /// ```
    ///
    /// A transport `error` is passed through unchanged; a missing response is
    /// `URLError(.badServerResponse)`; missing data counts as an empty body.
    /// - Parameters:
    ///   - data: the completion handler's data.
    ///   - response: the completion handler's response.
    ///   - error: the completion handler's error.
    ///   - request: the request, whose method (and URL, when the response has none) matchers see.
    public func result(
        data: Data?,
        response: URLResponse?,
        error: (any Error)?,
        request: URLRequest? = nil
    ) -> Result<Output, any Error> {
        Self.completionResult(data: data, response: response, error: error, request: request) { try serialize($0, for: $1) }
    }

    /// A completion handler's arguments as a `Result`, the body serialized by `serialize`: a
    /// transport error passed through, a missing response `URLError(.badServerResponse)`, missing
    /// data an empty body.
    static func completionResult<T>(
        data: Data?, response: URLResponse?, error: (any Error)?, request: URLRequest?,
        _ serialize: (Data, ResponseContext) throws -> T
    ) -> Result<T, any Error> {
        if let error { return .failure(error) }
        guard let response else { return .failure(URLError(.badServerResponse)) }
        return Result { try serialize(data ?? Data(), ResponseContext(response, request: request)) }
    }
}
