import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import Testing

/// One registration in a table row.
struct Registration: Sendable, CustomStringConvertible {
    var pattern: String
    var type: any (Decodable & Sendable).Type
    var method: HTTPRequest.Method?
    var status: HTTPResponse.Status?

    init(_ pattern: String, _ type: any (Decodable & Sendable).Type, method: HTTPRequest.Method? = nil, status: HTTPResponse.Status? = nil) {
        self.pattern = pattern
        self.type = type
        self.method = method
        self.status = status
    }

    var description: String {
        "\(method.map { "\($0.rawValue) " } ?? "")\(pattern)\(status.map { " (\($0.code))" } ?? "") -> \(type)"
    }
}

/// A matcher table row: registrations, a URL (with method and status), and the type expected.
struct MatchCase: Sendable, CustomTestStringConvertible {
    var name: String
    var prefix: String? = nil
    var routes: [Registration]
    var url: String
    var method: HTTPRequest.Method? = nil
    var status: HTTPResponse.Status? = nil
    var expected: (any (Decodable & Sendable).Type)?

    var testDescription: String { name }

    func matcher() throws -> URLModelMatcher {
        var matcher = URLModelMatcher(pathPrefix: prefix)
        for route in routes {
            try add(route, to: &matcher)
        }
        return matcher
    }

    private func add<M: Decodable & Sendable>(_ route: Registration, as type: M.Type = M.self, to matcher: inout URLModelMatcher) throws {
        try matcher.add(route.pattern, type, method: route.method, status: route.status)
    }

    private func add(_ route: Registration, to matcher: inout URLModelMatcher) throws {
        try add(route, as: route.type, to: &matcher)
    }
}

private let example = "http://example.com"

/// Patterns against plain paths: slashes, segment counts, `#` and `*`.
let plainPathCases: [MatchCase] = [
    .init(name: "nil when no match is found", routes: [], url: "/test", expected: nil),
    .init(name: "two routes, first", routes: [.init("test", ModelA.self), .init("alt", ModelB.self)], url: "test", expected: ModelA.self),
    .init(name: "two routes, second", routes: [.init("test", ModelA.self), .init("alt", ModelB.self)], url: "alt", expected: ModelB.self),
    .init(name: "URL without leading slash", routes: [.init("/test", ModelA.self)], url: "test", expected: ModelA.self),
    .init(name: "URL with leading slash", routes: [.init("/test", ModelA.self)], url: "/test", expected: ModelA.self),
    .init(name: "URL with trailing slash", routes: [.init("/test", ModelA.self)], url: "test/", expected: ModelA.self),
    .init(name: "path prefix is ignored", prefix: "v1", routes: [.init("test", ModelA.self)], url: "v1/test", expected: ModelA.self),
    .init(name: "fewer segments do not match", routes: [.init("test/foos", ModelA.self)], url: "test", expected: nil),
    .init(name: "other single segment does not match", routes: [.init("test/foos", ModelA.self)], url: "foos", expected: nil),
    .init(name: "more segments do not match", routes: [.init("test/foos", ModelA.self)], url: "test/foos/bars", expected: nil),
    .init(name: "equal segment counts match", routes: [.init("test/foos", ModelA.self)], url: "test/foos", expected: ModelA.self),
    .init(name: "# matches digits", routes: [.init("test/#", ModelA.self)], url: "test/42", expected: ModelA.self),
    .init(name: "# rejects text", routes: [.init("test/#", ModelA.self)], url: "test/foo", expected: nil),
    .init(name: "* matches anything", routes: [.init("test/*", ModelA.self)], url: "test/foo42", expected: ModelA.self),
]

