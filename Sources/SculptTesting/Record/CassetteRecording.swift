public import Foundation
import SculptShared
import Sculpt
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A cassette file that a test's requests replay from or record into, by ``RecordMode``: record
/// once against the real API, then replay in every run after, never touching the network in CI.
///
/// ```swift
/// let recording = try CassetteRecording(file: URL(filePath: #filePath).deletingLastPathComponent()
///     .appending(path: "Cassettes/user.json"))
/// let session = recording.makeSession()
/// let user = try await session.model(from: url, serializer: serializer, as: User.self)
/// try recording.save()   // writes the cassette when something was recorded
/// ```
///
/// Requests are replayed as ``FixtureReplay`` replays them (same method, path and query, each
/// interaction once, in order, unless the options say otherwise). What happens to a request the
/// cassette lacks is the ``PlaybackMode``'s to say: by default it is sent by a ``FixtureRecorder``
/// (secrets redacted before anything is kept) when the record mode records, and is a
/// ``FixtureReplay/MissError`` when it does not. Give the cassette's path in the source tree, not a
/// bundle resource: a bundle is a copy that recording would not update.
///
/// In a Swift Testing test, the `.cassette("name")` trait of `SculptTestingTraits` makes the
/// recording, saves it, and checks that every interaction was used; the code under test finds it
/// in ``current``.
public final class CassetteRecording: Sendable {
    /// The recording of the running test, set by the `.cassette` trait for the test's duration;
    /// `nil` outside one.
    ///
    /// ```swift
    /// let client = GitHubClient(session: CassetteRecording.current?.session ?? .shared)
    /// ```
    @TaskLocal public static var current: CassetteRecording?

    /// The cassette file read and written.
    public let file: URL
    /// The mode in use, resolved when the recording was made (see ``RecordMode/resolved(preferring:environment:)``).
    public let mode: RecordMode
    /// The playback mode in use, resolved when the recording was made (see
    /// ``PlaybackMode/resolved(preferring:environment:)``).
    public let playback: PlaybackMode
    /// The interactions replayed: the cassette's, or none when the mode records everything or the
    /// playback is live.
    public let replay: FixtureReplay
    /// A session, made once, whose requests this recording answers or records.
    public let session: URLSession
    /// What was replayed from the cassette when it was opened (kept by ``save()`` in
    /// ``RecordMode/newEpisodes``).
    private let existing: [Fixture]
    /// Whether ``replay`` holds the file as it was when opened: not in ``RecordMode/all`` mode or
    /// live playback, nor when there was no file.
    package let replaysFile: Bool
    /// Sends what the cassette lacks; `nil` when nothing may reach the network.
    private let recorder: FixtureRecorder?
    /// Whether what the recorder sends is kept and written.
    public let records: Bool

