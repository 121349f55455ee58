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
/// the response varies on (`Vary`), replacing the one saved before. Saves are written off the
/// caller's path: the latest response per key waits in memory, and one transaction writes all
/// that wait, so a burst of saves costs one write (the file is in WAL mode, `synchronous=NORMAL`:
/// a crash loses at most the last transaction, never corrupts). The most recently used responses
/// (256) are also kept in memory, so a warm read does not touch SQLite.
public final class SQLiteResponseStore: ResponseStore {
    private let database: any DatabaseWriter
    private let memory = SavedResponses()

    /// Opens (or creates) the store at `path`.
    ///
    /// - Throws: GRDB's `DatabaseError` when the file cannot be opened or is not a store this
    ///   version reads.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        database = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(database)
    }

    /// A store in memory, gone with the value: for tests.
    ///
    /// - Throws: GRDB's `DatabaseError` when SQLite cannot open it.
    public init() throws {
        database = try DatabaseQueue()
        try Self.migrator.migrate(database)
    }

    /// The last response saved for `request` whose varying fields match it: from memory when it
    /// was saved or read lately, else from the file.
    ///
    /// - Throws: GRDB's `DatabaseError` when the store cannot be read.
    public func lastResponse(for request: URLRequest) async throws -> SavedResponse? {
        let key = Key(request)
        if let remembered = memory.response(for: key, matching: request) { return remembered }
        let candidates = try await database.read { db in
            let statement = try db.cachedStatement(sql: "SELECT varying, status, finalURL, fields, body, savedAt FROM sculptResponse WHERE method = ? AND url = ?")
            return try Row.fetchAll(statement, arguments: [key.method, key.url]).map(Self.entry)
        }
        let found = candidates.filter { $0.saved.varying(for: request) == $0.varying }.max { $0.saved.savedAt < $1.saved.savedAt }
        if let found { memory.remember(found, for: key) }
        return found?.saved
    }

    /// Saves `response` for `request`; returns at once. The write happens on the store's queue,
    /// with every other save waiting then, in one transaction; one that fails is kept for
    /// ``saveFailures()``.
    public func save(_ response: SavedResponse, for request: URLRequest) {
        let entry = Entry(varying: response.varying(for: request), saved: response)
        guard memory.enqueue(entry, for: Key(request)) else { return }  // a write is already coming
        let memory = memory
        database.asyncWrite({ db in
            for (key, entry) in memory.takePending() {
                try db.cachedStatement(
                    sql: """
                        INSERT OR REPLACE INTO sculptResponse (method, url, varying, status, finalURL, fields, body, savedAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """
                ).execute(arguments: [
                    key.method, key.url, Self.encode(varying: entry.varying), entry.saved.response.status.code,
                    entry.saved.response.url?.absoluteString, Self.encode(fields: entry.saved.response.headerFields), entry.saved.body,
                    entry.saved.savedAt.timeIntervalSince1970,
                ])
            }
        }, completion: { _, result in
            if case .failure(let error) = result { memory.finishWrite(failure: error) } else { memory.finishWrite(failure: nil) }
        })
    }

    /// The errors of saves that failed since the last call, oldest first, once every save asked
    /// for before it is written.
    ///
    /// ```swift
    /// let failed = try await store.saveFailures()   // [] when every save landed
    /// ```
    /// - Throws: GRDB's `DatabaseError` when the store cannot be reached.
    public func saveFailures() async throws -> [any Error] {
        try await database.write { _ in }
        return memory.takeFailures()
    }

    /// How many responses are saved in the file, once every save asked for before it is written.
    ///
    /// - Throws: GRDB's `DatabaseError` when the store cannot be read.
    public func count() async throws -> Int {
        try await database.write { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sculptResponse") ?? 0 }
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

    private static func entry(_ row: Row) -> Entry {
        let finalURL: String? = row["finalURL"]
        let response = ResponseContext(
            url: finalURL.flatMap(URL.init(string:)), method: .get, status: .init(code: row["status"]), headerFields: decode(fields: row["fields"]))
        let saved = SavedResponse(response: response, body: row["body"], savedAt: Date(timeIntervalSince1970: row["savedAt"]))
        return Entry(varying: decode(varying: row["varying"]), saved: saved)
    }

    /// Fields as `name NUL value NUL ...`, in order: HTTP field values hold no NUL.
    private static func encode(fields: HTTPFields) -> Data {
        var bytes: [UInt8] = []
        for field in fields {
            bytes += field.name.rawName.utf8
            bytes.append(0)
            bytes += field.value.utf8
            bytes.append(0)
        }
        return Data(bytes)
    }

    private static func decode(fields data: Data) -> HTTPFields {
        var fields = HTTPFields()
        let parts = data.split(separator: 0, omittingEmptySubsequences: false)
        var index = parts.startIndex
        while index + 1 < parts.endIndex {
            if let name = HTTPField.Name(String(decoding: parts[index], as: UTF8.self)) {
                fields.append(HTTPField(name: name, value: String(decoding: parts[index + 1], as: UTF8.self)))
            }
            index += 2
        }
        return fields
    }

    /// The varying values as `name NUL value NUL ...`, sorted by name, so equal sets write equal
    /// text.
    private static func encode(varying: [String: String]) -> String {
        varying.sorted { $0.key < $1.key }.map { "\($0.key)\u{0}\($0.value)\u{0}" }.joined()
    }

    private static func decode(varying text: String) -> [String: String] {
        let parts = text.split(separator: "\u{0}", omittingEmptySubsequences: false)
        var varying: [String: String] = [:]
        var index = 0
        while index + 1 < parts.count {
            varying[String(parts[index])] = String(parts[index + 1])
            index += 2
        }
        return varying
    }
}

/// Where a response is saved: the request's method and normalized URL.
struct Key: Hashable, Sendable {
    let method: String
    let url: String

    init(_ request: URLRequest) {
        method = (request.httpMethod ?? "GET").uppercased()
        url = NormalizedURL.text(request.url)
    }
}

/// A saved response with the request's values of the fields it varies on.
struct Entry: Sendable {
    let varying: [String: String]
    let saved: SavedResponse
}

/// The store's memory: the responses waiting to be written, the most recently used ones, and the
/// errors of failed writes.
private final class SavedResponses: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [Key: Entry] = [:]
    private var recent: [Key: [Entry]] = [:]
    private var order: [Key] = []
    private var failures: [any Error] = []
    /// The most keys kept in memory.
    private static let capacity = 256

    /// The remembered entry for `key` that `request` matches.
    func response(for key: Key, matching request: URLRequest) -> SavedResponse? {
        lock.withLock {
            let entries = (pending[key].map { [$0] } ?? []) + (recent[key] ?? [])
            return entries.first { $0.saved.varying(for: request) == $0.varying }?.saved
        }
    }

    /// Keeps `entry` to be written and remembers it; `true` when no write was waiting already.
    func enqueue(_ entry: Entry, for key: Key) -> Bool {
        lock.withLock {
            let wasIdle = pending.isEmpty
            pending[key] = entry
            rememberLocked(entry, for: key)
            return wasIdle
        }
    }

    /// The entries taken by the write in progress.
    private var writing: [Key: Entry] = [:]

    /// Every entry waiting to be written, now taken by the write in progress.
    func takePending() -> [Key: Entry] {
        lock.withLock {
            writing = pending
            pending = [:]
            return writing
        }
    }

    /// The write in progress ended; when it failed, its entries are forgotten (a read goes to
    /// the file, which still holds what was saved before) and its error kept.
    func finishWrite(failure: (any Error)?) {
        lock.withLock {
            if let failure {
                failures.append(failure)
                for (key, entry) in writing {
                    recent[key]?.removeAll { $0.varying == entry.varying }
                }
            }
            writing = [:]
        }
    }

    func remember(_ entry: Entry, for key: Key) {
        lock.withLock { rememberLocked(entry, for: key) }
    }

    private func rememberLocked(_ entry: Entry, for key: Key) {
        var entries = recent[key] ?? []
        entries.removeAll { $0.varying == entry.varying }
        entries.insert(entry, at: 0)
        if recent.updateValue(entries, forKey: key) == nil {
            order.append(key)
            if order.count > Self.capacity { recent[order.removeFirst()] = nil }
        }
    }

    func takeFailures() -> [any Error] {
        lock.withLock {
            defer { failures = [] }
            return failures
        }
    }
}
#endif
