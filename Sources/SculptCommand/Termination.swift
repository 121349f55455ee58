import Dispatch
import Foundation
import SculptShared

/// Waiting for SIGINT (Ctrl-C) or SIGTERM, so a long-running command stops cleanly: its server
/// closed, its files complete.
enum Termination {
    /// Returns when the process receives SIGINT or SIGTERM; the signal's default action (ending
    /// the process at once) is replaced for the rest of the process's life.
    static func signal() async -> Int32 {
        let sources = [SIGINT, SIGTERM].map { number in
            Foundation.signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: .global())
        }
        let received = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let once = ResumeOnce(continuation)
            for source in sources {
                let number = Int32(source.handle)
                source.setEventHandler { once.resume(returning: number) }
                source.resume()
            }
        }
        for source in sources { source.cancel() }
        return received
    }

    /// A continuation resumed by the first signal only.
    private final class ResumeOnce: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Int32, Never>?

        init(_ continuation: CheckedContinuation<Int32, Never>) {
            self.continuation = continuation
        }

        func resume(returning value: Int32) {
            lock.withLock {
                continuation?.resume(returning: value)
                continuation = nil
            }
        }
    }
}