    /// Opens the cassette at `file` in `mode` and `playback` (the environment's
    /// `SCULPT_RECORD_MODE` and `SCULPT_PLAYBACK_MODE` first).
    ///
    /// ```swift
    /// let recording = try CassetteRecording(file: cassettes.appending(path: "issues.json"), playback: .passthrough)
    /// ```
    /// - Parameters:
    ///   - file: the cassette's file, read when it exists and written by ``save()``.
    ///   - mode: the record mode wanted in code; `SCULPT_RECORD_MODE` overrides it, and without
    ///     either the mode is replay-only in CI and once elsewhere.
    ///   - playback: the playback mode wanted in code; `SCULPT_PLAYBACK_MODE` overrides it, and
    ///     without either it is ``PlaybackMode/strict``.
    ///   - options: how requests match recorded ones.
    ///   - redaction: what is replaced before a recording is kept.
    ///   - configuration: the configuration of the session that sends requests to the network
    ///     (headers, timeouts).
    /// - Throws: ``RecordMode/InvalidNameError`` or ``PlaybackMode/InvalidNameError`` for an
    ///   environment variable that names no mode; ``MissingCassetteError`` in
    ///   ``RecordMode/replayOnly`` and ``PlaybackMode/strict`` when the file does not exist; the
    ///   file system's error or ``Fixture/FormatError`` when it cannot be read.
    public init(
        file: URL, mode: RecordMode? = nil, playback: PlaybackMode? = nil, options: FixtureReplay.Options = .init(),
        redaction: Redaction = Redaction(), configuration: URLSessionConfiguration = .ephemeral
    ) throws {
        let mode = try RecordMode.resolved(preferring: mode)
        let playback = try PlaybackMode.resolved(preferring: playback)
        let exists = FileManager.default.fileExists(atPath: file.path)
        if mode == .replayOnly, playback == .strict, !exists { throw MissingCassetteError(file: file) }
        // In once mode a cassette missing when the process first opened it is still being
        // recorded: a test that opens it after another saved it replays what is there and records
        // what it lacks, as in new-episodes mode.
        let recordsOnce = mode == .once && !CassetteFiles.shared.existedAtFirstOpening(file, existsNow: exists)
        let replaysFile = exists && mode != .all && playback != .live
        let existing = replaysFile ? try Cassette(contentsOf: file).interactions : []
        let records = playback != .live && (mode == .all || mode == .newEpisodes || recordsOnce)
        let recorder = records || playback != .strict ? FixtureRecorder(configuration: configuration, redaction: redaction) : nil
        self.file = file
        self.mode = mode
        self.playback = playback
        self.existing = existing
        self.replaysFile = replaysFile
        self.recorder = recorder
        self.records = records
        self.replay = FixtureReplay(existing, options: options, recorder: recorder, redaction: redaction)
        self.session = replay.makeSession()
    }

    /// A session whose requests this recording answers or records, made from `configuration`.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.ephemeral
    /// configuration.httpAdditionalHeaders = ["User-Agent": "my-app-tests"]
    /// let session = recording.makeSession(configuration: configuration)
    /// ```
    /// - Parameter configuration: the session's configuration; the recording's `URLProtocol` is
    ///   put first among its protocol classes.
    /// - Returns: the session.
    public func makeSession(configuration: URLSessionConfiguration = .ephemeral) -> URLSession {
        replay.makeSession(configuration: configuration)
    }

    /// The interactions recorded in this run to be kept, secrets redacted, in the order they
    /// finished; empty when the record mode does not record.
    public var recordedInteractions: [Fixture] {
        records ? recorder?.interactions ?? [] : []
    }

    /// Writes the cassette when this run recorded something not saved yet: the recorded
    /// interactions after the cassette's own in ``RecordMode/newEpisodes``, the recorded ones
    /// alone otherwise. Folders on the way are made; the file is replaced whole. Saving again
    /// writes only what was recorded since.
    ///
    /// Recordings of one file saved in one process add up: a second recording saved to a file
    /// that a first one wrote in this process adds its interactions after the first's, so two
    /// tests recording one cassette keep both tests' requests (in ``RecordMode/all`` too: the
    /// first recording of the process replaces the file, the others add to it).
    ///
    /// ```swift
    /// try recording.save()
    /// ```
    /// - Returns: whether the file was written.
    /// - Throws: ``RecordingFileError`` when the file cannot be written, saying why.
    @discardableResult
    public func save() throws -> Bool {
        try save(keepingUnreplaced: false, answeredBy: []).wrote
    }

    /// What ``save(keepingUnreplaced:answeredBy:)`` did.
    package struct Saving {
        /// Whether the file was written.
        package var wrote = false
        /// The recorded interactions it wrote.
        package var written: [Fixture] = []
        /// The recorded interactions it left out because `answeredBy` answers their requests,
        /// with other responses than theirs.
        package var conflicting: [Fixture] = []
    }

