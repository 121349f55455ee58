public import Foundation
import SculptShared

/// An HTTP/1.1 server on 127.0.0.1 that answers requests from a ``FixtureReplay``, for clients
/// that must talk to a real socket: `URLSession` itself, AsyncHTTPClient, curl, another process.
///
/// ```swift
/// let server = FixtureServer(fixtures: [userFixture, issuesFixture])
/// let baseURL = try await server.start()          // http://127.0.0.1:<ephemeral port>
/// let (data, response) = try await URLSession.shared.data(from: try await server.url(for: userFixture))
/// await server.stop()
/// ```
///
/// Requests are matched as ``FixtureReplay`` matches them, on this server's own address plus the
/// request's path and query: scheme, host and port are never compared, so recorded
/// `https://api.github.com/...` requests match here, and the request's `Host` field never takes
/// part. A request that matches nothing gets `404` with a `text/plain` body that is the
/// ``FixtureReplay/MissError`` description (secrets redacted), and the header `X-Sculpt-Replay: miss`.
/// A recorded absolute `http`/`https` `Location`, and each target of a `Link` field, is moved to
/// this server, path and query kept as recorded, so redirects and `rel="next"` pages are followed
/// here and never to the recorded host.
///
/// The server frames every response itself (`Content-Length`, `Connection`); responses to HEAD
/// and recorded 204, 205 and 304 responses carry no body, and a recorded 1xx or status 0, which
/// cannot be a final answer, is served as `502` with `X-Sculpt-Replay: unreplayable`. A recorded
/// status from 600 to 999 (LinkedIn's `999`) is sent as recorded: HTTP/1.1 carries any three
/// digits, and a client that refuses one should be tested against it. A body stored compressed
/// (`Content-Encoding: gzip`) is sent as a client sees it, decompressed, as a replay's session
/// answers it too. Keep-alive and pipelined requests are answered in order. What a client may send
/// is bounded by ``Limits``: an oversized head is answered `414` or `431`, an oversized body
/// `413`, a stalled one `408`, and the connection closed; other clients are served meanwhile,
/// each connection on its own thread.
public actor FixtureServer {
    /// What one client may send and how long it may take; past a limit, the server answers with
    /// an error status and closes that connection.
    public struct Limits: Sendable {
        /// The most bytes of request line and header fields. Default: 64 KiB (`414` or `431`).
        public var maximumHeadSize: Int
        /// The most bytes of a request body, by `Content-Length` or chunked. Default: 16 MiB
        /// (`413`, answered before the body is read). Bodies are kept only when the replay
        /// matches bodies; otherwise they are read and dropped.
        public var maximumBodySize: Int
        /// How long a request's head may take to arrive once it has begun. Default: 10 seconds
        /// (`408`).
        public var headTimeout: Duration
        /// How long a request's body may take to arrive, from the end of its head, however
        /// steadily it trickles in. Default: 30 seconds (`408`).
        public var bodyTimeout: Duration
        /// How long a client may take to read a whole response, however steadily it reads; past
        /// it, the connection is closed. Default: 30 seconds.
        public var responseTimeout: Duration
        /// How long a connection may wait for the next request, or a body for its next bytes, or a
        /// client to take the response's next bytes. Default: 5 seconds.
        public var idleTimeout: Duration
        /// The most connections open at once; a client past it is answered `503`. Default: 512.
        public var maximumConnections: Int
        /// The most bytes of request bodies the server holds at once, all connections together,
        /// when the replay matches bodies (otherwise bodies are read and dropped); a body that
        /// would pass it is answered `503`. Default: 256 MiB.
        public var maximumBufferedBodies: Int

        /// Creates limits; every parameter has the default documented on its property.
        /// - Parameters:
        ///   - maximumHeadSize: the most bytes of request line and header fields (at least 64).
        ///   - maximumBodySize: the most bytes of a request body.
        ///   - headTimeout: how long a request's head may take to arrive.
        ///   - bodyTimeout: how long a request's body may take to arrive.
        ///   - responseTimeout: how long a client may take to read a whole response.
        ///   - idleTimeout: how long a connection may wait for its next bytes either way.
        ///   - maximumConnections: the most connections open at once (at least 1).
        ///   - maximumBufferedBodies: the most bytes of request bodies held at once.
        public init(
            maximumHeadSize: Int = 64 << 10, maximumBodySize: Int = 16 << 20, headTimeout: Duration = .seconds(10),
            bodyTimeout: Duration = .seconds(30), responseTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(5),
            maximumConnections: Int = 512, maximumBufferedBodies: Int = 256 << 20
        ) {
            self.maximumHeadSize = max(maximumHeadSize, 64)
            self.maximumBodySize = max(maximumBodySize, 0)
            self.headTimeout = headTimeout
            self.bodyTimeout = bodyTimeout
            self.responseTimeout = responseTimeout
            self.idleTimeout = idleTimeout
            self.maximumConnections = max(maximumConnections, 1)
            self.maximumBufferedBodies = max(maximumBufferedBodies, 0)
        }
    }

    /// The interactions this server answers with.
    public nonisolated let replay: FixtureReplay
    /// What a client may send.
    public nonisolated let limits: Limits
    /// Told of each request answered, on the connection's thread.
    private nonisolated let onRequest: (@Sendable (ServedRequest) -> Void)?
    private var listener: HTTPListener?

    /// The server's base URL, `http://127.0.0.1:<port>`, once started.
    public private(set) var baseURL: URL?

    /// Creates a server that answers from `replay`, telling `onRequest` of each request it
    /// answers (a request refused before it was read whole, such as an oversized one, is not told).
    ///
    /// ```swift
    /// let replay = FixtureReplay(fixtures, options: .init(repeatsLastResponse: true))
    /// let server = FixtureServer(replay: replay) { print($0) }   // GET /users/octocat -> 200, matched get-user.json
    /// ```
    /// - Parameters:
    ///   - replay: answers each request.
    ///   - limits: how much a request may send and how long it may take.
    ///   - onRequest: told of each request served, from the server's own thread; `nil` for none.
    public init(replay: FixtureReplay, limits: Limits = Limits(), onRequest: (@Sendable (ServedRequest) -> Void)? = nil) {
        self.replay = replay
        self.limits = limits
        self.onRequest = onRequest
    }

    /// Creates a server that answers with `fixtures`, each used once, in order, telling
    /// `onRequest` of each request it answers.
    /// - Parameters:
    ///   - fixtures: the responses, used once each in order.
    ///   - limits: how much a request may send and how long it may take.
    ///   - onRequest: told of each request served, from the server's own thread; `nil` for none.
    public init(fixtures: [Fixture], limits: Limits = Limits(), onRequest: (@Sendable (ServedRequest) -> Void)? = nil) {
        self.init(replay: FixtureReplay(fixtures), limits: limits, onRequest: onRequest)
    }

    deinit {
        listener?.stop()
    }

    /// Starts listening on 127.0.0.1 and returns the base URL; starting a started server returns
    /// its URL.
    ///
    /// - Parameter port: the port to listen on; 0 (the default) takes a free one.
    /// - Throws: an error whose description names the system call that failed and why, when the
    ///   server cannot listen (a port already in use, no descriptors left).
    @discardableResult
    public func start(port: UInt16 = 0) async throws -> URL {
        if let baseURL { return baseURL }
        let listener = HTTPListener(limits: limits, keepsBodies: replay.options.matchesBody)
        let (replay, onRequest) = (self.replay, self.onRequest)
        let url = try listener.start(port: port) { FixtureResponder(replay: replay, baseURL: $0, log: onRequest) }
        self.listener = listener
        baseURL = url
        return url
    }

    /// Stops the server: no new connections, open ones closed (a response being written is cut).
    public func stop() async {
        guard let listener else { return }
        self.listener = nil
        baseURL = nil
        await listener.stopOffPool()
    }

    /// The bytes of request bodies the server holds now, all connections together: what
    /// ``Limits/maximumBufferedBodies`` bounds. Bodies are held only while a replay that matches
    /// bodies reads them, so this is 0 between requests, before ``start(port:)`` and after
    /// ``stop()``.
    ///
    /// ```swift
    /// #expect(await server.heldBodyBytes == 0)  // every upload answered, its memory given back
    /// ```
    public var heldBodyBytes: Int { listener?.budget.taken ?? 0 }

    /// The URL on this server for a path and query, such as `/users/octocat?per_page=3`.
    ///
    /// ```swift
    /// let url = try await server.url(for: "/users/octocat")
    /// ```
    /// - Parameter pathAndQuery: The path and query to append to the server's base URL (`/users/octocat?tab=repos`).
    /// - Throws: `URLError(.badURL)` before ``start(port:)``, or for text that is not a path
    ///   starting with `/` (an absolute URL or `//host/...` would leave this server).
    public func url(for pathAndQuery: String) throws -> URL {
        // Only a path reaches this server: `http://elsewhere/` and `//elsewhere/` would not.
        guard pathAndQuery.hasPrefix("/") || pathAndQuery.hasPrefix("?"), !pathAndQuery.hasPrefix("//") else { throw URLError(.badURL) }
        return try url(appending: pathAndQuery)
    }

    /// The URL on this server that the fixture's recorded request maps to: its path and query as
    /// recorded (secrets and all, so that the request matches).
    ///
    /// - Parameter fixture: A recorded interaction; its request's path and query are kept.
    /// - Throws: `URLError(.badURL)` before ``start(port:)``.
    public func url(for fixture: Fixture) throws -> URL {
        // Appended to the base, not resolved against it: a recorded path `//x` stays a path.
        try url(appending: FixtureResponder.target(of: fixture.request.url))
    }

    /// The base URL with `target` (a path and query) appended, when the result still names this
    /// server.
    private func url(appending target: String) throws -> URL {
        guard let baseURL, let url = WrittenURL.parse(baseURL.absoluteString + target),
            url.host() == baseURL.host(), url.port == baseURL.port, url.scheme == baseURL.scheme
        else { throw URLError(.badURL) }
        return url
    }
}
