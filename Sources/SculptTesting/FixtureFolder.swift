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
    /// cannot open by its name) and a name of something that is not a regular file (a FIFO, a
    /// link to a device) are listed too, so that reading it reports it rather than a check or a
    /// diff passing over it.
    package static func files(in folder: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey])
        var files: [URL] = []
        while let file = enumerator?.nextObject() as? URL {
            let isFolder = (try? file.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
            if isFolder {
                if file.lastPathComponent.hasPrefix(".") { enumerator?.skipDescendants() }
                continue
            }
            var isLinkedFolder: ObjCBool = false
            guard extensions.contains(ASCII.lowercased(file.pathExtension)),
                !(FileManager.default.fileExists(atPath: file.path(percentEncoded: false), isDirectory: &isLinkedFolder) && isLinkedFolder.boolValue)
            else { continue }
            files.append(file)
        }
        return files.sorted { $0.path(percentEncoded: false) < $1.path(percentEncoded: false) }
    }

    /// Every interaction in `paths` (files, or folders at any depth), in order, and the files
    /// that could not be read with why.
    ///
    /// - Throws: ``RecordingFileError`` for a path that does not exist.
    package static func interactions(in paths: [URL]) throws(RecordingFileError) -> (fixtures: [Fixture], unreadable: [RecordingFileError]) {
        var fixtures: [Fixture] = []
        var unreadable: [RecordingFileError] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path(percentEncoded: false), isDirectory: &isFolder) else {
                throw RecordingFileError(path: path.path(percentEncoded: false), reason: "no such file or folder")
            }
            for file in isFolder.boolValue ? files(in: path) : [path] {
                do {
                    fixtures += try interactions(in: file).fixtures
                } catch {
                    unreadable.append(RecordingFileError(path: file.path(percentEncoded: false), reason: Self.unreadable(file, error)))
                }
            }
        }
        return (fixtures, unreadable)
    }

    /// Why a listed file could not be read, in words: a format error's reason and line, a name
    /// that leads nowhere, a file that is not a regular one; the file system's own words else.
    package static func unreadable(_ file: URL, _ error: any Error) -> String {
        if let error = error as? RecordingFileError { return error.reason }
        if let error = error as? Fixture.FormatError {
            return "\(error.line.map { "line \($0): " } ?? "")\(error.reason)"
        }
        guard FileManager.default.fileExists(atPath: file.path(percentEncoded: false)) else {
            return "cannot be opened by this name: a link to nothing, or a name that is not valid UTF-8 (rename it)"
        }
        if (try? file.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) != true {
            return "not a regular file"
        }
        return (error as? CocoaError).map { _ in error.localizedDescription } ?? "\(error)"
    }

    /// The interactions a file holds: a HAR archive's entries (redacted, as an import redacts
    /// them) or a fixture's or cassette's; and, for an archive, the entries left out and why.
    ///
    /// - Throws: ``Fixture/FormatError`` naming the file and line, or the file system's error.
    package static func interactions(in file: URL) throws -> (fixtures: [Fixture], skipped: [String]) {
        // A FIFO or a device would be read forever, or refused in misleading words.
        if FileManager.default.fileExists(atPath: file.path(percentEncoded: false)),
            (try? file.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == false
        {
            throw RecordingFileError(path: file.path(percentEncoded: false), reason: "not a regular file")
        }
        if ASCII.lowercased(file.pathExtension) == "har" {
            let archive = try HARArchive(contentsOf: file)
            return (archive.fixtures, archive.skipped.map(\.description))
        }
        return (try Cassette(contentsOf: file).interactions, [])
    }
}
