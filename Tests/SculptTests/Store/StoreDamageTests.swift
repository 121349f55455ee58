#if Persistence
import Sculpt
import SculptLoading
import SculptStore
import Foundation
import GRDB
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A store file changed by hand or by another program: every value read back that is not what
/// was written is a thrown error naming the column, never a crash, and never shows the value.
@Suite("A damaged store file is an error, never a crash")
struct StoreDamageTests {
    static let request = URLRequest(url: URL(string: "https://api.example.com/items/1")!)

    @Test("a row whose column holds what was never written there throws, naming the column", arguments: [
        ("status", "'ghp_notanumber'", "text where an integer status was written"),
        ("status", "x'00ff'", "a blob where an integer status was written"),
        ("savedAt", "'yesterday'", "text where a time was written"),
        ("status", "2.5", "a real number where an integer status was written"),
        ("status", "-1", "a number no status has"),
        ("status", "99999999999", "a number no status has"),
        ("fields", "CAST('Content-Type' || char(0) || 'a' || char(13, 10) || 'X: y' || char(0) AS BLOB)", "a value no header field can have"),
        ("fields", "CAST('Content Type' || char(0) || 'a' || char(0) AS BLOB)", "a name no header field can have"),
        ("fields", "CAST('Content-Type' || char(0) AS BLOB)", "a name without its value"),
        ("varying", "x'61'", "a name without its value"),
        ("varying", "CAST('accept' || char(0) AS BLOB)", "a name without its value"),
        ("varying", "CAST(char(0) || 'x' || char(0) AS BLOB)", "a name or value no varying field has"),
        ("varying", "x'ff006100'", "a name or value no varying field has"),
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
        #expect(error.message == "a saved response is damaged: its \(column) column holds \(says)")
        #expect(!"\(error)".contains("ghp_"))
    }
}
#endif
