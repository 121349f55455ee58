import Foundation
import HTTPTypes
import Sculpt
import SculptTesting
import Testing

@Suite("Fixture format")
struct FixtureFormatTests {
    private func fixture(body: Data, contentType: String?) throws -> Fixture {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        return Fixture(
            request: .init(method: .post, url: try #require(URL(string: "https://api.example.com/items?b=2&a=1")), headerFields: [.accept: "application/json"], body: Data(#"{"q":1}"#.utf8)),
            response: .init(status: .created, headerFields: fields, body: body))
    }

    @Test("JSON bodies keep member order, repeated keys and number literals")
    func jsonBodyOrder() throws {
        let body = Data(#"{"z":1,"a":[1.50,-0,2e10],"z":"second","type":"last"}"#.utf8)
        let written = try fixture(body: body, contentType: "application/json").encoded()
        #expect(String(decoding: written, as: UTF8.self).contains(#""body": {"#))
        #expect(try Fixture(json: written).data == body)
    }

    @Test("bodies are stored by what they are", arguments: [
        (#"{"a":1}"#, "application/vnd.api+json", #""body": {"#),
        ("hello\nworld", "text/plain", #""body": "hello\nworld""#),
        (#"{"a":1}"#, "text/plain", #""body": "{\"a\":1}""#),
        ("not json", "application/json", #""body": "not json""#),
        (#""just a string""#, "application/json", #""bodyEncoding": "json""#),
    ])
    func storage(_ body: String, _ contentType: String, _ expected: String) throws {
        let written = try fixture(body: Data(body.utf8), contentType: contentType).encoded()
        #expect(String(decoding: written, as: UTF8.self).contains(expected), "\(String(decoding: written, as: UTF8.self))")
        #expect(try Fixture(json: written).data == Data(body.utf8))
    }

    @Test("binary bodies are base64, and byte-exact mode keeps every byte", arguments: [true, false])
    func binaryAndExact(_ byteExact: Bool) throws {
        let binary = Data([0x1F, 0x8B, 0x00, 0xFF, 0x00])
        let pretty = Data("{ \"a\" :  1 }".utf8)
        let written = try fixture(body: binary, contentType: "application/octet-stream").encoded(byteExact: byteExact)
        #expect(String(decoding: written, as: UTF8.self).contains(#""bodyEncoding": "base64""#))
        #expect(try Fixture(json: written).data == binary)
        let json = try Fixture(json: fixture(body: pretty, contentType: "application/json").encoded(byteExact: byteExact)).data
        #expect((json == pretty) == byteExact)
    }

    @Test("a JSON body that starts with a byte order mark keeps it when written", arguments: [true, false])
    func byteOrderMark(_ byteExact: Bool) throws {
        let body = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"id":1}"#.utf8)
        #expect(try Fixture(json: fixture(body: body, contentType: "application/json").encoded(byteExact: byteExact)).data == body)
    }

    @Test("a written fixture reads back the same")
    func roundTrip() throws {
        let original = try fixture(body: Data(#"{"id":1}"#.utf8), contentType: "application/json; charset=utf-8")
        let read = try Fixture(json: original.encoded())
        #expect(read.request.method == .post)
        #expect(read.request.url == original.request.url)
        #expect(read.request.headerFields == original.request.headerFields)
        #expect(read.request.body == original.request.body)
        #expect(read.response.status == .created)
        #expect(read.response.headerFields == original.response.headerFields)
        #expect(read.data == original.data)
    }

    @Test("cassettes hold sequences; a single fixture file is a cassette of one")
    func cassette() throws {
        let first = try fixture(body: Data(#"{"n":1}"#.utf8), contentType: "application/json")
        let second = try fixture(body: Data(#"{"n":2}"#.utf8), contentType: "application/json")
        let read = try Cassette(json: Cassette([first, second]).encoded(), source: "pair.json")
        #expect(read.interactions.map(\.data) == [first.data, second.data])
        #expect(read.interactions.map(\.source) == ["pair.json #0", "pair.json #1"])
        #expect(try Cassette(json: first.encoded()).interactions.count == 1)
        #expect {
            try Cassette(json: Data(#"{"interactions":[{"request":{"url":"https://x"}}]}"#.utf8))
        } throws: { error in
            "\(error)".contains(#"missing object "interactions[0].response""#)
        }
    }

    @Test("fixtures load from a bundle's resources")
    func bundleResource() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-bundle-\(UUID())")
        try FileManager.default.createDirectory(at: folder.appending(path: "Fixtures"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try GitHubFixtures.load("get-label").encoded().write(to: folder.appending(path: "Fixtures/get-label.json"))
        let bundle = try #require(Bundle(url: folder))
        let loaded = try Fixture(named: "get-label", in: bundle, subdirectory: "Fixtures")
        #expect(loaded.response.status == .ok)
        #expect(loaded.source == "get-label.json")
        #expect(throws: Fixture.FormatError.self) { try Fixture(named: "missing", in: bundle) }
    }

    @Test("malformed fixture files fail with a reason, not a crash", arguments: [
        String(repeating: "[", count: 100_000),
        #"{"request":{"url":"https://x"},"response":{"status":200,"body":"#,
        "\u{FEFF}",
        #"{"request":{"url":"https://x"},"response":{"status":200,"body":"\ud800"}}"#,
        #"{"request":{"url":"https://x"},"response":{"status":200,"body":"\udc00"}}"#,
    ])
    func malformed(_ text: String) {
        #expect(throws: Fixture.FormatError.self) { try Fixture(json: Data(text.utf8)) }
    }

    @Test("an invalid header pair is named by its place and shape, never its values", arguments: [
        #"[["Authorization","Bearer zzSECRETzz",1]]"#, #"[["Set-Cookie",7]]"#, #"[{"Cookie":"zzSECRETzz"}]"#, #"["zzSECRETzz"]"#,
    ])
    func invalidHeaderPair(_ headers: String) throws {
        let text = #"{"request":{"url":"https://x","headers":\#(headers)},"response":{"status":200}}"#
        let error = try #require(throws: Fixture.FormatError.self) { try Fixture(json: Data(text.utf8)) }
        #expect(error.description.contains("position 1"), "\(error.description)")
        #expect(!error.description.contains("zzSECRETzz"), "\(error.description)")
    }

    static let writtenURLs: [(written: String, read: String)] = [
        ("https://h/s?filter[x]=a%20b", "https://h/s?filter%5Bx%5D=a%20b"),
        ("https://h/a%2Fb[x]", "https://h/a%2Fb%5Bx%5D"),
        ("https://h/p q?x=%zz&y=%", "https://h/p%20q?x=%25zz&y=%25"),
        ("https://h/caf\u{E9}?q=a%2Bb", "https://h/caf%C3%A9?q=a%2Bb"),
        ("https://h/x#a#b", "https://h/x#a%23b"),
        ("https://h/s?filter%5Bx%5D=a%20b", "https://h/s?filter%5Bx%5D=a%20b"),
    ]

    @Test("a URL written with characters a URL must encode beside escapes already written reads as one URL, its escapes kept", arguments: writtenURLs)
    func writtenURL(_ written: String, _ read: String) throws {
        let file = #"{"request": {"url": "\#(written)"}, "response": {"status": 200, "body": "ok"}}"#
        #expect(try Fixture(json: Data(file.utf8)).request.url.absoluteString == read)
        let har = #"{"log": {"entries": [{"request": {"method": "GET", "url": "\#(written)", "headers": []}, "response": {"status": 200, "headers": [], "content": {"text": "ok"}}}]}}"#
        #expect(try HARArchive(json: Data(har.utf8)).fixtures.map(\.request.url.absoluteString) == [read])
        #expect(try Fixture.stub(.get, written, text: "ok").request.url.absoluteString == read)
    }

    @Test("a request line written as browsers write such a URL is answered by the fixture recorded with it")
    func writtenRequestLine() async throws {
        let fixture = try Fixture(json: Data(#"{"request": {"url": "https://h/s?filter[x]=a%20b"}, "response": {"status": 200, "body": "filtered"}}"#.utf8))
        try await FixtureServer.running(FixtureReplay([fixture])) { _, base in
            let connection = try RawHTTP(base)
            defer { connection.close() }
            connection.send("GET /s?filter[x]=a%20b HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            let responses = RawHTTP.responses(in: await connection.readAll())
            #expect(responses.map(\.status) == [200])
            #expect(responses.first?.body == "filtered")
        }
    }

    @Test("a recorded Content-Length states the body the fixture holds; an empty body keeps the one recorded")
    func statedLength() throws {
        let file = #"{"request": {"url": "https://h/a"}, "response": {"status": 200, "headers": [["Content-Type", "application/json"], ["Content-Length", "172"]], "body": {"a": 1}}}"#
        let fixture = try Fixture(json: Data(file.utf8))
        #expect(fixture.response.headerFields[.contentLength] == "\(fixture.data.count)")
        let head = #"{"request": {"method": "HEAD", "url": "https://h/a"}, "response": {"status": 200, "headers": [["Content-Length", "172"]]}}"#
        #expect(try Fixture(json: Data(head.utf8)).response.headerFields[.contentLength] == "172")
    }
}
