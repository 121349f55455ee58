import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import Testing

/// The errors a `URLModelMatcher` gives when no route matches or another type than the one asked
/// for wins, each checked whole: what a newcomer reads first when a route is wrong.
@Suite("What a failed match says about its routes")
struct MatchDiagnosisTests {
    struct User: Decodable, Sendable, Equatable { let login: String }
    struct Issue: Decodable, Sendable, Equatable { let number: Int }

    static func github() throws -> ModelResponseSerializer<URLModelMatcher> {
        var matcher = URLModelMatcher(pathPrefix: "/v3")
        try matcher.add("/users/{login}", User.self, method: .get)
        try matcher.add("/repos/{owner}/{repo}/issues", [Issue].self, method: .post, status: .ok)
        try matcher.add("/repos/{owner}/{repo}/issues", Issue.self, method: .post, status: .created)
        try matcher.add("/repos/{owner}/{repo}/issues", [Issue].self)
        return ModelResponseSerializer(matcher: matcher)
    }

    /// The error for a response to `method` `path` with `status` and a small JSON body, asking for `type`.
    static func failure<T: Decodable & Sendable>(_ method: HTTPRequest.Method, _ path: String, _ status: HTTPResponse.Status = .ok, as type: T.Type) throws -> SculptError {
        let response = ResponseContext(url: URL(string: "https://api.example.com\(path)"), method: method, status: status, headerFields: [.contentType: "application/json"])
        do {
            _ = try github().serialize(Data(#"{"n":1}"#.utf8), for: response, as: type)
        } catch let error as SculptError {
            return error
        }
        Testing.Issue.record("\(method) \(path) decoded")
        throw CancellationError()
    }

    @Test("a path without the prefix: the prefix is named, the nearest routes listed, and the route it would match shown")
    func prefixMissing() throws {
        let error = try Self.failure(.get, "/users/octocat", as: User.self)
        #expect(error.reason.name == "noModelMatched")
        #expect(error.diagnosis == [
            "The path /users/octocat does not start with the prefix /v3: no route was tried.",
            "Were it /v3/users/octocat, GET /users/{login} -> User would win.",
        ])
        #expect(error.description == """
            No model type matched GET https://api.example.com/users/octocat -> 200 OK.
            Nearest registered: GET /users/{login}.
            The path /users/octocat does not start with the prefix /v3: no route was tried.
            Were it /v3/users/octocat, GET /users/{login} -> User would win.
            Body (7 bytes): {"n":1}
            """)
    }

    @Test("a path with the prefix that no route matches: the path the routes were matched against")
    func prefixStripped() throws {
        let error = try Self.failure(.get, "/v3/users/octocat/starred", as: User.self)
        #expect(error.description == """
            No model type matched GET https://api.example.com/v3/users/octocat/starred -> 200 OK.
            Nearest registered: GET /users/{login}.
            The prefix /v3 was stripped; routes were matched against /users/octocat/starred.
            Body (7 bytes): {"n":1}
            """)
    }

    @Test("a route whose method does not apply is named with why")
    func methodDoesNotApply() throws {
        let error = try Self.failure(.delete, "/v3/users/octocat", as: User.self)
        #expect(error.diagnosis == [
            "The prefix /v3 was stripped; routes were matched against /users/octocat.",
            "GET /users/{login} -> User matches the path but does not apply: limited to GET, the request is DELETE.",
        ])
    }

    @Test("another type won: the winning route, and why the route of the asked type lost")
    func typeMismatch() throws {
        let error = try Self.failure(.post, "/v3/repos/apple/swift/issues", as: Issue.self)
        #expect(error.reason.name == "typeMismatch")
        #expect(error.description == """
            Type mismatch for POST https://api.example.com/v3/repos/apple/swift/issues -> 200 OK.
            Expected Issue; the matcher resolved Array<Issue>.
            The route that won: POST /repos/{owner}/{repo}/issues (200) -> Array<Issue>.
            POST /repos/{owner}/{repo}/issues (201) -> Issue gives Issue; it does not apply: limited to status 201, the response's is 200.
            Body (7 bytes): {"n":1}
            """)
    }

    @Test("another type won by precedence: the pattern that came first is named")
    func typeMismatchByPrecedence() throws {
        var matcher = URLModelMatcher()
        try matcher.add("/users/{login}", User.self)
        try matcher.add("/users/{id:#}", Issue.self, method: .get)
        try matcher.add("/users/me", [User].self)
        let serializer = ModelResponseSerializer(matcher: matcher)
        let response = ResponseContext(url: URL(string: "https://x/users/42"), method: .get, headerFields: [.contentType: "application/json"])
        let error = try #require(throws: SculptError.self) { try serializer.serialize(Data(#"{"login":"a"}"#.utf8), for: response, as: User.self) }
        #expect(error.diagnosis == [
            "The route that won: GET /users/{id:#} -> Issue.",
            "/users/{login} -> User gives User; it loses: at segment 2 ('42') '#' comes before '*'.",
        ])
        let unrelated = ResponseContext(url: URL(string: "https://x/users/me"), method: .get, headerFields: [.contentType: "application/json"])
        let other = try #require(throws: SculptError.self) { try serializer.serialize(Data(#"{"login":"a"}"#.utf8), for: unrelated, as: Issue.self) }
        #expect(other.diagnosis == [
            "The route that won: /users/me -> Array<User>.",
            "GET /users/{id:#} -> Issue gives Issue; its pattern does not match /users/me.",
        ])
    }

    @Test("a matcher that does not explain itself adds nothing")
    func silentMatcher() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Issue].self))
        let response = ResponseContext(url: URL(string: "https://x/a"), headerFields: [.contentType: "application/json"])
        let error = try #require(throws: SculptError.self) { try serializer.serialize(Data("[]".utf8), for: response, as: Issue.self) }
        #expect(error.diagnosis.isEmpty)
    }
}