/// Patterns under a path prefix: wildcards and their precedence, statuses and methods.
let prefixedPathCases: [MatchCase] = [
    .init(name: "prefixed: no match", routes: [], url: "\(example)/test", expected: nil),
    .init(name: "prefixed: match found", routes: [.init("test", ModelA.self), .init("alternative", ModelB.self)], url: "\(example)/alternative", expected: ModelB.self),
    .init(name: "prefixed: base path", prefix: "/api/v1", routes: [.init("test", ModelA.self)], url: "\(example)/api/v1/test", expected: ModelA.self),
    .init(name: "prefixed: equal component count, too few", prefix: "/api/v1", routes: [.init("test/things", ModelA.self)], url: "\(example)/api/v1/test", expected: nil),
    .init(name: "prefixed: equal component count, too many", prefix: "/api/v1", routes: [.init("test/things", ModelA.self)], url: "\(example)/api/v1/test/things/thingys", expected: nil),
    .init(name: "prefixed: # digits", prefix: "/api/v1", routes: [.init("test/#", ModelA.self)], url: "\(example)/api/v1/test/42", expected: ModelA.self),
    .init(name: "prefixed: # rejects text", prefix: "/api/v1", routes: [.init("test/#", ModelA.self)], url: "\(example)/api/v1/test/things", expected: nil),
    .init(name: "prefixed: * is one segment", prefix: "/api/v1", routes: [.init("test/*", ModelA.self), .init("test2/**", ModelB.self)], url: "\(example)/api/v1/test/whatever/42", expected: nil),
    .init(name: "prefixed: ** one segment", prefix: "/api/v1", routes: [.init("test/*", ModelA.self), .init("test2/**", ModelB.self)], url: "\(example)/api/v1/test2/whatever42", expected: ModelB.self),
    .init(name: "prefixed: ** many segments", prefix: "/api/v1", routes: [.init("test/*", ModelA.self), .init("test2/**", ModelB.self)], url: "\(example)/api/v1/test2/whatever/42", expected: ModelB.self),
    .init(name: "prefixed: exact beats * (registered after)", prefix: "/api/v1", routes: [.init("test/*", ModelB.self), .init("test/path/sub", ModelA.self), .init("test/path/under", ModelC.self), .init("test", ModelD.self)], url: "\(example)/api/v1/test/path/sub", expected: ModelA.self),
    .init(name: "prefixed: exact sibling", prefix: "/api/v1", routes: [.init("test/*", ModelB.self), .init("test/path/sub", ModelA.self), .init("test/path/under", ModelC.self), .init("test", ModelD.self)], url: "\(example)/api/v1/test/path/under", expected: ModelC.self),
    .init(name: "prefixed: * as fallback", prefix: "/api/v1", routes: [.init("test/*", ModelB.self), .init("test/path/sub", ModelA.self), .init("test", ModelD.self)], url: "\(example)/api/v1/test/apple", expected: ModelB.self),
    .init(name: "prefixed: * never spans two segments", prefix: "/api/v1", routes: [.init("test/*", ModelB.self), .init("test/path/sub", ModelA.self)], url: "\(example)/api/v1/test/apple/osx", expected: nil),
    .init(name: "prefixed: shorter literal", prefix: "/api/v1", routes: [.init("test/*", ModelB.self), .init("test", ModelD.self)], url: "\(example)/api/v1/test", expected: ModelD.self),
    .init(name: "prefixed: empty path without a root route", prefix: "/api/v1", routes: [.init("test/*", ModelB.self), .init("test", ModelD.self)], url: "\(example)/api/v1/", expected: nil),
    .init(name: "prefixed: * over ** for one segment", prefix: "/api/v1", routes: fallbackTable, url: "\(example)/api/v1/test/apple", expected: ModelA.self),
    .init(name: "prefixed: # before *", prefix: "/api/v1", routes: fallbackTable, url: "\(example)/api/v1/test/42", expected: ModelB.self),
    .init(name: "prefixed: backtrack to test/**", prefix: "/api/v1", routes: fallbackTable, url: "\(example)/api/v1/test/apple/seed", expected: ModelC.self),
    .init(name: "prefixed: root ** catches the rest", prefix: "/api/v1", routes: fallbackTable, url: "\(example)/api/v1/models", expected: ModelD.self),
    .init(name: "prefixed: root ** matches the empty path", prefix: "/api/v1", routes: fallbackTable, url: "\(example)/api/v1/", expected: ModelD.self),
    .init(name: "prefixed: status 200", prefix: "/api/v1", routes: statusTable, url: "\(example)/api/v1/test/path/sub", status: .ok, expected: ModelA.self),
    .init(name: "prefixed: status 201", prefix: "/api/v1", routes: statusTable, url: "\(example)/api/v1/test/path/sub", status: .created, expected: ModelB.self),
    .init(name: "prefixed: status 404 has no entry", prefix: "/api/v1", routes: statusTable, url: "\(example)/api/v1/test/path/sub", status: .notFound, expected: nil),
    .init(name: "prefixed: no status, only status entries", prefix: "/api/v1", routes: statusTable, url: "\(example)/api/v1/test/path/sub", expected: nil),
    .init(name: "prefixed: method GET", prefix: "/api/v1", routes: methodTable, url: "\(example)/api/v1/test/path/sub", method: .get, expected: ModelA.self),
    .init(name: "prefixed: method POST", prefix: "/api/v1", routes: methodTable, url: "\(example)/api/v1/test/path/sub", method: .post, expected: ModelB.self),
    .init(name: "prefixed: method PUT has no entry", prefix: "/api/v1", routes: methodTable, url: "\(example)/api/v1/test/path/sub", method: .put, expected: nil),
    .init(name: "prefixed: no method, only method entries", prefix: "/api/v1", routes: methodTable, url: "\(example)/api/v1/test/path/sub", expected: nil),
]

