#if Persistence
import Sculpt
import SculptLoading
import SculptMatchers
import SculptStore
import SculptTesting
import Foundation
import GRDB
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Docs/Loading.md's persistence examples, as written there (`render` printing), against the
/// loopback fixture server and SQLite files in a temporary folder.
@Suite("Persistence guide")
struct PersistenceGuideTests {
    struct User: Decodable, Sendable { let login: String }
    struct Issue: Codable, Sendable, FetchableRecord, PersistableRecord { var number: Int; var title: String }

    func render<Value>(_ value: Value) { print(value) }

    @Test("the response store and the record store, as the guide writes them")
    func guide() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-guide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixtures = [
            LoadingGuideTests.fixture("/user", #"{"login":"octocat"}"#),
            LoadingGuideTests.fixture("/issues", #"[{"number":1,"title":"Crash"}]"#),
        ]
        try await FixtureServer.running(FixtureReplay(fixtures, options: .init(repeatsLastResponse: true))) { _, baseURL in
            let session = URLSession(configuration: .unhurried)
            var request = URLRequest(url: baseURL.appending(path: "user"))
            let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))

            let store = try SQLiteResponseStore(path: folder.appending(path: "responses.sqlite").path)
            for try await user in session.models(for: request, serializer: serializer, as: User.self, policy: .storeThenFetch, store: store) {
                render(user.value)
            }
            var origins: [Loaded<User>.Origin] = []
            for try await user in session.models(for: request, serializer: serializer, as: User.self, policy: .storeThenFetch, store: store) {
                origins.append(user.origin)
            }
            #expect(origins == [.store, .network])

            let path = folder.appending(path: "app.sqlite").path
            let database = try DatabaseQueue(path: path)
            try await database.write { db in
                try db.create(table: "issue") { table in
                    table.column("number", .integer).primaryKey()
                    table.column("title", .text).notNull()
                }
            }
            request = URLRequest(url: baseURL.appending(path: "issues"))
            let issuesSerializer = ModelResponseSerializer(matcher: StaticModelMatcher([Issue].self))
            let records = RecordStore(try DatabaseQueue(path: path))   // the application's own tables and migrations
            let loads = session.models(for: request, serializer: issuesSerializer, as: [Issue].self, records: records) { db in
                try Issue.order(Column("number")).fetchAll(db)
            }
            var seen: [Loaded<[Issue]>.Origin] = []
            for try await issues in loads {
                render(issues.value)
                seen.append(issues.origin)
            }   // .store (held), .network, .store (saved)
            #expect(seen == [.network, .store])
        }
    }
}
#endif
