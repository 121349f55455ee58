import Foundation
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The getting-started guide's client (Docs/GettingStarted.md), as written there, in a namespace
/// of its own so that its types print with the guide's names.
enum GettingStartedGuide {
    struct User: Decodable, Sendable { let login: String; let id: Int }
    struct Issue: Decodable, Sendable { let number: Int; let title: String; let state: String }
    struct NewIssue: Encodable { let title: String }
    struct APIError: Decodable, Sendable { let message: String }

    enum GitHub {
        static let user = Endpoint<User>("/users/{login}")
        static let issues = Endpoint<[Issue]>("/repos/{owner}/{repo}/issues")
        static let issue = Endpoint<Issue>("/repos/{owner}/{repo}/issues/{number:#}")
        static let createIssue = Endpoint<Issue>(.post, "/repos/{owner}/{repo}/issues", status: .created)
    }

    struct GitHubClient: Sendable {
        let baseURL: URL
        let session: URLSession
        let serializer: ModelResponseSerializer<URLModelMatcher>

        init(baseURL: URL, session: URLSession = .shared) throws {
            var routes = URLModelMatcher(pathPrefix: baseURL.path(percentEncoded: true))   // "" for https://api.github.com
            try routes.add(GitHub.user)
            try routes.add(GitHub.issues)
            try routes.add(GitHub.issue)
            try routes.add(GitHub.createIssue)
            self.baseURL = baseURL
            self.session = session
            self.serializer = ModelResponseSerializer(matcher: routes, errorMatcher: StaticModelMatcher(APIError.self))
        }

        func user(_ login: String) async throws -> User {
            try await session.model(GitHub.user(["login": login]), baseURL: baseURL, serializer: serializer)
        }

        func issue(owner: String, repo: String, number: Int) async throws -> Issue {
            try await session.model(GitHub.issue(["owner": owner, "repo": repo, "number": number]), baseURL: baseURL, serializer: serializer)
        }

        func openIssues(owner: String, repo: String) async throws -> [Issue] {
            let request = try GitHub.issues(["owner": owner, "repo": repo], query: [URLQueryItem(name: "state", value: "open")])
            return try await session.model(request, baseURL: baseURL, serializer: serializer)
        }

        func createIssue(owner: String, repo: String, title: String) async throws -> Issue {
            var request = try GitHub.createIssue(["owner": owner, "repo": repo])
            request.body = try JSONEncoder().encode(NewIssue(title: title))
            request.headerFields[.contentType] = "application/json"
            return try await session.model(request, baseURL: baseURL, serializer: serializer)
        }
    }
}

/// The guide's client against recordings, and each error the guide explains, as it prints.
@Suite("The getting-started guide")
struct GettingStartedTests {
    private static let api = URL(string: "https://api.github.com")

    private func fixture(_ url: String, method: String = "GET", status: Int = 200, contentType: String = "application/json", body: String) throws -> Fixture {
        try Fixture(json: Data("""
            {"request":{"method":"\(method)","url":"\(url)"},
             "response":{"status":\(status),"headers":[["Content-Type","\(contentType)"]],"body":\(body)}}
            """.utf8))
    }

