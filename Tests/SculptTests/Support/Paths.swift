import Foundation

/// Where the package's own fixtures and the shared corpus live, from this file's location.
enum Paths {
    static let packageRoot = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let fixtures = packageRoot.appending(path: "Tests/Fixtures")

    /// The full corpus, checked out beside the repository, when present (developer machines and
    /// CI); else the attributed subset of it in `Tests/Fixtures/corpus`, so that a user's clone
    /// runs every corpus suite too (see Tests/Fixtures/README.md).
    static let corpus: URL = sharedCorpus ?? fixtures.appending(path: "corpus")

    /// Whether ``corpus`` is the whole shared corpus rather than the subset kept in the package.
    static let corpusIsShared = sharedCorpus != nil

    private static let sharedCorpus: URL? = {
        let corpus = packageRoot.deletingLastPathComponent().appending(path: "shared/corpus")
        return FileManager.default.fileExists(atPath: corpus.path) ? corpus : nil
    }()
}
