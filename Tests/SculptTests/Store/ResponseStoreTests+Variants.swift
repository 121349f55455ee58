#if Persistence
import Sculpt
import SculptLoading
import SculptStore
import SculptTesting
import Foundation
import GRDB
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the store keeps of a response and its variants, offline and from two stores on one file.
extension ResponseStoreTests {
    static func response(_ url: URL, fields: HTTPFields = [:]) -> ResponseContext {
        var all = fields
        all[.contentType] = "application/json"
        return ResponseContext(url: url, method: .get, status: .ok, headerFields: all)
    }

    @Test("offline, the store gives nothing that must be revalidated once stale, and never keeps a no-store response", arguments: [
        ("no-cache", false), ("max-age=0, must-revalidate", false), ("no-store", false), ("max-age=0", true),
    ])
    func offlineRules(cacheControl: String, fallsBack: Bool) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteResponseStore(path: try path())
        var served: URLRequest?
        try await withServer([LoadPolicyTests.fixture(1, fields: [.cacheControl: cacheControl])]) { request in
            served = request
            #expect(await load(request, .fetchElseCache, store).values == ["network v1"])
        }
        let offline = await load(try #require(served), .fetchElseCache, store)
        #expect(offline.values == (fallsBack ? ["store v1"] : []))
        #expect((offline.error == nil) == fallsBack)
        let count = try await store.count()
        #expect(count == (cacheControl == "no-store" ? 0 : 1))
    }

    @Test("a saved response keeps no Set-Cookie, and its varying values are fingerprints: no credential in the file")
    func noCredentialsInTheFile() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try path()
        let store = try SQLiteResponseStore(path: path)
        let secret = "zz" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        // (A response that sets cookies is never kept when it varies on Cookie: the cookies sent
        // next are not the ones it answered.)
        let fixture = LoadPolicyTests.fixture(1, fields: [.vary: "Authorization", .setCookie: "session=\(secret); HttpOnly"])
        try await withServer([fixture]) { request in
            var signed = request
            signed.setValue("Bearer \(secret)", forHTTPHeaderField: "Authorization")
            #expect(await load(signed, .networkOnly, store).values == ["network v1"])
            #expect(try await store.saveFailures().isEmpty)
            let saved = try #require(try await SQLiteResponseStore(path: path).lastResponse(for: signed))
            #expect(saved.response.headerFields[.setCookie] == nil)
        }
        _ = try await DatabaseQueue(path: path).writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) {
            let contents = try Data(contentsOf: file)
            #expect(contents.range(of: Data(secret.utf8)) == nil, "\(file.lastPathComponent) holds the secret")
        }
    }

    @Test("two variants saved back to back are both written, and a read finds a response while it is being written")
    func variantsAndWritesInProgress() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try path()
        let store = try SQLiteResponseStore(path: path)
        let url = try #require(URL(string: "https://api.example.com/items/1"))
        // A big save first keeps the writer busy while the others wait.
        let big = try #require(URL(string: "https://api.example.com/big"))
        store.save(SavedResponse(response: Self.response(big), body: Data(count: 20 << 20), savedAt: Date()), for: URLRequest(url: big))
        var english = URLRequest(url: url)
        english.setValue("en", forHTTPHeaderField: "Accept-Language")
        var french = english
        french.setValue("fr", forHTTPHeaderField: "Accept-Language")
        let varying = Self.response(url, fields: [.vary: "Accept-Language"])
        store.save(SavedResponse(response: varying, body: Data(#"{"version":1}"#.utf8), savedAt: Date()), for: english)
        store.save(SavedResponse(response: varying, body: Data(#"{"version":2}"#.utf8), savedAt: Date()), for: french)
        // Past the memory's 256 keys, so only the waiting and in-progress writes can answer.
        for index in 0..<300 {
            let other = try #require(URL(string: "https://api.example.com/other/\(index)"))
            store.save(SavedResponse(response: Self.response(other), body: Data("{}".utf8), savedAt: Date()), for: URLRequest(url: other))
        }
        let big2 = try await store.lastResponse(for: URLRequest(url: big))
        #expect(big2?.body.count == 20 << 20)
        #expect(try await store.count() == 303)
        let restarted = try SQLiteResponseStore(path: path)
        let en = try await restarted.lastResponse(for: english)
        let fr = try await restarted.lastResponse(for: french)
        #expect(en.map { String(decoding: $0.body, as: UTF8.self) } == #"{"version":1}"#)
        #expect(fr.map { String(decoding: $0.body, as: UTF8.self) } == #"{"version":2}"#)
    }

    @Test("two stores on one file, saving at once, wait for each other's writes: every save lands")
    func twoWritersOneFile() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try path()
        let first = try SQLiteResponseStore(path: path)
        let second = try SQLiteResponseStore(path: path)
        for index in 0..<1_000 {
            let url = try #require(URL(string: "https://api.example.com/items/\(index)"))
            (index.isMultiple(of: 2) ? first : second).save(
                SavedResponse(response: Self.response(url), body: Data(count: 4 << 10), savedAt: Date()), for: URLRequest(url: url))
        }
        let failures = try await first.saveFailures() + second.saveFailures()
        #expect(failures.isEmpty, "\(failures)")
        #expect(try await first.count() == 1_000)
    }
}
#endif
