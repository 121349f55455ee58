public import Foundation
public import HTTPTypes
import SculptShared
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A request an ``Endpoint`` made: its method and path, relative to the base URL it is sent to,
/// and the model type its response decodes to.
///
/// ```swift
/// var create = try GitHub.createIssue(["owner": "apple", "repo": "swift"])
/// create.body = try JSONEncoder().encode(NewIssue(title: "Crash"))
/// create.headerFields[.contentType] = "application/json"
/// let issue = try await session.model(create, baseURL: api, serializer: serializer)
/// ```
public struct EndpointRequest<Model: Decodable & Sendable>: Sendable {
    /// The request's method.
    public var method: HTTPRequest.Method
    /// The path, percent-encoded, starting with `/`: appended to the base URL's path.
    public var path: String
    /// The query of the request's URL, each name and value percent-encoded but for RFC 3986's
    /// unreserved characters (so a `+` is sent as `%2B`, not read as a space).
    public var query: [URLQueryItem]
    /// The request's header fields.
    public var headerFields: HTTPFields = [:]
    /// The request's body; `nil` for none.
    public var body: Data?

    init(method: HTTPRequest.Method, path: String, query: [URLQueryItem]) {
        self.method = method
        self.path = path
        self.query = query
    }

    /// The `URLRequest` for this request sent to `baseURL`: its path is the base URL's path, then
    /// ``path`` (`https://api.example.com/v3` and `/users/octocat` give
    /// `https://api.example.com/v3/users/octocat`); the base URL's query and fragment are not kept.
    ///
    /// ```swift
    /// let request = try GitHub.issue(["owner": "apple", "repo": "swift", "number": 1]).urlRequest(baseURL: api)
    /// ```
    /// - Parameter baseURL: where the API is: a scheme, a host, and any path before every route's.
    /// - Returns: the request.
    /// - Throws: `URLError(.badURL)` when `baseURL` has no scheme or host.
    public func urlRequest(baseURL: URL) throws -> URLRequest {
        guard baseURL.scheme != nil, let host = baseURL.host, !host.isEmpty else {
            throw URLError(.badURL, userInfo: [NSLocalizedDescriptionKey: "the base URL has no scheme or host"])
        }
        // The base URL's text up to its query or fragment, which come after its path, and
        // without the path's trailing slashes; then the path and the query. Spliced as text: it
        // is what parsing the base into URLComponents and back gives, without that second parse.
        let absolute = baseURL.absoluteString
        var base = absolute.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }.map { absolute[..<$0] } ?? absolute[...]
        while base.hasSuffix("/") { base.removeLast() }
        var text = String(base) + path
        if !query.isEmpty {
            text += "?" + query.map(Self.encoded).joined(separator: "&")
        }
        guard let url = URL(string: text) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        // A new request's method is GET; setting it costs a normalizing compare.
        if method != .get { request.httpMethod = method.rawValue }
        // Repeated fields reach Foundation joined with `, `, but `Cookie`'s with `; ` (RFC 6265's
        // cookie string), as every request Sculpt hands to Foundation joins them.
        var cookie: String?
        for field in headerFields {
            guard field.name != .cookie else {
                cookie = cookie.map { "\($0); \(field.value)" } ?? field.value
                continue
            }
            request.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        if let cookie { request.setValue(cookie, forHTTPHeaderField: HTTPField.Name.cookie.rawName) }
        request.httpBody = body
        return request
    }

    /// A query item as `name=value`, each percent-encoded but for RFC 3986's unreserved
    /// characters, so that `+`, `&` and `=` in a value reach the server as written.
    private static func encoded(_ item: URLQueryItem) -> String {
        let name = PercentEncoding.encoded(item.name)
        return item.value.map { "\(name)=\(PercentEncoding.encoded($0))" } ?? name
    }
}
