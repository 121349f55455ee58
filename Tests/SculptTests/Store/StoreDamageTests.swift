#if Persistence
import Foundation
import GRDB
import Sculpt
import SculptStore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A store file changed by hand or by another program: every value read back that is not what
/// was written is a thrown error naming the column, never a crash, and never shows the value.
@Suite("A damaged store file is an error, never a crash")
struct StoreDamageTests {
    static let request = URLRequest(url: URL(string: "https://api.example.com/items/1")!)

    @Test("a row whose column holds another type than was written throws, naming the column", arguments: [
        ("status", "'ghp_notanumber'", "text where an integer status"),
        ("status", "x'00ff'", "a blob where an integer status"),
        ("savedAt", "'yesterday'", "text where a time"),
        ("status", "2.5", "a real number where an integer status"),
    ])
    func damagedColumn(column: String, value: String, says: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-damage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "responses.sqlite").path
        let store = try SQLiteResponseStore(path: path)
        let response = ResponseContext(url: Self.request.url, method: .get, status: .ok, headerFields: [.contentType: "application/json"])
        store.save(SavedResponse(response: response, body: Data("{}".utf8), savedAt: Date()), for: Self.request)
        #expect(try await store.saveFailures().isEmpty)
        try await DatabaseQueue(path: path).write { db in try db.execute(sql: "UPDATE sculptResponse SET \(column) = \(value)") }
        let error = try await #require(throws: DatabaseError.self) { try await SQLiteResponseStore(path: path).lastResponse(for: Self.request) }
        #expect(error.resultCode == .SQLITE_CORRUPT)
        #expect(error.message == "a saved response is damaged: its \(column) column holds \(says) was written")
        #expect(!"\(error)".contains("ghp_"))
    }
}
#endif
