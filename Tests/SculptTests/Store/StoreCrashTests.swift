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

/// Real crashes: a child process (this test executable, running one test) is killed with SIGKILL
/// in the middle of a save, and the parent opens the files it left behind.
@Suite("Stores after a crash", .enabled(if: ChildTest.isAvailable))
struct StoreCrashTests {
    let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-crash-\(UUID().uuidString)")

    func integrity(_ path: String) throws -> String? {
        try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
    }

    // MARK: Records

    @Test("a process killed inside a response's record transaction leaves the records of the response before it, whole")
    func recordsAfterCrash() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let parent = RecordStoreTests(folder: folder)
        let records = RecordStore(try parent.database())
        try await parent.withServer([RecordStoreTests.issues(["a", "b"])]) { request in
            #expect(await parent.load(request, records).values == ["network a,b", "store a,b"])
        }
        let path = folder.appending(path: "app.sqlite").path
        let outcome = try await ChildTest.run("StoreCrashTests/recordsChild", argument: path)
        #expect(outcome.killedBySignal == SIGKILL, "\(outcome)")
        let titles = try await records.writer.read { db in try RecordStoreTests.Issue.order(Column("id")).fetchAll(db).map(\.title) }
        #expect(titles == ["a", "b"])
        #expect(try integrity(path) == "ok")
    }

    /// The child's part: loads three issues whose second kills the process as it is upserted,
    /// after the first was written inside the same transaction.
    @Test(.enabled(if: ChildTest.isChild))
    func recordsChild() async throws {
        let path = try #require(ChildTest.argument)
        let child = RecordStoreTests(folder: URL(fileURLWithPath: path).deletingLastPathComponent())
        let records = RecordStore(try DatabaseQueue(path: path))
        try await child.withServer([RecordStoreTests.issues(["x", "crash", "z"])]) { request in
            _ = await child.load(request, records)
        }
        Issue.record("the save did not reach the record that ends the process")
    }

    // MARK: Responses

    static let savedBeforeCrash = 500
    static let savedInAll = 2000

    static func request(_ index: Int) -> URLRequest {
        URLRequest(url: URL(string: "https://api.example.com/items/\(index)")!)
    }

    /// A body whose every byte says which response it belongs to, so a torn one shows.
    static func body(_ index: Int) -> Data {
        Data(String(repeating: "\(index);", count: 8192 / "\(index);".utf8.count).utf8)
    }

    @Test("a process killed while responses are being written leaves every committed response whole and no torn one")
    func responsesAfterCrash() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appending(path: "responses.sqlite").path
        let outcome = try await ChildTest.run("StoreCrashTests/responsesChild", argument: path)
        #expect(outcome.killedBySignal == SIGKILL, "\(outcome)")
        #expect(try integrity(path) == "ok")
        let store = try SQLiteResponseStore(path: path)
        var found = 0
        for index in 0..<Self.savedInAll {
            guard let saved = try await store.lastResponse(for: Self.request(index)) else {
                #expect(index >= Self.savedBeforeCrash, "response \(index) was committed before the crash and is gone")
                continue
            }
            found += 1
            #expect(saved.body == Self.body(index), "response \(index) is torn")
            #expect(saved.response.status == .ok)
        }
        #expect(try await store.count() == found)
    }

    /// The child's part: saves 500 responses and waits until they are written, then saves 1,500
    /// more and is killed while they are being written.
    @Test(.enabled(if: ChildTest.isChild))
    func responsesChild() async throws {
        let store = try SQLiteResponseStore(path: try #require(ChildTest.argument))
        func save(_ index: Int) {
            let response = ResponseContext(url: Self.request(index).url, method: .get, status: .ok, headerFields: [.contentType: "text/plain"])
            store.save(SavedResponse(response: response, body: Self.body(index), savedAt: Date()), for: Self.request(index))
        }
        for index in 0..<Self.savedBeforeCrash { save(index) }
        #expect(try await store.count() == Self.savedBeforeCrash)
        for index in Self.savedBeforeCrash..<Self.savedInAll { save(index) }
        try await Task.sleep(for: .milliseconds(3))
        ChildTest.crash()
    }
}
#endif