private let fallbackTable: [Registration] = [
    .init("test/*", ModelA.self), .init("test/#", ModelB.self), .init("test/**", ModelC.self), .init("**", ModelD.self),
]
private let statusTable: [Registration] = [.init("test/**", ModelA.self, status: .ok), .init("test/**", ModelB.self, status: .created)]
private let methodTable: [Registration] = [.init("test/**", ModelA.self, method: .get), .init("test/**", ModelB.self, method: .post)]

/// The precedence rules, and what a pattern does not match.
let sculptCases: [MatchCase] = [
    .init(name: "%2F stays inside its segment", routes: [.init("/files/*", ModelA.self), .init("/files/*/*", ModelB.self)], url: "\(example)/files/a%2Fb", expected: ModelA.self),
    .init(name: "a literal matches its decoded segment", routes: [.init("/files/a%2Fb", ModelA.self), .init("/files/*", ModelB.self)], url: "\(example)/files/a%2Fb", expected: ModelA.self),
    .init(name: "a decoded literal does not match two segments", routes: [.init("/files/a%2Fb", ModelA.self)], url: "\(example)/files/a/b", expected: nil),
    .init(name: "percent-encoded text matches its literal", routes: [.init("/caf\u{E9}", ModelA.self)], url: "\(example)/caf%C3%A9", expected: ModelA.self),
    .init(name: "/v1 prefix does not strip /v10", prefix: "/v1", routes: [.init("/users", ModelA.self), .init("/0/users", ModelB.self)], url: "\(example)/v10/users", expected: nil),
    .init(name: "/v1 prefix strips /v1", prefix: "/v1", routes: [.init("/users", ModelA.self)], url: "\(example)/v1/users", expected: ModelA.self),
    .init(name: "prefix with slashes around it", prefix: "/v3/", routes: [.init("/users", ModelA.self)], url: "\(example)/v3/users", expected: ModelA.self),
    .init(name: "two-segment prefix", prefix: "api/v3", routes: [.init("/users", ModelA.self)], url: "\(example)/api/v3/users", expected: ModelA.self),
    .init(name: "partial two-segment prefix", prefix: "api/v3", routes: [.init("/users", ModelA.self)], url: "\(example)/api/users", expected: nil),
    .init(name: "a URL without the prefix does not match", prefix: "/v3", routes: [.init("/users", ModelA.self)], url: "\(example)/users", expected: nil),
    .init(name: "prefix /v3/../v3 is /v3", prefix: "/v3/../v3", routes: [.init("/users", ModelA.self)], url: "\(example)/v3/users", expected: ModelA.self),
    .init(name: "prefix /./v3 is /v3", prefix: "/./v3", routes: [.init("/users", ModelA.self)], url: "\(example)/v3/users", expected: ModelA.self),
    .init(name: "prefix /v2/%2E%2E/v3 is /v3", prefix: "/v2/%2E%2E/v3", routes: [.init("/users", ModelA.self)], url: "\(example)/v3/users", expected: ModelA.self),
    .init(name: "prefix /../v3 is /v3 (.. never climbs above the root)", prefix: "/../v3", routes: [.init("/users", ModelA.self)], url: "\(example)/v3/users", expected: ModelA.self),
    .init(name: "prefix /v3/.. is no prefix", prefix: "/v3/..", routes: [.init("/users", ModelA.self)], url: "\(example)/users", expected: ModelA.self),
    .init(name: "prefix /v3/./x/.. is /v3, spelled as the URL resolves it", prefix: "/v3/./x/..", routes: [.init("/users", ModelA.self)], url: "\(example)/v3/x/../users", expected: ModelA.self),
    .init(name: "doubled slashes in the URL", routes: [.init("/repos/*/*", ModelA.self)], url: "\(example)//repos//apple///swift", expected: ModelA.self),
    .init(name: "doubled slashes in the pattern", routes: [.init("//repos//*//*//", ModelA.self)], url: "\(example)/repos/apple/swift", expected: ModelA.self),
    .init(name: "query and fragment are ignored", routes: [.init("/search", ModelA.self)], url: "\(example)/search?q=a/b#x/y", expected: ModelA.self),
    .init(name: "root pattern /", routes: [.init("/", ModelA.self)], url: "\(example)/", expected: ModelA.self),
    .init(name: "empty pattern is the root", routes: [.init("", ModelA.self)], url: example, expected: ModelA.self),
    .init(name: "literals are case-sensitive", routes: [.init("/Users", ModelA.self)], url: "\(example)/users", expected: nil),
    .init(name: "id# is a literal", routes: [.init("/id#", ModelA.self)], url: "\(example)/id42", expected: nil),
    .init(name: "a*b is a literal", routes: [.init("/a*b", ModelA.self)], url: "\(example)/a*b", expected: ModelA.self),
    .init(name: "an escape that is not UTF-8 stays as written, never U+FFFD", routes: [.init("/n/\u{FFFD}", ModelA.self)], url: "\(example)/n/%A9", expected: nil),
    .init(name: "lowercase escapes decode", routes: [.init("/caf\u{E9}", ModelA.self)], url: "\(example)/caf%c3%a9", expected: ModelA.self),
    .init(name: "a truncated escape stays as written", routes: [.init("/a/#", ModelA.self)], url: "\(example)/a/1%2", expected: nil),
    .init(name: "# never matches non-ASCII digits", routes: [.init("/n/#", ModelA.self)], url: "\(example)/n/%D9%A3", expected: nil),
    .init(name: "# never matches a signed number", routes: [.init("/n/#", ModelA.self)], url: "\(example)/n/-1", expected: nil),
    .init(name: "backtracking past a literal dead end", routes: [.init("/a/b/c", ModelA.self), .init("/a/*/d", ModelB.self)], url: "\(example)/a/b/d", expected: ModelB.self),
    .init(name: "backtracking past # to *", routes: [.init("/a/#/x", ModelA.self), .init("/a/*/y", ModelB.self)], url: "\(example)/a/1/y", expected: ModelB.self),
    .init(name: "** is tried last at its level", routes: [.init("/a/**", ModelA.self), .init("/a/*/b", ModelB.self)], url: "\(example)/a/x/b", expected: ModelB.self),
    .init(name: "a deeper ** beats a shallower one", routes: [.init("/**", ModelA.self), .init("/a/**", ModelB.self)], url: "\(example)/a/x/y", expected: ModelB.self),
    .init(name: "** with zero segments", routes: [.init("/search/**", ModelA.self)], url: "\(example)/search", expected: ModelA.self),
    .init(name: "exact pattern beats ** with zero segments", routes: [.init("/search/**", ModelA.self), .init("/search", ModelB.self)], url: "\(example)/search", expected: ModelB.self),
    .init(name: ".. drops the segment before it", routes: [.init("/a/*/c", ModelA.self), .init("/c", ModelB.self)], url: "\(example)/a/../c", expected: ModelB.self),
    .init(name: ". is dropped", routes: [.init("/a/*/c", ModelA.self), .init("/a/c", ModelB.self)], url: "\(example)/a/./c", expected: ModelB.self),
    .init(name: "%2E%2E is .. too", routes: [.init("/a/*", ModelA.self), .init("/b", ModelB.self)], url: "\(example)/a/%2E%2E/b", expected: ModelB.self),
    .init(name: ".. never climbs above the root", routes: [.init("/b", ModelB.self)], url: "\(example)/../../b", expected: ModelB.self),
    .init(name: "... is an ordinary segment", routes: [.init("/a/*", ModelA.self)], url: "\(example)/a/...", expected: ModelA.self),
    .init(name: "method and status beat method", routes: refinementTable, url: "\(example)/items", method: .post, status: .created, expected: ModelA.self),
    .init(name: "method beats status", routes: refinementTable, url: "\(example)/items", method: .post, status: .ok, expected: ModelB.self),
    .init(name: "status beats plain", routes: refinementTable, url: "\(example)/items", method: .get, status: .accepted, expected: ModelC.self),
    .init(name: "plain entry last", routes: refinementTable, url: "\(example)/items", method: .get, status: .ok, expected: ModelD.self),
    .init(name: "an entry for another method falls back to a wider pattern", routes: [.init("/users/me", ModelA.self, method: .post), .init("/users/*", ModelB.self)], url: "\(example)/users/me", method: .get, expected: ModelB.self),
    .init(name: "re-registering replaces", routes: [.init("/users/*", ModelA.self), .init("users/*/", ModelB.self)], url: "\(example)/users/x", expected: ModelB.self),
]

