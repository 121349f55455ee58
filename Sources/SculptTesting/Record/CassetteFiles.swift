import Foundation

/// The cassette files written in this process, so that recordings of one file add up instead of
/// replacing one another: two tests recording one cassette, or the cases of one parameterized
/// test, each save, and the file ends holding every interaction, in the order the saves came.
final class CassetteFiles: @unchecked Sendable {
    /// The registry of the process.
    static let shared = CassetteFiles()

    private let lock = NSLock()
    /// What each file (by standardized path) holds, as this process last wrote it.
    private var written: [String: [Fixture]] = [:]
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

    /// Writes the cassette `make` returns to `file`, atomically, under the lock: `make` gets what
    /// this process last wrote to the file, or `nil` when it has not written it.
    func write(_ file: URL, _ make: ([Fixture]?) -> Cassette) throws {
        let key = file.standardizedFileURL.path
        try lock.withLock {
            let cassette = make(written[key])
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try cassette.encoded().write(to: file, options: .atomic)
            written[key] = cassette.interactions
        }
    }
}
