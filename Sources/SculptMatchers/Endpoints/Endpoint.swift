public import Foundation
public import HTTPTypes
import Sculpt
import SculptShared

/// A route written once: a pattern with named parameters, the method and status it is for, and
/// the model type its responses decode to. It registers into a ``URLModelMatcher`` and makes the
/// requests it answers, so the path and the type are each written in one place and cannot
/// disagree.
///
/// ```swift
/// enum GitHub {
///     static let issue = Endpoint<Issue>("/repos/{owner}/{repo}/issues/{number:#}")
///     static let createIssue = Endpoint<Issue>(.post, "/repos/{owner}/{repo}/issues", status: .created)
/// }
///
/// var matcher = URLModelMatcher()
/// try matcher.add(GitHub.issue)
/// try matcher.add(GitHub.createIssue)
/// let serializer = ModelResponseSerializer(matcher: matcher)
///
/// let issue = try await URLSession.shared.model(
///     GitHub.issue(["owner": "apple", "repo": "swift", "number": 1]), baseURL: api, serializer: serializer)
/// ```
///
/// Making an endpoint never fails: a pattern that does not compile is reported when the endpoint
/// is registered (``URLModelMatcher/add(_:)``) or asked for a request (``callAsFunction(_:query:)``).
public struct Endpoint<Model: Decodable & Sendable>: Sendable, CustomStringConvertible {
    /// The compiled pattern, or why it did not compile.
    private let compiled: Result<URLPattern, URLPattern.SyntaxError>
    /// The method the endpoint is for: its requests' method, and the method its route requires;
    /// `nil` for a route of any method whose requests are `GET`.
    public let method: HTTPRequest.Method?
    /// The response status the route is for; `nil` for any.
    public let status: HTTPResponse.Status?
    /// Where the model sits in the body (`"data.items"`); `nil` for the whole body.
    public let keyPath: String?

    /// Creates an endpoint whose route takes any method, and whose requests are `GET`s.
    ///
    /// ```swift
    /// let user = Endpoint<User>("/users/{login}")
    /// let search = Endpoint<[Repository]>("/search/repositories", at: "items")
    /// ```
    /// - Parameters:
    ///   - pattern: the path pattern (``URLPattern``), its parameters named: `{name}`,
    ///     `{name:#}` for digits, `{name:**}` for the rest of the path.
    ///   - status: the response status its route requires; `nil` for any.
    ///   - keyPath: where the model sits in the body; `nil` for the whole body.
    public init(_ pattern: String, status: HTTPResponse.Status? = nil, at keyPath: String? = nil) {
        self.init(method: nil, pattern, status: status, at: keyPath)
    }

    /// Creates an endpoint for one method: its requests use it, and its route requires it.
    ///
    /// ```swift
    /// let createIssue = Endpoint<Issue>(.post, "/repos/{owner}/{repo}/issues", status: .created)
    /// ```
    /// - Parameters:
    ///   - method: the method of its requests and its route.
    ///   - pattern: the path pattern, its parameters named.
    ///   - status: the response status its route requires; `nil` for any.
    ///   - keyPath: where the model sits in the body; `nil` for the whole body.
    public init(_ method: HTTPRequest.Method, _ pattern: String, status: HTTPResponse.Status? = nil, at keyPath: String? = nil) {
        self.init(method: method, pattern, status: status, at: keyPath)
    }

    private init(method: HTTPRequest.Method?, _ pattern: String, status: HTTPResponse.Status?, at keyPath: String?) {
        self.compiled = Result { () throws(URLPattern.SyntaxError) in try URLPattern(pattern) }
        self.method = method
        self.status = status
        self.keyPath = keyPath
    }

    /// The compiled pattern.
    /// - Throws: ``URLPattern/SyntaxError`` when the pattern did not compile.
    public var pattern: URLPattern {
        get throws(URLPattern.SyntaxError) { try compiled.get() }
    }

    /// A request for this endpoint, its parameters given `values`: the path built by
    /// ``URLPattern/path(with:)``, each value written as its `description`.
    ///
    /// ```swift
    /// let request = try GitHub.issue(["owner": "apple", "repo": "swift", "number": 1])
    /// request.path  // "/repos/apple/swift/issues/1"
    /// ```
    /// - Parameters:
    ///   - values: a value for each parameter the pattern names, and for nothing else.
    ///   - query: the query of the request's URL.
    /// - Returns: the request, relative to the base URL it is sent to.
    /// - Throws: ``URLPattern/SyntaxError`` for a pattern that did not compile;
    ///   ``URLPattern/ParameterError`` for a missing, extra or invalid value.
    public func callAsFunction(_ values: [String: any CustomStringConvertible] = [:], query: [URLQueryItem] = []) throws -> EndpointRequest<Model> {
        let path = try pattern.path(with: values.mapValues(\.description))
        return EndpointRequest(method: method ?? .get, path: path, query: query)
    }

    /// E.g. `POST /repos/{owner}/{repo}/issues (201) -> Issue`; for a pattern that did not
    /// compile, the reason. Escaped and cut at 2 KB, as a route's description is.
    public var description: String {
        let text = switch compiled {
        case .success(let pattern):
            "\(URLModelMatcher.Route.signature(method, pattern, status)) -> \(ModelType(Model.self, at: keyPath))"
        case .failure(let error):
            "\(error) -> \(Model.self)"
        }
        return ShownText.line(text, limit: 2_048)
    }
}
