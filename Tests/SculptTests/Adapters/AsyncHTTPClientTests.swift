#if AsyncHTTPClientAdapter
import Sculpt
import SculptAsyncHTTPClient
import SculptMatchers
import SculptTesting
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Testing

/// The AsyncHTTPClient adapter against the loopback fixture server: matched on the final URL,
/// bounded bodies, bodiless answers, errors that keep the body.
@Suite("AsyncHTTPClient adapter")
struct AsyncHTTPClientTests {
    static func fixture(_ path: String, _ status: Int, method: HTTPRequest.Method = .get, fields: HTTPFields = [:], body: String = "") -> Fixture {
        var response = fields
        if !body.isEmpty { response[.contentType] = response[.contentType] ?? "application/json" }
        return Fixture(
            request: .init(method: method, url: URL(string: "https://api.example.com\(path)")!),
            response: .init(status: .init(code: status), headerFields: response, body: Data(body.utf8)))
    }

    static let fixtures = [
        fixture("/old-users/user5", 301, fields: [.location: "https://api.example.com/v3/users/user5"]),
        fixture("/v3/users/user5", 200, body: #"{"login":"user5","id":5}"#),
        fixture("/v3/users/missing", 404, body: #"{"message":"Not Found"}"#),
        fixture("/v3/users/user5", 204, method: .delete),
        fixture("/v3/users/user5", 200, method: .head, fields: [.contentType: "application/json", .contentLength: "25"]),
        fixture("/v3/users/big", 200, body: "{\"login\":\"" + String(repeating: "x", count: 100_000) + "\",\"id\":1}"),
    ]

    static func serializer() throws -> ModelResponseSerializer<URLModelMatcher> {
        var routes = URLModelMatcher(pathPrefix: "/v3")
        try routes.add("/users/*", User.self)
        try routes.add("/users/*", NoContent.self, method: .delete)
        return ModelResponseSerializer(matcher: routes, errorMatcher: StaticModelMatcher(APIError.self))
    }

    func withClient(_ body: (HTTPClient, String) async throws -> Void) async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await FixtureServer.running(FixtureReplay(Self.fixtures, options: .init(repeatsLastResponse: true))) { _, baseURL in
                try await body(client, baseURL.absoluteString)
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    @Test("a redirected request is matched on the URL that answered, not the one asked for")
    func finalURL() async throws {
        try await withClient { client, base in
            let user = try await client.model(for: HTTPClientRequest(url: base + "/old-users/user5"), serializer: try Self.serializer(), as: User.self)
            #expect(user == User(login: "user5", id: 5))
            let untyped = try await client.model(for: HTTPClientRequest(url: base + "/old-users/user5"), serializer: try Self.serializer())
            #expect(untyped as? User == User(login: "user5", id: 5))
        }
    }

    @Test("an error status keeps its body: the API's error model, the response")
    func errorModel() async throws {
        try await withClient { client, base in
            do {
                _ = try await client.model(for: HTTPClientRequest(url: base + "/v3/users/missing"), serializer: try Self.serializer(), as: User.self)
                Issue.record("a 404 serialized")
            } catch let error as SculptError {
                #expect(error.errorModel(as: APIError.self)?.message == "Not Found")
                #expect(error.response.status == .notFound)
                #expect(error.response.url?.path() == "/v3/users/missing")
                #expect(error.description.contains("-> 404 Not Found"))
            }
        }
    }

    @Test("HEAD and 204 are bodiless")
    func bodiless() async throws {
        try await withClient { client, base in
            var delete = HTTPClientRequest(url: base + "/v3/users/user5")
            delete.method = .DELETE
            let deleted = try await client.model(for: delete, serializer: try Self.serializer(), as: NoContent.self)
            #expect(deleted == NoContent())
            var head = HTTPClientRequest(url: base + "/v3/users/user5")
            head.method = .HEAD
            let headed = try await client.model(for: head, serializer: try Self.serializer(), as: User?.self)
            #expect(headed == nil)
        }
    }

    @Test("a body over the limit ends the read: bodyTooLarge, with the bytes read so far")
    func boundedBody() async throws {
        try await withClient { client, base in
            do {
                _ = try await client.model(for: HTTPClientRequest(url: base + "/v3/users/big"), serializer: try Self.serializer(), as: User.self, maximumBodySize: 4_096)
                Issue.record("a 100 KB body passed a 4 KB limit")
            } catch let error as SculptError {
                #expect(error.reason.name == "bodyTooLarge")
                if case .bodyTooLarge(let maximum) = error.reason { #expect(maximum == 4_096) }
                #expect(error.body.count == 4_096)
                #expect(error.body.starts(with: Data(#"{"login":"xxx"#.utf8)))
            }
        }
    }

    @Test("a negative limit reads nothing and does not trap; the untyped form keeps to the serializer's lower limit, an envelope's too")
    func limits() async throws {
        try await withClient { client, base in
            let request = HTTPClientRequest(url: base + "/v3/users/big")
            for limit in [-1, 0] {
                do {
                    _ = try await client.model(for: request, serializer: try Self.serializer(), as: User.self, maximumBodySize: limit)
                    Issue.record("a body passed a limit of \(limit)")
                } catch let error as SculptError {
                    guard case .bodyTooLarge = error.reason else {
                        Issue.record("\(error)")
                        return
                    }
                    #expect(error.body.isEmpty)
                    #expect(error.description.contains("is over 0 bytes"))
                }
            }
            var limited = try Self.serializer()
            limited.maximumBodySize = 10
            try await Self.expectReadStops(at: 10) { _ = try await client.model(for: request, serializer: limited) }
            try await Self.expectReadStops(at: 10) { _ = try await client.model(for: request, serializer: limited.enveloped(in: NoMeta.self)) }
        }
    }

    /// Expects `call` to stop reading a longer body at `limit` bytes, with `bodyTooLarge`.
    static func expectReadStops(at limit: Int, _ call: () async throws -> Void) async throws {
        do {
            try await call()
            Issue.record("a 100 KB body passed a \(limit)-byte limit")
        } catch let error as SculptError {
            guard case .bodyTooLarge(let maximum) = error.reason else {
                Issue.record("\(error)")
                return
            }
            #expect(maximum == limit)
            #expect(error.body.count == limit)
        }
    }

    @Test("the timeout is a deadline for the whole exchange: a body sent one byte at a time ends the call when it passes")
    func timeoutCoversTheBody() async throws {
        // 400 bytes at one every 50 ms: 20 seconds of body, against a timeout of half a second.
        let server = try TricklingServer(length: 400, interval: .milliseconds(50))
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        await #expect(throws: HTTPClientError.deadlineExceeded) {
            _ = try await client.model(for: HTTPClientRequest(url: server.url), serializer: try Self.serializer(), as: User.self, timeout: .milliseconds(500))
        }
        #expect(await server.bytesSent() < 400)
        try await client.shutdown()
    }
}

/// Metadata with no members: an envelope whose metadata the test does not read.
private struct NoMeta: Decodable, Sendable {}
#endif