private let refinementTable: [Registration] = [
    .init("/items", ModelD.self),
    .init("/items", ModelC.self, status: .accepted),
    .init("/items", ModelB.self, method: .post),
    .init("/items", ModelA.self, method: .post, status: .created),
]

/// URL spellings whose path sits in different places in the text (RFC 3986, appendix B).
let spellingCases: [MatchCase] = [
    .init(name: "spelled https://h:80/users/1?b#c", routes: spellingTable, url: "https://h:80/users/1?b#c", expected: ModelA.self),
    .init(name: "spelled HTTP://H/users/1", routes: spellingTable, url: "HTTP://H/users/1", expected: ModelA.self),
    .init(name: "spelled https://user:pw@h/users/1", routes: spellingTable, url: "https://user:pw@h/users/1", expected: ModelA.self),
    .init(name: "spelled https://[::1]:8080/users/1", routes: spellingTable, url: "https://[::1]:8080/users/1", expected: ModelA.self),
    .init(name: "spelled x-y+z.1://h/users/1", routes: spellingTable, url: "x-y+z.1://h/users/1", expected: ModelA.self),
    .init(name: "spelled s://a@b@c/a/b", routes: spellingTable, url: "s://a@b@c/a/b", expected: ModelB.self),
    .init(name: "spelled //host/users/1", routes: spellingTable, url: "//host/users/1", expected: ModelA.self),
    .init(name: "spelled /users/1?x", routes: spellingTable, url: "/users/1?x", expected: ModelA.self),
    .init(name: "spelled users/1", routes: spellingTable, url: "users/1", expected: ModelA.self),
    .init(name: "spelled mailto:users/1", routes: spellingTable, url: "mailto:users/1", expected: ModelA.self),
    .init(name: "spelled https:/users/1", routes: spellingTable, url: "https:/users/1", expected: ModelA.self),
    .init(name: "spelled https:users/1", routes: spellingTable, url: "https:users/1", expected: ModelA.self),
    .init(name: "spelled https:///users/1", routes: spellingTable, url: "https:///users/1", expected: ModelA.self),
    .init(name: "spelled :a/b", routes: spellingTable, url: ":a/b", expected: ModelB.self),
    .init(name: "spelled ::a/b", routes: spellingTable, url: "::a/b", expected: nil),
    .init(name: "spelled a@:users/1 (no scheme)", routes: spellingTable, url: "a@:users/1", expected: nil),
    .init(name: "spelled a.b+c-d:users/1", routes: spellingTable, url: "a.b+c-d:users/1", expected: ModelA.self),
    .init(name: "spelled https://h?q=/users/1", routes: spellingTable, url: "https://h?q=/users/1", expected: nil),
    .init(name: "spelled https://h#/users/1", routes: spellingTable, url: "https://h#/users/1", expected: nil),
    .init(name: "spelled ?x", routes: spellingTable, url: "?x", expected: nil),
    .init(name: "spelled #/a/b", routes: spellingTable, url: "#/a/b", expected: nil),
    .init(name: "spelled https://h/users/1;v=2", routes: spellingTable, url: "https://h/users/1;v=2", expected: nil),
    .init(name: "spelled https://h/a b", routes: spellingTable, url: "https://h/a b", expected: ModelC.self),
]
private let spellingTable: [Registration] = [.init("/users/#", ModelA.self), .init("/a/b", ModelB.self), .init("/a%20b", ModelC.self)]