    @Test("the client reads, lists and creates through its endpoints")
    func client() async throws {
        let replay = FixtureReplay([
            try fixture("https://api.github.com/repos/apple/swift/issues/1", body: #"{"number":1,"title":"Crash on launch","state":"open"}"#),
            try fixture("https://api.github.com/repos/apple/swift/issues?state=open", body: #"[{"number":1,"title":"Crash on launch","state":"open"}]"#),
            try fixture("https://api.github.com/repos/apple/swift/issues", method: "POST", status: 201, body: #"{"number":2,"title":"Docs","state":"open"}"#),
            try fixture("https://api.github.com/users/octocat", body: #"{"login":"octocat","id":583231}"#),
        ])
        let client = try GettingStartedGuide.GitHubClient(baseURL: try #require(Self.api), session: replay.makeSession())
        #expect(try await client.issue(owner: "apple", repo: "swift", number: 1).title == "Crash on launch")
        #expect(try await client.openIssues(owner: "apple", repo: "swift").map(\.number) == [1])
        #expect(try await client.createIssue(owner: "apple", repo: "swift", title: "Docs").number == 2)
        #expect(try await client.user("octocat").id == 583231)
    }

    @Test("a base URL with a path is the matcher's prefix")
    func enterprise() async throws {
        let base = try #require(URL(string: "https://ghe.example.com/api/v3"))
        let replay = FixtureReplay([try fixture("https://ghe.example.com/api/v3/users/octocat", body: #"{"login":"octocat","id":1}"#)])
        let client = try GettingStartedGuide.GitHubClient(baseURL: base, session: replay.makeSession())
        #expect(try await client.user("octocat").login == "octocat")
    }

    /// Each error the guide shows: the response, the type asked for, and the lines it prints
    /// before the body.
    static let errors: [(name: String, url: String, method: String, status: Int, contentType: String, body: String, asked: any (Decodable & Sendable).Type, lines: [String])] = [
        ("a base path the matcher lacks", "https://ghe.example.com/api/v3/users/octocat", "GET", 200, "application/json", #"{"login":"octocat","id":1}"#, GettingStartedGuide.User.self, [
            "No model type matched GET https://ghe.example.com/api/v3/users/octocat -> 200 OK.",
            "Without its first segments /api/v3, the path would match /users/{login} -> User.",
            #"A base path before every route belongs in the prefix: URLModelMatcher(pathPrefix: "/api/v3")."#,
        ]),
        ("another route won", "https://api.github.com/repos/apple/swift/issues", "POST", 200, "application/json", #"[{"number":2,"title":"Docs","state":"open"}]"#, GettingStartedGuide.Issue.self, [
            "Type mismatch for POST https://api.github.com/repos/apple/swift/issues -> 200 OK.",
            "Expected Issue; the matcher resolved Array<Issue>.",
            "The route that won: /repos/{owner}/{repo}/issues -> Array<Issue>.",
            "POST /repos/{owner}/{repo}/issues (201) -> Issue gives Issue; it does not apply: limited to status 201, the response's is 200.",
        ]),
        ("the body does not fit", "https://api.github.com/repos/apple/swift/issues/1", "GET", 200, "application/json", #"{"number":"1","title":"Crash","state":"open"}"#, GettingStartedGuide.Issue.self, [
            "Could not decode Issue from GET https://api.github.com/repos/apple/swift/issues/1 -> 200 OK.",
            "At number: expected Int. Expected to decode Int but found a string instead.",
            #"Body (45 bytes): {"number":"1","title":"Crash","state":"open"}"#,
        ]),
        ("the API said no", "https://api.github.com/repos/apple/swift/issues/9", "GET", 404, "application/json", #"{"message":"Not Found"}"#, GettingStartedGuide.Issue.self, [
            #"Error response for GET https://api.github.com/repos/apple/swift/issues/9 -> 404 Not Found: APIError(message: "Not Found")"#,
        ]),
        ("not JSON at all", "https://api.github.com/users/octocat", "GET", 200, "text/html", #""<html>Sign in to the Wi-Fi</html>""#, GettingStartedGuide.User.self, [
            "Unacceptable content type for GET https://api.github.com/users/octocat -> 200 OK.",
            "Expected one of */*+json, application/json, text/javascript, text/json; found text/html.",
        ]),
    ]

    @Test("each common error prints what the guide shows", arguments: errors.indices)
    func commonError(_ index: Int) throws {
        let row = Self.errors[index]
        let serializer = try GettingStartedGuide.GitHubClient(baseURL: try #require(Self.api)).serializer
        let fixture = try fixture(row.url, method: row.method, status: row.status, contentType: row.contentType, body: row.body)
        let error = try #require(throws: SculptError.self, "\(row.name)") { try open(row.asked, fixture, serializer) }
        #expect("\(error)".hasPrefix(row.lines.joined(separator: "\n")), "\(row.name):\n\(error)")
    }

    private func open<M: Decodable & Sendable>(_ type: M.Type, _ fixture: Fixture, _ serializer: ModelResponseSerializer<URLModelMatcher>) throws(SculptError) -> M {
        try serializer.serialize(fixture.data, for: fixture.context, as: M.self)
    }
}
