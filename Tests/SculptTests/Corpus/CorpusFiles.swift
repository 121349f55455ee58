import Foundation

/// Files of the corpus (``Paths/corpus``: the shared one, else the package's subset) read by the
/// corpus tests.
enum CorpusFiles {
    /// The `.json` files of a corpus folder (recursively), sorted, without its `index.json`.
    static func json(in folder: String) -> [(name: String, data: Data)] {
        let root = Paths.corpus.appending(path: folder)
        guard let names = FileManager.default.subpaths(atPath: root.path) else { return [] }
        return names.filter { $0.hasSuffix(".json") && $0 != "index.json" }.sorted().compactMap { name in
            (try? Data(contentsOf: root.appending(path: name))).map { (name, $0) }
        }
    }

    /// The file names in a corpus folder, sorted.
    static func names(in folder: String) -> [String] {
        let root = Paths.corpus.appending(path: folder)
        return ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()
    }

    /// A folder's `index.json` as an array of objects.
    static func index(of folder: String) -> [[String: Any]] {
        guard let data = try? Data(contentsOf: Paths.corpus.appending(path: "\(folder)/index.json")) else { return [] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
    }
}
