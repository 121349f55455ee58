#if Persistence
import Foundation
import GRDB
import HTTPTypes
public import Sculpt
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A ``ResponseStore`` in an SQLite file, through GRDB: the last good response to each request,
/// whatever it decodes to, kept across restarts.
///
/// ```swift
/// let store = try SQLiteResponseStore(path: folder.appending(path: "responses.sqlite").path)
/// for try await user in session.models(for: request, serializer: serializer, as: User.self, policy: .storeThenFetch, store: store) {
///     render(user.value)   // what was saved last time (origin .store), then the network's
/// }
/// ```
///
/// A response is saved under the request's method, normalized URL and its values of the fields
/// the response varies on (`Vary`), replacing the one saved before; each save is one transaction,
/// written on the store's own queue, off the caller's path. Reads wait for the saves before them.
public final class SQLiteResponseStore: ResponseStore {
    private let database: DatabaseQueue
    private let failures = SaveFailures()

    /// Opens (or creates) the store at `path`.
    ///
    /// - Throws: GRDB's `DatabaseError` when the file cannot be opened or is not a store this
    ///   version reads.
    public init(path: String) throws {
        database = try DatabaseQueue(path: path)
        try Self.migrator.migrate(database)
    }

    /// A store in memory, gone with the value: for tests.
    ///
    /// - Throws: GRDB's `DatabaseError` when SQLite cannot open it.
    public init() throws {
        database = try DatabaseQueue()
        try Self.migrator.migrate(database)
    }

    /// The last response saved for `request` whose varying fields match it.
    ///
    /// - Throws: GRDB's `DatabaseError` when the store cannot be read.
    public func lastResponse(for request: URLRequest) async throws -> SavedResponse? {
        let method = Self.method(request)
        let url = NormalizedURL.text(request.url)
        let candidates = try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sculptResponse WHERE method = ? AND url = ? ORDER BY savedAt DESC", arguments: [method, url])
                .map { row in (saved: try Self.saved(from: row), varying: Self.varying(decoding: row["varying"])) }
        }
        return candidates.first { $0.saved.varying(for: request) == $0.varying }?.saved
    }

    /// Saves `response` for `request` in one transaction on the store's queue; returns at once.
    /// A save that fails is kept for ``saveFailures()``.
    public func save(_ response: SavedResponse, for request: URLRequest) {
        let method = Self.method(request)
        let url = NormalizedURL.text(request.url)
        let varying = Self.encode(varying: response.varying(for: request))
        let fields = Self.encode(fields: response.response.headerFields)
        let failures = failures
        database.asyncWrite({ db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO sculptResponse (method, url, varying, status, finalURL, fields, body, savedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    method, url, varying, response.response.status.code, response.response.url?.absoluteString, fields, response.body,
                    response.savedAt.timeIntervalSince1970,
                ])
        }, completion: { _, result in
            if case .failure(let error) = result { failures.append(error) }
        })
    }

    /// The errors of saves that failed since the last call, oldest first, once every save asked
    /// for before it is done.
    ///
    /// ```swift
    /// let failed = try await store.saveFailures()   // [] when every save landed
    /// ```
    /// - Throws: GRDB's `DatabaseError` when the store cannot be reached.
    public func saveFailures() async throws -> [any Error] {
        try await database.write { _ in }
        return failures.takeAll()
    }

    /// How many responses are saved.
    ///
    /// - Throws: GRDB's `DatabaseError` when the store cannot be read.
    public func count() async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sculptResponse") ?? 0 }
    }

    // MARK: - Schema

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("sculptResponse v1") { db in
            try db.create(table: "sculptResponse") { table in
                table.column("method", .text).notNull()
                table.column("url", .text).notNull()
                table.column("varying", .text).notNull()
                table.column("status", .integer).notNull()
                table.column("finalURL", .text)
                table.column("fields", .blob).notNull()
                table.column("body", .blob).notNull()
                table.column("savedAt", .double).notNull()
                table.primaryKey(["method", "url", "varying"])
            }
        }
        return migrator
    }

    // MARK: - Rows

    private static func method(_ request: URLRequest) -> String {
        (request.httpMethod ?? "GET").uppercased()
    }

    private static func saved(from row: Row) throws -> SavedResponse {
        let finalURL: String? = row["finalURL"]
        let response = ResponseContext(
            url: finalURL.flatMap(URL.init(string:)), method: .get, status: .init(code: row["status"]),
            headerFields: try decode(fields: row["fields"]))
        return SavedResponse(response: response, body: row["body"], savedAt: Date(timeIntervalSince1970: row["savedAt"]))
    }

    /// Fields as JSON, `[["Name", "value"], ...]`, in order.
    private static func encode(fields: HTTPFields) -> Data {
        (try? JSONSerialization.data(withJSONObject: fields.map { [$0.name.rawName, $0.value] })) ?? Data("[]".utf8)
    }

    private static func decode(fields data: Data) throws -> HTTPFields {
        var fields = HTTPFields()
        for pair in (try JSONSerialization.jsonObject(with: data) as? [[String]]) ?? [] where pair.count == 2 {
            if let name = HTTPField.Name(pair[0]) { fields.append(HTTPField(name: name, value: pair[1])) }
        }
        return fields
    }

    /// The varying values as sorted JSON, so equal sets write equal text.
    private static func encode(varying: [String: String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: varying, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private static func varying(decoding text: String) -> [String: String] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: String] ?? [:]
    }
}

/// Errors of saves, collected from the store's queue.
private final class SaveFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []

    func append(_ error: any Error) {
        lock.withLock { errors.append(error) }
    }

    func takeAll() -> [any Error] {
        lock.withLock {
            defer { errors = [] }
            return errors
        }
    }
}
#endif
