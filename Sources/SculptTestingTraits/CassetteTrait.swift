public import Foundation
public import Testing
public import SculptTesting
import SculptShared

/// A Swift Testing trait that gives each test its own replay of a cassette: the test's requests
/// are answered from the cassette (or recorded into it, by the `RecordMode`), and
/// at the end the recording is saved and every interaction must have been used.
///
/// ```swift
/// @Test(.cassette("issues"))
/// func listsIssues() async throws {
///     let session = try #require(CassetteRecording.current).session
///     let issues = try await session.model(from: issuesURL, serializer: serializer, as: [Issue].self)
///     #expect(issues.count == 30)
/// }
/// ```
///
/// The cassette is `Cassettes/issues.json` in the folder of the file that wrote the trait. Each
/// test, and each case of a parameterized test, gets a replay of its own, so tests running in
/// parallel never see one another's interactions. The code under test reaches the replaying
/// session through `CassetteRecording.current`, or the test hands it over.
///
/// On a suite, or on a parameterized test, every test and case gets its own replay of the whole
/// cassette, and an interaction that none of them used fails the suite or the test: tests that
/// make different requests can share one cassette. The Recorded tests guide (RecordedTests.md)
/// says what a recording run keeps when a test throws or cases make the same request.
public struct CassetteTrait: TestTrait, SuiteTrait, TestScoping {
    /// The cassette's name, a path relative to ``folder`` (`.json` added unless it ends in it).
    public var name: String
    /// The folder the cassette is in: relative to the folder of the file that wrote the trait, or
    /// absolute.
    public var folder: String
    /// The record mode wanted; `SCULPT_RECORD_MODE` overrides it.
    public var mode: RecordMode?
    /// The playback mode wanted; `SCULPT_PLAYBACK_MODE` overrides it.
    public var playback: PlaybackMode?
    /// How requests match recorded ones.
    public var options: FixtureReplay.Options
    /// What is replaced before a recording is kept.
    public var redaction: Redaction
    /// Whether a test that leaves an interaction of the cassette unused fails.
    public var verifiesAllUsed: Bool
    /// The file that wrote the trait: the cassette's folder is found from it.
    public var filePath: String
    /// Where the trait was written: an unused interaction is reported there.
    public var sourceLocation: SourceLocation

    /// The trait applies to every test of a suite it is written on.
    public var isRecursive: Bool { true }

    /// The cassette file the trait reads and writes: ``name`` in ``folder``, with `.json` added
    /// unless the name ends in it.
    ///
    /// - Returns: the file.
    /// - Throws: ``NameError`` when ``name`` is empty or absolute, or has a segment that is empty
    ///   or starts with `.` (`..`, `.`, a hidden file).
    public func file() throws(NameError) -> URL {
        let segments = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !segments.contains(where: { $0.isEmpty || $0.hasPrefix(".") }), !name.contains("\0") else {
            throw NameError(name: name)
        }
        let base = folder.hasPrefix("/")
            ? URL(filePath: folder, directoryHint: .isDirectory)
            : URL(filePath: filePath).deletingLastPathComponent().appending(path: folder, directoryHint: .isDirectory)
        return base.appending(path: name.lowercased().hasSuffix(".json") ? name : name + ".json")
    }

    /// The trait scopes suites and test functions as well as test cases: the outermost scope of
    /// a cassette checks that its interactions were used, by any of the tests and cases within.
    ///
    /// - Parameters:
    ///   - test: the test or suite.
    ///   - testCase: the test case, or `nil` for a suite or a test function.
    /// - Returns: this trait.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> CassetteTrait? { self }

