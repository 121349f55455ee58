#if Persistence
import Sculpt
public import SculptLoading
import Foundation
import SculptShared
import GRDB
import HTTPTypes
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A `ResponseStore` in an SQLite file, through GRDB: the last good response to each request,
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
/// caller's path: the latest response per key and variant waits in memory, and one transaction
/// writes all that wait, so a burst of saves costs one write (the file is in WAL mode,
/// `synchronous=NORMAL`: a crash loses at most the last transaction, never corrupts). The most
/// recently used responses (256, bodies up to 256 KiB) are also kept in memory, so a warm read
/// does not touch SQLite; another process writing the same file is not seen until they leave
/// memory. The file holds what a request's response needs to be given again (its URL with its
/// query, its fields but `Set-Cookie`, its body) and only fingerprints of the fields it varies
/// on: keep it where the application's other data is kept.
public final class SQLiteResponseStore: ResponseStore {
    private let database: any DatabaseWriter
    private let memory = SavedResponses()

    /// Opens (or creates) the store at `path`. Any number of processes may open, create and
    /// write one file at once: opening waits for the others as a write does.
    ///
    /// - Parameter path: the file's path.
    /// - Throws: GRDB's `DatabaseError` when the file cannot be opened within 10 seconds, or is
    ///   not a store this version reads.
    public init(path: String) throws {
        var configuration = Configuration()
        // Another process on the same file (a second instance of the app, a test runner) holds
        // the write lock for a transaction at a time: wait for it rather than fail.
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        database = try Self.open(path, configuration)
        try Self.createSchema(in: database)
    }

    /// A store in memory, gone with the value: for tests.
    ///
    /// - Throws: GRDB's `DatabaseError` when SQLite cannot open it.
    public init() throws {
        database = try DatabaseQueue()
        try Self.createSchema(in: database)
    }

    /// How long opening the file or writing to it waits for another connection (another process,
    /// another store on the file) that holds it, in seconds.
    static let busyTimeout: TimeInterval = 10

