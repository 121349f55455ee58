internal import FlyingFox
public import Foundation
import HTTPTypes

/// An HTTP server on 127.0.0.1 that answers requests from a ``FixtureReplay``, for clients that
/// must talk to a real socket: `URLSession` itself, AsyncHTTPClient, curl, another process.
///
/// ```swift
/// let server = FixtureServer(fixtures: [userFixture, issuesFixture])
/// let baseURL = try await server.start()          // http://127.0.0.1:<ephemeral port>
/// let (data, response) = try await URLSession.shared.data(from: try await server.url(for: userFixture))
/// await server.stop()
/// ```
///
/// Requests are matched as ``FixtureReplay`` matches them (scheme, host and port are never
/// compared, so recorded `https://api.github.com/...` requests match here). A request that matches
/// nothing gets `404` with a `text/plain` body that is the ``FixtureReplay/Miss`` description, and
/// the header `X-Sculpt-Replay: miss`. A recorded `Location` on the fixture's own host is rewritten
/// to this server, so redirects are followed here rather than to the recorded host.
public actor FixtureServer {
    /// The interactions this server answers with.
    public nonisolated let replay: FixtureReplay
    private var server: HTTPServer?
    private var task: Task<Void, any Error>?

    /// The server's base URL, `http://127.0.0.1:<port>`, once started.
    public private(set) var baseURL: URL?

    /// Creates a server that answers from `replay`.
    ///
    /// ```swift
    /// let server = FixtureServer(replay: FixtureReplay(fixtures, options: .init(repeatsLastResponse: true)))
    /// ```
    public init(replay: FixtureReplay) {
        self.replay = replay
    }

    /// Creates a server that answers with `fixtures`, each used once, in order.
    ///
    /// ```swift
    /// let server = FixtureServer(fixtures: try folder.fixtures())
    /// ```
    public init(fixtures: [Fixture]) {
        self.init(replay: FixtureReplay(fixtures))
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
        let responder = FixtureResponder(replay: replay)
        let server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: 0), logger: .disabled,
            handler: ClosureHTTPHandler { request in try await responder.response(to: request) })
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
        try url(for: FixtureReplay.Miss.target(of: fixture.request.url))
    }
}

/// Turns FlyingFox's requests into replay requests, and recorded responses into FlyingFox's.
private struct FixtureResponder: Sendable {
    let replay: FixtureReplay

    func response(to request: FlyingFox.HTTPRequest) async throws -> FlyingFox.HTTPResponse {
        let host = request.headers[.host] ?? "127.0.0.1"
        var fields = HTTPFields()
        for (name, value) in request.headers {
            if let name = HTTPField.Name(name.rawValue) { fields.append(HTTPField(name: name, value: value)) }
        }
        let asked = Fixture.Request(
            method: HTTPRequest.Method(request.method.rawValue) ?? .get,
            url: URL(string: "http://\(host)\(request.target.rawValue)") ?? URL(filePath: "/"),
            headerFields: fields, body: try await request.bodyData)
        let fixture: Fixture
        do {
            fixture = try replay.response(for: asked)
        } catch {
            return .init(
                statusCode: .notFound, headers: [.contentType: "text/plain; charset=utf-8", FlyingFox.HTTPHeader("X-Sculpt-Replay"): "miss"],
                body: Data((error.description + "\n").utf8))
        }
        var headers = HTTPHeaders()
        for field in fixture.response.headerFields where field.name != .contentLength && field.name != .transferEncoding {
            var value = field.value
            if field.name == .location {
                value = Self.location(value, recordedHost: fixture.request.url.host(), servedHost: host)
            }
            headers.addValue(value, for: FlyingFox.HTTPHeader(field.name.rawName))
        }
        let status = HTTPStatusCode(fixture.response.status.code, phrase: fixture.response.status.reasonPhrase)
        let body = request.method == .HEAD ? Data() : fixture.response.body
        return .init(statusCode: status, headers: headers, body: body)
    }

    /// A recorded `Location` pointing at the recorded host, moved to this server.
    static func location(_ value: String, recordedHost: String?, servedHost: String) -> String {
        guard let target = URL(string: value), let host = target.host(), host == recordedHost else { return value }
        return "http://\(servedHost)\(FixtureReplay.Miss.target(of: target))"
    }
}
