import Foundation
import Testing

/// The built `sculpt` command run as a user runs it: a subprocess, its output read as it comes.
///
/// Every wait is for an event (a line written, the output's end, the process's end), never for a
/// length of time, so a slow machine only makes a test slower. A wait ends when its task is
/// cancelled (a test's time limit): the process is ended, which ends its output.
final class CommandProcess: @unchecked Sendable {
    /// The `sculpt` executable beside the test bundle in the build's products folder.
    static let executable: URL? = {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ].compactMap { $0 }
        for folder in candidates {
            var search = folder
            for _ in 0..<4 {
                let file = search.appending(path: "sculpt")
                if FileManager.default.isExecutableFile(atPath: file.path(percentEncoded: false)) { return file }
                search = search.deletingLastPathComponent()
            }
        }
        return nil
    }()

    private let process: SpawnedProcess
    /// Guards what follows; signalled whenever any of it changes.
    private let state = NSCondition()
    private var output = Data()
    private var errors = Data()
    private var outputEnded = false
    private var errorsEnded = false
    private var status: Int32?
    /// Set when a waiting task was cancelled: every wait ends.
    private var abandoned = false

    /// Starts `sculpt` (or `executable`) with `arguments` in `folder` (the package root by default).
    init(_ arguments: [String], in folder: URL = Paths.packageRoot, executable: URL? = nil) throws {
        let executable = try #require(executable ?? Self.executable, "sculpt is built with the tests (swift build --build-tests)")
        let out = try ChildPipe()
        let err = try ChildPipe()
        process = try SpawnedProcess(
            executable, arguments: arguments, in: folder,
            output: out.writing.fileDescriptor, errors: err.writing.fileDescriptor)
        // The child has its own copies: with these closed, its exit ends the output.
        try out.writing.close()
        try err.writing.close()
        for (pipe, isOutput) in [(out, true), (err, false)] {
            Thread { [self] in
                pipe.readToEnd { self.take($0, isOutput: isOutput) }
            }.start()
        }
        Thread { [self, process] in
            let ending = process.waitUntilEnded()
            state.withLock {
                status = ending.exitStatus ?? ending.killedBySignal
                state.broadcast()
            }
        }.start()
    }

    deinit {
        process.send(SIGTERM)
    }

    /// Keeps what a pipe gave; empty data is its end.
    private func take(_ data: Data, isOutput: Bool) {
        state.withLock {
            if isOutput {
                output.append(data)
                outputEnded = outputEnded || data.isEmpty
            } else {
                errors.append(data)
                errorsEnded = errorsEnded || data.isEmpty
            }
            state.broadcast()
        }
    }

    /// Runs `sculpt` to its end: its exit status, and all it wrote to standard output and
    /// standard error.
    static func run(_ arguments: [String], in folder: URL = Paths.packageRoot, executable: URL? = nil) async throws -> (status: Int32, output: String, errors: String) {
        let command = try CommandProcess(arguments, in: folder, executable: executable)
        let status = await command.exit()
        return (status, command.standardOutput, command.standardError)
    }

    /// What it has written to standard output so far.
    var standardOutput: String { state.withLock { String(decoding: output, as: UTF8.self) } }
    /// What it has written to standard error so far.
    var standardError: String { state.withLock { String(decoding: errors, as: UTF8.self) } }

    /// Waits until standard output has a line containing `text`, and returns that line.
    ///
    /// - Throws: when the output ends without one (the test records what it held instead), or
    ///   the task is cancelled.
    func line(containing text: String) async throws -> String {
        guard let found = try await lineIfWritten(containing: text) else {
            Issue.record("the output ended with no line containing \"\(text)\"; output:\n\(standardOutput)\nerrors:\n\(standardError)")
            throw CancellationError()
        }
        return found
    }

    /// Waits until standard output has a line containing `text` and returns it, or until the
    /// output ends without one and returns `nil`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    func lineIfWritten(containing text: String) async throws -> String? {
        let found: String?? = await wait {
            let lines = String(decoding: self.output, as: UTF8.self).split(separator: "\n")
            if let line = lines.first(where: { $0.contains(text) }) { return .some(String(line)) }
            return self.outputEnded ? .some(nil) : nil
        }
        guard let found else { throw CancellationError() }
        return found
    }

    /// Sends `signal` (SIGINT, SIGTERM).
    func send(_ signal: Int32) {
        process.send(signal)
    }

    /// Waits for the process to end and for both of its pipes to be read to their ends, and
    /// returns its exit status, or the signal that ended it (-1 when the waiting task is cancelled
    /// first).
    func exit() async -> Int32 {
        await wait { self.outputEnded && self.errorsEnded ? self.status : nil } ?? -1
    }

    /// Waits, off Swift's cooperative pool, until `value` (read under the lock) is not `nil`;
    /// `nil` when the waiting task is cancelled first, which also ends the process.
    private func wait<Value: Sendable>(for value: @escaping @Sendable () -> Value?) async -> Value? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (result: CheckedContinuation<Value?, Never>) in
                Thread { [state] in
                    result.resume(returning: state.withLock {
                        var found = value()
                        while found == nil, !self.abandoned {
                            state.wait()
                            found = value()
                        }
                        return found
                    })
                }.start()
            }
        } onCancel: {
            process.send(SIGTERM)
            state.withLock {
                abandoned = true
                state.broadcast()
            }
        }
    }
}

/// A pipe for a child process's output whose ends are closed in every process this one starts
/// (close-on-exec), so that only the child it is given to can keep it from ending.
struct ChildPipe {
    let reading: FileHandle
    let writing: FileHandle

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        reading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        writing = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    }

    /// Reads the pipe to its end, blocking (call it on a thread of its own), handing each chunk to
    /// `take` and then empty data for the end.
    func readToEnd(_ take: (Data) -> Void) {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(reading.fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            take(Data(chunk[..<count]))
        }
        take(Data())
    }
}
