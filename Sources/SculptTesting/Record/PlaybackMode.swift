public import Foundation
import SculptShared

/// What a ``CassetteRecording`` does with a request its cassette lacks, and whether it reads the
/// cassette at all; beside ``RecordMode``, which says what is written.
///
/// | mode | a request the cassette has | a request it lacks |
/// |---|---|---|
/// | ``strict`` | replayed | recorded when the record mode records; else a ``FixtureReplay/MissError`` |
/// | ``passthrough`` | replayed | sent to the network; kept when the record mode records |
/// | ``live`` | sent to the network | sent to the network |
///
/// ``live`` neither reads nor writes the cassette: it runs the tests against the real API.
public enum PlaybackMode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A request the cassette lacks fails the test, unless the record mode records it. The default.
    case strict
    /// A request the cassette lacks goes to the network.
    case passthrough
    /// The cassette is ignored: every request goes to the network, and nothing is written.
    case live

    /// The environment variable that chooses the mode for every recording, over the mode given in
    /// code: `SCULPT_PLAYBACK_MODE=live swift test` runs every test against the real API.
    public static let environmentVariable = "SCULPT_PLAYBACK_MODE"

    /// The mode a recording uses: `SCULPT_PLAYBACK_MODE` when set, else `preferred`, else ``strict``.
    ///
    /// ```swift
    /// let mode = try PlaybackMode.resolved(preferring: .passthrough)
    /// ```
    /// - Parameters:
    ///   - preferred: the mode the code asks for, when the environment names none.
    ///   - environment: the environment to read `SCULPT_PLAYBACK_MODE` from; the process's by default.
    /// - Returns: the mode.
    /// - Throws: ``InvalidNameError`` when `SCULPT_PLAYBACK_MODE` names no mode.
    public static func resolved(
        preferring preferred: PlaybackMode? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(InvalidNameError) -> PlaybackMode {
        if let name = environment[environmentVariable], !name.isEmpty {
            guard let mode = PlaybackMode(rawValue: ASCII.lowercased(name)) else { throw InvalidNameError(name: name) }
            return mode
        }
        return preferred ?? .strict
    }

    /// The mode's name, as `SCULPT_PLAYBACK_MODE` spells it: `strict`, `passthrough`, `live`.
    public var description: String { rawValue }

    /// A `SCULPT_PLAYBACK_MODE` value that names no mode.
    public struct InvalidNameError: Error, Sendable, CustomStringConvertible {
        /// The value found.
        public var name: String

        /// What was found and what would be read.
        public var description: String {
            let modes = PlaybackMode.allCases.map(\.rawValue).joined(separator: ", ")
            return ShownText.line("\(PlaybackMode.environmentVariable)=\"\(ClippedText.value(name, limit: 64))\" names no playback mode; use one of \(modes)", limit: 1_024)
        }
    }
}
