#if Persistence
import Foundation
public import GRDB

/// Decoded models that are GRDB records, written to the tables their types name, on
/// SQLite. Whatever a serializer resolved (a record, an array of
/// records, an optional one), ``save(_:)`` upserts it in one transaction, so a response is
/// saved whole or not at all.
///
/// ```swift
/// struct Issue: Codable, Sendable, FetchableRecord, PersistableRecord { var id: Int64; var title: String }
/// let records = RecordStore(try DatabaseQueue(path: path))
/// let saved = try await records.save(issues)   // one transaction, upserted by primary key
/// ```
public struct RecordStore: Sendable {
    /// The database the records go to; its tables are the application's (created by its own
    /// migrations).
    public let writer: any DatabaseWriter

    /// A store writing to `writer`.
    /// - Parameter writer: the GRDB database queue or pool to write to.
    public init(_ writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// Upserts every record `value` holds (itself, the elements of an array, an optional's
    /// wrapped value) in one transaction, and returns how many; values that are not records are
    /// left alone (0).
    ///
    /// ```swift
    /// try await records.save(user)      // 1: upserted into User.databaseTableName
    /// try await records.save([1, 2])    // 0: not records
    /// ```
    /// - Parameter value: A record, an array or optional of records, or any value that holds records.
    /// - Throws: GRDB's `DatabaseError` (a missing table, a column the model has and the table
    ///   does not, a constraint): the transaction is rolled back and nothing of `value` is written.
    @discardableResult
    public func save(_ value: some Sendable) async throws -> Int {
        let records = Self.records(in: value)
        guard !records.isEmpty else { return 0 }
        let box = RecordsBox(records)
        return try await writer.write { db in
            for record in box.records { try record.upsert(db) }
            return box.records.count
        }
    }

    /// The records a decoded value holds.
    static func records(in value: Any) -> [any PersistableRecord] {
        if let record = value as? any PersistableRecord { return [record] }
        if let records = value as? [any PersistableRecord] { return records }
        if let optionals = value as? [(any PersistableRecord)?] { return optionals.compactMap { $0 } }
        return []
    }
}

/// Records handed to the writer's queue. A decoded value is `Sendable`; its records, seen as
/// `any PersistableRecord`, are only read there.
private struct RecordsBox: @unchecked Sendable {
    let records: [any PersistableRecord]

    init(_ records: [any PersistableRecord]) {
        self.records = records
    }
}
#endif
