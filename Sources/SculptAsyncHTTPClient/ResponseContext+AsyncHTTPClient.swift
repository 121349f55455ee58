#if AsyncHTTPClientAdapter
public import Sculpt
public import AsyncHTTPClient
import Foundation
import SculptShared
internal import HTTPTypes

extension ResponseContext {
    /// A context from an AsyncHTTPClient response: its final URL (after the redirects the
    /// client followed), the request's method, the status with its standard reason phrase, and
    /// the header fields in the order received.
    ///
    /// ```swift
    /// let response = try await client.execute(request, timeout: .seconds(30))
    /// let context = ResponseContext(response, request: request)
    /// ```
    /// - Parameters:
    ///   - response: the response AsyncHTTPClient gave.
    ///   - request: the request it answers, whose method the context keeps.
    public init(_ response: HTTPClientResponse, request: HTTPClientRequest) {
        var fields = HTTPFields()
        for (name, value) in response.headers {
            guard let name = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        self.init(
            url: response.url ?? URL(string: request.url), method: HTTPRequest.Method(request.method.rawValue),
            status: .standard(Int(response.status.code)), headerFields: fields)
    }
}
#endif
