import Foundation
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

@Suite("HAR import")
struct HARImportTests {
    private func archive(_ entries: String, bom: Bool = false) throws -> HARArchive {
        let text = #"{"log":{"version":"1.2","entries":[\#(entries)]}}"#
        return try HARArchive(json: (bom ? Data([0xEF, 0xBB, 0xBF]) : Data()) + Data(text.utf8))
    }

    private func entry(status: Int = 200, headers: String = "[]", content: String = #"{"mimeType":"application/json","text":"{}"}"#, redirect: String = "") -> String {
        #"{"request":{"method":"GET","url":"https://x/a","headers":[]},"response":{"status":\#(status),"headers":\#(headers),"content":\#(content),"redirectURL":"\#(redirect)"}}"#
    }

    @Test("entries, base64 bodies, missing text and content, a BOM")
    func basics() throws {
        let archive = try archive(
            [entry(), entry(content: #"{"mimeType":"image/png","encoding":"base64","text":"iVBORw=="}"#),
             entry(content: #"{"mimeType":"text/html","size":0}"#), #"{"request":{"method":"GET","url":"https://x/b"},"response":{"status":204,"headers":[]}}"#]
                .joined(separator: ","), bom: true)
        #expect(archive.fixtures.count == 4)
        #expect(archive.fixtures[0].data == Data("{}".utf8))
        #expect(archive.fixtures[1].data == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(archive.fixtures[2].data.isEmpty)
        #expect(archive.fixtures[3].response.status == .noContent)
        #expect(archive.fixtures[0].source == "HAR entry 0")
    }

    @Test("status 0 entries are skipped with a reason; so are broken ones")
    func skipped() throws {
        let archive = try archive([entry(status: 0), entry(), entry(content: #"{"encoding":"base64","text":"***"}"#), #"{"request":{}}"#].joined(separator: ","))
        #expect(archive.fixtures.count == 1)
        #expect(archive.skipped.map(\.index) == [0, 2, 3])
        #expect(archive.skipped[0].description == "entry 0 (https://x/a): status 0: the request did not complete (blocked, aborted or failed)")
        #expect(archive.skipped[1].reason.contains("base64"))
    }

    @Test("repeated headers stay; redirectURL becomes Location; wire encodings are dropped")
    func headers() throws {
        let headers = #"[{"name":"Set-Cookie","value":"a=1"},{"name":":status","value":"301"},{"name":"Set-Cookie","value":"b=2"},{"name":"Content-Encoding","value":"gzip"},{"name":"Content-Length","value":"99"}]"#
        let fixture = try #require(try archive(entry(status: 301, headers: headers, redirect: "https://x/b")).fixtures.first)
        #expect(fixture.response.headerFields[values: .setCookie] == [Redaction.marker, Redaction.marker])  // redacted by default
        #expect(fixture.response.headerFields[.location] == "https://x/b")
        #expect(fixture.response.headerFields[.contentEncoding] == nil)
        #expect(fixture.response.headerFields[.contentLength] == nil)
    }

    @Test("not a HAR archive", arguments: ["[]", #"{"log":{}}"#, "garbage"])
    func notHAR(_ text: String) {
        #expect(throws: Fixture.FormatError.self) { try HARArchive(json: Data(text.utf8)) }
    }
}

@Suite("HAR corpus")
struct HARCorpusTests {
    static let archives: [String] = CorpusFiles.names(in: "har")

    @Test("every archive imports; every JSON entry decodes; status-0 entries are skipped with a reason", arguments: archives)
    func imports(_ name: String) throws {
        let file = Paths.corpus.appending(path: "har/\(name)")
        let archive = try HARArchive(contentsOf: file)
        let raw = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let entries = try #require((raw["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let incomplete = entries.filter { ($0["response"] as? [String: Any])?["status"] as? Int == 0 }.count
        #expect(archive.fixtures.count + archive.skipped.count == entries.count)
        #expect(archive.skipped.count == incomplete, "\(archive.skipped)")
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(AnyJSON.self))
        var decoded = 0
        for fixture in archive.fixtures where fixture.response.headerFields[.contentType]?.contains("json") == true {
            #expect(try serializer.serialize(fixture.data, for: fixture.context) is AnyJSON, "\(fixture.source ?? "")")
            decoded += 1
        }
        if name.contains("github") || name.contains("jsonplaceholder") {
            #expect(decoded == 1, "the JSON entry of \(name) decodes")
        }
    }

    @Test("the gzip-hex GitHub body decompresses to the user")
    func gzipHex() throws {
        struct GitHubUser: Decodable { let login: String }
        let archive = try HARArchive(contentsOf: Paths.corpus.appending(path: "har/pollyjs_github-getUser_gzip-hex-chunks.har"))
        let fixture = try #require(archive.fixtures.first)
        #expect(try JSONDecoder().decode(GitHubUser.self, from: fixture.data).login.lowercased() == "netflix")
    }

    @Test("the redirect chain keeps its Locations and status codes")
    func redirects() throws {
        let archive = try HARArchive(contentsOf: Paths.corpus.appending(path: "har/playwright_har-redirect.har"))
        #expect(archive.fixtures.map(\.response.status.code) == [301, 301, 200])
        #expect(archive.fixtures.prefix(2).allSatisfy { $0.response.headerFields[.location] != nil })
    }
}
