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

    /// The error `matcher` gives for `body` at `url`, asked for `type`.
    static func failure<Matcher: ModelMatcher, T: Decodable & Sendable>(
        _ matcher: Matcher, _ url: String, method: HTTPRequest.Method = .get, body: String = #"{"n":1}"#, as type: T.Type
    ) throws -> SculptError {
        let response = ResponseContext(url: URL(string: url), method: method, status: .ok, headerFields: [.contentType: "application/json"])
        return try #require(throws: SculptError.self) { try ModelResponseSerializer(matcher: matcher).serialize(Data(body.utf8), for: response, as: type) }
    }

    @Test("a base path the matcher was not given: the prefix to give, and the route it would then match")
    func basePathWithoutPrefix() throws {
        var matcher = URLModelMatcher()
        try matcher.add("/users/{login}", User.self)
        let error = try Self.failure(matcher, "https://ghe.example.com/api/v3/users/octocat", as: User.self)
        #expect(error.diagnosis == [
            "Without its first segments /api/v3, the path would match /users/{login} -> User.",
            #"A base path before every route belongs in the prefix: URLModelMatcher(pathPrefix: "/api/v3")."#,
        ])
    }

    @Test("a prefix that comes after a base path: the whole base path to give as the prefix")
    func prefixAfterBasePath() throws {
        var matcher = URLModelMatcher(pathPrefix: "/v3")
        try matcher.add("/users/{login}", User.self)
        let error = try Self.failure(matcher, "https://ghe.example.com/api/v3/users/octocat", as: User.self)
        #expect(error.diagnosis == [
            "The path /api/v3/users/octocat does not start with the prefix /v3, but has it after /api.",
            #"A base path before every route belongs in the prefix: URLModelMatcher(pathPrefix: "/api/v3")."#,
            "With it, /users/{login} -> User would win.",
        ])
    }

    struct Post: Decodable, Sendable { let type: String }
    struct Photo: Decodable, Sendable { let type: String }
    struct Feed: Decodable, Sendable { let n: Int? }

    @Test("a route whose matcher answers nothing for the body did not win: the next one did")
    func delegateAnsweredNothing() throws {
        var feed = TypeFieldModelMatcher(field: "type")
        try feed.add("post", Post.self)
        try feed.add("photo", Photo.self)
        feed.unknownValuesMatchNothing = true
        var matcher = URLModelMatcher()
        try matcher.add("/feed/*", matcher: feed)
        try matcher.add("/feed/**", Feed.self)
        let video = try Self.failure(matcher, "https://h/feed/1", body: #"{"type":"video"}"#, as: Post.self)
        #expect(video.diagnosis == [
            "/feed/* -> TypeFieldModelMatcher applies, but its matcher answered nothing for this body.",
            "The route that won: /feed/** -> Feed.",
            "No route gives Post but through a matcher: /feed/* -> TypeFieldModelMatcher.",
        ])
        let photo = try Self.failure(matcher, "https://h/feed/1", body: #"{"type":"photo"}"#, as: Post.self)
        #expect(photo.diagnosis == [
            "The route that won: /feed/* -> TypeFieldModelMatcher.",
            "No route gives Post but through a matcher: /feed/* -> TypeFieldModelMatcher.",
        ])
    }

    @Test("of several matchers, only those asked explain themselves: the one that answered, and those before it")
    func firstMatchExplainsThoseAsked() throws {
        var users = URLModelMatcher()
        try users.add("/users/{login}", User.self)
        var issues = URLModelMatcher()
        try issues.add("/users/{login}", Issue.self)
        let error = try Self.failure(FirstMatchModelMatcher([users, issues]), "https://h/users/x", as: Issue.self)
        #expect(error.diagnosis == ["The route that won: /users/{login} -> User.", "No route gives Issue."])
    }

    @Test("the routes of the asked type that match the path come first, whatever their order of registration")
    func matchingRoutesFirst() throws {
        var matcher = URLModelMatcher(pathPrefix: "/v3")
        try matcher.add("/user", User.self)
        try matcher.add("/orgs/{o}/owner", User.self)
        try matcher.add("/repos/{o}/{r}/owner", User.self)
        try matcher.add("/teams/{t}/lead", User.self)
        try matcher.add("/users/{login}", User.self, method: .get)
        try matcher.add("/users/me", Issue.self)
        let error = try Self.failure(matcher, "https://h/v3/users/me", as: User.self)
        #expect(error.diagnosis == [
            "The route that won: /users/me -> Issue.",
            "GET /users/{login} -> User gives User; it loses: at segment 2 ('me') literal 'me' comes before '*'.",
        ])
    }

    @Test("a diagnosis is bounded and escaped as the error keeps it, however many routes do not apply")
    func boundedDiagnosis() throws {
        var matcher = URLModelMatcher()
        for index in 0..<500 { try matcher.add("/a", User.self, method: HTTPRequest.Method("M\(index)")) }
        let more = try Self.failure(matcher, "https://h/a", as: User.self)
        #expect(more.diagnosis.count == 9)
        #expect(more.diagnosis.last == "… and 492 more routes that match the path but do not apply.")
        var prefixed = URLModelMatcher(pathPrefix: "/v3")
        try prefixed.add("/a", User.self)
        let escaped = try Self.failure(prefixed, "https://h/%1B%5B31m%0A/" + String(repeating: "p", count: 100_000), as: User.self)
        #expect(escaped.diagnosis.first?.hasPrefix(#"The path /%1B%5B31m%0A/ppp"#) == true, "\(escaped.diagnosis)")
        #expect(escaped.diagnosis.allSatisfy { $0.utf8.count <= 1_100 })
    }

    @Test("a decoded path shows an encoded slash or question mark as it was sent, not as a separator or a query; a secret parameter written in it is redacted")
    func reservedCharactersStayEncoded() throws {
        var matcher = URLModelMatcher(pathPrefix: "/v3")
        try matcher.add("/users/{login}", User.self, method: .get)
        let error = try Self.failure(matcher, "https://h/users/a%2Fb%3Faccess_token%3Dx", as: User.self)
        #expect(error.diagnosis == [
            "The path /users/a%2Fb%3Faccess_token%3DREDACTED does not start with the prefix /v3: no route was tried.",
            "Were it /v3/users/a%2Fb%3Faccess_token%3DREDACTED, GET /users/{login} -> User would win.",
        ])
    }

    @Test("paths are shown as sent: a slash sent encoded and an encoded slash sent encoded again read apart", arguments: [
        ("https://h/users/a%2Fb", "/users/a%2Fb"),
        ("https://h/users/a%252Fb", "/users/a%252Fb"),
        ("https://h/users/100%25", "/users/100%25"),
        // Foundation sends an escape that does not decode as written, encoded.
        ("https://h/users/a%zz", "/users/a%25zz"),
        ("https://h/users/a%25zz", "/users/a%25zz"),
        ("https://h/users/caf%E9", "/users/caf%E9"),
        ("https://h/users/caf%25E9", "/users/caf%25E9"),
        ("https://h/users/a%20b", "/users/a%20b"),
        ("https://h/users/./a/../b%2E", "/users/b%2E"),
    ])
    func shownAsSent(_ url: String, _ shown: String) throws {
        var matcher = URLModelMatcher(pathPrefix: "/v3")
        try matcher.add("/users/{login}", User.self)
        let error = try Self.failure(matcher, url, as: User.self)
        #expect(error.diagnosis.first == "The path \(shown) does not start with the prefix /v3: no route was tried.", "\(error.diagnosis)")
        #expect(matcher.explain(try #require(URL(string: url))).path == shown)
    }

    @Test("a base path with an escape: an endpoint's request matches the prefix the guide gives, and a diagnosis suggests a prefix that matches", arguments: [
        "https://api.example.com/a%2541", "https://api.example.com/team%2Fx/api",
    ])
    func escapedBasePath(_ base: String) throws {
        let baseURL = try #require(URL(string: base))
        let endpoint = Endpoint<User>("/users/{login}")
        var matcher = URLModelMatcher(pathPrefix: baseURL.path(percentEncoded: true))
        try matcher.add(endpoint)
        let request = try endpoint(["login": "octocat"]).urlRequest(baseURL: baseURL)
        let url = try #require(request.url)
        #expect(matcher.route(for: url)?.parameters == ["login": "octocat"], "\(url)")

        var bare = URLModelMatcher()
        try bare.add(endpoint)
        let error = try Self.failure(bare, url.absoluteString, as: User.self)
        let suggestion = try #require(error.diagnosis.first { $0.contains("URLModelMatcher(pathPrefix:") }, "\(error.diagnosis)")
        let prefix = try #require(suggestion.firstMatch(of: /pathPrefix: "([^"]*)"/)?.1)
        var suggested = URLModelMatcher(pathPrefix: String(prefix))
        try suggested.add(endpoint)
        #expect(suggested.route(for: url) != nil, "\(suggestion)")
    }

    @Test("a credential in a path is redacted in every line of the diagnosis, as the description redacts it")
    func credentialInPath() throws {
        let token = "ghp_" + "Zq7Rt2Lm9Xv4Bn6Kp3Wd8Hs5Jc1Ga0EfYuIoP"
        var matcher = URLModelMatcher(pathPrefix: "/v3")
        try matcher.add("/users/{login}", User.self)
        try matcher.add("/users/{login}", [User].self, method: .post)
        let missing = try Self.failure(matcher, "https://h/users/\(token)", as: User.self)
        let mismatch = try Self.failure(matcher, "https://h/v3/users/\(token)", as: [User].self)
        #expect(missing.diagnosis.count == 2)
        #expect(mismatch.diagnosis.count >= 2)
        let response = ResponseContext(url: URL(string: "https://h/users/\(token)"), method: .get, status: .ok)
        let direct = matcher.diagnosis(for: response, data: Data(), resolved: nil, expected: User.self)
        for line in missing.diagnosis + mismatch.diagnosis + direct {
            #expect(!line.contains(token.dropFirst(4)), "\(line)")
        }
        #expect(missing.diagnosis.first?.hasPrefix("The path /users/REDACTED does not start") == true, "\(missing.diagnosis)")
    }

    @Test("a type mismatch over 10,000 routes that match the path names the routes of the asked type, at most three")
    func manyRoutesOnOnePath() throws {
        struct Other: Decodable, Sendable {}
        var matcher = URLModelMatcher()
        try matcher.add("/users/*", User.self, method: .get)
        for index in 0..<10_000 { try matcher.add("/users/*", Other.self, method: HTTPRequest.Method("M\(index)")) }
        let response = ResponseContext(url: URL(string: "https://h/users/octocat"), method: .get, status: .ok)
        let lines = matcher.diagnosis(for: response, data: Data(), resolved: ModelType(User.self), expected: Other.self)
        #expect(lines.first == "The route that won: GET /users/* -> User.")
        #expect(lines.count == 4, "\(lines)")
    }

    @Test("routes that match the path but do not apply are named up to a few, the rest counted")
    func manyNotApplying() throws {
        var matcher = URLModelMatcher()
        for index in 0..<10_000 { try matcher.add("/users/*", User.self, method: HTTPRequest.Method("M\(index)")) }
        let response = ResponseContext(url: URL(string: "https://h/users/octocat"), method: .get, status: .ok)
        let lines = matcher.diagnosis(for: response, data: Data(), resolved: nil, expected: User.self)
        #expect(lines.count == 9)
        #expect(lines.last == "… and 9,992 more routes that match the path but do not apply.")
        #expect(lines.reduce(0) { $0 + $1.utf8.count } < 2_048)
    }

    @Test("a credential with a percent-encoded letter in a path shows no part of itself, decoded or as sent")
    func percentEncodedCredential() throws {
        let token = "xoxb-" + "1234567890abcdefghijklmn" + "-" + "6qVdaxdiEQ8DAqcP87SFGFoa"
        var matcher = URLModelMatcher(pathPrefix: "/v3")
        try matcher.add("/users/{login}/keys", User.self)
        let sent = "https://h/v3/nomatch/" + token.replacingOccurrences(of: "b-1", with: "b%2D1").replacingOccurrences(of: "n-6", with: "n%2D6")
        let error = try Self.failure(matcher, sent, as: User.self)
        for text in [error.description] + error.diagnosis {
            #expect(!text.contains("6qVdaxdiEQ8DAqcP87SFGFoa") && !text.contains("1234567890abcdefghijklmn"), "\(text)")
        }
    }
}
