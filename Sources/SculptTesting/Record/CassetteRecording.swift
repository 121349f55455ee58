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
/// interaction once, in order). A request the cassette lacks is sent by a ``FixtureRecorder``
/// (secrets redacted before anything is kept) when the mode records, and is a
/// ``FixtureReplay/MissError`` when it does not. Give the cassette's path in the source tree, not a
/// bundle resource: a bundle is a copy that recording would not update.
public final class CassetteRecording: Sendable {
    /// The cassette file read and written.
    public let file: URL
    /// The mode in use, resolved when the recording was made (see ``RecordMode/resolved(preferring:environment:)``).
    public let mode: RecordMode
    /// The interactions replayed: the cassette's, or none when the mode records everything.
    public let replay: FixtureReplay
    /// What was replayed from the cassette when it was opened (kept by ``save()`` in
    /// ``RecordMode/newEpisodes``).
    private let existing: [Fixture]
    /// Sends and records what the cassette lacks; `nil` when the mode never records.
    private let recorder: FixtureRecorder?

    /// Opens the cassette at `file` in `mode` (``RecordMode/resolved(preferring:environment:)``
    /// decides, `SCULPT_RECORD_MODE` first).
    ///
    /// - Parameters:
    ///   - file: the cassette's file, read when it exists and written by ``save()``.
    ///   - mode: the mode wanted in code; `SCULPT_RECORD_MODE` overrides it, and without either
    ///     the mode is replay-only in CI and once elsewhere.
    ///   - options: how requests match recorded ones.
    ///   - redaction: what is replaced before a recording is kept.
    ///   - configuration: the configuration of the session that sends recorded requests
    ///     (headers, timeouts).
    /// - Throws: ``RecordMode/InvalidNameError`` for a `SCULPT_RECORD_MODE` that names no mode;
    ///   ``MissingCassetteError`` in ``RecordMode/replayOnly`` when the file does not exist; the file
    ///   system's error or ``Fixture/FormatError`` when it cannot be read.
    public init(
        file: URL, mode: RecordMode? = nil, options: FixtureReplay.Options = .init(), redaction: Redaction = Redaction(),
        configuration: URLSessionConfiguration = .ephemeral
    ) throws {
        let mode = try RecordMode.resolved(preferring: mode)
        let exists = FileManager.default.fileExists(atPath: file.path)
        if mode == .replayOnly, !exists { throw MissingCassetteError(file: file) }
        let existing = exists && mode != .all ? try Cassette(contentsOf: file).interactions : []
        let records = mode == .all || mode == .newEpisodes || (mode == .once && !exists)
        let recorder = records ? FixtureRecorder(configuration: configuration, redaction: redaction) : nil
        self.file = file
        self.mode = mode
        self.existing = existing
        self.recorder = recorder
        self.replay = FixtureReplay(existing, options: options, recorder: recorder)
    }

    /// A session whose requests this recording answers or records.
    ///
    /// - Parameter configuration: the session's configuration; the recording's `URLProtocol` is
    ///   put first among its protocol classes.
    public func makeSession(configuration: URLSessionConfiguration = .ephemeral) -> URLSession {
        replay.makeSession(configuration: configuration)
    }

    /// Whether requests the cassette lacks are sent to the network and recorded.
    public var records: Bool { recorder != nil }

    /// The interactions recorded in this run, secrets redacted, in the order they finished.
    public var recordedInteractions: [Fixture] {
        recorder?.interactions ?? []
    }

    /// Writes the cassette when this run recorded something: the recorded interactions after the
    /// cassette's own in ``RecordMode/newEpisodes``, the recorded ones alone otherwise. Folders
    /// on the way are made; the file is replaced whole.
    ///
    /// - Returns: whether the file was written.
    /// - Throws: the file system's error.
    @discardableResult
    public func save() throws -> Bool {
        let recorded = recordedInteractions
        guard !recorded.isEmpty else { return false }
        let interactions = mode == .newEpisodes ? existing + recorded : recorded
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Cassette(interactions).encoded().write(to: file, options: .atomic)
        return true
    }

    /// A cassette that replay-only mode cannot do without.
    public struct MissingCassetteError: Error, Sendable, CustomStringConvertible {
        /// The file that does not exist.
        public var file: URL

        /// Which file, and how to record it.
        public var description: String {
            "no cassette at \(PrintableText.value(file.path, limit: 1_024)) and the record mode is replay-only; "
                + "record it with \(RecordMode.environmentVariable)=once"
        }
    }
}
