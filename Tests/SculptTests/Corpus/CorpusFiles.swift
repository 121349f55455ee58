import Foundation

/// Files of `../shared/corpus` read by the corpus tests; empty when the corpus is absent.
enum CorpusFiles {
    /// The `.json` files of a corpus folder (recursively), sorted, without its `index.json`.
    static func json(in folder: String) -> [(name: String, data: Data)] {
        guard let root = Paths.corpus?.appending(path: folder),
            let names = FileManager.default.subpaths(atPath: root.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") && $0 != "index.json" }.sorted().compactMap { name in
            (try? Data(contentsOf: root.appending(path: name))).map { (name, $0) }
        }
    }

    /// The file names in a corpus folder, sorted.
    static func names(in folder: String) -> [String] {
        guard let root = Paths.corpus?.appending(path: folder) else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()
    }

    /// A folder's `index.json` as an array of objects.
    static func index(of folder: String) -> [[String: Any]] {
        guard let file = Paths.corpus?.appending(path: "\(folder)/index.json"), let data = try? Data(contentsOf: file) else { return [] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
    }
}
