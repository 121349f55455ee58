import Foundation
import HTTPTypes
import Sculpt
import SculptLoading
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSession.models(for:serializer:policy:)` with a real URLSession against the loopback
/// fixture server, each test with a cache of its own. The server answers its recorded responses
/// in order, once each, so a response left unused is a request the load did not make.
@Suite("Load policies")
struct LoadPolicyTests {
    struct Item: Decodable, Sendable, Equatable {
        let version: Int
    }

    struct Problem: Decodable, Sendable, Equatable {
        let message: String
    }

    static let path = "/items/1"

    /// A recorded `GET /items/1`; `ifNoneMatch` is the validator the request must carry.
    static func fixture(_ version: Int, status: Int = 200, fields: HTTPFields = [:], ifNoneMatch: String? = nil) -> Fixture {
        var response = fields
        response[.contentType] = "application/json"
        var request = HTTPFields()
        if let ifNoneMatch { request[.ifNoneMatch] = ifNoneMatch }
        let body = status == 304 ? Data() : Data((status < 400 ? #"{"version":\#(version)}"# : #"{"message":"down"}"#).utf8)
        return Fixture(
            request: .init(url: URL(string: "https://api.example.com\(path)")!, headerFields: request),
            response: .init(status: .init(code: status), headerFields: response, body: body))
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Item.self), errorMatcher: StaticModelMatcher(Problem.self))
    let session = URLSession(configuration: .unhurried)
    let cache = HTTPResponseCache(URLCache(memoryCapacity: 8 << 20, diskCapacity: 0, diskPath: nil))

    /// Runs `body` against a server answering `fixtures` in order; the If-None-Match field is
    /// matched, so a revalidation must send the recorded validator.
    func withServer(_ fixtures: [Fixture], _ body: (FixtureServer, URLRequest) async throws -> Void) async throws {
        try await FixtureServer.running(FixtureReplay(fixtures, options: .init(matchedHeaders: [.ifNoneMatch]))) { server, baseURL in
            try await body(server, URLRequest(url: baseURL.appending(path: Self.path.dropFirst())))
        }
    }

    /// Every value a load yields, and the error that ended it, if one did.
    func load(_ request: URLRequest, _ policy: LoadPolicy, session: URLSession? = nil) async -> (values: [Loaded<Item>], error: (any Error)?) {
        var values: [Loaded<Item>] = []
        do {
            for try await loaded in (session ?? self.session).models(for: request, serializer: serializer, as: Item.self, policy: policy, cache: cache) {
                values.append(loaded)
            }
            return (values, nil)
        } catch {
            return (values, error)
        }
    }

    static func summary(_ values: [Loaded<Item>]) -> [String] {
        values.map { "\($0.origin) v\($0.value.version)\($0.isStale ? " stale" : "")" }
    }

    // MARK: - Policies

    @Test("cachedThenFetch: nothing stored gives the network's value; then the stored value first and the network's after it")
    func cachedThenFetch() async throws {
        let fresh: HTTPFields = [.cacheControl: "max-age=86400"]
        try await withServer([Self.fixture(1, fields: fresh), Self.fixture(2, fields: fresh)]) { server, request in
            let first = await load(request, .cachedThenFetch)
            #expect(Self.summary(first.values) == ["network v1"])
            let second = await load(request, .cachedThenFetch)
            #expect(Self.summary(second.values) == ["cache v1", "network v2"])
            #expect(second.error == nil)
            #expect(server.replay.unusedInteractions.isEmpty)
        }
    }

    @Test("cacheElseFetch: a fresh stored value answers without a request; a stale one is revalidated and a 304 costs no body")
    func cacheElseFetch() async throws {
        let fixtures = [
            Self.fixture(1, fields: [.cacheControl: "no-cache", .eTag: "\"v1\""]),
            Self.fixture(0, status: 304, fields: [.cacheControl: "max-age=86400", .eTag: "\"v1\""], ifNoneMatch: "\"v1\""),
            Self.fixture(9, fields: [.cacheControl: "max-age=86400"]),
        ]
        try await withServer(fixtures) { server, request in
            #expect(Self.summary(await load(request, .cacheElseFetch).values) == ["network v1"])
            // no-cache: stored, but asked about every time; the 304 makes it fresh for a minute.
            let revalidated = await load(request, .cacheElseFetch)
            #expect(Self.summary(revalidated.values) == ["network v1"])
            #expect(revalidated.values.first?.response.status == .ok)
            #expect(revalidated.values.first?.response.headerFields[.cacheControl] == "max-age=86400")
            #expect(Self.summary(await load(request, .cacheElseFetch).values) == ["cache v1"])
            #expect(server.replay.unusedInteractions.count == 1)
        }
    }

    @Test("fetchElseCache: when the network cannot be reached, the stored value, marked stale; must-revalidate forbids it")
    func fetchElseCache() async throws {
        let stale = Self.httpDate(Date(timeIntervalSinceNow: -100_000))
        for (control, expected) in [("max-age=86400", ["cache v1 stale"]), ("max-age=86400, must-revalidate", [])] {
            let fixtures = [Self.fixture(1, fields: [.cacheControl: control, .date: stale])]
            var request: URLRequest?
            try await withServer(fixtures) { _, served in
                request = served
                #expect(Self.summary(await load(served, .fetchElseCache).values) == ["network v1"])
            }
            // The same session's settings, with every connection refused.
            let offline = await load(try #require(request), .fetchElseCache, session: .refusingConnections())
            #expect(Self.summary(offline.values) == expected)
            #expect((offline.error as? URLError) == nil || expected.isEmpty)
            #expect(expected.isEmpty == (offline.error is URLError))
        }
    }

    @Test("networkOnly always asks; cacheOnly never does, and says so when nothing is stored")
    func networkOnlyAndCacheOnly() async throws {
        let fresh: HTTPFields = [.cacheControl: "max-age=86400"]
        try await withServer([Self.fixture(1, fields: fresh), Self.fixture(2, fields: fresh)]) { server, request in
            let empty = await load(request, .cacheOnly)
            #expect(empty.values.isEmpty)
            #expect((empty.error as? URLError)?.code == .resourceUnavailable)
            #expect(Self.summary(await load(request, .networkOnly).values) == ["network v1"])
            #expect(Self.summary(await load(request, .networkOnly).values) == ["network v2"])
            #expect(Self.summary(await load(request, .cacheOnly).values) == ["cache v2"])
            #expect(server.replay.unusedInteractions.isEmpty)
        }
    }

    // MARK: - What ends a load

    @Test("an error model on the network leg ends the load after the stored value, as a SculptError with the model")
    func errorModelAfterCachedValue() async throws {
        try await withServer([Self.fixture(1, fields: [.cacheControl: "max-age=86400"]), Self.fixture(0, status: 503)]) { _, request in
            _ = await load(request, .networkOnly)
            let second = await load(request, .cachedThenFetch)
            #expect(Self.summary(second.values) == ["cache v1"])
            let error = try #require(second.error as? SculptError)
            #expect(error.reason.name == "errorResponse")
            #expect(error.errorModel(as: Problem.self) == Problem(message: "down"))
            #expect(error.response.status.code == 503)
        }
    }

    @Test("cancelling the task that iterates a load ends the iteration without a value and cancels its request", .timeLimit(.minutes(10)))
    func cancellation() async throws {
        let silent = try SilentServer()
        let loading = Task { await load(URLRequest(url: silent.url), .networkOnly) }
        await silent.requestReceived()
        loading.cancel()
        let result = await loading.value
        #expect(result.values.isEmpty)
        #expect(result.error == nil)
        // The client gives the connection up: the request itself was cancelled, not only the
        // loop (a request left running would keep it open, and the test would reach its limit).
        await silent.clientClosed()
    }

    // MARK: - HTTP caching (RFC 9111)

    @Test("freshness comes from Cache-Control, Expires, Date, Age and Last-Modified", arguments: [
        ("max-age=86400", nil, nil, nil, nil, false),
        ("max-age=86400", -100_000, nil, nil, nil, true),
        ("max-age=86400", nil, nil, "100000", nil, true),
        (nil, 0, 3600, nil, nil, false),
        (nil, 0, -10, nil, nil, true),
        (nil, nil, nil, nil, -10 * 86_400, false),
        (nil, nil, nil, nil, nil, true),
        ("no-cache, max-age=600", nil, nil, nil, nil, true),
    ] as [(String?, Int?, Int?, String?, Int?, Bool)])
    func freshness(control: String?, date: Int?, expires: Int?, age: String?, lastModified: Int?, isStale: Bool) async throws {
        var fields = HTTPFields()
        let now = Date()
        if let control { fields[.cacheControl] = control }
        if let date { fields[.date] = Self.httpDate(now.addingTimeInterval(TimeInterval(date))) }
        if let expires { fields[.expires] = Self.httpDate(now.addingTimeInterval(TimeInterval(expires))) }
        if let age { fields[.age] = age }
        if let lastModified { fields[.lastModified] = Self.httpDate(now.addingTimeInterval(TimeInterval(lastModified))) }
        try await withServer([Self.fixture(1, fields: fields)]) { _, request in
            _ = await load(request, .networkOnly)
            let stored = await load(request, .cacheOnly)
            #expect(stored.values.map(\.isStale) == [isStale])
        }
    }

    @Test("no-store, a POST and Vary: * are never stored")
    func notStored() async throws {
        for (fields, method) in [([HTTPField.Name.cacheControl: "no-store, max-age=86400"] as HTTPFields, "GET"), ([.vary: "*", .cacheControl: "max-age=86400"], "GET")] {
            try await withServer([Self.fixture(1, fields: fields)]) { _, request in
                var request = request
                request.httpMethod = method
                _ = await load(request, .networkOnly)
                #expect((await load(request, .cacheOnly).error as? URLError)?.code == .resourceUnavailable)
            }
        }
        let post = Fixture(
            request: .init(method: .post, url: URL(string: "https://api.example.com\(Self.path)")!),
            response: .init(status: .ok, headerFields: [.contentType: "application/json", .cacheControl: "max-age=86400"], body: Data(#"{"version":1}"#.utf8)))
        try await withServer([post]) { _, request in
            var request = request
            request.httpMethod = "POST"
            _ = await load(request, .networkOnly)
            request.httpMethod = "GET"
            #expect((await load(request, .cacheOnly).error as? URLError)?.code == .resourceUnavailable)
        }
    }

    @Test("a stored response answers only requests with the same values of the fields it varies on")
    func vary() async throws {
        try await withServer([Self.fixture(1, fields: [.cacheControl: "max-age=86400", .vary: "Accept-Language"])]) { _, request in
            var english = request
            english.setValue("en", forHTTPHeaderField: "Accept-Language")
            _ = await load(english, .networkOnly)
            #expect(Self.summary(await load(english, .cacheOnly).values) == ["cache v1"])
            var french = request
            french.setValue("fr", forHTTPHeaderField: "Accept-Language")
            #expect((await load(french, .cacheOnly).error as? URLError)?.code == .resourceUnavailable)
        }
    }

    @Test("a cache on disk answers after it is made again from the same folder (a restart)")
    func survivesRestart() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var request: URLRequest?
        try await withServer([Self.fixture(1, fields: [.cacheControl: "max-age=86400"])]) { _, served in
            request = served
            let disk = HTTPResponseCache(URLCache(memoryCapacity: 0, diskCapacity: 16 << 20, diskPath: folder.path))
            for try await _ in session.models(for: served, serializer: serializer, as: Item.self, policy: .networkOnly, cache: disk) {}
        }
        let again = HTTPResponseCache(URLCache(memoryCapacity: 0, diskCapacity: 16 << 20, diskPath: folder.path))
        var values: [Loaded<Item>] = []
        for try await loaded in session.models(for: try #require(request), serializer: serializer, as: Item.self, policy: .cacheOnly, cache: again) {
            values.append(loaded)
        }
        #expect(Self.summary(values) == ["cache v1"])
    }
}
