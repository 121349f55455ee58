import Sculpt
import SculptShared
public import Observation

/// A model loaded and reloaded for UI code, on Observation: a `state`
/// views observe, and `reload()`, which cancels a load in flight.
///
/// ```swift
/// let profile = ModelSource {
///     session.models(for: request, serializer: serializer, as: User.self, policy: .cachedThenFetch)
/// }
/// profile.reload()
/// // SwiftUI: switch profile.state { case .loading(let last): ... }
/// ```
///
/// A load's values replace one another as they arrive (a stored value, then the network's); the
/// state stays ``State/loading(last:)`` until the load ends, then becomes ``State/loaded(_:)``
/// with its last value, or ``State/failed(_:last:)`` keeping the last value shown. A reload
/// cancels the load before it, whose values then never reach the state.
///
/// Observation, which it is built on, needs macOS 14, iOS 17, tvOS 17 and watchOS 10.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class ModelSource<Value: Sendable> {
    /// What the source holds.
    public enum State: Sendable {
        /// Never loaded.
        case idle
        /// Loading; `last` is the latest value, from this load or the one before.
        case loading(last: Loaded<Value>?)
        /// The load ended with this value.
        case loaded(Loaded<Value>)
        /// The load failed; `last` is the latest value it or an earlier one gave.
        case failed(any Error, last: Loaded<Value>?)
    }

    /// The current state.
    public private(set) var state: State = .idle

    /// The latest loaded value, whatever the state.
    public var last: Loaded<Value>? {
        switch state {
        case .idle: nil
        case .loading(let last), .failed(_, let last): last
        case .loaded(let loaded): loaded
        }
    }

    /// Runs one load, handing each value to the source.
    @ObservationIgnored private let run: @Sendable (_ take: @escaping @MainActor (Loaded<Value>) -> Bool) async throws -> Void
    @ObservationIgnored private var task: Task<Void, Never>?
    @ObservationIgnored private var generation = 0

    /// A source whose loads are the sequences `load` makes, such as
    /// `URLSession.models(for:serializer:policy:)`.
    /// - Parameter load: makes the sequence of one load; called again by each `reload()`.
    public init<Loads: AsyncSequence & Sendable>(_ load: @escaping @Sendable () -> Loads) where Loads.Element == Loaded<Value> {
        run = { take in
            for try await loaded in load() {
                guard await take(loaded) else { return }
            }
        }
    }

    /// Starts a load, cancelling the one in flight. Await the returned task to wait for the load
    /// to end (tests do; UI code need not).
    @discardableResult
    public func reload() -> Task<Void, Never> {
        task?.cancel()
        generation += 1
        let current = generation
        state = .loading(last: last)
        let run = self.run
        let task = Task { [weak self] in
            do {
                try await run { [weak self] loaded in
                    guard let self, self.generation == current else { return false }
                    self.state = .loading(last: loaded)
                    return true
                }
                guard let self, self.generation == current, !Task.isCancelled else { return }
                self.state = self.last.map { .loaded($0) } ?? .idle
            } catch {
                guard let self, self.generation == current else { return }
                self.state = .failed(error, last: self.last)
            }
        }
        self.task = task
        return task
    }

    /// Cancels the load in flight; the state keeps the last value (loaded), or returns to idle.
    public func cancel() {
        task?.cancel()
        generation += 1
        state = last.map { .loaded($0) } ?? .idle
    }
}