    /// For a test case, opens the cassette, runs the test with the recording as
    /// `CassetteRecording.current`, saves what was recorded, and reports a request the cassette
    /// had no answer for that the test went on past; for the outermost suite or test function of
    /// a cassette, reports the interactions that none of its test cases used.
    ///
    /// - Parameters:
    ///   - test: the test (or suite) being run.
    ///   - testCase: the test case, or `nil` for a suite or a test function.
    ///   - function: the test.
    /// - Throws: what the test throws; ``NameError``; `CassetteRecording.MissingCassetteError`
    ///   (with the command that records it) when the cassette is missing in replay-only mode; the
    ///   recording's other errors.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let file = try file()
        let key = file.standardizedFileURL.path
        guard testCase != nil else {
            // An enclosing scope of the same cassette checks for all of its tests.
            guard CassetteLedger.current[key] == nil else { return try await function() }
            let ledger = CassetteLedger(scope: test.id)
            let thrown = await Self.error { try await CassetteLedger.$current.withValue(CassetteLedger.current.merging([key: ledger]) { $1 }) { try await function() } }
            // A test that threw left unused what it did not reach: its failure is the news.
            if thrown == nil, !ledger.someCaseThrew { report(ledger.unused()) }
            if let thrown { throw thrown }
            return
        }
        let ledger = CassetteLedger.current[key]
        let opening: CassetteLedger.Opening?
        let recording: CassetteRecording
        do {
            let open = { try CassetteRecording(file: file, mode: mode, playback: playback, options: options, redaction: redaction) }
            opening = try ledger?.open(open)
            recording = try opening?.recording ?? open()
        } catch var error as CassetteRecording.MissingCassetteError {
            // The scope that shares the cassette is recorded whole: a suite's every test.
            let scope = ledger?.scope ?? test.id
            error.test = Self.filterPattern(scope.moduleName + "." + scope.nameComponents.joined(separator: "/"))
            throw error
        }
        // The recording is saved and checked whether or not the test throws: what it recorded is
        // real traffic, and an unused interaction is worth knowing beside a failure.
        let thrown = await Self.error { try await CassetteRecording.$current.withValue(recording) { try await function() } }
        recording.session.finishTasksAndInvalidate()
        do {
            // A test that threw keeps the recorded answers to the requests it did not reach.
            let conflicting = if let ledger, let opening {
                try ledger.save(opening, keepingUnreplaced: thrown != nil)
            } else {
                try recording.save(keepingUnreplaced: thrown != nil, answeredBy: []).conflicting
            }
            if !conflicting.isEmpty {
                let requests = ClippedText.list(conflicting.lazy.map { "\($0.request.method.rawValue) \($0.request.url.path(percentEncoded: true))" }, limit: 1_024)
                Issue.record(Comment(rawValue: ShownText.line(
                    "cassette \(name): the tests or cases that share it recorded \(requests) with other responses than the one before them; a replay answers each with the first: give the requests something that tells them apart (a query, a header the replay matches) or each test or case a cassette of its own",
                    limit: 4_096, policy: redaction.policy)), sourceLocation: sourceLocation)
            }
        } catch {
            // The test's own failure is the one to report; the save's is told beside it.
            guard let thrown else { throw error }
            Issue.record(Comment(rawValue: ShownText.line("cassette \(name) was not saved: \(error)", limit: 4_096, policy: redaction.policy)), sourceLocation: sourceLocation)
            throw thrown
        }
        // A request the cassette has no answer for fails the test, even when the code under test
        // caught the error its session gave.
        let missed = recording.replay.failed
        if thrown == nil, let miss = missed.first {
            let others = missed.count > 1 ? " (and \(missed.count - 1) more)" : ""
            Issue.record(Comment(rawValue: ShownText.line("cassette \(name): a request had no recorded answer\(others), and the test went on: \(miss)", limit: 8_192, policy: redaction.policy)), sourceLocation: sourceLocation)
        }
        if recording.playback != .live {
            if let ledger {
                ledger.add(recording, threw: thrown != nil)
            } else if thrown == nil {
                // A scope given a test case directly, with no scope around it.
                let ledger = CassetteLedger(scope: test.id)
                ledger.add(recording, threw: false)
                report(ledger.unused())
            }
        }
        if let thrown { throw thrown }
    }

    /// Records an issue for unused interactions, where the trait was written, unless told not to.
    private func report(_ unused: FixtureReplay.UnusedInteractionsError?) {
        guard verifiesAllUsed, let unused else { return }
        Issue.record(Comment(rawValue: ShownText.line("cassette \(name): \(unused)", limit: 8_192, policy: redaction.policy)), sourceLocation: sourceLocation)
    }

    /// `name` as a `swift test --filter` pattern that matches it alone: regular expression
    /// characters escaped (`/` is not one).
    static func filterPattern(_ name: String) -> String {
        var pattern = ""
        for character in name {
            if "\\^$.|?*+()[]{}".contains(character) { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern
    }

    /// What `body` throws, or `nil`.
    private static func error(_ body: () async throws -> Void) async -> (any Error)? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    /// A cassette name that would leave its folder or names no file.
    public struct NameError: Error, Sendable, CustomStringConvertible {
        /// The name given.
        public var name: String

        /// What is wrong and what to write.
        public var description: String {
            ShownText.line(
                "the cassette name \"\(ClippedText.value(name, limit: 256))\" names no file in the cassette folder: "
                    + "write a relative path whose segments are not empty and do not start with a dot, such as \"github/issues\"", limit: 1_024)
        }
    }
}

extension Trait where Self == CassetteTrait {
    /// Replays the cassette `name` for each test (recording it by the record mode), then checks
    /// that every interaction was used.
    ///
    /// ```swift
    /// @Test(.cassette("issues", matching: [.methodAndPath, .query, .headers(.accept)]))
    /// func listsIssues() async throws { ... }
    /// ```
    /// - Parameters:
    ///   - name: the cassette's name, a relative path in `folder` (`.json` added unless it ends in it).
    ///   - folder: the folder of cassettes: relative to the folder of this source file, or
    ///     absolute. Default: `Cassettes`.
    ///   - mode: the record mode; `SCULPT_RECORD_MODE` overrides it; without either, replay-only
    ///     in CI and once elsewhere.
    ///   - playback: the playback mode; `SCULPT_PLAYBACK_MODE` overrides it; without either, strict.
    ///   - matching: what a request must share with a recorded one; method, path and query by default.
    ///   - repeatsLastResponse: whether the last response of a used-up sequence is served again.
    ///   - redaction: what is replaced before a recording is kept.
    ///   - verifiesAllUsed: whether an interaction that no test or case under the trait used fails
    ///     the test (or the suite).
    ///   - filePath: the source file; leave the default.
    ///   - fileID: the source file's identifier; leave the default.
    ///   - line: the line; leave the default.
    ///   - column: the column; leave the default.
    /// - Returns: the trait.
    public static func cassette(
        _ name: String, in folder: String = "Cassettes", mode: RecordMode? = nil, playback: PlaybackMode? = nil,
        matching: [RequestMatching] = RequestMatching.default, repeatsLastResponse: Bool = false, redaction: Redaction = Redaction(),
        verifiesAllUsed: Bool = true,
        filePath: String = #filePath, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> CassetteTrait {
        CassetteTrait(
            name: name, folder: folder, mode: mode, playback: playback,
            options: FixtureReplay.Options(matching: matching, repeatsLastResponse: repeatsLastResponse), redaction: redaction,
            verifiesAllUsed: verifiesAllUsed, filePath: filePath,
            sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}
