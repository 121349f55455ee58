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

/// Decoded models that are GRDB records, saved by `RecordStore` and loaded store-then-fetch, on a
/// real SQLite file in a temporary folder, with a real URLSession against the loopback server.
@Suite("Record store (SQLite)")
struct RecordStoreTests {
    struct Issue: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "issue"
        var id: Int64
        var title: String

        /// Fails when its title says so, as a crash would stop a save halfway; in a child
        /// process (`StoreCrashTests`) it is a crash: the process is killed.
        func willSave(_ db: Database) throws {
            guard title == "crash" else { return }
            if ChildTest.isChild { ChildTest.crash() }
            throw CocoaError(.fileWriteUnknown)
        }
    }

    struct Owner: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "owner"
        var id: Int64
        var login: String
    }

    var folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-records-\(UUID().uuidString)")

    /// A database on disk with the application's tables; `titles` false leaves out the column
    /// the models need.
    func database(titles: Bool = true) throws -> DatabaseQueue {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try DatabaseQueue(path: folder.appending(path: "app.sqlite").path)
        try database.write { db in
            try db.create(table: "issue") { table in
                table.column("id", .integer).primaryKey()
                if titles { table.column("title", .text).notNull() } else { table.column("name", .text) }
            }
            try db.create(table: "owner") { table in
                table.column("id", .integer).primaryKey()
                table.column("login", .text).notNull()
            }
        }
        return database
    }

    static func issues(_ titles: [String]) -> Fixture {
        let body = "[" + titles.enumerated().map { #"{"id":\#($0.offset + 1),"title":"\#($0.element)"}"# }.joined(separator: ",") + "]"
        return Fixture(
            request: .init(url: URL(string: "https://api.example.com/issues")!),
            response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data(body.utf8)))
    }

    let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Issue].self))

    func load(_ request: URLRequest, _ records: RecordStore) async -> (values: [String], error: (any Error)?) {
        var values: [String] = []
        let loads = URLSession(configuration: .unhurried).models(for: request, serializer: serializer, as: [Issue].self, records: records) { db in
            try Issue.order(Column("id")).fetchAll(db)
        }
        do {
            for try await loaded in loads { values.append("\(loaded.origin) \(loaded.value.map(\.title).joined(separator: ","))") }
            return (values, nil)
        } catch {
            return (values, error)
        }
    }

    func withServer(_ fixtures: [Fixture], _ body: (URLRequest) async throws -> Void) async throws {
        try await FixtureServer.running(FixtureReplay(fixtures)) { _, baseURL in
            try await body(URLRequest(url: baseURL.appending(path: "issues")))
        }
    }

    @Test("what the database holds, then the network's value, then what was saved from it; upserted, not added")
    func storeThenFetch() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = RecordStore(try database())
        try await withServer([Self.issues(["a", "b"]), Self.issues(["a2", "b2", "c2"])]) { request in
            #expect(await load(request, records).values == ["network a,b", "store a,b"])
            #expect(await load(request, records).values == ["store a,b", "network a2,b2,c2", "store a2,b2,c2"])
        }
        let count = try await records.writer.read { db in try Issue.fetchCount(db) }
        #expect(count == 3)
    }

    @Test("a save that fails halfway writes nothing of the response: the network's value is given, the error after it")
    func saveIsOneTransaction() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = RecordStore(try database())
        try await withServer([Self.issues(["a", "b"]), Self.issues(["x", "crash", "z"])]) { request in
            _ = await load(request, records)
            let second = await load(request, records)
            #expect(second.values == ["store a,b", "network x,crash,z"])
            #expect(second.error is CocoaError)
        }
        let titles = try await records.writer.read { db in try Issue.order(Column("id")).fetchAll(db).map(\.title) }
        #expect(titles == ["a", "b"])
    }

    @Test("a table the models do not fit is a clear database error, and nothing in it is lost")
    func schemaMismatch() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try database(titles: false)
        try await database.write { db in try db.execute(sql: "INSERT INTO issue (id, name) VALUES (9, 'kept')") }
        let records = RecordStore(database)
        try await withServer([Self.issues(["a"])]) { request in
            let result = await load(request, records)
            #expect(result.values == ["network a"])
            let error = try #require(result.error as? DatabaseError)
            #expect(error.description.contains("title"), "\(error)")
        }
        let kept = try await database.read { db in try String.fetchAll(db, sql: "SELECT name FROM issue") }
        #expect(kept == ["kept"])
    }

    @Test("the matched model type chooses the table: one serializer, two routes, two tables")
    func typeChoosesTable() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = RecordStore(try database())
        var routes = URLModelMatcher()
        try routes.add("/owners/#", Owner.self)
        try routes.add("/issues", [Issue].self)
        let serializer = ModelResponseSerializer(matcher: routes)
        func context(_ path: String) -> ResponseContext {
            ResponseContext(url: URL(string: "https://api.example.com\(path)"), method: .get, status: .ok, headerFields: [.contentType: "application/json"])
        }
        let owner = try serializer.serialize(Data(#"{"id":7,"login":"octocat"}"#.utf8), for: context("/owners/7"))
        let issues = try serializer.serialize(Data(#"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#.utf8), for: context("/issues"))
        #expect(try await records.save(owner) == 1)
        #expect(try await records.save(issues) == 2)
        #expect(try await records.save([1, 2]) == 0)
        let (owners, count) = try await records.writer.read { db in (try Owner.fetchAll(db), try Issue.fetchCount(db)) }
        #expect(owners == [Owner(id: 7, login: "octocat")])
        #expect(count == 2)
    }

    @Test("20 concurrent loads of one request all succeed and leave each record once")
    func concurrentLoads() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = RecordStore(try database())
        try await FixtureServer.running(FixtureReplay([Self.issues(["a", "b", "c"])], options: .init(repeatsLastResponse: true))) { _, baseURL in
            let request = URLRequest(url: baseURL.appending(path: "issues"))
            let results = await withTaskGroup(of: (values: [String], error: (any Error)?).self) { group in
                for _ in 0..<20 { group.addTask { await load(request, records) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.error == nil && $0.values.last == "store a,b,c" })
        }
        let count = try await records.writer.read { db in try Issue.fetchCount(db) }
        #expect(count == 3)
    }

    @Test("cancelled after the network's value, the load ends without an error, and the records are saved whole")
    func cancelledAfterNetwork() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = RecordStore(try database())
        try await withServer([Self.issues(["a", "b"])]) { request in
            let loads = URLSession(configuration: .unhurried).models(for: request, serializer: serializer, as: [Issue].self, records: records) { db in
                try Issue.order(Column("id")).fetchAll(db)
            }
            let outcome = await Task {
                var origins: [String] = []
                do {
                    for try await loaded in loads {
                        origins.append("\(loaded.origin)")
                        withUnsafeCurrentTask { $0?.cancel() }  // the consumer gives up after the network's value
                    }
                    return (origins, nil as (any Error)?)
                } catch {
                    return (origins, error)
                }
            }.value
            #expect(outcome.0 == ["network"])
            #expect(outcome.1 == nil, "\(String(describing: outcome.1))")
        }
        let count = try await records.writer.read { db in try Issue.fetchCount(db) }
        #expect(count == 2)
    }
}
#endif
