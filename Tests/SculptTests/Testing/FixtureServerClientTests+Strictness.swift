import Foundation
import HTTPTypes
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Strict parsing and bounded clients: targets read once, requests refused rather than guessed,
/// clients slow enough to hold a connection for ever, bodies where none may go, and URLs that
/// leave the server.
extension FixtureServerClientTests {
    // MARK: - Targets

    @Test("a target with bytes clients leave unencoded matches the recording once, never encoded twice", arguments: [
        "/search?q=a%20b%7Cc", "/search?q=a%20b|c", "/search?q=a%20b%7cc",
    ])
    func unencodedTargetBytes(target: String) async throws {
        let fixtures = [Self.fixture("/search?q=a%20b%7Cc", 200, body: "found")]
        try await withServer(fixtures) { _, baseURL in
            let responses = try await exchange(baseURL, "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(responses.map(\.status) == [200])
            #expect(responses.first?.body == "found")
        }
    }

    @Test("braces, brackets, quotes and backslashes in a target are each percent-encoded once")
    func reservedTargetBytes() async throws {
        let fixtures = [Self.fixture("/q?f=%7B%22a%22%3A%5B1%5D%7D&p=%5C%3C%3E%5E%60", 200, body: "ok")]
        try await withServer(fixtures) { _, baseURL in
            let responses = try await exchange(baseURL, "GET /q?f={\"a\"%3A[1]}&p=\\<>^` HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(responses.map(\.status) == [200])
        }
    }

    @Test("a path matches its recording however equal percent-encodings are written (RFC 3986, 6.2.2)", arguments: [
        "/a%7cb/A/%7e", "/a%7Cb/%41/~", "/%61%7Cb/%41/%7E",
    ])
    func equalEncodings(path: String) async throws {
        // `%7c` and `%7C`, `%41` and `A` were different paths.
        try await withServer([Self.fixture("/a%7Cb/A/~", 200, body: "ok")]) { _, baseURL in
            let responses = try await exchange(baseURL, "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(responses.map(\.status) == [200])
        }
    }

    @Test("an encoded slash is not a slash", arguments: ["/a/b", "/a%2fb"])
    func encodedSlash(path: String) async throws {
        try await withServer([Self.fixture("/a%2Fb", 200, body: "ok"), Self.fixture("/a/b", 200, body: "slash")]) { _, baseURL in
            let responses = try await exchange(baseURL, "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(responses.map(\.body) == [path == "/a/b" ? "slash" : "ok"])
        }
    }

    @Test("requests HTTP/1.1 does not allow are refused 400", arguments: [
        "GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /a%2 HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /?q=% HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET http://user:token@api.example.com/v3/users/user5 HTTP/1.1\r\nHost: api.example.com\r\n\r\n",
        "GET http:///v3/users/user5 HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x:80a\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5x\r\nhello\r\n0\r\n\r\n",
        // an empty Transfer-Encoding beside Content-Length,
        // and a bare CR inside a chunk extension or a trailer line.
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\nContent-Length: 5\r\n\r\nhello",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;a=\rb\r\nhello\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nT: a\rb\r\n\r\n",
    ])
    func laxRequests(request: String) async throws {
        try await withServer { _, baseURL in
            let statuses = try await exchange(baseURL, request).map(\.status)
            #expect(statuses == [400])
        }
    }

    @Test("a later HTTP/1.x request is answered as HTTP/1.1")
    func laterMinorVersion() async throws {
        try await withServer { _, baseURL in
            let connection = try RawHTTP(baseURL)
            defer { connection.close() }
            connection.send("GET /v3/users/user5 HTTP/1.2\r\nHost: x\r\nConnection: close\r\n\r\n")
            let head = await connection.readHead()
            #expect(head.hasPrefix("HTTP/1.1 200 "), "\(head)")
        }
    }

    @Test("a chunk extension after white space is still read")
    func chunkExtension() async throws {
        let post = Self.fixture("/v3/users", 201, body: "created", method: .post)
        try await withServer([post]) { _, baseURL in
            let request = "POST /v3/users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5 ;name=value\r\nhello\r\n0\r\n\r\n"
            let statuses = try await exchange(baseURL, request).map(\.status)
            #expect(statuses == [201])
        }
    }

    // MARK: - Refusals to HEAD

    @Test("a refusal to a HEAD request carries no body", arguments: [
        "HEAD / HTTP/1.1\r\nHost: a b\r\n\r\n",
        "HEAD /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
        "HEAD / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
    ])
    func headRefusals(request: String) async throws {
        try await withServer { _, baseURL in
            let connection = try RawHTTP(baseURL)
            defer { connection.close() }
            connection.send(request)
            let text = String(decoding: await connection.readAll(), as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 400 "))
            #expect(text.hasSuffix("\r\n\r\n"))
            #expect(text.components(separatedBy: "\r\n\r\n").count == 2)
        }
    }

    // MARK: - Slow clients

    @Test("a body that trickles in steadily is still cut off at the body deadline", .timeLimit(.minutes(10)))
    func tricklingBody() async throws {
        try await withServer(limits: .unhurried { $0.bodyTimeout = .milliseconds(300) }) { _, baseURL in
            let connection = try RawHTTP(baseURL)
            defer { connection.close() }
            connection.send("POST /v3/users HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
            let trickle = Task.detached {
                for _ in 0..<1000 where connection.send("a") {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let responses = RawHTTP.responses(in: await connection.readAll())
            // Done with the descriptor before it is closed: a send after that could reach
            // whichever socket reuses its number.
            trickle.cancel()
            _ = await trickle.result
            #expect(responses.map(\.status) == [408])
            #expect(responses.first?.body.contains("did not arrive within") == true)
        }
    }

    @Test("a client that reads a response too slowly is cut off at the response deadline", .timeLimit(.minutes(10)))
    func slowReader() async throws {
        let large = Self.fixture("/large", 200, body: String(repeating: "x", count: 64 << 20))
        try await withServer([large], limits: .unhurried { $0.responseTimeout = .milliseconds(300) }) { _, baseURL in
            let connection = try RawHTTP(baseURL)
            defer { connection.close() }
            connection.send("GET /large HTTP/1.1\r\nHost: x\r\n\r\n")
            var received = 0
            // 64 KiB every 20 ms would take 20 s for the whole body.
            // Read until the server closes: it must, before all of the body has gone.
            while let count = await connection.readSome(atMost: 64 << 10) {
                received += count
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(received < 64 << 20)
        }
    }

    // MARK: - URLs for the server

    @Test("url(for:) only names this server", arguments: ["http://evil.example/", "//evil.example/p", "https://127.0.0.1/x", "users"])
    func urlsLeavingTheServer(text: String) async throws {
        try await withServer { server, _ in
            await #expect(throws: URLError.self) { try await server.url(for: text) }
        }
    }

    @Test("url(for:) maps a fixture recorded with an empty first segment (//x) to this server")
    func urlForDoubleSlashFixture() async throws {
        let fixture = Self.fixture("//x/y?z=1", 200, body: "ok")
        try await withServer([fixture]) { server, baseURL in
            let url = try await server.url(for: fixture)
            #expect(url.absoluteString == baseURL.absoluteString + "//x/y?z=1")
            let (data, _) = try await URLSession(configuration: .unhurried).data(from: url)
            #expect(String(decoding: data, as: UTF8.self) == "ok")
        }
    }

    @Test("url(for:) keeps a path and query on this server")
    func urlsOnTheServer() async throws {
        try await withServer { server, baseURL in
            let url = try await server.url(for: "/v3/users/user5?x=1")
            #expect(url.absoluteString == baseURL.absoluteString + "/v3/users/user5?x=1")
        }
    }
}
