import Foundation
import SculptShared

/// The bytes of request bodies a server holds, all connections together, against
/// ``FixtureServer/Limits/maximumBufferedBodies``: each connection takes what it keeps as it
/// arrives and gives it back when the request is answered, so 500 clients each announcing
/// 16 MB cannot make the server hold 8 GB.
final class BodyBudget: @unchecked Sendable {
    private let lock = NSLock()
    private let capacity: Int
    /// Guarded by `lock`.
    private var held = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Takes `bytes` from the budget; `false` (nothing taken) when that would pass it.
    func take(_ bytes: Int) -> Bool {
        lock.withLock {
            guard bytes <= capacity - held else { return false }
            held += bytes
            return true
        }
    }

    /// The bytes taken now.
    var taken: Int { lock.withLock { held } }

    /// Gives `bytes` back.
    func give(_ bytes: Int) {
        lock.withLock { held = Swift.max(0, held - bytes) }
    }
}
