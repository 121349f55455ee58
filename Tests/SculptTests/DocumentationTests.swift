import Foundation
import Testing

/// The DocC catalogs: every guide in Docs/ is part of one product's documentation, by a link to
/// the one source, and every guide a landing page lists is there. (Symbol links are checked by
/// `.ci/documentation`, which builds each catalog with warnings as errors.)
@Suite("Documentation catalogs")
struct DocumentationTests {
    static let catalogs: [URL] = {
        let sources = Paths.packageRoot.appending(path: "Sources")
        let products = (try? FileManager.default.contentsOfDirectory(atPath: sources.path(percentEncoded: false))) ?? []
        return products.sorted().map { sources.appending(path: "\($0)/\($0).docc") }
            .filter { FileManager.default.fileExists(atPath: $0.path(percentEncoded: false)) }
    }()

    @Test("every library product has a catalog with a landing page")
    func catalogs() throws {
        let names = Self.catalogs.map { $0.deletingPathExtension().lastPathComponent }
        #expect(names == ["Sculpt", "SculptAsyncHTTPClient", "SculptJSON", "SculptLoading", "SculptMatchers", "SculptStore", "SculptTesting", "SculptTestingTraits", "SculptXML"])
        for catalog in Self.catalogs {
            let name = catalog.deletingPathExtension().lastPathComponent
            let landing = try String(contentsOf: catalog.appending(path: "\(name).md"), encoding: .utf8)
            #expect(landing.hasPrefix("# ``\(name)``\n"), "\(name).md starts with the module's symbol link")
            #expect(landing.contains("## Topics"), "\(name).md groups the symbols by task")
        }
    }

    @Test("each guide in Docs is linked into exactly one catalog, and every guide a landing page lists is there")
    func guides() throws {
        let docs = Paths.packageRoot.appending(path: "Docs")
        let guides = try FileManager.default.contentsOfDirectory(atPath: docs.path(percentEncoded: false)).filter { $0.hasSuffix(".md") }.sorted()
        var linked: [String] = []
        for catalog in Self.catalogs {
            let name = catalog.deletingPathExtension().lastPathComponent
            let files = try FileManager.default.contentsOfDirectory(atPath: catalog.path(percentEncoded: false))
            for file in files where file != "\(name).md" && file.hasSuffix(".md") {
                let destination = try FileManager.default.destinationOfSymbolicLink(atPath: catalog.appending(path: file).path(percentEncoded: false))
                #expect(destination == "../../../Docs/\(file)", "\(name).docc/\(file) links to the guide, not a copy")
                #expect(guides.contains(file))
                linked.append(file)
            }
            let landing = try String(contentsOf: catalog.appending(path: "\(name).md"), encoding: .utf8)
            for match in landing.matches(of: /<doc:([A-Za-z]+)>/) {
                #expect(files.contains("\(match.1).md"), "\(name).md lists <doc:\(match.1)>")
            }
        }
        #expect(linked.sorted() == guides)
    }
}
