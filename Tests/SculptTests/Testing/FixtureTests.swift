import Foundation
import HTTPTypes
import Sculpt
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Fixture")
struct FixtureTests {
    @Test("loads the package's GitHub fixtures")
    func loadsPackageFixtures() throws {
        let fixtures = try GitHubFixtures.all()
        #expect(fixtures.count == 9)
        let label = try GitHubFixtures.load("get-label")
        #expect(label.request.method == .get)
        #expect(label.context.url?.absoluteString == "https://api.github.com/repos/octokit-fixture-org/labels/labels/test-label")
        #expect(label.context.status == .ok)
        #expect(label.context.headerFields[.contentType] == "application/json; charset=utf-8")
        #expect(try JSONDecoder().decode(Label.self, from: label.data) == Label(name: "test-label", color: "663399"))
        let deleted = try GitHubFixtures.load("delete-label")
        #expect(deleted.response.status == .noContent)
        #expect(deleted.data.isEmpty)
    }

    @Test("bodies by encoding", arguments: [
        (#""body":{"a":[1,true,null]}"#, #"{"a":[1,true,null]}"#),
        (#""body":"plain text""#, "plain text"),
        (#""body":"aGVsbG8=","bodyEncoding":"base64""#, "hello"),
        (#""body":"[1]","bodyEncoding":"text""#, "[1]"),
        (#""body":"x","bodyEncoding":"json""#, #""x""#),
        (#""body":null"#, ""),
    ])
    func bodies(_ body: String, _ bytes: String) throws {
        let json = #"{"request":{"url":"https://x/a"},"response":{"status":200,\#(body)}}"#
        #expect(try Fixture(json: Data(json.utf8)).data == Data(bytes.utf8))
    }

    @Test("headers keep order and repeats")
    func headers() throws {
        let json = #"{"request":{"url":"https://x/a"},"response":{"status":200,"headers":[["Set-Cookie","a=1"],["Link","<x>"],["Set-Cookie","b=2"]]}}"#
        let fields = try Fixture(json: Data(json.utf8)).response.headerFields
        #expect(fields.map(\.value) == ["a=1", "<x>", "b=2"])
        #expect(fields[values: .setCookie] == ["a=1", "b=2"])
    }

    @Test("malformed fixtures say what is wrong", arguments: [
        ("not json", "not JSON"),
        ("[]", "the top level must be an object"),
        (#"{"response":{"status":200}}"#, #"missing object "request""#),
        (#"{"request":{"url":"https://x"}}"#, #"missing object "response""#),
        (#"{"request":{},"response":{"status":200}}"#, "request.url must be a URL string"),
        (#"{"request":{"url":"https://x","method":"G T"},"response":{"status":200}}"#, "is not a method"),
        (#"{"request":{"url":"https://x"},"response":{"status":"200"}}"#, "response.status must be a number"),
        (#"{"request":{"url":"https://x"},"response":{"status":1000}}"#, "response.status must be a number"),
        (#"{"request":{"url":"https://x"},"response":{"status":200,"headers":{"a":"b"}}}"#, "response.headers must be an array"),
        (#"{"request":{"url":"https://x"},"response":{"status":200,"headers":[["a"]]}}"#, "invalid pair"),
        (#"{"request":{"url":"https://x"},"response":{"status":200,"body":"***","bodyEncoding":"base64"}}"#, "not valid base64"),
        (#"{"request":{"url":"https://x"},"response":{"status":200,"body":{},"bodyEncoding":"text"}}"#, "bodyEncoding must be"),
    ])
    func malformed(_ json: String, _ reason: String) {
        #expect {
            try Fixture(json: Data(json.utf8))
        } throws: { error in
            (error as? Fixture.FormatError)?.description.contains(reason) == true
        }
    }

    @Test("a file error names the file")
    func fileError() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "sculpt-bad-fixture-\(UUID()).json")
        try Data("{}".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect {
            try Fixture(contentsOf: file)
        } throws: { error in
            (error as? Fixture.FormatError)?.description.hasPrefix("fixture \(file.lastPathComponent):") == true
        }
    }

    @Test("a file error names the line it is on", arguments: [
        // Not JSON: the line where it stops being JSON.
        ("{\n  \"request\": {\"url\": \"https://x\"},\n  \"response\": {\"status\": 200,}\n}", 3),
        // A wrong value: its own line.
        ("{\n  \"request\": {\n    \"url\": \"https://x\",\n    \"method\": \"G T\"\n  },\n  \"response\": {\"status\": 200}\n}", 4),
        ("{\n  \"request\": {\"url\": \"https://x\"},\n  \"response\": {\n    \"headers\": [\n      [\"a\", \"b\"],\n      [\"c\"]\n    ],\n    \"status\": 200\n  }\n}", 6),
        // A missing value: the line of the object that should hold it.
        ("{\n  \"request\": {\"url\": \"https://x\"},\n\n  \"response\": {\n    \"headers\": []\n  }\n}", 4),
        // In a cassette: the interaction's own line, past an earlier one with the same names.
        ("{\"interactions\": [\n  {\"request\": {\"url\": \"https://x\"}, \"response\": {\"status\": 200}},\n  {\"request\": {\"url\": \"https://x\"},\n   \"response\": {\"status\": \"ok\"}}\n]}", 4),
    ])
    func fileErrorLine(_ text: String, _ line: Int) throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "sculpt-bad-fixture-\(UUID()).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = try #require(throws: Fixture.FormatError.self) { try Cassette(contentsOf: file) }
        #expect(error.line == line)
        #expect(error.description.hasPrefix("fixture \(file.lastPathComponent):\(line): "))
    }
}

@Suite("FixtureServer")
struct FixtureServerTests {
    @Test("answers by method, path and query in any order; anything else is a 404 that says why")
    func matching() async throws {
        let fixture = Fixture(
            request: .init(method: .get, url: try #require(URL(string: "https://api.example.com/search?q=a&page=2&q=b"))),
            response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data("[]".utf8)))
        let server = FixtureServer(fixtures: [fixture])
        try await server.start()
        let session = URLSession(configuration: .unhurried)
        let reordered = try await server.url(for: "/search?page=2&q=b&q=a")
        let (body, found) = try await session.data(from: reordered)
        #expect((found as? HTTPURLResponse)?.statusCode == 200)
        #expect(body == Data("[]".utf8))
        let (message, missing) = try await session.data(from: try await server.url(for: "/search?q=a"))
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        #expect((missing as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Sculpt-Replay") == "miss")
        #expect(String(decoding: message, as: UTF8.self).hasPrefix("No recorded interaction matches GET /search?q=a.\nClosest recorded:\n- GET /search?q=a&page=2&q=b: query: lacks page=2&q=b"))
        var post = URLRequest(url: reordered)
        post.httpMethod = "POST"
        let (_, wrongMethod) = try await session.data(for: post)
        #expect((wrongMethod as? HTTPURLResponse)?.statusCode == 404)
        await server.stop()
    }

    @Test("a URL before start is an error, not a guess")
    func notStarted() async {
        let server = FixtureServer(fixtures: [])
        await #expect(throws: URLError.self) { try await server.url(for: "/a") }
    }
}
