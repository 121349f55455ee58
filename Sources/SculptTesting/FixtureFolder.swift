import Foundation
import SculptShared

/// The fixture files of a folder, as `sculpt` and a mapping report read them: `.json` fixtures
/// and cassettes and `.har` archives at any depth, in a stable order.
package enum FixtureFolder {
    /// The file extensions read from folders.
    package static let extensions: Set<String> = ["json", "har"]

    /// A folder's fixture files at any depth, sorted by path: hidden files and links to files
    /// included; hidden folders (`.git`, `.build`) and links to folders not entered. A name that
    /// leads nowhere (a link to nothing, or a name that is not valid UTF-8, which Foundation
    /// cannot open by its name) is listed too, so that reading it reports it rather than a check
    /// passing over it.
    package static func files(in folder: URL) -> [URL] {
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

    /// The interactions a file holds: a HAR archive's entries (redacted, as an import redacts
    /// them) or a fixture's or cassette's; and, for an archive, the entries left out and why.
    ///
    /// - Throws: ``Fixture/FormatError`` naming the file and line, or the file system's error.
    package static func interactions(in file: URL) throws -> (fixtures: [Fixture], skipped: [String]) {
        if ASCII.lowercased(file.pathExtension) == "har" {
            let archive = try HARArchive(contentsOf: file)
            return (archive.fixtures, archive.skipped.map(\.description))
        }
        return (try Cassette(contentsOf: file).interactions, [])
    }
}
