import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Endpoints: a route written once")
struct EndpointTests {
    struct Issue: Decodable, Sendable, Equatable {
        let number: Int
    }

    struct Label: Decodable, Sendable, Equatable {
        let name: String
    }

    enum GitHub {
        static let issue = Endpoint<Issue>("/repos/{owner}/{repo}/issues/{number:#}")
        static let createIssue = Endpoint<Issue>(.post, "/repos/{owner}/{repo}/issues", status: .created)
        static let labels = Endpoint<[Label]>("/repos/{owner}/{repo}/labels")
        static let broken = Endpoint<Issue>("/repos/:owner")
    }

    static func matcher() throws -> URLModelMatcher {
        var matcher = URLModelMatcher(pathPrefix: "/v3")
        try matcher.add(GitHub.issue)
        try matcher.add(GitHub.createIssue)
        try matcher.add(GitHub.labels)
        return matcher
    }

    @Test("an endpoint's request, sent through a real session, decodes to the endpoint's model type")
    func roundTripThroughSession() async throws {
        let replay = FixtureReplay([
            try .stub(.get, "/v3/repos/apple/swift/issues/42", json: #"{"number":42}"#),
            try .stub(.post, "/v3/repos/apple/swift/issues", status: .created, json: #"{"number":43}"#),
        ])
        try await FixtureServer.running(replay) { _, base in
            let serializer = ModelResponseSerializer(matcher: try Self.matcher())
            let api = base.appending(path: "v3")
            let session = URLSession(configuration: .unhurried)
            let issue: Issue = try await session.model(GitHub.issue(["owner": "apple", "repo": "swift", "number": 42]), baseURL: api, serializer: serializer)
            #expect(issue == Issue(number: 42))
            var create = try GitHub.createIssue(["owner": "apple", "repo": "swift"])
            create.body = Data(#"{"title":"Crash"}"#.utf8)
            create.headerFields[.contentType] = "application/json"
            #expect(try await session.model(create, baseURL: api, serializer: serializer) == Issue(number: 43))
        }
    }

    @Test("a request's URL joins the base URL's path and the built path, and encodes the query strictly", arguments: [
        ("https://api.example.com", "https://api.example.com/repos/a%20b/c/labels?q=a%2Bb%26c%3Dd&flag"),
        ("https://api.example.com/v3", "https://api.example.com/v3/repos/a%20b/c/labels?q=a%2Bb%26c%3Dd&flag"),
        ("https://api.example.com/v3/?x=1#top", "https://api.example.com/v3/repos/a%20b/c/labels?q=a%2Bb%26c%3Dd&flag"),
    ])
    func urls(_ base: String, _ expected: String) throws {
        let request = try GitHub.labels(["owner": "a b", "repo": "c"], query: [URLQueryItem(name: "q", value: "a+b&c=d"), URLQueryItem(name: "flag", value: nil)])
        let urlRequest = try request.urlRequest(baseURL: try #require(URL(string: base)))
        #expect(urlRequest.url?.absoluteString == expected)
        #expect(urlRequest.httpMethod == "GET")
    }

    @Test("a pattern that does not compile is reported when registered and when asked for a request, and in the description")
    func brokenPattern() throws {
        var matcher = URLModelMatcher()
        let message = #"invalid URL pattern "/repos/:owner": segment ':owner' is written as other routers write a parameter: write {owner}, or %3Aowner for a literal"#
        let registered = #expect(throws: URLPattern.SyntaxError.self) { try matcher.add(GitHub.broken) }
        #expect(registered?.description == message)
        let asked = #expect(throws: URLPattern.SyntaxError.self) { try GitHub.broken(["owner": "apple"]) }
        #expect(asked?.description == message)
        #expect(GitHub.broken.description == "\(message) -> Issue")
        #expect(GitHub.createIssue.description == "POST /repos/{owner}/{repo}/issues (201) -> Issue")
    }

    @Test("a missing or extra parameter is an error before any request")
    func parameters() {
        let missing = #expect(throws: URLPattern.ParameterError.self) { try GitHub.issue(["owner": "apple", "repo": "swift"]) }
        #expect(missing?.description == "cannot build a path from \"/repos/{owner}/{repo}/issues/{number:#}\": no value for {number}")
        let extra = #expect(throws: URLPattern.ParameterError.self) { try GitHub.labels(["owner": "a", "repo": "b", "page": 2]) }
        #expect(extra?.description == "cannot build a path from \"/repos/{owner}/{repo}/labels\": no parameter is named 'page'; its parameters are owner, repo")
    }

    @Test("a base URL without a scheme or a host is refused", arguments: ["/relative/only", "http://", "https:///x", "file:///tmp"])
    func badBase(_ base: String) throws {
        let request = try GitHub.labels(["owner": "a", "repo": "b"])
        #expect(throws: URLError.self) { try request.urlRequest(baseURL: try #require(URL(string: base))) }
    }

    @Test("an endpoint's description is one bounded line, whatever its pattern holds")
    func boundedDescription() {
        let endpoint = Endpoint<Issue>("/" + String(repeating: "a", count: 1_000_000) + "/\u{1B}")
        #expect(endpoint.description.utf8.count <= 2_100)
        #expect(!endpoint.description.contains("\u{1B}"))
    }

    @Test("repeated Cookie fields reach Foundation joined with '; ', other repeated fields with ', '")
    func cookiesJoined() throws {
        var request = try GitHub.labels(["owner": "apple", "repo": "swift"])
        request.headerFields.append(HTTPField(name: .cookie, value: "a=1"))
        request.headerFields.append(HTTPField(name: .accept, value: "application/json"))
        request.headerFields.append(HTTPField(name: .cookie, value: "b=2"))
        request.headerFields.append(HTTPField(name: .accept, value: "text/plain"))
        let urlRequest = try request.urlRequest(baseURL: try #require(URL(string: "https://api.github.com")))
        #expect(urlRequest.value(forHTTPHeaderField: "Cookie") == "a=1; b=2")
        #expect(urlRequest.value(forHTTPHeaderField: "Accept") == "application/json, text/plain" || urlRequest.value(forHTTPHeaderField: "Accept") == "application/json,text/plain")
    }
}
