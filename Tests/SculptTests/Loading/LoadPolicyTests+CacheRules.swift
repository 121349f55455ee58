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

/// RFC 9111's finer cache rules, each against the loopback server.
extension LoadPolicyTests {
    @Test("delta-seconds: leading zeros, values past 2^31 and invalid max-age (stale, not heuristic)", arguments: [
        ("max-age=0000000086400", nil, false),
        ("max-age=86400", "99999999999999999999", true),
        ("max-age=abc", nil, true),
        ("max-age=", nil, true),
    ] as [(String, String?, Bool)])
    func deltaSeconds(control: String, age: String?, isStale: Bool) async throws {
        var fields: HTTPFields = [.cacheControl: control]
        // Old enough that a heuristic would call it fresh for a day.
        fields[.lastModified] = Self.httpDate(Date(timeIntervalSinceNow: -100 * 86_400))
        if let age { fields[.age] = age }
        try await withServer([Self.fixture(1, fields: fields)]) { _, request in
            _ = await load(request, .networkOnly)
            #expect(await load(request, .cacheOnly).values.map(\.isStale) == [isStale])
        }
    }

    @Test("206 and a 304 answering the caller's own conditional request are never stored", arguments: [206, 304])
    func partialAndNotModifiedNotStored(status: Int) async throws {
        try await withServer([Self.fixture(1, status: status, fields: [.cacheControl: "max-age=86400"], ifNoneMatch: "\"mine\"")]) { _, request in
            var conditional = request
            conditional.setValue("\"mine\"", forHTTPHeaderField: "If-None-Match")
            _ = await load(conditional, .networkOnly)
            #expect((await load(request, .cacheOnly).error as? URLError)?.code == .resourceUnavailable)
        }
    }

    @Test("a 304 that says no-store confirms the stored value once, then nothing is stored")
    func notModifiedWithNoStore() async throws {
        let fixtures = [
            Self.fixture(1, fields: [.cacheControl: "max-age=0", .eTag: "\"a\""]),
            Self.fixture(0, status: 304, fields: [.cacheControl: "no-store", .eTag: "\"a\""], ifNoneMatch: "\"a\""),
        ]
        try await withServer(fixtures) { server, request in
            _ = await load(request, .networkOnly)
            #expect(Self.summary(await load(request, .cacheElseFetch).values) == ["network v1"])
            #expect((await load(request, .cacheOnly).error as? URLError)?.code == .resourceUnavailable)
            #expect(server.replay.unusedInteractions.isEmpty)
        }
    }

    @Test("a 304 naming another ETag, strong or weak, does not confirm the stored value: it is asked for again, unconditionally",
          arguments: ["\"b\"", "W/\"b\""])
    func notModifiedWithAnotherETag(etag: String) async throws {
        let fixtures = [
            Self.fixture(1, fields: [.cacheControl: "max-age=0", .eTag: "\"a\""]),
            Self.fixture(0, status: 304, fields: [.eTag: etag], ifNoneMatch: "\"a\""),
            Self.fixture(2, fields: [.cacheControl: "max-age=86400", .eTag: "\"b\""]),
        ]
        try await withServer(fixtures) { server, request in
            _ = await load(request, .networkOnly)
            #expect(Self.summary(await load(request, .cacheElseFetch).values) == ["network v2"])
            #expect(server.replay.unusedInteractions.isEmpty)
        }
    }

