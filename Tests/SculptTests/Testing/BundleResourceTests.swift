import Foundation
import SculptTesting
import Testing

/// `Fixture(named:in:subdirectory:)` reads only inside the bundle's resource folder: names that
/// climb out, absolute paths and symbolic links that lead out are refused, saying why.
@Suite("Bundle resources stay in the bundle")
struct BundleResourceTests {
    /// A bundle folder `bundle/` with `Fixtures/get-label.json` and `Fixtures/link.json`, a
    /// symbolic link to `outside.json` beside the bundle, in a fresh temporary folder.
    struct Layout {
        let root: URL
        let bundleFolder: URL
        let bundle: Bundle

        init() throws {
            root = FileManager.default.temporaryDirectory.appending(path: "sculpt-bundle-\(UUID())")
            bundleFolder = root.appending(path: "bundle")
            let fixtures = bundleFolder.appending(path: "Fixtures")
            try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
            let text = try GitHubFixtures.load("get-label").encoded()
            try text.write(to: fixtures.appending(path: "get-label.json"))
            try text.write(to: root.appending(path: "outside.json"))
            try FileManager.default.createSymbolicLink(atPath: fixtures.appending(path: "link.json").path, withDestinationPath: "../../outside.json")
            bundle = try #require(Bundle(url: bundleFolder))
        }
    }

    /// A name and subdirectory, and words the refusal must hold.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var subdirectory: String?
        var reason: String
        var testDescription: String { "\(name) in \(subdirectory ?? "(none)")" }
    }

    static let rows: [Row] = [
        Row(name: "../outside", subdirectory: nil, reason: #"resource name "../outside" has a ".." segment"#),
        Row(name: "../../outside", subdirectory: "Fixtures", reason: #"resource name "../../outside" has a ".." segment"#),
        Row(name: "outside", subdirectory: "..", reason: #"subdirectory ".." has a ".." segment"#),
        Row(name: "outside", subdirectory: "Fixtures/../..", reason: #"subdirectory "Fixtures/../.." has a ".." segment"#),
        Row(name: "/etc/passwd", subdirectory: nil, reason: #"resource name "/etc/passwd" is an absolute path"#),
        Row(name: "outside", subdirectory: "/tmp", reason: #"subdirectory "/tmp" is an absolute path"#),
        Row(name: "link", subdirectory: "Fixtures", reason: "outside the bundle's resource folder"),
    ]

    @Test("names, subdirectories and links that leave the bundle are refused with the reason", arguments: rows)
    func refused(_ row: Row) throws {
        let layout = try Layout()
        defer { try? FileManager.default.removeItem(at: layout.root) }
        #expect {
            try Fixture(named: row.name, in: layout.bundle, subdirectory: row.subdirectory)
        } throws: { error in
            (error as? Fixture.FormatError)?.reason.contains(row.reason) == true
        }
    }

    @Test("a bundle reached through a symbolic link still loads its own resources; its links out do not")
    func linkedBundle() throws {
        let layout = try Layout()
        defer { try? FileManager.default.removeItem(at: layout.root) }
        let alias = layout.root.appending(path: "alias")
        try FileManager.default.createSymbolicLink(at: alias, withDestinationURL: layout.bundleFolder)
        let bundle = try #require(Bundle(url: alias))
        #expect(try Fixture(named: "get-label", in: bundle, subdirectory: "Fixtures").response.status == .ok)
        #expect(throws: Fixture.FormatError.self) { try Fixture(named: "link", in: bundle, subdirectory: "Fixtures") }
    }
}
