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

/// What the HTTP cache keys a response by (its whole URL, the fields it varies on), and how it
/// reads `Cache-Control`, each against the loopback server.
extension LoadPolicyTests {
    /// `GET /users?id=N`, fresh for an hour, answering version `N`.
    static func user(_ id: Int, fields: HTTPFields = [:]) -> Fixture {
        var response = fields
        response[.contentType] = "application/json"
        response[.cacheControl] = response[.cacheControl] ?? "max-age=3600"
        return Fixture(
            request: .init(url: URL(string: "https://api.example.com/users?id=\(id)")!),
            response: .init(status: .ok, headerFields: response, body: Data(#"{"version":\#(id)}"#.utf8)))
    }

    func users(_ baseURL: URL, _ id: Int) -> URLRequest {
        URLRequest(url: baseURL.appending(path: "users").appending(queryItems: [URLQueryItem(name: "id", value: "\(id)")]))
    }

    @Test("a response stored for one query string never answers another", arguments: [
        URLCache(memoryCapacity: 8 << 20, diskCapacity: 0, diskPath: nil),
        URLCache(memoryCapacity: 0, diskCapacity: 8 << 20, diskPath: FileManager.default.temporaryDirectory.appending(path: "sculpt-query-\(UUID().uuidString)").path),
    ])
    func queryIsPartOfTheKey(urlCache: URLCache) async throws {
        let cache = HTTPResponseCache(urlCache)
        try await FixtureServer.running(FixtureReplay([Self.user(1), Self.user(2)])) { _, baseURL in
            var seen: [String] = []
            for id in [1, 2, 1, 2] {
                for try await loaded in session.models(for: users(baseURL, id), serializer: serializer, as: Item.self, policy: .cacheElseFetch, cache: cache) {
                    seen.append("\(loaded.origin) v\(loaded.value.version)")
                }
            }
            #expect(seen == ["network v1", "network v2", "cache v1", "cache v2"])
        }
    }

    @Test("after a load stores into the session's own cache, the session still asks the network for its own requests")
    func sessionNotPoisoned() async throws {
        let own = URLSessionConfiguration.unhurried
        own.urlCache = URLCache(memoryCapacity: 8 << 20, diskCapacity: 0, diskPath: nil)
        let session = URLSession(configuration: own)
        try await FixtureServer.running(FixtureReplay([Self.user(1), Self.user(1), Self.user(2)])) { _, baseURL in
            var values: [Int] = []
            for try await loaded in session.models(for: users(baseURL, 1), serializer: serializer, as: Item.self, policy: .networkOnly) {
                values.append(loaded.value.version)
            }
            // The session's own requests: the same URL, then another query on the same path.
            for id in [1, 2] {
                let (data, _) = try await session.data(for: users(baseURL, id))
                values.append(try JSONDecoder().decode(Item.self, from: data).version)
            }
            #expect(values == [1, 1, 2])
        }
    }

    @Test("Vary compares the fields a session's configuration adds: one user's response never answers another's session")
    func varyWithSessionHeaders() async throws {
        let cache = HTTPResponseCache(URLCache(memoryCapacity: 8 << 20, diskCapacity: 0, diskPath: nil))
        func session(_ token: String) -> URLSession {
            let configuration = URLSessionConfiguration.unhurried
            configuration.httpAdditionalHeaders = ["Authorization": "Bearer \(token)"]
            return URLSession(configuration: configuration)
        }
        let varying: HTTPFields = [.vary: "Authorization"]
        try await FixtureServer.running(FixtureReplay([Self.user(1, fields: varying), Self.user(1, fields: varying)])) { _, baseURL in
            var seen: [String] = []
            for token in ["userA", "userB", "userB"] {  // one variant is kept per URL: the latest
                for try await loaded in session(token).models(for: users(baseURL, 1), serializer: serializer, as: Item.self, policy: .cacheElseFetch, cache: cache) {
                    seen.append("\(loaded.origin)")
                }
            }
            #expect(seen == ["network", "network", "cache"])
        }
    }

    @Test("a Vary value is kept as a fingerprint: the cache's files hold no credential")
    func varyingFingerprints() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-vary-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = HTTPResponseCache(URLCache(memoryCapacity: 0, diskCapacity: 8 << 20, diskPath: folder.path))
        let secret = "zz" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        try await FixtureServer.running(FixtureReplay([Self.user(1, fields: [.vary: "Authorization, Cookie"])])) { _, baseURL in
            var request = users(baseURL, 1)
            request.setValue("Bearer \(secret)", forHTTPHeaderField: "Authorization")
            for try await _ in session.models(for: request, serializer: serializer, as: Item.self, policy: .cacheElseFetch, cache: cache) {}
            var again: [String] = []
            for try await loaded in session.models(for: request, serializer: serializer, as: Item.self, policy: .cacheElseFetch, cache: cache) {
                again.append("\(loaded.origin)")
            }
            #expect(again == ["cache"])
        }
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        #expect(!files.isEmpty)
        for file in files {
            let contents = (try? Data(contentsOf: file)) ?? Data()
            #expect(contents.range(of: Data(secret.utf8)) == nil, "\(file.lastPathComponent) holds the token")
        }
    }

    @Test("a quoted string in Cache-Control hides what it quotes, escaped quotes included: no max-age here")
    func quotedPairInCacheControl() async throws {
        let cache = HTTPResponseCache(URLCache(memoryCapacity: 8 << 20, diskCapacity: 0, diskPath: nil))
        let quoting: HTTPFields = [.cacheControl: #"foo="a\", max-age=3600, b""#]
        try await FixtureServer.running(FixtureReplay([Self.user(1, fields: quoting), Self.user(1, fields: quoting)])) { server, baseURL in
            var seen: [String] = []
            for _ in 0..<2 {
                for try await loaded in session.models(for: users(baseURL, 1), serializer: serializer, as: Item.self, policy: .cacheElseFetch, cache: cache) {
                    seen.append("\(loaded.origin)")
                }
            }
            #expect(seen == ["network", "network"])
            #expect(server.replay.unusedInteractions.isEmpty)
        }
    }
}
