import Foundation
import Testing

/// Runs one test of this test binary in a child process, so that a test can kill a real process
/// halfway through something (a save, a write) and look at what it left behind.
///
/// The child is the same executable, asked to run one test (`--filter`), with
/// ``variable`` set to the argument the parent passes; the test that does the child's part is
/// enabled only then (``isChild``), so a normal run skips it.
enum ChildTest {
    /// The environment variable that carries the parent's argument into the child.
    static let variable = "SCULPT_CHILD_TEST_ARGUMENT"

    /// The argument the parent passed, in the child; nil in a normal run.
    static var argument: String? { ProcessInfo.processInfo.environment[variable] }

    /// True in a child started by ``run(_:argument:)``.
    static var isChild: Bool { argument != nil }

    /// True where a test can start this executable again (Linux's `/proc/self/exe`).
    static var isAvailable: Bool { FileManager.default.fileExists(atPath: "/proc/self/exe") }

    /// How the child ended.
    struct Outcome: Sendable, CustomStringConvertible {
        var killedBySignal: Int32?
        var exitStatus: Int32?
        var description: String {
            killedBySignal.map { "killed by signal \($0)" } ?? "exited with \(exitStatus ?? -1)"
        }
    }

    /// Runs the test `filter` (a Swift Testing filter such as `"RecordStoreTests/crashingSave"`)
    /// in a child process with `argument`, and returns how it ended.
    static func run(_ filter: String, argument: String) async throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        process.environment = ProcessInfo.processInfo.environment.merging([variable: argument]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { process in
                let signalled = process.terminationReason == .uncaughtSignal
                continuation.resume(returning: Outcome(
                    killedBySignal: signalled ? process.terminationStatus : nil,
                    exitStatus: signalled ? nil : process.terminationStatus))
            }
            do { try ChildPipe.spawning { try process.run() } } catch { continuation.resume(throwing: error) }
        }
    }

    /// Starts the test `filter` in a child process with `argument`, and returns once the child
    /// has written `ready` on a line of its standard output: a parent that holds a lock the
    /// children wait on can then release them all at once.
    static func started(_ filter: String, argument: String) async throws -> Started {
        let child = try Started(filter, argument: argument)
        try await child.waitUntilReady()
        return child
    }

    /// A child process started by ``started(_:argument:)``.
    final class Started: @unchecked Sendable {
        private let process = Process()
        private let output: ChildPipe
        private let ended = NSCondition()
        private var outcome: Outcome?

        fileprivate init(_ filter: String, argument: String) throws {
            output = try ChildPipe()
            process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
            process.environment = ProcessInfo.processInfo.environment.merging([variable: argument]) { $1 }
            process.standardOutput = output.writing
            process.standardError = FileHandle.nullDevice
            process.terminationHandler = { [ended] process in
                let signalled = process.terminationReason == .uncaughtSignal
                ended.withLock {
                    self.outcome = Outcome(killedBySignal: signalled ? process.terminationStatus : nil, exitStatus: signalled ? nil : process.terminationStatus)
                    ended.broadcast()
                }
            }
        }

        /// Runs the child and reads its output, off Swift's cooperative pool, up to a `ready` line
        /// or its end.
        fileprivate func waitUntilReady() async throws {
            process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            try ChildPipe.spawning { try process.run() }
            try output.writing.close()
            let output = self.output
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread {
                    // Up to a `ready` line; the rest is left in the pipe.
                    var text = ""
                    var chunk = [UInt8](repeating: 0, count: 4096)
                    while !text.split(separator: "\n").contains("ready") {
                        let count = chunk.withUnsafeMutableBytes { read(output.reading.fileDescriptor, $0.baseAddress, $0.count) }
                        guard count > 0 else { break }
                        text += String(decoding: chunk[..<count], as: UTF8.self)
                    }
                    done.resume()
                }.start()
            }
        }

        /// How the child ended, once it has.
        func outcome() async -> Outcome {
            await withCheckedContinuation { (done: CheckedContinuation<Outcome, Never>) in
                Thread { [self] in
                    let outcome = ended.withLock {
                        while self.outcome == nil { ended.wait() }
                        return self.outcome
                    }
                    done.resume(returning: outcome ?? Outcome(killedBySignal: nil, exitStatus: nil))
                }.start()
            }
        }
    }

    /// Ends this process as a crash would: no cleanup, no flush, no `atexit`.
    static func crash() -> Never {
        kill(getpid(), SIGKILL)
        fatalError("SIGKILL did not end the process")
    }
}
