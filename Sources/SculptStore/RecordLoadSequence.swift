#if Persistence
public import Sculpt
public import SculptLoading
public import GRDB
#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// A load whose models are GRDB records (`URLSession.models(for:serializer:as:records:query:cache:)`):
/// what the database holds, then the network's value, then what was saved from it, each produced
/// when the iteration asks for it.
///
/// ```swift
/// for try await issues in loads {
///     render(issues.value)   // .store (held), .network, .store (saved)
/// }
/// ```
public struct RecordLoadSequence<Value: Sendable>: AsyncSequence, Sendable {
    /// Each value loaded, with where it came from.
    public typealias Element = Loaded<Value>

    let request: URLRequest
    let network: LoadSequence<Value>
    let records: RecordStore
    let query: @Sendable (Database) throws -> Value?

    /// An iterator that reads the database on its first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self)
    }

    /// Gives the load's values one `next()` at a time.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        private enum Step: Sendable {
            case held, network, saved(Task<Void, any Error>), done
        }

        let sequence: RecordLoadSequence
        private var step = Step.held

        init(sequence: RecordLoadSequence) {
            self.sequence = sequence
        }

        /// The next value; `nil` after the last, or when the task is cancelled.
        ///
        /// - Throws: the database's error saving the network's records (after the network's value;
        ///   a first read that fails is passed over, the save says why), and what the network load
        ///   throws.
        public mutating func next() async throws -> Loaded<Value>? {
            switch step {
            case .held:
                step = .network
                // A table the models do not fit fails this read: the network is still asked, and
                // the save of its records says what is wrong.
                if let held = try? await sequence.records.writer.read(sequence.query), !Self.isEmpty(held) {
                    return Loaded(value: held, origin: .store, response: storeResponse, isStale: true)
                }
                return try await next()
            case .network:
                step = .done
                var network = sequence.network.makeAsyncIterator()
                guard let loaded = try await network.next() else { return nil }
                // Saved off the caller's path; the next value waits for it.
                let records = sequence.records
                let value = loaded.value
                step = .saved(Task { try await records.save(value) })
                return loaded
            case .saved(let saving):
                step = .done
                try await saving.value  // the save runs to its end, cancelled or not: whole or nothing
                guard !Task.isCancelled else { return nil }
                do {
                    // Read in a write: after every write before it, whatever the writer's kind.
                    guard let saved = try await sequence.records.writer.write(sequence.query) else { return nil }
                    return Loaded(value: saved, origin: .store, response: storeResponse, isStale: false)
                } catch is CancellationError {
                    return nil
                }
            case .done:
                return nil
            }
        }

        /// What a value from the database carries as its response: the request's URL, `200`, no
        /// fields (the database keeps models, not responses).
        private var storeResponse: ResponseContext {
            ResponseContext(url: sequence.request.url, method: .get, status: .ok, headerFields: [:])
        }

        private static func isEmpty(_ value: Value) -> Bool {
            (value as? any Collection)?.isEmpty ?? false
        }
    }
}

extension URLSession {
    /// Loads models that are GRDB records: what `query` finds in the database first (origin
    /// `.store`, marked stale), then the network's value, whose records are upserted in one
    /// transaction, then what `query` finds once they are saved (origin `.store`).
    ///
    /// ```swift
    /// let loads = session.models(for: request, serializer: serializer, as: [Issue].self, records: RecordStore(database)) { db in
    ///     try Issue.order(Column("number")).fetchAll(db)
    /// }
    /// ```
    /// - Parameters:
    ///   - request: the request to load.
    ///   - serializer: the serializer whose matcher must resolve `type`.
    ///   - type: the model, made of records.
    ///   - records: the database the records are saved to and read from.
    ///   - query: reads the model from the database; `nil` when it holds none yet.
    ///   - cache: where responses are stored under HTTP's rules; the session's `URLCache` by default.
    /// - Throws (from the iteration): the database's errors (a schema the models do not fit: the
    ///   network's value is given, the save's error comes after it, nothing is half-written), and
    ///   what `URLSession.models(for:serializer:as:policy:cache:store:)` (Sculpt) throws.
    public func models<Matcher, M: Decodable & Sendable>(
        for request: URLRequest, serializer: ModelResponseSerializer<Matcher>, as type: M.Type, records: RecordStore,
        query: @escaping @Sendable (Database) throws -> M?, cache: HTTPResponseCache? = nil
    ) -> RecordLoadSequence<M> {
        RecordLoadSequence(
            request: request, network: models(for: request, serializer: serializer, as: type, policy: .networkOnly, cache: cache), records: records,
            query: query)
    }
}
#endif
