internal import FlyingFox
public import Foundation
import HTTPTypes

/// An HTTP server on 127.0.0.1 that answers requests with recorded fixtures, for clients that
/// must talk to a real socket: `URLSession` itself, another HTTP client, another process.
///
/// ```swift
/// let server = FixtureServer(fixtures: [userFixture, issuesFixture])
/// let baseURL = try await server.start()          // http://127.0.0.1:<ephemeral port>
/// let (data, response) = try await URLSession.shared.data(from: try await server.url(for: userFixture))
/// await server.stop()
/// ```
///
/// A request is answered by the first fixture with the same method, path and query (query items
/// compared as a multiset, in any order). A request that matches none gets `404` with a
/// `text/plain` body that says so. A `HEAD` request without a `HEAD` fixture is answered by the
/// `GET` fixture, without its body. A recorded `Location` on the fixture's own host is rewritten
/// to this server, so redirects are followed here rather than to the recorded host.
public actor FixtureServer {
    private let fixtures: [Fixture]
    private var server: HTTPServer?
    private var task: Task<Void, any Error>?

    /// The server's base URL, `http://127.0.0.1:<port>`, once started.
    public private(set) var baseURL: URL?

    /// Creates a server that will answer with `fixtures`.
    ///
    /// ```swift
    /// let server = FixtureServer(fixtures: try folder.fixtures())
    /// ```
    public init(fixtures: [Fixture]) {
        self.fixtures = fixtures
    }

    /// Starts listening on 127.0.0.1 at an ephemeral port and returns the base URL.
    ///
    /// ```swift
    /// let baseURL = try await server.start()
    /// ```
    /// - Throws: the socket error when the server cannot listen.
    @discardableResult
    public func start() async throws -> URL {
        if let baseURL { return baseURL }
        let responder = FixtureResponder(fixtures: fixtures)
        let server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: 0), logger: .disabled,
            handler: ClosureHTTPHandler { request in responder.response(to: request) })
        let task = Task { try await server.run() }
        try await server.waitUntilListening()
        guard case .ip4(_, let port) = await server.listeningAddress, let url = URL(string: "http://127.0.0.1:\(port)") else {
            task.cancel()
            throw URLError(.cannotConnectToHost)
        }
        self.server = server
        self.task = task
        self.baseURL = url
        return url
    }

    /// Stops the server and closes its connections.
    public func stop() async {
        await server?.stop(timeout: 0)
        task?.cancel()
        server = nil
        task = nil
        baseURL = nil
    }

    /// The URL on this server for a path and query, such as `/users/octocat?per_page=3`.
    ///
    /// ```swift
    /// let url = try await server.url(for: "/users/octocat")
    /// ```
    /// - Throws: `URLError(.badURL)` before ``start()`` or for text that is not a path.
    public func url(for pathAndQuery: String) throws -> URL {
        guard let baseURL, let url = URL(string: pathAndQuery, relativeTo: baseURL) else { throw URLError(.badURL) }
        return url.absoluteURL
    }

    /// The URL on this server that the fixture's recorded request maps to.
    ///
    /// ```swift
    /// let url = try await server.url(for: fixture)
    /// ```
    /// - Throws: `URLError(.badURL)` before ``start()``.
    public func url(for fixture: Fixture) throws -> URL {
        try url(for: FixtureResponder.pathAndQuery(of: fixture.request.url))
    }
}

/// Finds the fixture for a request and turns it into FlyingFox's response.
private struct FixtureResponder: Sendable {
    let fixtures: [Fixture]

    func response(to request: FlyingFox.HTTPRequest) -> FlyingFox.HTTPResponse {
        guard let fixture = fixture(for: request, method: request.method.rawValue)
            ?? (request.method == .HEAD ? fixture(for: request, method: "GET") : nil)
        else {
            let message = "No fixture for \(request.method.rawValue) \(request.target.rawValue)\n"
            return .init(statusCode: .notFound, headers: [.contentType: "text/plain; charset=utf-8"], body: Data(message.utf8))
        }
        var headers = HTTPHeaders()
        for field in fixture.response.headerFields {
            var value = field.value
            if field.name == .location, let host = request.headers[.host] {
                value = Self.location(value, recordedHost: fixture.request.url.host(), servedHost: host)
            }
            headers.addValue(value, for: FlyingFox.HTTPHeader(field.name.rawName))
        }
        let status = HTTPStatusCode(fixture.response.status.code, phrase: fixture.response.status.reasonPhrase)
        let body = request.method == .HEAD ? Data() : fixture.response.body
        return .init(statusCode: status, headers: headers, body: body)
    }

    private func fixture(for request: FlyingFox.HTTPRequest, method: String) -> Fixture? {
        let query = Self.queryItems(request.target.query(percentEncoded: true))
        let path = request.target.path(percentEncoded: true)
        return fixtures.first {
            $0.request.method.rawValue == method
                && $0.request.url.path(percentEncoded: true) == path
                && Self.queryItems($0.request.url.query(percentEncoded: true) ?? "") == query
        }
    }

    /// A recorded `Location` pointing at the recorded host, moved to this server.
    static func location(_ value: String, recordedHost: String?, servedHost: String) -> String {
        guard let target = URL(string: value), let host = target.host(), host == recordedHost else { return value }
        return "http://\(servedHost)\(pathAndQuery(of: target))"
    }

    static func pathAndQuery(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        let query = url.query(percentEncoded: true).map { "?\($0)" } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }

    /// Query items as a sorted list, so that order does not matter and repeats do.
    static func queryItems(_ query: String) -> [String] {
        query.split(separator: "&").map(String.init).sorted()
    }
}
