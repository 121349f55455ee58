public import Foundation
import SculptShared
import Sculpt

/// When a ``CassetteRecording`` replays its cassette and when it sends requests to the network
/// and records them: the modes VCR users know.
///
/// | mode | cassette exists | cassette missing |
/// |---|---|---|
/// | ``replayOnly`` | replays; a request it lacks is a ``FixtureReplay/MissError`` | an error |
/// | ``once`` | replays; a request it lacks is a miss | records every request |
/// | ``newEpisodes`` | replays; records a request it lacks and adds it | records every request |
/// | ``all`` | records every request, replacing the cassette | records every request |
///
/// Only ``replayOnly`` and ``once`` with a cassette never touch the network. In ``once`` mode, a
/// cassette that was missing when the process first opened it stays open to recording for the
/// rest of the process, as in ``newEpisodes``: every test that records into it keeps its requests.
public enum RecordMode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Replay only; never the network. The default when the `CI` environment variable is set.
    case replayOnly = "replay-only"
    /// Record when the cassette is missing, else replay only. The default elsewhere.
    case once
    /// Replay what the cassette has, record what it lacks.
    case newEpisodes = "new-episodes"
    /// Record everything again.
    case all

    /// The environment variable that chooses the mode for every recording, over the mode given in
    /// code: `SCULPT_RECORD_MODE=all swift test` records every cassette again.
    public static let environmentVariable = "SCULPT_RECORD_MODE"

    /// The mode a recording uses: `SCULPT_RECORD_MODE` when set, else `preferred`, else
    /// ``replayOnly`` when the `CI` environment variable is set (to anything but `false` or `0`),
    /// else ``once``.
    ///
    /// ```swift
    /// let mode = try RecordMode.resolved(preferring: .newEpisodes)
    /// ```
    /// - Parameters:
    ///   - preferred: the mode the code asks for, when the environment names none.
    ///   - environment: the environment to read `SCULPT_RECORD_MODE` from; the process's by default.
    /// - Throws: ``InvalidNameError`` when `SCULPT_RECORD_MODE` names no mode.
    public static func resolved(
        preferring preferred: RecordMode? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(InvalidNameError) -> RecordMode {
        if let name = environment[environmentVariable], !name.isEmpty {
            guard let mode = RecordMode(name: name) else { throw InvalidNameError(name: name) }
            return mode
        }
        if let preferred { return preferred }
        let ci = environment["CI"].map { !["", "false", "0"].contains(ASCII.lowercased($0)) } ?? false
        return ci ? .replayOnly : .once
    }

    /// The mode named `name`, as `SCULPT_RECORD_MODE` spells it (case-insensitive; `none`, VCR's
    /// name, is ``replayOnly``).
    /// - Parameter name: the mode's name.
    public init?(name: String) {
        let name = ASCII.lowercased(name)
        guard let mode = name == "none" ? .replayOnly : RecordMode(rawValue: name) else { return nil }
        self = mode
    }

    /// The mode's name, as `SCULPT_RECORD_MODE` spells it: `replay-only`, `once`, `new-episodes`, `all`.
    public var description: String { rawValue }

    /// A `SCULPT_RECORD_MODE` value that names no mode.
    public struct InvalidNameError: Error, Sendable, CustomStringConvertible {
        /// The value found.
        public var name: String

        /// What was found and what would be read.
        public var description: String {
            let modes = RecordMode.allCases.map(\.rawValue).joined(separator: ", ")
            return ShownText.line("\(RecordMode.environmentVariable)=\"\(ClippedText.value(name, limit: 64))\" names no record mode; use one of \(modes)", limit: 1_024)
        }
    }
}
