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
    /// - Throws: ``SculptError``, at the first step of the pipeline that fails.
    public func serialize<M: Decodable & Sendable>(_ data: Data, for response: URLResponse, request: URLRequest? = nil, as type: M.Type) throws(SculptError) -> M {
        try serialize(data, for: ResponseContext(response, request: request), as: M.self)
    }
}