    /// The pool on `path`. Switching a new file to WAL mode needs the file to itself, and SQLite
    /// answers "database is locked" at once, without waiting, while another process opens it too:
    /// opening is tried again until ``busyTimeout`` has passed.
    private static func open(_ path: String, _ configuration: Configuration) throws -> DatabasePool {
        let deadline = ContinuousClock.now + .seconds(busyTimeout)
        var pause: TimeInterval = 0.001
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 0.1)
            }
        }
    }

    /// The last response saved for `request` whose varying fields match it: from memory when it
    /// was saved or read lately, else from the file.
    ///
    /// - Parameter request: the request to answer.
    /// - Throws: GRDB's `DatabaseError` when the store cannot be read.
    public func lastResponse(for request: URLRequest) async throws -> SavedResponse? {
        let key = Key(request)
        if let remembered = memory.response(for: key, matching: request) { return remembered }
        let candidates = try savedEntries(for: key)
        let found = candidates.filter { $0.saved.varying(for: request) == $0.varying }.max { $0.saved.savedAt < $1.saved.savedAt }
        if let found { memory.remember(found, for: key) }
        return found?.saved
    }

    /// The entries saved for `key`, read on the caller's thread: a read in WAL mode never waits
    /// for a writer, and running it here, as the decode after it runs, spares the two thread
    /// hops of GRDB's asynchronous read, which cost more than the decode after it (Docs/Performance.md).
    private func savedEntries(for key: Key) throws -> [Entry] {
        // One SELECT is atomic by itself: no transaction around it.
        try database.unsafeRead { db in
            let statement = try db.cachedStatement(sql: "SELECT varying, status, finalURL, fields, body, savedAt FROM sculptResponse WHERE method = ? AND url = ?")
            return try Row.fetchAll(statement, arguments: [key.method, key.url]).map { try Self.entry($0) }
        }
    }

    /// Saves `response` for `request`; returns at once. The write happens on the store's queue,
    /// with every other save waiting then, in one transaction; one that fails is kept for
    /// ``saveFailures()``.
    /// - Parameters:
    ///   - response: the response to save.
    ///   - request: the request it answered.
    public func save(_ response: SavedResponse, for request: URLRequest) {
        let entry = Entry(varying: response.varying(for: request), saved: response)
        guard memory.enqueue(entry, for: Key(request)) else { return }  // a write is already coming
        let memory = memory
        database.asyncWrite({ db in
            for (variant, entry) in memory.takePending() {
                let key = variant.key
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

    /// The table's columns, in order.
    private static let columns = [
        Column(name: "method", type: "TEXT", isNotNull: true, keyIndex: 1), Column(name: "url", type: "TEXT", isNotNull: true, keyIndex: 2),
        Column(name: "varying", type: "BLOB", isNotNull: true, keyIndex: 3), Column(name: "status", type: "INTEGER", isNotNull: true, keyIndex: 0),
        Column(name: "finalURL", type: "TEXT", isNotNull: false, keyIndex: 0), Column(name: "fields", type: "BLOB", isNotNull: true, keyIndex: 0),
        Column(name: "body", type: "BLOB", isNotNull: true, keyIndex: 0), Column(name: "savedAt", type: "DOUBLE", isNotNull: true, keyIndex: 0),
    ]

    /// A column of the table as SQLite describes it: name, declared type, `NOT NULL`, and its
    /// place in the primary key (0 for none).
    private struct Column: Equatable, CustomStringConvertible {
        var name: String
        var type: String
        var isNotNull: Bool
        var keyIndex: Int

        var description: String {
            "\(name) \(type.isEmpty ? "(no type)" : type)\(isNotNull ? " NOT NULL" : "")\(keyIndex > 0 ? " (key \(keyIndex))" : "")"
        }
    }

    /// Creates the table unless it exists, in a transaction that takes the write lock first: two
    /// processes creating one file at once create it once, and the second waits for the first.
    ///
    /// - Throws: `DatabaseError` (`SQLITE_MISMATCH`) when the file holds a table of that name
    ///   that is not a store's; nothing in the file is changed.
    private static func createSchema(in database: any DatabaseWriter) throws {
        try database.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS sculptResponse (
                            method TEXT NOT NULL,
                            url TEXT NOT NULL,
                            varying BLOB NOT NULL,
                            status INTEGER NOT NULL,
                            finalURL TEXT,
                            fields BLOB NOT NULL,
                            body BLOB NOT NULL,
                            savedAt DOUBLE NOT NULL,
                            PRIMARY KEY (method, url, varying))
                        """)
                // A table of another program's that happens to have the name is never written to:
                // the columns, their types, what may be null and the key must all be the store's.
                let kind = try String.fetchOne(db, sql: "SELECT type FROM sqlite_master WHERE name = 'sculptResponse'")
                let found = try db.columns(in: "sculptResponse").map { Column(name: $0.name, type: $0.type.uppercased(), isNotNull: $0.isNotNull, keyIndex: $0.primaryKeyIndex) }
                guard kind == "table", found == columns else {
                    let shown = found.map(\.description).joined(separator: ", ")
                    throw DatabaseError(
                        resultCode: .SQLITE_MISMATCH,
                        message: "the file's sculptResponse \(kind ?? "table") is not a response store's: its columns are \(shown), not \(columns.map(\.description).joined(separator: ", "))")
                }
                return .commit
            }
        }
    }

    // MARK: - Rows

    /// The entry a row holds.
    ///
    /// - Throws: `DatabaseError` (`SQLITE_CORRUPT`) naming the column when a value is not of the
    ///   storage class written there (a row damaged by hand or by another program); the value is
    ///   not shown.
    private static func entry(_ row: Row) throws -> Entry {
        let finalURL = try column(row, "finalURL", String?.self, [.text, .null], written: "a URL")
        let response = ResponseContext(
            url: finalURL.flatMap(URL.init(string:)), method: .get, status: .standard(try status(row)),
            headerFields: try decode(fields: try column(row, "fields", Data.self, [.blob], written: "header fields")))
        let saved = SavedResponse(
            response: response, body: try column(row, "body", Data.self, [.blob], written: "a body"),
            savedAt: Date(timeIntervalSince1970: try column(row, "savedAt", Double.self, [.real, .integer], written: "a time")))
        return Entry(varying: try decode(varying: try column(row, "varying", Data.self, [.blob], written: "varying fields")), saved: saved)
    }

    /// The row's status: a code from 0 to 999, as written.
    private static func status(_ row: Row) throws -> Int {
        let code = try column(row, "status", Int.self, [.integer], written: "an integer status")
        guard (0...999).contains(code) else { throw damaged("status", holding: "a number no status has") }
        return code
    }

    /// SQLite's storage classes.
    private enum StorageClass: String {
        case null = "NULL", integer = "an integer", real = "a real number", text, blob = "a blob"

        init(_ value: DatabaseValue) {
            switch value.storage {
            case .null: self = .null
            case .int64: self = .integer
            case .double: self = .real
            case .string: self = .text
            case .blob: self = .blob
            }
        }
    }

    /// The value of `name` in `row` as `Value`, when its storage class is one of `accepted`.
    ///
    /// - Throws: `DatabaseError` (`SQLITE_CORRUPT`) saying what the column holds instead.
    private static func column<Value: DatabaseValueConvertible>(
        _ row: Row, _ name: String, _ type: Value.Type, _ accepted: Set<StorageClass>, written: String
    ) throws -> Value {
        let found = StorageClass(row[name] as DatabaseValue)
        guard accepted.contains(found), let value = try? row.decode(Value.self, forColumn: name) else {
            throw damaged(name, holding: "\(found.rawValue) where \(written) was written")
        }
        return value
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

    ///
    /// - Throws: `DatabaseError` (`SQLITE_CORRUPT`) for a name or value no field can have (a
    ///   line break in a value), or a name without its value: what was written never holds one.
    private static func decode(fields data: Data) throws -> HTTPFields {
        var fields = HTTPFields()
        var name: HTTPField.Name?
        let parts = data.split(separator: 0, omittingEmptySubsequences: false).dropLast()  // the last NUL ends the list
        for part in parts {
            let text = String(decoding: part, as: UTF8.self)
            if let pending = name {
                guard HTTPField.isValidValue(text) else { throw damaged("fields", holding: "a value no header field can have") }
                fields.append(HTTPField(name: pending, value: text))
                name = nil
            } else {
                guard let valid = HTTPField.Name(text) else { throw damaged("fields", holding: "a name no header field can have") }
                name = valid
            }
        }
        guard name == nil, data.isEmpty || data.last == 0 else { throw damaged("fields", holding: "a name without its value") }
        return fields
    }

    /// The error for a row whose `column` holds what was never written there.
    private static func damaged(_ column: String, holding what: String) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_CORRUPT, message: "a saved response is damaged: its \(column) column holds \(what)")
    }

    /// The varying values as `name NUL value NUL ...`, sorted by name, so equal sets write equal
    /// bytes. A blob, not text: SQLite's text stops at the first NUL when it is read.
    private static func encode(varying: [String: String]) -> Data {
        Data(varying.sorted { $0.key < $1.key }.map { "\($0.key)\u{0}\($0.value)\u{0}" }.joined().utf8)
    }

    /// The varying values ``encode(varying:)`` wrote.
    ///
    /// - Throws: `DatabaseError` (`SQLITE_CORRUPT`) for bytes it never writes: a name without its
    ///   value, an empty or repeated name, text that is not UTF-8.
    private static func decode(varying data: Data) throws -> [String: String] {
        guard !data.isEmpty else { return [:] }
        // Every name and value ends with a NUL: the last part after the split is empty.
        let parts = data.split(separator: 0, omittingEmptySubsequences: false).dropLast()
        guard data.last == 0, parts.count % 2 == 0 else { throw damaged("varying", holding: "a name without its value") }
        var varying: [String: String] = [:]
        var index = parts.startIndex
        while index < parts.endIndex {
            guard let name = Self.utf8(parts[index]), !name.isEmpty, varying[name] == nil, let value = Self.utf8(parts[index + 1])
            else { throw damaged("varying", holding: "a name or value no varying field has") }
            varying[name] = value
            index += 2
        }
        return varying
    }

    /// `bytes` as text, when they are valid UTF-8.
    private static func utf8(_ bytes: Data) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
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

/// One variant of a request's response: its key and the values of the fields it varies on.
struct Variant: Hashable, Sendable {
    let key: Key
    let varying: [String: String]
}

/// The store's memory: the responses waiting to be written, the most recently used ones, and the
/// errors of failed writes.
private final class SavedResponses: @unchecked Sendable {
    private let lock = NSLock()
    /// Keyed by the request's key and the varying values: each of a response's variants is kept.
    private var pending: [Variant: Entry] = [:]
    /// The remembered entries per key, with when the key was last used (a count of uses).
    private var recent: [Key: (entries: [Entry], used: UInt64)] = [:]
    private var uses: UInt64 = 0
    private var failures: [any Error] = []
    /// The most keys kept in memory.
    private static let capacity = 256
    /// The largest body kept in memory: 256 KiB, so memory holds at most 64 MiB of bodies
    /// (100 saves of 5 MB held 505 MB); a larger one is read from the file.
    private static let largestRemembered = 256 << 10

    /// The remembered entry for `key` that `request` matches.
    func response(for key: Key, matching request: URLRequest) -> SavedResponse? {
        lock.withLock {
            // A pending entry is remembered too (unless forgotten since, past capacity): a hit
            // there counts as a use.
            if let remembered = recent[key], let entry = remembered.entries.first(where: { $0.saved.varying(for: request) == $0.varying }) {
                uses += 1
                recent[key]?.used = uses
                return entry.saved
            }
            // Waiting, or being written: not yet in the file.
            for waiting in [pending, writing] {
                if let (_, entry) = waiting.first(where: { $0.key.key == key && $0.value.saved.varying(for: request) == $0.value.varying }) {
                    return entry.saved
                }
            }
            return nil
        }
    }

    /// Keeps `entry` to be written and remembers it; `true` when no write was waiting already.
    func enqueue(_ entry: Entry, for key: Key) -> Bool {
        lock.withLock {
            let wasIdle = pending.isEmpty
            pending[Variant(key: key, varying: entry.varying)] = entry
            rememberLocked(entry, for: key)
            return wasIdle
        }
    }

    /// The entries taken by the write in progress.
    private var writing: [Variant: Entry] = [:]

    /// Every entry waiting to be written, now taken by the write in progress.
    func takePending() -> [Variant: Entry] {
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
                for (variant, entry) in writing {
                    recent[variant.key]?.entries.removeAll { $0.varying == entry.varying }
                }
            }
            writing = [:]
        }
    }

    func remember(_ entry: Entry, for key: Key) {
        lock.withLock { rememberLocked(entry, for: key) }
    }

    /// Remembers `entry` as the most recently used; 32 keys past ``capacity``, the least recently
    /// used are forgotten down to it.
    private func rememberLocked(_ entry: Entry, for key: Key) {
        var entries = recent[key]?.entries ?? []
        entries.removeAll { $0.varying == entry.varying }
        guard entry.saved.body.count <= Self.largestRemembered else {
            // Not kept, and no older variant either: a read goes to the file.
            recent[key] = entries.isEmpty ? nil : (entries, recent[key]?.used ?? uses)
            return
        }
        entries.insert(entry, at: 0)
        uses += 1
        // Past capacity by a batch, the least recently used are forgotten down to capacity: one
        // sort for every 32 new keys, not a search of the 256 for each.
        if recent.updateValue((entries, uses), forKey: key) == nil, recent.count > Self.capacity + 32 {
            for (oldest, _) in recent.sorted(by: { $0.value.used < $1.value.used }).prefix(recent.count - Self.capacity) {
                recent[oldest] = nil
            }
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
