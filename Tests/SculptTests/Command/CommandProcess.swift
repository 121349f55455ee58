import Foundation
import Testing

/// The built `sculpt` command run as a user runs it: a subprocess, its output read as it comes.
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

    private let process = Process()
    private let lock = NSLock()
    private var output = Data()
    private var errors = Data()
    /// How many of the two pipes have been read to their end.
    private var pipesEnded = 0

    /// Starts `sculpt` with `arguments` in `folder` (the package root by default).
    init(_ arguments: [String], in folder: URL = Paths.packageRoot) throws {
        let executable = try #require(Self.executable, "sculpt is built with the tests (swift build --build-tests)")
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }  // the end: no more calls
            self?.lock.withLock {
                self?.output.append(data)
                if data.isEmpty { self?.pipesEnded += 1 }
            }
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }  // the end: no more calls
            self?.lock.withLock {
                self?.errors.append(data)
                if data.isEmpty { self?.pipesEnded += 1 }
            }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Runs `sculpt` to its end: its exit status, standard output and standard error.
    static func run(_ arguments: [String], in folder: URL = Paths.packageRoot, timeout: Duration = .seconds(60)) async throws -> (status: Int32, output: String, errors: String) {
        let command = try CommandProcess(arguments, in: folder)
        let status = try await command.exit(within: timeout)
        return (status, command.standardOutput, command.standardError)
    }

    /// What it has written to standard output so far.
    var standardOutput: String { lock.withLock { String(decoding: output, as: UTF8.self) } }
    /// What it has written to standard error so far.
    var standardError: String { lock.withLock { String(decoding: errors, as: UTF8.self) } }

    /// Waits until standard output has a line containing `text`, and returns that line.
    func line(containing text: String, within timeout: Duration = .seconds(30)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = standardOutput.split(separator: "\n").first(where: { $0.contains(text) }) { return String(line) }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("no line containing \"\(text)\" within \(timeout); output:\n\(standardOutput)\nerrors:\n\(standardError)")
        throw CancellationError()
    }

    /// Sends `signal` (SIGINT, SIGTERM).
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end and returns its exit status.
    func exit(within timeout: Duration = .seconds(30)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard !process.isRunning else {
            process.terminate()
            Issue.record("sculpt did not end within \(timeout); output:\n\(standardOutput)")
            throw CancellationError()
        }
        process.waitUntilExit()
        // The pipes may still hold the last lines (300 KB of them, on a loaded machine): read on
        // to both ends, for as long as a few seconds.
        let drained = ContinuousClock.now + .seconds(10)
        while lock.withLock({ pipesEnded }) < 2, ContinuousClock.now < drained {
            try await Task.sleep(for: .milliseconds(10))
        }
        return process.terminationStatus
    }
}