@Suite("URLModelMatcher")
struct URLModelMatcherTests {
    @Test("matches", arguments: plainPathCases + prefixedPathCases + sculptCases)
    func matches(_ row: MatchCase) throws {
        let matcher = try row.matcher()
        let url = try #require(URL(string: row.url))
        let matched = matcher.route(for: url, method: row.method, status: row.status)?.modelType
        #expect(matched?.type == row.expected, "\(row.routes) on \(row.url) gave \(matched.map(\.description) ?? "nil")")
    }

    @Test("precedence does not depend on registration order", arguments: plainPathCases + prefixedPathCases + sculptCases)
    func orderIndependent(_ row: MatchCase) throws {
        guard !row.name.hasPrefix("re-registering") else { return }
        var reversed = row
        reversed.routes.reverse()
        let url = try #require(URL(string: row.url))
        #expect(try reversed.matcher().route(for: url, method: row.method, status: row.status)?.modelType?.type == row.expected)
    }

    @Test("the matcher reads URL, method and status from the response")
    func readsResponse() throws {
        var matcher = URLModelMatcher(pathPrefix: "/v3")
        try matcher.add("/repos/*/*/issues", [ModelA].self)
        try matcher.add("/repos/*/*/issues", ModelB.self, method: .post, status: .created)
        let url = URL(string: "https://api.example.com/v3/repos/apple/swift/issues")
        let listed = try matcher.modelType(for: ResponseContext(url: url, method: .get), data: Data())
        let created = try matcher.modelType(for: ResponseContext(url: url, method: .post, status: .created), data: Data())
        #expect(listed == ModelType([ModelA].self))
        #expect(created == ModelType(ModelB.self))
        #expect(try matcher.modelType(for: ResponseContext(url: nil), data: Data()) == nil)
    }

