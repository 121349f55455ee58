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
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
    }

    /// Ends this process as a crash would: no cleanup, no flush, no `atexit`.
    static func crash() -> Never {
        kill(getpid(), SIGKILL)
        fatalError("SIGKILL did not end the process")
    }
}
