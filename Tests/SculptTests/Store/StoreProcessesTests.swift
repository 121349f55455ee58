#if Persistence
import Sculpt
import SculptLoading
import SculptStore
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One store file opened by several processes at the same moment: each opens, creates and
/// migrates it safely, and each one's save lands.
@Suite("A store file shared by several processes", .enabled(if: ChildTest.isAvailable))
struct StoreProcessesTests {
    static let processes = 8

    static func request(_ index: Int) -> URLRequest {
        URLRequest(url: URL(string: "https://api.example.com/items/\(index)")!)
    }

    @Test("processes that open a new store file at the same moment all open it, and each one's save lands")
    func openingAtOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-processes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "responses.sqlite").path
        // The children wait for this lock before they open the store: released, it lets them all
        // go at once.
        let gate = open(folder.appending(path: "gate").path, O_CREAT | O_RDWR, 0o600)
        #expect(gate >= 0)
        defer { close(gate) }
        #expect(flock(gate, LOCK_EX) == 0)
        var children: [ChildTest.Started] = []
        for index in 0..<Self.processes {
            children.append(try await ChildTest.started("StoreProcessesTests/openingChild", argument: "\(folder.path)\n\(index)"))
        }
        #expect(flock(gate, LOCK_UN) == 0)
        for (index, child) in children.enumerated() {
            let outcome = await child.outcome()
            #expect(outcome.exitStatus == 0, "process \(index) \(outcome)")
        }
        let store = try SQLiteResponseStore(path: path)
        #expect(try await store.count() == Self.processes)
    }

    /// A child's part: says it is ready, waits for the parent's gate, then opens the store and
    /// saves one response.
    @Test(.enabled(if: ChildTest.isChild))
    func openingChild() async throws {
        let argument = try #require(ChildTest.argument).split(separator: "\n")
        let folder = URL(fileURLWithPath: String(argument[0]))
        let index = try #require(Int(argument[1]))
        let gate = open(folder.appending(path: "gate").path, O_RDWR)
        defer { close(gate) }
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        #expect(flock(gate, LOCK_SH) == 0)
        #expect(flock(gate, LOCK_UN) == 0)
        let store = try SQLiteResponseStore(path: folder.appending(path: "responses.sqlite").path)
        let response = ResponseContext(url: Self.request(index).url, method: .get, status: .ok, headerFields: [.contentType: "text/plain"])
        store.save(SavedResponse(response: response, body: Data("\(index)".utf8), savedAt: Date()), for: Self.request(index))
        #expect(try await store.saveFailures().isEmpty)
    }
}
#endif