    @Test("routes(for:) names the winning pattern")
    func winningRoute() throws {
        var matcher = URLModelMatcher()
        try matcher.add("/repos/*/*/issues/#", ModelA.self, at: "data")
        let url = try #require(URL(string: "https://x/repos/a/b/issues/7"))
        let route = try #require(matcher.route(for: url))
        #expect(route.pattern.description == "/repos/*/*/issues/#")
        #expect(route.modelType == ModelType(ModelA.self, at: "data"))
        #expect(route.description == "/repos/*/*/issues/# -> ModelA at data")
    }

    @Test("the table initializer registers every route")
    func tableInitializer() throws {
        let matcher = try URLModelMatcher(pathPrefix: "v3", routes: ["/users/*": ModelA.self, "/users/*/repos": [ModelB].self])
        #expect(matcher.route(for: try #require(URL(string: "https://x/v3/users/octocat")))?.modelType == ModelType(ModelA.self))
        #expect(matcher.route(for: try #require(URL(string: "https://x/v3/users/octocat/repos")))?.modelType == ModelType([ModelB].self))
        #expect(matcher.routes.count == 2)
    }

    @Test("re-registering keeps one route in its place")
    func reRegistering() throws {
        var matcher = URLModelMatcher()
        try matcher.add("/a", ModelA.self)
        try matcher.add("/b", ModelB.self)
        try matcher.add("a/", ModelC.self)
        #expect(matcher.routes.map(\.modelType) == [ModelType(ModelC.self), ModelType(ModelB.self)])
    }

