import Foundation
import HTTPTypes
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `FixtureServer` against clients no one would write on purpose: raw bytes on a socket, next to
/// a real `URLSession`. The server must answer every one as RFC 9112 says, keep every other
/// client served, and never let a request choose what it is matched against.
@Suite("FixtureServer under clients that misbehave")
struct FixtureServerClientTests {
    static let user = Fixture(
        request: .init(url: URL(string: "https://api.example.com/v3/users/user5")!),
        response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data(#"{"login":"user5"}"#.utf8)))

    /// A recorded response for `path` on the recorded host.
    static func fixture(_ path: String, _ status: Int, fields: HTTPFields = [:], body: String = "", method: HTTPRequest.Method = .get) -> Fixture {
        Fixture(
            request: .init(method: method, url: URL(string: "https://api.example.com\(path)")!),
            response: .init(status: .init(code: status), headerFields: fields, body: Data(body.utf8)))
    }

    /// Runs `body` against a started server, and stops it whatever happens. Connections may
    /// idle a minute unless a test sets its own limits: on a loaded two-core machine a test's
    /// next step can come seconds after its last.
    func withServer(
        _ fixtures: [Fixture] = [user], options: FixtureReplay.Options = .init(repeatsLastResponse: true),
        limits: FixtureServer.Limits = .unhurried, _ body: (FixtureServer, URL) async throws -> Void
    ) async throws {
        try await FixtureServer.running(FixtureReplay(fixtures, options: options), limits: limits, body)
    }

    /// Sends `request` on a new connection and reads every response until the server closes.
    func exchange(_ baseURL: URL, _ request: String, headRequests: Set<Int> = []) async throws -> [RawHTTP.Response] {
        let connection = try RawHTTP(baseURL)
        defer { connection.close() }
        await RawHTTP.onThread { connection.send(request) }
        return RawHTTP.responses(in: await connection.readAll(), headRequests: headRequests)
    }

    let get = "GET /v3/users/user5 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"

    @Test("a recorded Location naming another host without a scheme is moved to this server too",
          arguments: ["//evil.example/v3/users/user5", "https:evil.example/v3/users/user5", "https://evil.example\t/v3/users/user5", " \u{1}https://evil.example/v3"])
    func networkPathLocation(location: String) async throws {
        try await withServer([Self.fixture("/moved", 302, fields: [.location: location])]) { _, baseURL in
            let moved = try await exchange(baseURL, "GET /moved HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(moved.first?.value("Location")?.hasPrefix(baseURL.absoluteString + "/") == true)
        }
    }

    // MARK: - A long request line is answered, and the server goes on serving

    @Test("a 1 MB request line, twice at once, is refused with 414 while a URLSession client is served", .timeLimit(.minutes(10)))
    func hugeRequestLines() async throws {
        try await withServer { server, baseURL in
            let line = "GET /?q=\(String(repeating: "a", count: 1 << 20)) HTTP/1.1\r\nHost: x\r\n\r\n"
            let clients = try (0..<2).map { _ in try RawHTTP(baseURL) }
            defer { clients.forEach { $0.close() } }
            let answers = clients.map { client in
                Task {
                    await RawHTTP.onThread { client.send(line) }
                    return RawHTTP.responses(in: await client.readAll())
                }
            }
            let (data, response) = try await URLSession(configuration: .unhurried).data(from: try await server.url(for: Self.user))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(data == Self.user.response.body)
            for answer in answers {
                // The server refuses after 64 KB and closes; a client still sending may see the
                // reset before the 414 (a lingering close narrows this but cannot remove it).
                let statuses = await answer.value.map(\.status)
                #expect(statuses == [414] || statuses.isEmpty)
            }
        }
    }

    @Test("header fields over the limit are 431; a request line over it is 414", arguments: [
        ("GET /\(String(repeating: "a", count: 70_000)) HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        ("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 70_000))\r\n\r\n", 431),
        ("GET / HTTP/1.1\r\nHost: x\r\n\(String(repeating: "X-A: 1\r\n", count: 10_000))\r\n", 431),
    ])
    func headLimits(request: String, status: Int) async throws {
        try await withServer { _, baseURL in
            let statuses = try await exchange(baseURL, request).map(\.status)
            #expect(statuses == [status])
        }
    }

    // MARK: - 304 and 204 answers carry no body, and the connection stays usable

    @Test("recorded 304, 204 and 205 with bodies, and a HEAD, are sent bodiless: the keep-alive connection stays in step")
    func bodilessStatuses() async throws {
        let fixtures = [
            Self.fixture("/cached", 304, fields: [.eTag: "\"v1\"", .contentLength: "10"], body: "stale body"),
            Self.fixture("/deleted", 204, body: "oops"),
            Self.fixture("/reset", 205, body: "not for a 205"),
            Self.user,
        ]
        try await withServer(fixtures) { _, baseURL in
            let requests = ["/cached", "/deleted", "/reset"].map { "GET \($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
            let responses = try await exchange(baseURL, requests + "HEAD /v3/users/user5 HTTP/1.1\r\nHost: x\r\n\r\n" + get, headRequests: [3])
            #expect(responses.map(\.status) == [304, 204, 205, 200, 200])
            #expect(responses.map(\.body) == ["", "", "", "", #"{"login":"user5"}"#])
            #expect(responses[0].value("Content-Length") == nil)
            #expect(responses[2].value("Content-Length") == "0")
            #expect(responses[3].value("Content-Length") == "17")
        }
    }

    @Test("a 304 with a recorded body does not corrupt URLSession's next response on the same connection")
    func bodiless304ThroughURLSession() async throws {
        let fixtures = [Self.fixture("/cached", 304, body: "stale body"), Self.user]
        try await withServer(fixtures) { server, baseURL in
            let session = URLSession(configuration: .unhurried)
            let (_, notModified) = try await session.data(from: baseURL.appending(path: "cached"))
            #expect((notModified as? HTTPURLResponse)?.statusCode == 304)
            let (data, _) = try await session.data(from: try await server.url(for: Self.user))
            #expect(data == Self.user.response.body)
        }
    }

    @Test("a recorded 1xx or status 0 is a 502 that says why, never a hang", arguments: [100, 101, 103, 0])
    func interimStatuses(code: Int) async throws {
        try await withServer([Self.fixture("/early", code)]) { _, baseURL in
            let responses = try await exchange(baseURL, "GET /early HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(responses.map(\.status) == [502])
            #expect(responses.first?.value("X-Sculpt-Replay") == "unreplayable")
            #expect(responses.first?.body.contains("status \(code)") == true)
        }
    }

    // MARK: - The Host field steers neither matching nor redirects

    @Test("the Host field never reaches matching: a host that is not one is refused, any other is ignored", arguments: [
        ("a@b/v3/users/user5#", 400), ("api.example.com/v3/users/user5?", 400), ("x/v3/users/user5", 400),
        ("api.example.com", 404), ("api.example.com:443", 404), ("[::1]:8080", 404), ("", 404),
    ])
    func hostDoesNotSteer(host: String, status: Int) async throws {
        try await withServer { _, baseURL in
            let responses = try await exchange(baseURL, "GET /nothing HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            #expect(responses.map(\.status) == [status])
        }
    }

    @Test("a recorded redirect points at the server's own address whatever Host says; an absolute-form target's authority is ignored")
    func redirectsFromTheListeningAddress() async throws {
        let fixtures = [Self.fixture("/go", 302, fields: [.location: "https://api.example.com/v3/users/user5"]), Self.user]
        try await withServer(fixtures) { _, baseURL in
            let redirect = try await exchange(baseURL, "GET /go HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
            #expect(redirect.first?.value("Location") == baseURL.absoluteString + "/v3/users/user5")
            let absolute = try await exchange(baseURL, "GET http://evil.example/v3/users/user5 HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
            #expect(absolute.map(\.status) == [200])
        }
    }

    // MARK: - Redirects that carry secrets replay over HTTP

    @Test("a recorded redirect whose Location holds a token replays over HTTP as it does through URLSession")
    func secretBearingRedirect() async throws {
        let fixtures = [
            Self.fixture("/authorize", 302, fields: [.location: "https://api.example.com/cb?code=1&access_token=abc123"]),
            Self.fixture("/cb?code=1&access_token=abc123", 200, body: "landed"),
        ]
        try await withServer(fixtures) { _, baseURL in
            let (data, response) = try await URLSession(configuration: .unhurried).data(from: baseURL.appending(path: "authorize"))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "landed")
        }
    }

    // MARK: - Framing: what a strict server refuses

    @Test("ambiguous or unsupported requests are refused with the status RFC 9112 gives, then closed", arguments: [
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n folded\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        ("GET / HTTP/1.1 extra\r\nHost: x\r\n\r\n", 400),
        ("GET /a#frag HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET a/b HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nExpect: something\r\n\r\n", 417),
        ("\u{1}\u{2}garbage\r\n\r\n", 400),
    ])
    func refusals(request: String, status: Int) async throws {
        try await withServer { _, baseURL in
            let responses = try await exchange(baseURL, request)
            #expect(responses.map(\.status) == [status])
            #expect(responses.first?.value("Connection") == "close")
        }
    }

    @Test("a body over the limit is refused before it is read, and the server keeps its memory", .timeLimit(.minutes(10)))
    func bodyOverLimit() async throws {
        try await withServer(limits: .unhurried { $0.maximumBodySize = 1 << 20 }) { _, baseURL in
            let connection = try RawHTTP(baseURL)
            defer { connection.close() }
            connection.send("POST /v3/users/user5 HTTP/1.1\r\nHost: x\r\nContent-Length: 536870912\r\n\r\n")
            connection.send([UInt8](repeating: 0x61, count: 64 << 10))
            #expect(RawHTTP.responses(in: await connection.readAll()).map(\.status) == [413])
            let chunked = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n200000\r\n"
            let statuses = try await exchange(baseURL, chunked + String(repeating: "a", count: 1 << 20)).map(\.status)
            #expect(statuses == [413])
        }
    }

    // MARK: - Keep-alive, pipelining, bodies

    @Test("pipelined requests, with Content-Length, chunked and 100-continue bodies, are answered in order")
    func pipelining() async throws {
        let post = Self.fixture("/v3/users", 201, body: "created", method: .post)
        let fixtures = [post, Self.user]
        try await withServer(fixtures, options: .init(matchesBody: true, repeatsLastResponse: true)) { _, baseURL in
            let requests = [
                "POST /v3/users HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
                "GET /v3/users/user5 HTTP/1.1\r\nHost: x\r\n\r\n",
                "POST /v3/users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nTrailer: t\r\n\r\n",
                "\r\nGET /v3/users/user5 HTTP/1.1\nHost: x\n\n",
                "GET /v3/users/user5 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            ]
            let responses = try await exchange(baseURL, requests.joined())
            // The chunked POST's body, "abc", is not the recorded (empty) one: a miss, in its place.
            #expect(responses.map(\.status) == [201, 200, 404, 200, 200])
        }
    }

    @Test("Expect: 100-continue gets 100 Continue before the body is sent, then the answer")
    func expectContinue() async throws {
        // A loaded machine can take many seconds between the interim answer and the body.
        try await withServer(limits: .unhurried) { _, baseURL in
            let connection = try RawHTTP(baseURL)
            defer { connection.close() }
            connection.send("PUT /v3/users/user5 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
            let interim = await connection.readHead()
            #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
            connection.send("hello")
            let received = await connection.readAll()
            #expect(RawHTTP.responses(in: received).map(\.status) == [404], "\(String(decoding: received, as: UTF8.self))")
        }
    }

    // MARK: - Slow and idle clients

    @Test("a head held half-sent is answered 408 and closed")
    func slowHead() async throws {
        // The head's deadline runs from its first bytes: however late the client sends them.
        try await withServer(limits: .unhurried { $0.headTimeout = .milliseconds(300) }) { _, baseURL in
            let slow = try RawHTTP(baseURL)
            defer { slow.close() }
            slow.send("GET / HTTP/1.1\r\nHo")
            #expect(RawHTTP.responses(in: await slow.readAll()).map(\.status) == [408])
        }
    }

    @Test("a connection that sends nothing is closed once idle")
    func idleClient() async throws {
        try await withServer(limits: .unhurried { $0.idleTimeout = .milliseconds(300) }) { _, baseURL in
            let idle = try RawHTTP(baseURL)
            defer { idle.close() }
            #expect(await idle.awaitClose())
        }
    }

    @Test("past the connection limit, with every connection busy, a newcomer reads a whole 503; the others are still served")
    func connectionLimit() async throws {
        // Busy: each holder asked for a body larger than the socket buffers hold (its own receive
        // buffer is fixed small) and reads none of it, so the server is answering it for as long
        // as the test lasts (an hour at most).
        let large = Self.fixture("/large", 200, body: String(repeating: "x", count: 32 << 20))
        let limits = FixtureServer.Limits.unhurried { $0.maximumConnections = 2 }
        try await withServer([large, Self.user], limits: limits) { server, baseURL in
            var holders: [RawHTTP] = []
            defer { holders.forEach { $0.close() } }
            for _ in 0..<2 {
                let holder = try RawHTTP(baseURL, receiveBuffer: 64 << 10)
                holders.append(holder)
                holder.send("GET /large HTTP/1.1\r\nHost: x\r\n\r\n")
                // The answer has begun: the server read the request and is sending.
                #expect(await holder.readHead().hasPrefix("HTTP/1.1 200 "))
            }
            // The newcomer's request is read after the answer, so the answer is not lost to a
            // reset.
            for _ in 0..<5 {
                let turnedAway = try await exchange(baseURL, get)
                #expect(turnedAway.map(\.status) == [503])
                #expect(turnedAway.first?.body.contains("2 connections open") == true)
            }
            holders.forEach { $0.close() }
            // The server frees the places once it sees the closes; a newcomer is then served.
            // Asked until served: the test's time limit is the only bound.
            while try await exchange(baseURL, get).map(\.status) != [200] {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    @Test("at the connection limit, a newcomer takes the place of a body trickling in")
    func tricklingBodyMakesRoom() async throws {
        let limits = FixtureServer.Limits.unhurried { $0.maximumConnections = 2 }
        try await withServer(limits: limits) { server, baseURL in
            var holders: [RawHTTP] = []
            defer { holders.forEach { $0.close() } }
            for _ in 0..<2 {
                let holder = try RawHTTP(baseURL)
                holders.append(holder)
                holder.send("POST /v3/users/user5 HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n")
                #expect(await holder.readHead() == "HTTP/1.1 100 Continue\r\n\r\n")
                holder.send("12345")
            }
            // Half their bodies sent, the holders wait to send the rest: the newcomer is served in
            // the place of one of them (the one whose body began first, as the server saw it).
            #expect(try await exchange(baseURL, get).map(\.status) == [200])
            while !holders.contains(where: { $0.isClosedNow() }) {
                try await Task.sleep(for: .milliseconds(10))
            }
            let open = try #require(holders.first { !$0.isClosedNow() })
            open.send("67890")
            #expect(await open.readResponses(1).map(\.status) == [404])
        }
    }

    @Test("at the connection limit, a newcomer takes the place of the connection idle the longest")
    func idleConnectionMakesRoom() async throws {
        try await withServer(limits: .unhurried { $0.maximumConnections = 2 }) { server, baseURL in
            var holders: [RawHTTP] = []
            defer { holders.forEach { $0.close() } }
            for _ in 0..<2 {
                let holder = try RawHTTP(baseURL)
                holders.append(holder)
                holder.send("GET /v3/users/user5 HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await holder.readResponses(1).map(\.status) == [200])
            }
            // 520 idle keep-alive connections made every
            // other client a 503 for a minute.
            #expect(try await exchange(baseURL, get).map(\.status) == [200])
            // One holder made room (the first to go idle, as the server saw it: on a loaded
            // machine either may be); the other is still served.
            // The newcomer was served after the server closed one of them: seen as soon as it is.
            while !holders.contains(where: { $0.isClosedNow() }) {
                try await Task.sleep(for: .milliseconds(10))
            }
            let closed = holders.map { $0.isClosedNow() }
            #expect(closed.filter { $0 }.count == 1, "\(closed)")
            if let open = closed.firstIndex(of: false) {
                holders[open].send("GET /v3/users/user5 HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await holders[open].readResponses(1).map(\.status) == [200])
            }
        }
    }

    @Test("at the connection limit, a newcomer takes the place of a head trickling in")
    func slowHeadMakesRoom() async throws {
        try await withServer(limits: .unhurried { $0.maximumConnections = 2 }) { server, baseURL in
            let holders = try (0..<2).map { _ in try RawHTTP(baseURL) }
            defer { holders.forEach { $0.close() } }
            holders.forEach { $0.send("GET /v3/users/user5 HTTP/1.1\r\nHost: ") }
            // Once the server has read the start of the heads (a loaded machine may do it late),
            // a newcomer takes the place of the older.
            // Asked until served: the test's time limit is the only bound.
            while try await exchange(baseURL, get).map(\.status) != [200] {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    @Test("stop closes open connections, and the server starts again on a new port")
    func stopAndRestart() async throws {
        let server = FixtureServer(replay: FixtureReplay([Self.user], options: .init(repeatsLastResponse: true)))
        let first = try await server.start()
        let held = try RawHTTP(first)
        defer { held.close() }
        await server.stop()
        #expect(await held.awaitClose())
        let second = try await server.start()
        let statuses = try await exchange(second, get).map(\.status)
        #expect(statuses == [200])
        await server.stop()
    }

    @Test("200 URLSession requests at once are all answered", .timeLimit(.minutes(10)))
    func concurrentClients() async throws {
        try await withServer { server, _ in
            let url = try await server.url(for: Self.user)
            let session = URLSession(configuration: .unhurried)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<200 {
                    group.addTask { (try await session.data(from: url).1 as? HTTPURLResponse)?.statusCode ?? 0 }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 200))
        }
    }
}
