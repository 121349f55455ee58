import Foundation
import SculptShared
import Sculpt
import SculptTesting

/// The fixture files that command-line paths name: a file as given, a folder's `.json` and
/// `.har` files at any depth, in a stable order.
enum FixtureFiles {
    /// The files `paths` name, each once, sorted within each folder.
    ///
    /// - Throws: ``Missing`` for a path that does not exist.
    static func expanding(_ paths: [String]) throws -> [URL] {
        var files: [URL] = []
        var seen: Set<String> = []
        for path in paths {
            let url = URL(filePath: path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw Missing(path: path) }
            let found = isFolder.boolValue ? FixtureFolder.files(in: url) : [url]
            for file in found where seen.insert(file.standardizedFileURL.path(percentEncoded: false)).inserted {
                files.append(file)
            }
        }
        return files
    }

    /// A path given on the command line that does not exist.
    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(PrintableText.value(path, limit: 1_024)): no such file or folder" }
    }
}