    @Test("invalid registrations throw, never trap", arguments: [
        ("/a/**/b", "'**' must be the last segment"),
        ("/**/**", "'**' must be the last segment"),
        ("/bad%zz", "percent escape"),
        ("/bad%E9", "percent escape"),
        ("/bad%A9", "percent escape"),
        ("/bad%2", "percent escape"),
        ("/bad%", "percent escape"),
        ("/a/../b", "can never match"),
        ("/a/./b", "can never match"),
        ("/a/%2E%2E", "can never match"),
    ])
    func invalidPattern(_ pattern: String, _ reason: String) {
        var matcher = URLModelMatcher()
        #expect {
            try matcher.add(pattern, ModelA.self)
        } throws: { error in
            (error as? URLPattern.SyntaxError)?.description.contains(reason) == true
        }
        #expect(matcher.routes.isEmpty)
    }

    @Test("an invalid key path throws at registration")
    func invalidKeyPath() {
        var matcher = URLModelMatcher()
        #expect(throws: ModelKeyPath.SyntaxError.self) {
            try matcher.add("/a", ModelA.self, at: "data..items")
        }
    }

    @Test("nearest candidates rank the patterns that accept most of the path")
    func nearestCandidates() throws {
        var matcher = URLModelMatcher(pathPrefix: "/v3")
        try matcher.add("/users/*", ModelA.self)
        try matcher.add("/users/*/repos", ModelB.self, method: .get)
        try matcher.add("/orgs/*", ModelC.self)
        try matcher.add("/repos/*/*/issues/#", ModelD.self)
        let context = ResponseContext(url: URL(string: "https://x/v3/users/octocat/starred"), method: .get)
        #expect(matcher.nearestCandidates(for: context) == ["GET /users/*/repos", "/users/*"])
        let unrelated = ResponseContext(url: URL(string: "https://x/v3/wrongshape/broken"))
        #expect(matcher.nearestCandidates(for: unrelated).isEmpty)
        // A path without the prefix is compared whole.
        let outside = ResponseContext(url: URL(string: "https://x/users/octocat/starred"))
        #expect(matcher.nearestCandidates(for: outside) == ["GET /users/*/repos", "/users/*"])
    }

    @Test("the path is found in any spelling of a URL, as Foundation finds it", arguments: spellingCases)
    func spellings(_ row: MatchCase) throws {
        let matcher = try row.matcher()
        let url = try #require(URL(string: row.url))
        let canonical = try #require(URL(string: "https://example.invalid/" + url.path(percentEncoded: true)))
        #expect(matcher.route(for: url)?.modelType?.type == row.expected)
        #expect(matcher.route(for: url)?.modelType == matcher.route(for: canonical)?.modelType)
    }

    @Test("a URL relative to a base is matched on its resolved path")
    func relativeURL() throws {
        let matcher = try URLModelMatcher(pathPrefix: "/v3", routes: ["/users/#": ModelA.self])
        let base = try #require(URL(string: "https://h/v3/"))
        #expect(matcher.route(for: try #require(URL(string: "users/1?x", relativeTo: base)))?.modelType?.type == ModelA.self)
        #expect(matcher.route(for: try #require(URL(string: "../users/1", relativeTo: base)))?.modelType == nil)
    }

    @Test("a path of 10,000 segments is matched without trouble")
    func longPath() throws {
        var matcher = URLModelMatcher()
        try matcher.add("/a/**", ModelA.self)
        try matcher.add("/*/*/*", ModelB.self)
        let url = try #require(URL(string: "https://x/a" + String(repeating: "/s", count: 10_000)))
        #expect(matcher.route(for: url)?.modelType?.type == ModelA.self)
    }
}
