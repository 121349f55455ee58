import Foundation
import SculptShared

/// The file of a bundle resource looked up by name, refused when the name or the file leaves the
/// bundle's resource folder: a `..` segment, an absolute path, or a file whose real path (symbolic
/// links resolved) lies outside the folder.
enum BundleResource {
    /// The file of resource `name`.`ext` in `subdirectory` of `bundle`.
    ///
    /// - Throws: ``Fixture/FormatError`` saying why the name is refused, or that there is no such
    ///   resource.
    static func file(named name: String, extension ext: String, in bundle: Bundle, subdirectory: String?) throws(Fixture.FormatError) -> URL {
        try refuseEscape(name, as: "resource name")
        if let subdirectory { try refuseEscape(subdirectory, as: "subdirectory") }
        guard let file = bundle.url(forResource: name, withExtension: ext, subdirectory: subdirectory) else {
            let folder = subdirectory.map { " in \($0)" } ?? ""
            throw Fixture.FormatError(reason: "no resource \(name).\(ext)\(folder) in bundle \(bundle.bundlePath)")
        }
        let root = (bundle.resourceURL ?? bundle.bundleURL).path
        guard let realRoot = realPath(root), let realFile = realPath(file.path) else {
            throw Fixture.FormatError(file: file, reason: "the resource's real path cannot be resolved")
        }
        guard realFile.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/") else {
            throw Fixture.FormatError(file: file, reason: "resource \(name).\(ext) resolves to \(realFile), outside the bundle's resource folder \(realRoot)")
        }
        return file
    }

    /// Throws when `path` is absolute or has a `..` segment (with `/` or `\` as separators).
    private static func refuseEscape(_ path: String, as role: String) throws(Fixture.FormatError) {
        if path.hasPrefix("/") || path.hasPrefix("\\") {
            throw Fixture.FormatError(reason: "\(role) \"\(path)\" is an absolute path; resources are named inside the bundle")
        }
        if path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains("..") {
            throw Fixture.FormatError(reason: "\(role) \"\(path)\" has a \"..\" segment, which leaves the bundle's resource folder")
        }
    }

    /// `path` with every symbolic link and `.`/`..` resolved (`realpath(3)`), or `nil` when it
    /// does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
