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
    typealias Outcome = SpawnedProcess.Ending

    /// Runs the test `filter` (a Swift Testing filter such as `"RecordStoreTests/crashingSave"`)
    /// in a child process with `argument`, and returns how it ended.
    static func run(_ filter: String, argument: String) async throws -> Outcome {
        try await spawn(filter, argument: argument, output: nil).end()
    }

    /// Starts the test `filter` in a child process with `argument`, and returns once the child
    /// has written `ready` on a line of its standard output: a parent that holds a lock the
    /// children wait on can then release them all at once.
    static func started(_ filter: String, argument: String) async throws -> Started {
        let output = try ChildPipe()
        let child = try spawn(filter, argument: argument, output: output.writing.fileDescriptor)
        try output.writing.close()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                // Up to a `ready` line or the output's end; the rest is left in the pipe.
                var text = ""
                var chunk = [UInt8](repeating: 0, count: 4096)
                while !text.split(separator: "\n").contains("ready") {
                    let count = chunk.withUnsafeMutableBytes { read(output.reading.fileDescriptor, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { break }
                    text += String(decoding: chunk[..<count], as: UTF8.self)
                }
                done.resume()
            }.start()
        }
        return Started(process: child, output: output)
    }

    /// A child process started by ``started(_:argument:)``.
    struct Started: Sendable {
        fileprivate let process: SpawnedProcess
        /// Held so that the child's writes after `ready` never meet a closed pipe.
        fileprivate let output: ChildPipe

        /// How the child ended, once it has.
        func outcome() async -> Outcome {
            await process.end()
        }
    }

    /// Starts this executable on the test `filter`, with `argument` in ``variable``.
    private static func spawn(_ filter: String, argument: String, output: Int32?) throws -> SpawnedProcess {
        try SpawnedProcess(
            URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")),
            arguments: ["--testing-library", "swift-testing", "--filter", filter],
            environment: ProcessInfo.processInfo.environment.merging([variable: argument]) { $1 },
            output: output)
    }

    /// Ends this process as a crash would: no cleanup, no flush, no `atexit`.
    static func crash() -> Never {
        kill(getpid(), SIGKILL)
        fatalError("SIGKILL did not end the process")
    }
}
