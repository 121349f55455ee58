import Foundation
import Sculpt
import SculptLoading
import SculptMatchers
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if Persistence
import SculptStore
#endif

/// What a response varies on is compared as the session sends the request: its cookie storage's
/// cookies and its configuration's fields count, in the HTTP cache and the store alike, and a
/// response that varies on a credential the session may add unseen is never given out.
@Suite("Stored responses answer only the user they were sent for")
struct SentFieldsTests {
    struct Whoami: Decodable, Sendable, Equatable {
        let user: String
    }

    let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Whoami.self))
    let path = "/whoami"

    /// A cookie storage of one test's own, emptied: what it holds is sent with no other test's
    /// requests (FoundationNetworking's storage gives a host's cookies for every path).
    static func cookieStorage(for test: String) -> HTTPCookieStorage {
        let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "sculpt-tests-\(test)")
        signOut(storage)
        return storage
    }

    /// A server answering `{"user": ...}` with the `session` cookie it received, else the
    /// `Authorization` it received, else `nobody`; fresh for an hour and varying on `vary`.
    static func server(vary: String) throws -> ScriptedServer {
        try ScriptedServer { head in Self.whoami(head, vary: vary) }
    }

    /// The answer to `/whoami` (see ``server(vary:)``).
    static func whoami(_ head: String, vary: String) -> String {
        let user = sessionCookie(head) ?? field("authorization", head) ?? "nobody"
        let body = #"{"user":"\#(user)"}"#
        return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: max-age=3600\r\nVary: \(vary)\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }

    /// The value of the field `name` (lowercased) in a request head.
    static func field(_ name: String, _ head: String) -> String? {
        head.split(separator: "\r\n").dropFirst().lazy.compactMap { line -> String? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == name else { return nil }
            return parts[1].trimmingCharacters(in: .whitespaces)
        }.first
    }

    /// The value of the `session` cookie a request head sends.
    static func sessionCookie(_ head: String) -> String? {
        field("cookie", head)?.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("session=") }.map { String($0.dropFirst("session=".count)) }
    }

    /// A redirect to `location`, setting `cookie` when given.
    static func redirect(to location: String, setting cookie: String? = nil) -> String {
        "HTTP/1.1 302 Found\r\nLocation: \(location)\r\n\(cookie.map { "Set-Cookie: \($0); Path=/\r\n" } ?? "")Content-Length: 0\r\nConnection: close\r\n\r\n"
    }

    /// A cookie `session=value` for 127.0.0.1, kept for this process only, replacing the last.
    static func signIn(_ value: String, _ storage: HTTPCookieStorage) throws {
        let cookie = try #require(HTTPCookie(properties: [.name: "session", .value: value, .domain: "127.0.0.1", .path: "/", .discard: "TRUE"]))
        storage.setCookie(cookie)
    }

    static func signOut(_ storage: HTTPCookieStorage) {
        for cookie in storage.cookies ?? [] { storage.deleteCookie(cookie) }
    }

    /// A session sending the cookies of `cookies` (none by default), with `fields` added by its
    /// configuration.
    func session(adding fields: [String: String] = [:], delegate: (any URLSessionDelegate)? = nil, cookies: HTTPCookieStorage? = nil) -> URLSession {
        let configuration = URLSessionConfiguration.unhurried
        configuration.httpCookieStorage = cookies
        configuration.httpShouldSetCookies = true
        configuration.httpAdditionalHeaders = fields
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// Each value of one load, as `origin user`.
    func load(_ session: URLSession, _ url: URL, _ policy: LoadPolicy, cache: HTTPResponseCache, store: (any ResponseStore)? = nil) async throws -> [String] {
        var seen: [String] = []
        for try await loaded in session.models(for: URLRequest(url: url), serializer: serializer, as: Whoami.self, policy: policy, cache: cache, store: store) {
            seen.append("\(loaded.origin) \(loaded.value.user)")
        }
        return seen
    }

    static func memoryCache() -> HTTPResponseCache {
        HTTPResponseCache(URLCache(memoryCapacity: 8 << 20, diskCapacity: 0, diskPath: nil))
    }

    /// Where else a cookie may come from, beside the session's cookie storage.
    enum OwnCookie: String, CaseIterable, Sendable {
        case none, requestField, requestRefusingCookies, configurationField
    }

    @Test("a response stored for one user's cookie (from the session's cookie storage) is never given to the next user, whatever cookie the request or its configuration sets", arguments: OwnCookie.allCases)
    func cookieStorageInTheCache(own: OwnCookie) async throws {
        let cookies = Self.cookieStorage(for: "\(#function)-\(own)")
        defer { Self.signOut(cookies) }
        let server = try Self.server(vary: "Cookie")
        defer { server.stop() }
        let session = self.session(adding: own == .configurationField ? ["Cookie": "consent=yes"] : [:], cookies: cookies)
        let cache = Self.memoryCache()
        var request = URLRequest(url: server.url(path))
        if own == .requestField { request.setValue("consent=yes", forHTTPHeaderField: "Cookie") }
        if own == .requestRefusingCookies { request.httpShouldHandleCookies = false }
        var seen: [String] = []
        for user in ["alice", "bob", "bob"] {
            try Self.signIn(user, cookies)
            for try await loaded in session.models(for: request, serializer: serializer, as: Whoami.self, policy: .cacheElseFetch, cache: cache) {
                seen.append("\(loaded.origin) \(loaded.value.user)")
            }
        }
        // Whichever cookie the platform sends, the second user's first load is the network's.
        #expect(seen.count == 3)
        #expect(seen[0].hasPrefix("network") && seen[1].hasPrefix("network") && seen[2].hasPrefix("cache"), "\(seen)")
        #expect(seen[1] == seen[2].replacingOccurrences(of: "cache", with: "network"), "\(seen)")
    }

    @Test("an Authorization set on the session's configuration counts for Vary: each user's session gets its own response")
    func configurationAuthorizationInTheCache() async throws {
        let server = try Self.server(vary: "Authorization")
        defer { server.stop() }
        let cache = Self.memoryCache()
        let url = server.url(path)
        var seen: [String] = []
        for token in ["alice", "bob", "bob"] {
            seen += try await load(session(adding: ["Authorization": token]), url, .cacheElseFetch, cache: cache)
        }
        #expect(seen == ["network alice", "network bob", "cache bob"])
    }

    /// A delegate of the caller's: it could answer an authentication challenge with a credential
    /// Sculpt never sees before the request leaves.
    final class Authenticating: NSObject, URLSessionTaskDelegate, Sendable {}

    @Test("a response varying on Authorization, to a session that may add one itself, is neither stored nor given out")
    func unknownAuthorizationInTheCache() async throws {
        let server = try Self.server(vary: "Authorization")
        defer { server.stop() }
        let cache = Self.memoryCache()
        let url = server.url(path)
        let authenticating = session(delegate: Authenticating())
        #expect(try await load(authenticating, url, .cacheElseFetch, cache: cache) == ["network nobody"])
        #expect(try await load(authenticating, url, .cacheElseFetch, cache: cache) == ["network nobody"])
        // Stored for a session that cannot authenticate by itself, and given to it only.
        #expect(try await load(session(), url, .cacheElseFetch, cache: cache) == ["network nobody"])
        #expect(try await load(session(), url, .cacheElseFetch, cache: cache) == ["cache nobody"])
        #expect(try await load(authenticating, url, .cacheElseFetch, cache: cache) == ["network nobody"])
        #expect(server.heads.count == 4)
    }

    @Test("a cookie set by a redirect back to the URL asked counts for Vary: the response it brought is given to no other user, from the cache or the store")
    func cookieSetByARedirect() async throws {
        // Without a session cookie, /whoami sends the client to /login, which sets one and sends
        // it back: the final URL is the one asked, with a cookie the request did not start with.
        let server = try ScriptedServer { head in
            if head.hasPrefix("GET /login ") { return Self.redirect(to: "/whoami", setting: "session=alice") }
            return Self.sessionCookie(head) == nil ? Self.redirect(to: "/login") : Self.whoami(head, vary: "Cookie")
        }
        defer { server.stop() }
        let alice = Self.cookieStorage(for: "\(#function)-alice"), bob = Self.cookieStorage(for: "\(#function)-bob")
        defer { Self.signOut(alice) }
        let url = server.url(path)
        let cache = Self.memoryCache()
        #expect(try await load(session(cookies: alice), url, .networkOnly, cache: cache) == ["network alice"])
        let unseen = await #expect(throws: URLError.self) { try await load(session(cookies: bob), url, .cacheOnly, cache: cache) }
        #expect(unseen?.code == .resourceUnavailable)
        #if Persistence
        Self.signOut(alice)
        try await withStoreFile { path in
            let store = try SQLiteResponseStore(path: path)
            #expect(try await load(session(cookies: alice), url, .networkOnly, cache: Self.noCache, store: store) == ["network alice"])
            #expect(try await store.saveFailures().isEmpty)
            #expect(try await store.count() == 0)
        }
        #endif
    }

    /// A delegate of the caller's that sends an API key with every redirected request.
    final class AddingKeyOnRedirect: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
            completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            var keyed = request
            keyed.setValue("alice", forHTTPHeaderField: "Authorization")
            keyed.setValue("alice-key", forHTTPHeaderField: "X-Api-Key")
            completionHandler(keyed)
        }
    }

    @Test("a field a session's delegate sets on a redirected request counts for Vary: the response it brought is given to no request that lacks it")
    func fieldSetByADelegate() async throws {
        let server = try ScriptedServer { head in
            guard head.hasPrefix("GET /start ") else {
                let key = Self.field("x-api-key", head) ?? "nobody"
                let body = #"{"user":"\#(key)"}"#
                return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: max-age=3600\r\nVary: X-Api-Key\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            }
            return Self.redirect(to: "/whoami")
        }
        defer { server.stop() }
        let cache = Self.memoryCache()
        let keyed = session(delegate: AddingKeyOnRedirect())
        #expect(try await load(keyed, server.url("/start"), .networkOnly, cache: cache) == ["network alice-key"])
        for asking in [session(), keyed] {
            let unseen = await #expect(throws: URLError.self) { try await load(asking, server.url(path), .cacheOnly, cache: cache) }
            #expect(unseen?.code == .resourceUnavailable)
        }
        // Without the delegate, what the session sends is known: a response varying on a field
        // it does not send is kept, and given to a request that does not send it either.
        #expect(try await load(session(), server.url(path), .networkOnly, cache: cache) == ["network nobody"])
        #expect(try await load(session(), server.url(path), .cacheOnly, cache: cache) == ["cache nobody"])
    }

    @Test("a response asked for or answered at a URL with a user name and password is kept nowhere, so the password is written nowhere")
    func passwordInTheURL() async throws {
        let server = try ScriptedServer { head in
            head.hasPrefix("GET /start ") ? Self.redirect(to: "http://alice:pw@127.0.0.1:\(Self.port(head))/whoami") : Self.whoami(head, vary: "Accept")
        }
        defer { server.stop() }
        let cache = Self.memoryCache()
        let withUser = try #require(URL(string: "http://alice:pw@127.0.0.1:\(server.port)\(path)"))
        for url in [withUser, server.url("/start")] {
            #expect(try await load(session(), url, .networkOnly, cache: cache).count == 1)
        }
        for url in [withUser, server.url(path)] {
            let unseen = await #expect(throws: URLError.self) { try await load(session(), url, .cacheOnly, cache: cache) }
            #expect(unseen?.code == .resourceUnavailable)
        }
    }

    /// The port a request head's `Host` names.
    static func port(_ head: String) -> String {
        field("host", head)?.split(separator: ":").last.map(String.init) ?? "80"
    }

    #if Persistence
    /// Runs `body` with the URL of a server varying on `vary` and the path of a new store file.
    func withStore(vary: String, _ body: (URL, String) async throws -> Void) async throws {
        let server = try Self.server(vary: vary)
        defer { server.stop() }
        try await withStoreFile { try await body(server.url(path), $0) }
    }

    /// Runs `body` with the path of a new store file.
    func withStoreFile(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-sent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.appending(path: "responses.sqlite").path)
    }

    /// A cache that keeps nothing: what a load gives first is the store's.
    static let noCache = HTTPResponseCache(URLCache(memoryCapacity: 0, diskCapacity: 0, diskPath: nil))

    @Test("storeThenFetch: one user's saved response, varying on the cookie, is never shown to the next user, after a restart either")
    func cookieStorageInTheStore() async throws {
        let cookies = Self.cookieStorage(for: #function)
        defer { Self.signOut(cookies) }
        try await withStore(vary: "Cookie") { url, path in
            let session = self.session(cookies: cookies)
            let store = try SQLiteResponseStore(path: path)
            try Self.signIn("alice", cookies)
            #expect(try await load(session, url, .storeThenFetch, cache: Self.noCache, store: store) == ["network alice"])
            try Self.signIn("bob", cookies)
            #expect(try await load(session, url, .storeThenFetch, cache: Self.noCache, store: store) == ["network bob"])
            #expect(try await store.saveFailures().isEmpty)
            let reopened = try SQLiteResponseStore(path: path)
            for user in ["alice", "bob"] {
                try Self.signIn(user, cookies)
                #expect(try await load(session, url, .storeThenFetch, cache: Self.noCache, store: reopened) == ["store \(user)", "network \(user)"])
            }
        }
    }

    @Test("storeThenFetch: an Authorization on the configuration counts for Vary in the store")
    func configurationAuthorizationInTheStore() async throws {
        try await withStore(vary: "Authorization") { url, path in
            let store = try SQLiteResponseStore(path: path)
            #expect(try await load(session(adding: ["Authorization": "alice"]), url, .storeThenFetch, cache: Self.noCache, store: store) == ["network alice"])
            #expect(try await load(session(adding: ["Authorization": "bob"]), url, .storeThenFetch, cache: Self.noCache, store: store) == ["network bob"])
            #expect(try await load(session(adding: ["Authorization": "alice"]), url, .storeThenFetch, cache: Self.noCache, store: store) == ["store alice", "network alice"])
        }
    }

    @Test("a saved response varying on Authorization is not shown to a session that may add one itself")
    func unknownAuthorizationInTheStore() async throws {
        try await withStore(vary: "Authorization") { url, path in
            let store = try SQLiteResponseStore(path: path)
            #expect(try await load(session(), url, .storeThenFetch, cache: Self.noCache, store: store) == ["network nobody"])
            #expect(try await load(session(delegate: Authenticating()), url, .storeThenFetch, cache: Self.noCache, store: store) == ["network nobody"])
            #expect(try await load(session(), url, .storeThenFetch, cache: Self.noCache, store: store) == ["store nobody", "network nobody"])
        }
    }

    @Test("a request that says Cache-Control: no-store has its response kept by neither the cache nor the store")
    func requestNoStore() async throws {
        try await withStore(vary: "Accept") { url, path in
            let store = try SQLiteResponseStore(path: path)
            let cache = Self.memoryCache()
            var request = URLRequest(url: url)
            request.setValue("no-store", forHTTPHeaderField: "Cache-Control")
            for policy in [LoadPolicy.storeThenFetch, .cacheElseFetch, .storeThenFetch] {
                var seen: [String] = []
                for try await loaded in session().models(for: request, serializer: serializer, as: Whoami.self, policy: policy, cache: cache, store: store) {
                    seen.append("\(loaded.origin)")
                }
                #expect(seen == ["network"])
            }
            #expect(try await store.saveFailures().isEmpty)
            #expect(try await store.count() == 0)
            // A configuration that says it for every request counts the same.
            let saying = session(adding: ["Cache-Control": "no-store"])
            #expect(try await load(saying, url, .storeThenFetch, cache: cache, store: store) == ["network nobody"])
            #expect(try await store.saveFailures().isEmpty)
            #expect(try await store.count() == 0)
        }
    }
    #endif
}
