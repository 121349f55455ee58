import Foundation
import HTTPTypes
import Sculpt
import SculptJSON
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fixtures written in a test, and finding a cassette's interactions by method and path.
@Suite("Inline stubs and cassette lookup")
struct FixtureStubTests {
    struct User: Decodable, Sendable, Equatable {
        var id: Int
        var login: String
    }

    @Test("a JSON stub replays through a real session and decodes")
    func jsonStubReplays() async throws {
        let replay = FixtureReplay([
            try .stub(.get, "https://api.example.com/users/1", json: #"{"id": 1, "login": "ada"}"#),
            try .stub(.delete, "/users/1", status: .noContent),
        ])
        let session = replay.makeSession()
        var matcher = URLModelMatcher()
        try matcher.add("/users/#", User.self)
        let serializer = ModelResponseSerializer(matcher: matcher, decoder: SculptJSONDecoder())
        let url = try #require(URL(string: "https://api.example.com/users/1"))
        #expect(try await session.model(from: url, serializer: serializer, as: User.self) == User(id: 1, login: "ada"))
        var delete = URLRequest(url: url)
        delete.httpMethod = "DELETE"
        let (_, response) = try await session.data(for: delete)
        #expect((response as? HTTPURLResponse)?.statusCode == 204)
        try replay.verifyAllUsed()
    }

    @Test("each form sets its content type unless the fields have one, and names itself as its source", arguments: [
        (try Fixture.stub(.get, "/a", json: "[]"), "application/json; charset=utf-8", "[]", "stub GET /a"),
        (try Fixture.stub(.post, "https://x.test/b?q=1", status: .created, text: "made"), "text/plain; charset=utf-8", "made", "stub POST /b"),
        (try Fixture.stub(.get, "/c", headerFields: [.contentType: "application/vnd.api+json"], json: "{}"), "application/vnd.api+json", "{}", "stub GET /c"),
        (try Fixture.stub(.get, "/d", body: Data([0xFF])), nil, "\u{FFFD}", "stub GET /d"),
    ] as [(Fixture, String?, String, String)])
    func stubForms(_ fixture: Fixture, _ contentType: String?, _ body: String, _ source: String) {
        #expect(fixture.response.headerFields[.contentType] == contentType)
        #expect(String(decoding: fixture.data, as: UTF8.self) == body)
        #expect(fixture.source == source)
    }

    @Test("a stub whose body is not JSON or whose URL is not a URL is refused with what was wrong", arguments: [
        ("/users/1", #"{"id": 1,}"#, "the stub's body for GET /users/1 is not JSON"),
        ("", "{}", #"the stub's URL "" is not a URL"#),
        ("http://[::1", "{}", #"the stub's URL "http://[::1" is not a URL"#),
        ("users?id=1", "{}", #"the stub's URL "users?id=1" is not a URL; write an absolute URL or a path such as /users/1"#),
        ("https:///users", "{}", #"the stub's URL "https:///users" is not a URL"#),
        ("ftp://x.test/y", "{}", #"the stub's URL "ftp://x.test/y" is not a URL"#),
        ("//x.test/path", "{}", #"the stub's URL "//x.test/path" is not a URL"#),
    ])
    func badStubs(_ url: String, _ json: String, _ expected: String) throws {
        let error = try #require(throws: Fixture.FormatError.self) { try Fixture.stub(.get, url, json: json) }
        #expect(error.description.contains(expected), "\(error)")
    }

    @Test("a cassette's interactions are found by method and path, the query aside")
    func lookup() throws {
        let cassette = try Cassette(contentsOf: Paths.fixtures.appending(path: "cassettes/github-paginate-issues.json"))
        let pages = cassette.interactions(.get, path: "/repositories/1000/issues")
        #expect(pages.count == 4)
        #expect(pages.map(\.request.url.query) == (2...5).map { "per_page=3&page=\($0)" })
        #expect(cassette[.get, "/repos/octokit-fixture-org/paginate-issues/issues"]?.source == "github-paginate-issues.json #0")
        #expect(cassette[.post, "/repositories/1000/issues"] == nil)
        #expect(cassette.interactions(path: "/repositories/1000/issues").count == 4)
        #expect(cassette.interactions(.get, path: "/nowhere").isEmpty)
        #expect(cassette.interactions(.get, path: "/repositories/1000/issues?page=2").count == 4, "a query is left aside")
        #expect(cassette.interactions(.get, path: "/repositories/1000/issues#top").count == 4, "so is a fragment")
        #expect(cassette[.get, "https://api.github.com/repositories/1000/issues?per_page=3&page=2"]?.request.url.query == "per_page=3&page=2")
    }

    @Test("lookup paths compare as a replay compares them", arguments: [
        ("/users/ada%20lovelace", "/users/ada lovelace", true),
        ("/users/ada%20lovelace", "/users/ada%20lovelace", true),
        ("/a~b", "/a%7e%62", true),
        ("/a%2Fb", "/a/b", false),
        ("/", "", true),
    ])
    func lookupPaths(_ recorded: String, _ asked: String, _ found: Bool) throws {
        let cassette = Cassette([try .stub(.get, "https://x.test" + recorded, text: "")])
        #expect((cassette[.get, asked] != nil) == found)
    }
}
