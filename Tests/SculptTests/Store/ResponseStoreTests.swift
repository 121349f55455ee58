#if Persistence
import Sculpt
import SculptLoading
import SculptMatchers
import SculptStore
import SculptTesting
import Foundation
import GRDB
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `SQLiteResponseStore` behind `.storeThenFetch` and the offline fallback, on a real SQLite file
/// in a temporary folder, with a real URLSession against the loopback fixture server.
@Suite("Response store (SQLite)")
struct ResponseStoreTests {
    typealias Item = LoadPolicyTests.Item

    let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Item.self), errorMatcher: StaticModelMatcher(LoadPolicyTests.Problem.self))
    let session = URLSession(configuration: .unhurried)
    /// A cache that keeps nothing: what the store gives is the store's.
    let cache = HTTPResponseCache(URLCache(memoryCapacity: 0, diskCapacity: 0, diskPath: nil))
    let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-store-\(UUID().uuidString)")

    func path() throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appending(path: "responses.sqlite").path
    }

    func load(_ request: URLRequest, _ policy: LoadPolicy, _ store: SQLiteResponseStore, session: URLSession? = nil) async -> (values: [String], error: (any Error)?) {
        var values: [String] = []
        do {
            for try await loaded in (session ?? self.session).models(for: request, serializer: serializer, as: Item.self, policy: policy, cache: cache, store: store) {
                values.append("\(loaded.origin) v\(loaded.value.version)")
            }
            return (values, nil)
        } catch {
            return (values, error)
        }
    }

    func withServer(_ fixtures: [Fixture], _ body: (URLRequest) async throws -> Void) async throws {
        try await FixtureServer.running(FixtureReplay(fixtures)) { _, baseURL in
            try await body(URLRequest(url: baseURL.appending(path: "items/1")))
        }
    }

    @Test("storeThenFetch: the network's value first time; then what was saved, then the network's; and after a restart")
    func storeThenFetch() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try path()
        try await withServer([LoadPolicyTests.fixture(1), LoadPolicyTests.fixture(2), LoadPolicyTests.fixture(3)]) { request in
            let store = try SQLiteResponseStore(path: path)
            #expect(await load(request, .storeThenFetch, store).values == ["network v1"])
            #expect(await load(request, .storeThenFetch, store).values == ["store v1", "network v2"])
            #expect(try await store.saveFailures().isEmpty)
            let reopened = try SQLiteResponseStore(path: path)
            #expect(await load(request, .storeThenFetch, reopened).values == ["store v2", "network v3"])
            #expect(try await reopened.count() == 1)
        }
    }

    @Test("fetchElseCache falls back on the store when the network cannot be reached and the HTTP cache has nothing")
    func offlineFallback() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteResponseStore(path: try path())
        var served: URLRequest?
        try await withServer([LoadPolicyTests.fixture(1, fields: [.cacheControl: "max-age=86400"])]) { request in
            served = request
            #expect(await load(request, .fetchElseCache, store).values == ["network v1"])
        }
        // The same session's settings, with every connection refused.
        let offline = await load(try #require(served), .fetchElseCache, store, session: .refusingConnections())
        #expect(offline.values == ["store v1"])
        #expect(offline.error == nil)
    }

    @Test("only good answers are saved: an error status or a body that does not serialize leaves the last good one")
    func onlyGoodAnswersSaved() async throws {
        let broken = Fixture(
            request: .init(url: URL(string: "https://api.example.com/items/1")!),
            response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data(#"{"nothing":1}"#.utf8)))
        let store = try SQLiteResponseStore()
        try await withServer([LoadPolicyTests.fixture(1), LoadPolicyTests.fixture(0, status: 503), broken]) { request in
            #expect(await load(request, .networkOnly, store).values == ["network v1"])
            #expect(await load(request, .networkOnly, store).error is SculptError)
            #expect(await load(request, .networkOnly, store).error is SculptError)
            #expect(await load(request, .storeThenFetch, store).values.first == "store v1")
        }
    }

    @Test("a saved response answers only requests with the same values of the fields it varies on")
    func vary() async throws {
        let store = try SQLiteResponseStore()
        try await withServer([LoadPolicyTests.fixture(1, fields: [.vary: "Accept-Language"])]) { request in
            var english = request
            english.setValue("en", forHTTPHeaderField: "Accept-Language")
            _ = await load(english, .networkOnly, store)
            let forEnglish = try await store.lastResponse(for: english)
            #expect(forEnglish != nil)
            var french = request
            french.setValue("fr", forHTTPHeaderField: "Accept-Language")
            let forFrench = try await store.lastResponse(for: french)
            #expect(forFrench == nil)
        }
    }

    @Test("a response that varies is found in the file after a restart, and only by requests that send the same values", arguments: [
        ("Accept-Language", "Accept-Language", "fr"),
        ("Accept, Accept-Encoding, X-Requested-With", "X-Requested-With", "XMLHttpRequest"),  // fields the request does not send
    ])
    func varyFromFile(vary: String, differing name: String, value: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try path()
        try await withServer([LoadPolicyTests.fixture(1, fields: [.vary: vary])]) { request in
            var english = request
            english.setValue("en", forHTTPHeaderField: "Accept-Language")
            let store = try SQLiteResponseStore(path: path)
            _ = await load(english, .networkOnly, store)
            #expect(try await store.saveFailures().isEmpty)
            let restarted = try SQLiteResponseStore(path: path)
            let saved = try #require(try await restarted.lastResponse(for: english))
            #expect(String(decoding: saved.body, as: UTF8.self) == #"{"version":1}"#)
            var other = english
            other.setValue(value, forHTTPHeaderField: name)
            let forOther = try await restarted.lastResponse(for: other)
            #expect(forOther == nil)
        }
    }

    @Test("memory keeps the 256 most recently used responses: one read lately outlives older saves")
    func memoryKeepsRecentlyUsed() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try path()
        let store = try SQLiteResponseStore(path: path)
        func request(_ index: Int) -> URLRequest { URLRequest(url: URL(string: "https://api.example.com/items/\(index)")!) }
        func save(_ index: Int) {
            let response = ResponseContext(url: request(index).url, method: .get, status: .ok, headerFields: [.contentType: "application/json"])
            store.save(SavedResponse(response: response, body: Data(#"{"version":\#(index)}"#.utf8), savedAt: Date()), for: request(index))
        }
        for index in 0..<256 { save(index) }
        #expect(try await store.lastResponse(for: request(0)) != nil)  // used: now the most recent
        for index in 256..<300 { save(index) }
        #expect(try await store.count() == 300)
        // Emptying the file shows what memory holds.
        try await DatabaseQueue(path: path).write { db in try db.execute(sql: "DELETE FROM sculptResponse") }
        let kept = try await store.lastResponse(for: request(0))
        let forgotten = try await store.lastResponse(for: request(1))
        #expect(kept != nil)
        #expect(forgotten == nil)
    }

    @Test("100 concurrent loads of one request all succeed and leave one saved response")
    func concurrentLoads() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteResponseStore(path: try path())
        let fixture = LoadPolicyTests.fixture(1)
        try await FixtureServer.running(FixtureReplay([fixture], options: .init(repeatsLastResponse: true))) { _, baseURL in
            let request = URLRequest(url: baseURL.appending(path: "items/1"))
            let results = await withTaskGroup(of: [String].self) { group in
                for _ in 0..<100 { group.addTask { await load(request, .storeThenFetch, store).values } }
                return await group.reduce(into: [[String]]()) { $0.append($1) }
            }
            #expect(results.count == 100)
            #expect(results.allSatisfy { $0.last == "network v1" })
            let failures = try await store.saveFailures()
            let count = try await store.count()
            #expect(failures.isEmpty)
            #expect(count == 1)
        }
    }

    @Test("a save that fails inside its transaction leaves the response saved before it whole")
    func failedSaveIsAtomic() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try path()
        let store = try SQLiteResponseStore(path: path)
        try await withServer([LoadPolicyTests.fixture(1), LoadPolicyTests.fixture(2)]) { request in
            _ = await load(request, .networkOnly, store)
            #expect(try await store.saveFailures().isEmpty)
            // Another connection makes the next write fail halfway, as a crash would stop it.
            let saboteur = try DatabaseQueue(path: path)
            try await saboteur.write { db in
                try db.execute(sql: "CREATE TRIGGER fail BEFORE INSERT ON sculptResponse BEGIN SELECT RAISE(ABORT, 'crash'); END")
            }
            #expect(await load(request, .networkOnly, store).values == ["network v2"])
            #expect(try await store.saveFailures().count == 1)
            let saved = try #require(try await store.lastResponse(for: request))
            #expect(String(decoding: saved.body, as: UTF8.self) == #"{"version":1}"#)
        }
    }

    @Test("a file whose sculptResponse is not a store's (other columns; the same names untyped or without the key; a view) is refused, and nothing in it is changed", arguments: [
        "CREATE TABLE sculptResponse (id INTEGER PRIMARY KEY, note TEXT); INSERT INTO sculptResponse (note) VALUES ('mine')",
        "CREATE TABLE sculptResponse (method, url, varying, status, finalURL, fields, body, savedAt); INSERT INTO sculptResponse (method) VALUES ('mine')",
        """
        CREATE TABLE sculptResponse (method TEXT NOT NULL, url TEXT NOT NULL, varying BLOB NOT NULL, status INTEGER NOT NULL, finalURL TEXT,
            fields BLOB NOT NULL, body BLOB NOT NULL, savedAt DOUBLE NOT NULL);
        INSERT INTO sculptResponse VALUES ('mine', '', x'', 200, NULL, x'', x'', 0)
        """,
        "CREATE TABLE notes (method); INSERT INTO notes VALUES ('mine'); CREATE VIEW sculptResponse AS SELECT method, method AS url, method AS varying, 1 AS status, NULL AS finalURL, method AS fields, method AS body, 0 AS savedAt FROM notes",
    ])
    func foreignSchema(_ schema: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try path()
        let foreign = try DatabaseQueue(path: path)
        try await foreign.write { db in try db.execute(sql: schema) }
        let refusal = #expect(throws: DatabaseError.self) { try SQLiteResponseStore(path: path) }
        #expect(refusal?.resultCode == .SQLITE_MISMATCH)
        let kept = try await foreign.read { db in try String.fetchAll(db, sql: "SELECT \(schema.contains("note TEXT") ? "note" : "method") FROM sculptResponse") }
        #expect(kept == ["mine"])
    }
}
#endif
