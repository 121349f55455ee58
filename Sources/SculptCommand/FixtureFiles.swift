import Foundation
import SculptShared
import Sculpt
import SculptTesting

/// The fixture files that command-line paths name: a file as given, a folder's `.json` and
/// `.har` files at any depth, in a stable order.
enum FixtureFiles {
    /// The file extensions read from folders.
    static let extensions: Set<String> = ["json", "har"]

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
            let found = isFolder.boolValue ? contents(of: url) : [url]
            for file in found where seen.insert(file.standardizedFileURL.path(percentEncoded: false)).inserted {
                files.append(file)
            }
        }
        return files
    }

    /// A folder's fixture files at any depth, sorted by path: hidden files and links to files
    /// included; hidden folders (`.git`, `.build`) and links to folders not entered. A name that
    /// leads nowhere (a link to nothing, or a name that is not valid UTF-8, which Foundation
    /// cannot open by its name) is listed too, so that reading it reports it rather than a check
    /// passing over it.
    private static func contents(of folder: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey])
        var files: [URL] = []
        while let file = enumerator?.nextObject() as? URL {
            let isFolder = (try? file.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
            if isFolder {
                if file.lastPathComponent.hasPrefix(".") { enumerator?.skipDescendants() }
                continue
            }
            guard extensions.contains(ASCII.lowercased(file.pathExtension)),
                (try? file.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
                    || !FileManager.default.fileExists(atPath: file.path(percentEncoded: false))
            else { continue }
            files.append(file)
        }
        return files.sorted { $0.path(percentEncoded: false) < $1.path(percentEncoded: false) }
    }

    /// Why a listed file could not be read: for a name that leads nowhere, what may be the cause.
    static func unreadable(_ file: URL, _ error: any Error) -> String {
        guard FileManager.default.fileExists(atPath: file.path(percentEncoded: false)) else {
            return "cannot be opened by this name: a link to nothing, or a name that is not valid UTF-8 (rename it)"
        }
        return error.localizedDescription
    }

    /// A path given on the command line that does not exist.
    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(PrintableText.value(path, limit: 1_024)): no such file or folder" }
    }
}

extension FixtureFiles {
    /// The interactions a file holds: a HAR archive's entries (redacted, as an import redacts
    /// them) or a fixture's or cassette's; and, for an archive, the entries left out and why.
    ///
    /// - Throws: `Fixture.FormatError` naming the file and line, or the file system's error.
    static func interactions(in file: URL) throws -> (fixtures: [Fixture], skipped: [String]) {
        if ASCII.lowercased(file.pathExtension) == "har" {
            let archive = try HARArchive(contentsOf: file)
            return (archive.fixtures, archive.skipped.map(\.description))
        }
        return (try Cassette(contentsOf: file).interactions, [])
    }
}
