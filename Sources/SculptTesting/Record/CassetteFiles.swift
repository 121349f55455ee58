import Foundation

/// The cassette files written in this process, so that recordings of one file add up instead of
/// replacing one another: two tests recording one cassette, or the cases of one parameterized
/// test, each save, and the file ends holding every interaction, in the order the saves came.
final class CassetteFiles: @unchecked Sendable {
    /// The registry of the process.
    static let shared = CassetteFiles()

    /// What this process has written to one file.
    private struct Written {
        /// What the file starts with: the cassette as it was opened, in new-episodes mode.
        var base: [Fixture]
        /// What recordings of this process saved, in order.
        var recorded: [Fixture] = []
        /// What the file held before this process first wrote it.
        var original: [Fixture]
        /// Whether a run that stopped early saved: the original's interactions that no recording
        /// replaces are kept, after the recorded ones.
        var keepsOriginal = false
    }

    private let lock = NSLock()
    /// What each file (by standardized path) holds, as this process wrote it.
    private var written: [String: Written] = [:]
    /// Whether each file opened in this process existed when it was first opened.
    private var existedAtFirstOpening: [String: Bool] = [:]

    /// Whether `file` existed when a recording first opened it in this process: a cassette that
    /// was missing then is still being recorded, however many tests have saved to it since.
    func existedAtFirstOpening(_ file: URL, existsNow: Bool) -> Bool {
        let key = file.standardizedFileURL.path
        return lock.withLock {
            if let existed = existedAtFirstOpening[key] { return existed }
            existedAtFirstOpening[key] = existsNow
            return existsNow
        }
    }

    /// Writes `file`, atomically, under the lock: `base` (at the first write of the process), every
    /// interaction recordings of this process saved to it with `added` after them, and, once any
    /// save was `keepingOriginal`, the interactions the file held before this process wrote it
    /// that no recorded one replaces (matches, by `options`, each once). Returns where `added` lies
    /// in the file; throws ``RecordingFileError`` when the file cannot be written.
    func write(_ file: URL, adding added: [Fixture], base: [Fixture], keepingOriginal: Bool, options: FixtureReplay.Options) throws -> Range<Int> {
        let key = file.standardizedFileURL.path
        return try lock.withLock {
            var state = written[key] ?? Written(base: base, original: (try? Cassette(contentsOf: file).interactions) ?? [])
            state.recorded += added
            state.keepsOriginal = state.keepsOriginal || keepingOriginal
            // A base holds the original already (new-episodes mode keeps what it opened).
            let kept = state.keepsOriginal && state.base.isEmpty ? Self.unreplaced(state.original, by: state.recorded, options) : []
            do {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Cassette(state.base + state.recorded + kept).encoded().write(to: file, options: .atomic)
            } catch {
                throw RecordingFileError(writing: file, failure: error)
            }
            written[key] = state
            let end = state.base.count + state.recorded.count
            return (end - added.count)..<end
        }
    }

    /// The interactions of `original` that none of `recorded` replaces: each recorded interaction
    /// replaces the first one left whose request it matches.
    private static func unreplaced(_ original: [Fixture], by recorded: [Fixture], _ options: FixtureReplay.Options) -> [Fixture] {
        guard !original.isEmpty else { return [] }
        let replacements = FixtureReplay(recorded, options: options)
        return original.filter { (try? replacements.response(for: $0.request)) == nil }
    }
}
