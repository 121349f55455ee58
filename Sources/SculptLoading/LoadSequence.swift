import Foundation
import Sculpt
import SculptShared
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The values of a load under a ``LoadPolicy``, each produced when the iteration asks for it, on
/// the iterating task: nothing runs ahead of the consumer, and cancelling its task ends the load at
/// once, and the request in flight with it (on Linux, only on a session without a `URLCache`:
/// Docs/Loading.md says why).
///
/// ```swift
/// for try await loaded in session.models(for: request, serializer: serializer, as: User.self, policy: .cachedThenFetch) {
///     render(loaded.value)   // the stored value; the network is asked when the loop comes back
/// }
/// ```
public struct LoadSequence<Value: Sendable>: AsyncSequence, Sendable {
    /// Each value loaded, with where it came from.
    public typealias Element = Loaded<Value>

    let loader: ResponseLoader<Value>
    let request: URLRequest
    let policy: LoadPolicy

    /// An iterator that starts the load on its first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self)
    }

    /// Gives the load's values one `next()` at a time.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        private enum Step: Sendable {
            case start
            /// The network is still to be asked, revalidating what was stored.
            case fetch(StoredResponse?)
            case done
        }

        let sequence: LoadSequence
        private var step = Step.start

        init(sequence: LoadSequence) {
            self.sequence = sequence
        }

        /// The load's next value; `nil` after its last one, or when the task is cancelled.
        ///
        /// - Throws: the transport error, the serializer's error, or
        ///   `URLError(.resourceUnavailable)` for ``LoadPolicy/cacheOnly`` with nothing stored.
        public mutating func next() async throws -> Loaded<Value>? {
            let current = step
            step = .done
            do {
                switch current {
                case .start:
                    let (value, thenFetch) = try await sequence.loader.first(sequence.request, policy: sequence.policy)
                    if let stored = thenFetch { step = .fetch(stored) }
                    return value
                case .fetch(let stored):
                    return try await sequence.loader.fetch(sequence.request, revalidating: stored)
                case .done:
                    return nil
                }
            } catch where Task.isCancelled {
                // Cancelled: whatever the request ended with, the iteration ends without an error.
                return nil
            }
        }
    }
}