    /// Saves as ``save()`` does, with two choices for a test run (see the `.cassette` trait):
    /// - `keepingUnreplaced`, for a run that stopped early (a test that threw): the interactions
    ///   the file held before this process wrote it that no recording of the process replaces
    ///   (matches, as the replay matches requests) are kept after the recorded ones, whatever the
    ///   mode and whichever test saved first, so a request the run did not reach keeps its
    ///   recorded answer.
    /// - `answeredBy`: what other cases of one test recorded that this recording's replay did
    ///   not hold. A recorded interaction one of them answers (each answering once: the same
    ///   request, made by both cases) is not written again: on replay every case gets the first,
    ///   so a second copy would never be used. One with another response than the first is a
    ///   conflict, reported.
    package func save(keepingUnreplaced: Bool, answeredBy others: [Fixture]) throws -> Saving {
        try saved.withLock { saved in
            let recorded = recordedInteractions
            // A run that stopped early keeps what the file held, whether or not it recorded
            // anything: the tests that save after it must not write the file without it. With no
            // file and nothing recorded, there is nothing to keep, and no empty cassette is made.
            let keepsFile = keepingUnreplaced && records && FileManager.default.fileExists(atPath: file.path)
            guard recorded.count > saved.count || keepsFile else { return Saving() }
            var outcome = Saving(wrote: true)
            let answering = others.isEmpty ? nil : FixtureReplay(others, options: singleUse)
            for fixture in recorded[saved.count...] {
                guard let twin = try? answering?.response(for: fixture.request) else {
                    outcome.written.append(fixture)
                    continue
                }
                if twin.response.status != fixture.response.status || twin.response.body != fixture.response.body { outcome.conflicting.append(fixture) }
            }
            let positions = try CassetteFiles.shared.write(
                file, adding: outcome.written, base: mode == .newEpisodes ? existing : [], keepingOriginal: keepingUnreplaced, options: singleUse)
            saved.positions.formUnion(positions)
            saved.count = recorded.count
            return outcome
        }
    }

    /// The replay's options with each interaction answering once.
    private var singleUse: FixtureReplay.Options {
        var options = replay.options
        options.repeatsLastResponse = false
        return options
    }


    /// Where in the file the interactions this recording saved are: they were used (they are
    /// this test's own requests) though its replay never answered them.
    package var savedPositions: Set<Int> {
        saved.withLock { $0.positions }
    }

    /// What ``save()`` has written.
    private let saved = Saved()

    /// How many recorded interactions were saved, and at which positions of the file, behind a lock.
    private final class Saved: @unchecked Sendable {
        private let lock = NSLock()
        private var state = (count: 0, positions: Set<Int>())

        func withLock<T>(_ body: (inout (count: Int, positions: Set<Int>)) throws -> T) rethrows -> T {
            try lock.withLock { try body(&state) }
        }
    }

    /// A cassette that replay-only mode cannot do without.
    public struct MissingCassetteError: Error, Sendable, CustomStringConvertible {
        /// The file that does not exist.
        public var file: URL
        /// The test that needs it, when known: the command that records it runs that test alone.
        public var test: String?

        /// Creates the error.
        /// - Parameters:
        ///   - file: the file that does not exist.
        ///   - test: the name of the test that needs it, such as `listsIssues`; `nil` when unknown.
        public init(file: URL, test: String? = nil) {
            self.file = file
            self.test = test
        }

        /// The command that records the cassette: `SCULPT_RECORD_MODE=once swift test`, with
        /// `--filter` and the test's name when it is known.
        public var recordCommand: String {
            // Quoted for a POSIX shell: a `'` in a test's name closes the quote, is escaped, and reopens it.
            let filter = test.map { " --filter '\(ShownText.line($0, limit: 256).replacingOccurrences(of: "'", with: #"'\''"#))'" } ?? ""
            return "\(RecordMode.environmentVariable)=once swift test\(filter)"
        }

        /// Which file, and how to record it.
        public var description: String {
            ShownText.line("no cassette at \(ClippedText.value(file.path, limit: 1_024)) and the record mode is replay-only; record it with \(recordCommand)", limit: 2_048)
        }
    }
}
