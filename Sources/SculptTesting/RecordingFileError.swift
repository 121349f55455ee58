import SculptShared

/// A file or folder of recordings that could not be used: it does not exist, cannot be read, or
/// holds no recording at all.
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
}