    @Test("a successful POST to a URL removes what is stored for it")
    func unsafeMethodInvalidates() async throws {
        let post = Fixture(
            request: .init(method: .post, url: URL(string: "https://api.example.com\(Self.path)")!),
            response: .init(status: .created, headerFields: [.contentType: "application/json"], body: Data(#"{"version":2}"#.utf8)))
        try await withServer([Self.fixture(1, fields: [.cacheControl: "max-age=86400"]), post]) { _, request in
            _ = await load(request, .networkOnly)
            #expect(Self.summary(await load(request, .cacheOnly).values) == ["cache v1"])
            var posting = request
            posting.httpMethod = "POST"
            #expect(Self.summary(await load(posting, .networkOnly).values) == ["network v2"])
            #expect((await load(request, .cacheOnly).error as? URLError)?.code == .resourceUnavailable)
        }
    }

    @Test("a response reached through a redirect is stored under its own URL, not the one that redirected")
    func redirectStoredUnderFinalURL() async throws {
        let moved = Fixture(
            request: .init(url: URL(string: "https://api.example.com/old")!),
            response: .init(status: .found, headerFields: [.location: "https://api.example.com\(Self.path)"]))
        try await withServer([moved, Self.fixture(1, fields: [.cacheControl: "max-age=86400"])]) { server, request in
            let old = URLRequest(url: try await server.url(for: "/old"))
            #expect(Self.summary(await load(old, .networkOnly).values) == ["network v1"])
            #expect((await load(old, .cacheOnly).error as? URLError)?.code == .resourceUnavailable)
            #expect(Self.summary(await load(request, .cacheOnly).values) == ["cache v1"])
        }
    }

    @Test("Cache-Control: max-age=0 or Pragma: no-cache on the request goes to the network", arguments: [
        ("Cache-Control", "max-age=0"), ("Pragma", "no-cache"), ("Cache-Control", "no-cache"),
    ])
    func requestDirectives(name: String, value: String) async throws {
        let fresh: HTTPFields = [.cacheControl: "max-age=86400"]
        try await withServer([Self.fixture(1, fields: fresh), Self.fixture(2, fields: fresh)]) { _, request in
            _ = await load(request, .networkOnly)
            var asking = request
            asking.setValue(value, forHTTPHeaderField: name)
            #expect(Self.summary(await load(asking, .cacheElseFetch).values) == ["network v2"])
        }
    }

    @Test("a stored response gives out no Set-Cookie")
    func cookiesNotStored() async throws {
        try await withServer([Self.fixture(1, fields: [.cacheControl: "max-age=86400", .setCookie: "session=live"])]) { _, request in
            _ = await load(request, .networkOnly)
            let stored = await load(request, .cacheOnly).values
            #expect(stored.count == 1)
            #expect(stored.first?.response.headerFields[.setCookie] == nil)
        }
    }

    @Test("a redirect to another origin does not carry Authorization or Cookie; one on the same origin does")
    func credentialsOnRedirect() async throws {
        let target = try ScriptedServer { _ in "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"version\":1}" }
        defer { target.stop() }
        let source = try ScriptedServer { head in
            head.hasPrefix("GET /same ")
                ? "HTTP/1.1 302 Found\r\nLocation: /final\r\nContent-Length: 0\r\n\r\n"
                : head.hasPrefix("GET /final ")
                    ? "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"version\":1}"
                    : "HTTP/1.1 302 Found\r\nLocation: \(target.url("/landed").absoluteString)\r\nContent-Length: 0\r\n\r\n"
        }
        defer { source.stop() }
        // FoundationNetworking asks only the session's delegate about redirects (measured: a task
        // delegate is never called), so on Linux the session carries the guard; Apple platforms
        // use the task delegate every load passes.
        #if canImport(FoundationNetworking)
        let session = URLSession(configuration: .unhurried, delegate: CrossOriginRedirects(), delegateQueue: nil)
        #else
        let session = URLSession(configuration: .unhurried)
        #endif
        for path in ["/away", "/same"] {
            var request = URLRequest(url: source.url(path))
            request.setValue("Bearer live-token", forHTTPHeaderField: "Authorization")
            request.setValue("session=live", forHTTPHeaderField: "Cookie")
            let loads = session.models(for: request, serializer: serializer, as: Item.self, policy: .networkOnly, cache: cache)
            var values: [Loaded<Item>] = []
            for try await loaded in loads { values.append(loaded) }
            #expect(Self.summary(values) == ["network v1"])
        }
        let landed = target.heads.joined().lowercased()
        #expect(!landed.isEmpty)
        #expect(!landed.contains("authorization") && !landed.contains("cookie"), "\(landed)")
        let final = source.heads.filter { $0.hasPrefix("GET /final ") }.joined().lowercased()
        #expect(final.contains("authorization: bearer live-token"), "\(final)")
    }

    @Test("fetchElseCache answers from the cache when the transport ends a request as cancelled and the caller did not cancel")
    func transportCancelledFallsBack() async throws {
        let fresh: HTTPFields = [.cacheControl: "max-age=86400"]
        try await withServer([Self.fixture(1, fields: fresh)]) { _, request in
            #expect(Self.summary(await load(request, .networkOnly).values) == ["network v1"])
            let configuration = URLSessionConfiguration.unhurried
            configuration.protocolClasses = [CancelledTransport.self]
            let result = await load(request, .fetchElseCache, session: URLSession(configuration: configuration))
            #expect(Self.summary(result.values) == ["cache v1"])
            #expect(result.error == nil)
        }
    }

    @Test("a load in a task cancelled before it asks sends no request")
    func cancelledBeforeAsking() async throws {
        let url = try #require(URL(string: "https://\(UUID().uuidString.lowercased()).example/items/1"))
        let session = URLSession.refusingConnections()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await load(URLRequest(url: url), .networkOnly, session: session)
        }
        let result = await task.value
        #expect(result.values.isEmpty && result.error == nil)
        #expect(!RefusedConnection.wasAsked(for: url), "the request reached the loading system")
    }
}
