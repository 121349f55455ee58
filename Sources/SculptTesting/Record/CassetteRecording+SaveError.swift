import Foundation
import SculptShared

extension CassetteRecording {
    /// A cassette file that could not be written: which file, and why, as the system says it.
    ///
    /// ```swift
    /// do { try recording.save() } catch let error as CassetteRecording.SaveError { print(error) }
    /// // the cassette /tmp/cassettes/issues.json could not be written: Is a directory
    /// ```
    public struct SaveError: Error, Sendable, CustomStringConvertible {
        /// The file that was to be written.
        public var file: URL
        /// Why it could not be, such as `Is a directory` or `Permission denied`.
        public var reason: String

        /// Creates the error.
        /// - Parameters:
        ///   - file: the file that was to be written.
        ///   - reason: why it could not be.
        public init(file: URL, reason: String) {
            self.file = file
            self.reason = reason
        }

        /// The error `file` could not be written with, in the system's words: the POSIX error
        /// under Foundation's, where there is one, else what the file system shows (a file where
        /// a folder on its path should be, a folder where the file should be).
        init(file: URL, writing error: any Error) {
            let error = error as NSError
            let underlying = (error.userInfo[NSUnderlyingErrorKey] as? NSError) ?? error
            if underlying.domain == NSPOSIXErrorDomain {
                self.init(file: file, reason: String(cString: strerror(Int32(underlying.code))))
            } else {
                self.init(file: file, reason: Self.posixCode(blocking: file).map { String(cString: strerror($0)) } ?? underlying.localizedDescription)
            }
        }

        /// The POSIX error that the file system's state gives writing `file`: `EISDIR` for a folder
        /// in its place, `ENOTDIR` for a file where a folder on its path should be; `nil` for
        /// neither.
        private static func posixCode(blocking file: URL) -> Int32? {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), isFolder.boolValue { return EISDIR }
            var folder = file.deletingLastPathComponent()
            while folder.pathComponents.count > 1 {
                if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) { return isFolder.boolValue ? nil : ENOTDIR }
                folder = folder.deletingLastPathComponent()
            }
            return nil
        }

        /// Which file, and why.
        public var description: String {
            ShownText.line("the cassette \(ClippedText.value(file.path, limit: 1_024)) could not be written: \(reason)", limit: 2_048)
        }
    }
}
