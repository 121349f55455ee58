import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import Testing

/// `explain(_:method:status:)` and `ambiguities()`: the matcher saying why.
@Suite("URLModelMatcher explains itself")
struct URLModelMatcherExplainTests {
    static func github() throws -> URLModelMatcher {
        var routes = URLModelMatcher(pathPrefix: "/v3")
        try routes.add("/users/*/repos", [Repository].self, method: .get)
        try routes.add("/users/*/**", ModelA.self)
        try routes.add("/users/*/repos", Repository.self, method: .post, status: .created)
        try routes.add("/users/*", User.self)
        try routes.add("/users/#/repos", ModelB.self)
        return routes
    }

    @Test("every candidate with why it wins, loses or does not apply; the winner is route(for:)'s")
    func explainsPrecedence() throws {
        let routes = try Self.github()
        let url = try #require(URL(string: "https://api.example.com/v3/users/octocat/repos"))
        let explanation = routes.explain(url, method: .get, status: .ok)
        #expect(explanation.prefix == .stripped("/v3"))
        #expect(explanation.segments == ["users", "octocat", "repos"])
        #expect(explanation.candidates.map(\.description) == [
            "POST /users/*/repos (201) -> Repository: does not apply: limited to POST, the request is GET",
            "GET /users/*/repos -> Array<Repository>: wins",
            "/users/*/** -> ModelA: loses: at segment 3 ('repos') literal 'repos' comes before '**'",
        ])
        #expect(explanation.winner?.description == routes.route(for: url, method: .get, status: .ok)?.description)
        let text = explanation.description
        #expect(text.hasPrefix("GET /v3/users/octocat/repos (status 200)\nprefix /v3: stripped\nmatched against: /users/octocat/repos\n"))
    }

    @Test("a digit segment: '#' before '*', and the same pattern's routes by specificity")
    func digitsAndSpecificity() throws {
        let routes = try Self.github()
        let url = try #require(URL(string: "https://api.example.com/v3/users/42/repos"))
        let explanation = routes.explain(url, method: .post, status: .created)
        #expect(explanation.candidates.map(\.description) == [
            "/users/#/repos -> ModelB: wins",
            "POST /users/*/repos (201) -> Repository: loses: at segment 2 ('42') '#' comes before '*'",
            "GET /users/*/repos -> Array<Repository>: does not apply: limited to GET, the request is POST",
            "/users/*/** -> ModelA: loses: at segment 2 ('42') '#' comes before '*'",
        ])
        #expect(explanation.winner?.description == routes.route(for: url, method: .post, status: .created)?.description)
    }

    @Test("a path outside the prefix, and a path no pattern matches, say so")
    func misses() throws {
        let routes = try Self.github()
        let outside = routes.explain(try #require(URL(string: "https://h/v10/users/x")))
        #expect(outside.prefix == .missing(expected: "/v3", path: "/v10/users/x"))
        #expect(outside.candidates.isEmpty)
        #expect(outside.description.contains("prefix /v3: not found at the start of /v10/users/x; no route is tried"))
        let none = routes.explain(try #require(URL(string: "https://h/v3/orgs/x")))
        #expect(none.candidates.isEmpty)
        #expect(none.winner == nil)
        #expect(none.description.hasSuffix("no route's pattern matches"))
    }

    @Test("the explanation's winner is the lookup's, on every route of a real table and on near misses", arguments: [
        "/users/x", "/users/1/repos", "/users/x/repos", "/users/x/repos/y", "/users", "/users/x/y/z",
    ])
    func agreesWithLookup(path: String) throws {
        let routes = try Self.github()
        let url = try #require(URL(string: "https://h/v3" + path))
        for method in [HTTPRequest.Method.get, .post, .delete] {
            for status in [HTTPResponse.Status.ok, .created] {
                let explained = routes.explain(url, method: method, status: status).winner.map(\.description)
                #expect(explained == routes.route(for: url, method: method, status: status).map(\.description), "\(method) \(path) \(status)")
            }
        }
    }

    @Test("ambiguities: pairs of routes only precedence separates, with a path both match")
    func ambiguities() throws {
        var routes = URLModelMatcher()
        try routes.add("/users/*", ModelA.self)
        try routes.add("/users/#", ModelB.self)
        try routes.add("/orgs/*", ModelC.self)  // excludes both: a different literal
        try routes.add("/users/*", ModelC.self, method: .post)  // a refinement of one pattern: not listed
        try routes.add("/search/**", ModelD.self, method: .get)
        try routes.add("/search/code", ModelE.self, method: .post)  // methods exclude each other
        try routes.add("/search/issues", ModelE.self)
        #expect(routes.ambiguities().map(\.description) == [
            "/users/# wins over /users/* for /users/1: at segment 2 ('1') '#' comes before '*'",
            "/users/# wins over POST /users/* for /users/1: at segment 2 ('1') '#' comes before '*'",
            "/search/issues wins over GET /search/** for /search/issues: at segment 2 ('issues') literal 'issues' comes before '**'",
        ])
    }

    @Test("a table of patterns that exclude each other has no ambiguities")
    func noAmbiguities() throws {
        var routes = URLModelMatcher()
        for pattern in ["/a/b", "/a/c", "/b/*", "/c/#/d", "/c/#/e"] {
            try routes.add(pattern, ModelA.self)
        }
        #expect(routes.ambiguities().isEmpty)
    }

    // MARK: Edge cases

    @Test("an ambiguity's example path matches both routes as written, reserved characters encoded", arguments: [
        "/a%2Fb", "/%23", "/a%3Fb", "/%2541", "/%2E%2E%2F",
    ])
    func examplesMatch(pattern: String) throws {
        var routes = URLModelMatcher()
        try routes.add(pattern, ModelA.self)
        try routes.add("/*", ModelB.self)
        let ambiguity = try #require(routes.ambiguities().first)
        let url = try #require(URL(string: "https://h" + ambiguity.example))
        var alone = URLModelMatcher()
        try alone.add(pattern, ModelA.self)
        #expect(alone.route(for: url)?.modelType?.type == ModelA.self, "\(ambiguity.example) does not match \(pattern)")
    }

    @Test("ambiguities come in the registration order of their winners")
    func ambiguityOrder() throws {
        var routes = URLModelMatcher()
        try routes.add("/a/**", ModelA.self)
        try routes.add("/a/b", ModelB.self)
        try routes.add("/a/*", ModelC.self)
        #expect(routes.ambiguities().map { "\($0.winner.pattern)" } == ["/a/b", "/a/b", "/a/*"])
    }

    @Test("explain, nearest and ambiguities compare segments byte for byte, as the lookup does: é precomposed is not é decomposed", arguments: [
        ("caf%C3%A9", true), ("cafe%CC%81", false),
    ])
    func bytesNotCanonicalEquivalence(segment: String, matches: Bool) throws {
        var routes = URLModelMatcher(pathPrefix: "/v1")
        try routes.add("/caf\u{E9}/*", ModelA.self)
        let url = try #require(URL(string: "https://h/v1/\(segment)/x"))
        #expect((routes.route(for: url) != nil) == matches)
        #expect((routes.explain(url).winner != nil) == matches)
        let response = ResponseContext(url: url, method: .get, status: .ok, headerFields: [:])
        #expect(routes.nearestCandidates(for: response).contains { $0.hasPrefix("/caf") } == matches)
        var prefixed = URLModelMatcher(pathPrefix: "/caf\u{E9}")
        try prefixed.add("/*", ModelA.self)
        #expect((prefixed.route(for: URL(string: "https://h/\(segment)/x")!) != nil) == matches)
        #expect(prefixed.explain(URL(string: "https://h/\(segment)/x")!).prefix.isStripped == matches)
    }

    @Test("a route that accepts more of the path is nearer, however long it is")
    func nearestByAcceptedStart() throws {
        var routes = URLModelMatcher()
        try routes.add("/orgs/x", ModelA.self)  // shares 'x' in second place, accepts none of the start
        try routes.add("/users/a/b/c/d/e", ModelB.self)  // accepts 'users', four segments longer
        let url = try #require(URL(string: "https://h/users/x"))
        let nearest = routes.nearestCandidates(for: ResponseContext(url: url, method: .get, status: .ok, headerFields: [:]))
        #expect(nearest.first?.hasPrefix("/users/") == true, "\(nearest)")
    }

    @Test("a route describes itself in at most 2,048 bytes, escaped, however long its pattern")
    func routeDescriptionBounded() throws {
        var routes = URLModelMatcher()
        try routes.add("/" + String(repeating: "a", count: 1 << 20) + "/%1B%0A", ModelA.self)
        let description = try #require(routes.routes.first).description
        #expect(description.utf8.count <= 2_048)
        #expect(!description.contains("\u{1B}") && !description.contains("\n"))
    }

    @Test("an explanation is escaped and bounded line by line, whatever the path holds")
    func explanationBounded() throws {
        var routes = URLModelMatcher()
        try routes.add("/*", ModelA.self)
        let url = try #require(URL(string: "https://h/" + String(repeating: "x", count: 1 << 20) + "%1B%0D%0A"))
        let text = routes.explain(url).description
        #expect(text.utf8.count < 8_192)
        #expect(!text.contains("\u{1B}") && !text.contains("\r"))
    }
}

extension URLModelMatcher.Explanation.PrefixStep {
    var isStripped: Bool {
        if case .stripped = self { true } else { false }
    }
}
