public import Foundation
import SculptShared
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// An HTTP/1.1 server on 127.0.0.1 that forwards every request to one target and records each
/// exchange, secrets redacted, into a cassette file: recording for clients that are not Swift (a
/// simulator's app, a web page, another language's tests) or that Swift code does not wrap.
///
/// ```swift
/// let proxy = RecordingProxy(target: URL(string: "https://api.github.com")!, cassette: fixtures.appending(path: "session.json"))
/// let baseURL = try await proxy.start()     // point the client at http://127.0.0.1:<port>
/// // ... the client's requests reach api.github.com and are recorded ...
/// await proxy.stop()
/// ```
///
/// A request to the proxy for `/users/octocat?per_page=3` is sent to the same path and query on
/// the target (`https://api.github.com/users/octocat?per_page=3`); no request can reach another
/// host. Its
/// header fields go as sent, except the connection's own (`Host`, `Connection` and the other
/// hop-by-hop fields, `Content-Length`) and `Accept-Encoding`: the proxy asks for, and records, the
/// body decoded. Redirects are not followed: a `3xx` goes to the client, its `Location` (and each
/// `Link` target) moved to the proxy when it names the target's origin, so the client's next
/// request comes back through the proxy and is recorded too; a `Location` elsewhere is passed as
/// it is, and what the client fetches there is not recorded. The client gets the target's answer
/// unredacted (a token endpoint's token must reach it), but for repeated header fields, which
/// `URLSession` joins with commas (two `Set-Cookie` fields arrive as one); the cassette gets it redacted by
/// ``Redaction`` and written again after every exchange, so a proxy stopped at any moment leaves a
/// cassette that loads. A target that cannot be reached is answered `502` with
/// `X-Sculpt-Record: failed` and nothing is recorded. What a client may send is bounded as
/// ``FixtureServer`` bounds it (``FixtureServer/Limits``).
public actor RecordingProxy {
    /// Where requests are forwarded: an origin (a scheme, a host and an optional port).
    public nonisolated let target: URL
    /// The cassette file written after every exchange; `nil` keeps the recording in memory only.
    public nonisolated let cassetteFile: URL?
    /// What is redacted before an exchange is kept.
    public nonisolated let redaction: Redaction
    /// What a client may send.
    public nonisolated let limits: FixtureServer.Limits
    private let recording: ProxyRecording
    private let onRequest: (@Sendable (ServedRequest) -> Void)?
    private let configuration: URLSessionConfiguration
    private var listener: HTTPListener?
    private var forwarder: ProxyForwarder?

    /// The proxy's base URL, `http://127.0.0.1:<port>`, once started.
    public private(set) var baseURL: URL?

    /// Creates a proxy to `target` that records into `cassette`, after the interactions the file
    /// already holds (start from nothing by removing the file first), telling `onRequest` of each
    /// request it answers.
    ///
    /// ```swift
    /// let proxy = try RecordingProxy(target: apiURL, cassette: file) { print($0) }   // GET /users/octocat -> 200, recorded
    /// ```
    /// - Parameters:
    ///   - target: the origin requests are forwarded to, such as `https://api.github.com`.
    ///   - cassette: the file written after every exchange; `nil` keeps the recording in memory.
    ///   - redaction: what is replaced before an exchange is kept.
    ///   - configuration: the `URLSession` configuration requests are sent with (timeouts, TLS
    ///     settings); its cookie storage and cache are never used: the client keeps its own.
    ///   - limits: what a client may send the proxy, as ``FixtureServer`` bounds it.
    ///   - onRequest: told of each request answered, on the connection's thread.
    /// - Throws: ``Fixture/FormatError`` when `cassette` exists and is not a cassette, or the file
    ///   system's error reading it; `URLError(.badURL)` for a target that is not an `http` or
    ///   `https` origin (the scheme in lowercase, a host, a port from 1 to 65535, no path, query or
    ///   user).
    public init(
        target: URL, cassette: URL? = nil, redaction: Redaction = Redaction(), configuration: URLSessionConfiguration = .ephemeral,
        limits: FixtureServer.Limits = .init(), onRequest: (@Sendable (ServedRequest) -> Void)? = nil
    ) throws {
        guard let scheme = target.scheme, scheme == "http" || scheme == "https", target.host() != nil,
            target.port.map({ (1...65_535).contains($0) }) ?? true,
            ["", "/"].contains(target.path(percentEncoded: true)), target.query() == nil, target.fragment() == nil, target.user() == nil
        else { throw URLError(.badURL) }
        let recorded = try cassette.flatMap { file in
            FileManager.default.fileExists(atPath: file.path(percentEncoded: false)) ? try Cassette(contentsOf: file).interactions : nil
        }
        self.target = target
        self.cassetteFile = cassette
        self.redaction = redaction
        self.limits = limits
        self.onRequest = onRequest
        self.configuration = configuration
        self.recording = ProxyRecording(file: cassette, interactions: recorded ?? [])
    }

    /// The interactions recorded so far, the file's earlier ones first, redacted.
    public var cassette: Cassette { Cassette(recording.interactions) }

    /// Starts listening on 127.0.0.1 and returns the base URL; starting a started proxy returns
    /// its URL.
    ///
    /// - Parameter port: the port to listen on; 0 (the default) takes a free one.
    /// - Throws: an error naming the system call that failed, when the proxy cannot listen.
    @discardableResult
    public func start(port: UInt16 = 0) async throws -> URL {
        if let baseURL { return baseURL }
        let listener = HTTPListener(limits: limits, keepsBodies: true)
        let forwarder = ProxyForwarder(configuration: configuration)
        // The origin without a trailing slash, so a request's path is appended to it.
        let origin = URL(string: target.absoluteString.hasSuffix("/") ? String(target.absoluteString.dropLast()) : target.absoluteString) ?? target
        let (redaction, recording, onRequest) = (self.redaction, self.recording, self.onRequest)
        let url = try listener.start(port: port) { base in
            ProxyResponder(target: origin, baseURL: base, forwarder: forwarder, redaction: redaction, recording: recording, log: onRequest)
        }
        self.listener = listener
        self.forwarder = forwarder
        baseURL = url
        return url
    }

    /// Stops the proxy: no new connections, open ones closed, requests being forwarded cancelled.
    /// The cassette on disk holds every exchange that completed.
    public func stop() async {
        guard let listener else { return }
        self.listener = nil
        baseURL = nil
        forwarder?.invalidate()
        forwarder = nil
        await listener.stopOffPool()
    }
}

/// The exchanges a ``RecordingProxy`` has recorded, written to its cassette file after each one.
final class ProxyRecording: @unchecked Sendable {
    private let file: URL?
    private let lock = NSLock()
    private var recorded: [Fixture]

    init(file: URL?, interactions: [Fixture]) {
        self.file = file
        self.recorded = interactions
    }

    var interactions: [Fixture] { lock.withLock { recorded } }

    /// Adds `fixture` (already redacted) and writes the cassette, atomically, so the file always
    /// loads; a write that fails is reported in the returned text and the next exchange tries again.
    func append(_ fixture: Fixture) -> String? {
        lock.withLock {
            recorded.append(fixture)
            guard let file else { return nil }
            do {
                try Cassette(recorded).encoded().write(to: file, options: .atomic)
                return nil
            } catch {
                return RecordingFileError(writing: file, failure: error).description
            }
        }
    }
}
