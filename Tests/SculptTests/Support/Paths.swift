import Foundation

/// Where the package's own fixtures and the shared corpus live, from this file's location.
enum Paths {
    static let packageRoot = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let fixtures = packageRoot.appending(path: "Tests/Fixtures")

    /// `../shared/corpus` beside the checkout, when present (developer machines and CI; not a user's clone).
    static let corpus: URL? = {
        let corpus = packageRoot.deletingLastPathComponent().appending(path: "shared/corpus")
        return FileManager.default.fileExists(atPath: corpus.path) ? corpus : nil
    }()
}
