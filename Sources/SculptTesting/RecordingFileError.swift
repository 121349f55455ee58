import Foundation
import SculptShared

/// A file or folder of recordings that could not be used: it does not exist, cannot be read or
/// written, or holds no recording at all.
public struct RecordingFileError: Error, Sendable, CustomStringConvertible {
    /// The path as given or found.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    /// Creates the error.
    /// - Parameters:
    ///   - path: the path as given or found.
    ///   - reason: what is wrong with it.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `Fixtures/github: no such file or folder`.
    public var description: String {
        ShownText.line("\(ClippedText.value(path, limit: 1_024)): \(reason)", limit: 5_120)
    }

    /// The error `file` could not be written with, in the system's words (`Not a directory`): the
    /// POSIX error under Foundation's where there is one, else what the file system shows (a
    /// file where a folder on its path should be, a folder where the file should be).
    package init(writing file: URL, failure error: any Error) {
        let error = error as NSError
        let underlying = (error.userInfo[NSUnderlyingErrorKey] as? NSError) ?? error
        let code = underlying.domain == NSPOSIXErrorDomain ? Int32(underlying.code) : Self.posixCode(blocking: file)
        self.init(path: file.path(percentEncoded: false), reason: code.map { "cannot be written: \(String(cString: strerror($0)))" } ?? "cannot be written: \(underlying.localizedDescription)")
    }

    /// The POSIX error that the file system's state gives writing `file`: `EISDIR` for a folder
    /// in its place, `ENOTDIR` for a file where a folder on its path should be; `nil` for neither.
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
}
