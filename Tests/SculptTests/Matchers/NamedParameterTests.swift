import Foundation
import SculptMatchers
import Testing

@Suite("Named parameters in URL patterns")
struct NamedParameterTests {
    struct User: Decodable, Sendable {}
    struct Issue: Decodable, Sendable {}

    @Test("a braced segment is a named '*', '#' or '**'", arguments: [
        ("/users/{login}", [URLPattern.Token.literal("users"), .segment], [nil, "login"]),
        ("/repos/{owner}/{repo}/issues/{number:#}", [.literal("repos"), .segment, .segment, .literal("issues"), .digits], [nil, "owner", "repo", nil, "number"]),
        ("/repos/{owner}/*/contents/{path:**}", [.literal("repos"), .segment, .segment, .literal("contents"), .remainder], [nil, "owner", nil, nil, "path"]),
        ("/{a:*}/{_b9}", [.segment, .segment], ["a", "_b9"]),
        ("/%7Bid%7D/%3Alogin/a:b/{id}", [.literal("{id}"), .literal(":login"), .literal("a:b"), .segment], [nil, nil, nil, "id"]),
    ] as [(String, [URLPattern.Token], [String?])])
    func compiles(_ text: String, _ tokens: [URLPattern.Token], _ names: [String?]) throws {
        let pattern = try URLPattern(text)
        #expect(pattern.tokens == tokens)
        #expect(pattern.names == names)
        #expect(pattern.parameterNames == names.compactMap(\.self))
        #expect(try URLPattern(pattern.description) == pattern, "\(pattern.description) reads back as itself")
    }

    @Test("writes parameters back as written", arguments: [
        ("repos/{owner}//{repo}/issues/{number:#}/", "/repos/{owner}/{repo}/issues/{number:#}"),
        ("/{a:*}/{rest:**}", "/{a}/{rest:**}"),
        ("/%7Bid%7D/%3Alogin", "/%7Bid%7D/%3Alogin"),
        ("/a%3Fb", "/a%3Fb"),
    ])
    func normalForm(_ text: String, _ normal: String) throws {
        #expect(try URLPattern(text).description == normal)
    }

    @Test("a brace or a colon parameter that would match nothing is refused, saying what to write", arguments: [
        ("/users/:login", #"invalid URL pattern "/users/:login": segment ':login' is written as other routers write a parameter: write {login}, or %3Alogin for a literal"#),
        ("/users/{login", #"invalid URL pattern "/users/{login": segment '{login' has braces that do not make it a parameter: a parameter is a whole segment, {name}; match a segment that holds more (v{n}, {base}...{head}) with one parameter and split its value, or write %7B and %7D for literal braces"#),
        ("/users/login}", #"invalid URL pattern "/users/login}": segment 'login}' has braces that do not make it a parameter: a parameter is a whole segment, {name}; match a segment that holds more (v{n}, {base}...{head}) with one parameter and split its value, or write %7B and %7D for literal braces"#),
        ("/v{n}", #"invalid URL pattern "/v{n}": segment 'v{n}' has braces that do not make it a parameter: a parameter is a whole segment, {name}; match a segment that holds more (v{n}, {base}...{head}) with one parameter and split its value, or write %7B and %7D for literal braces"#),
        ("/compare/{base}...{head}", #"invalid URL pattern "/compare/{base}...{head}": segment '{base}...{head}' has braces that do not make it a parameter: a parameter is a whole segment, {name}; match a segment that holds more (v{n}, {base}...{head}) with one parameter and split its value, or write %7B and %7D for literal braces"#),
        ("/{{a}}", #"invalid URL pattern "/{{a}}": segment '{{a}}' has braces that do not make it a parameter: a parameter is a whole segment, {name}; match a segment that holds more (v{n}, {base}...{head}) with one parameter and split its value, or write %7B and %7D for literal braces"#),
        ("/{}", #"invalid URL pattern "/{}": '' is not a parameter name: an ASCII letter or '_', then letters, digits, '_', '-' or '.', at most 64 bytes"#),
        ("/{1st}", #"invalid URL pattern "/{1st}": '1st' is not a parameter name: an ASCII letter or '_', then letters, digits, '_', '-' or '.', at most 64 bytes"#),
        ("/{a b}", #"invalid URL pattern "/{a b}": 'a b' is not a parameter name: an ASCII letter or '_', then letters, digits, '_', '-' or '.', at most 64 bytes"#),
        ("/{id:int}", #"invalid URL pattern "/{id:int}": parameter 'id' has the kind 'int': write {id}, {id:#} for digits or {id:**} for the rest of the path"#),
        ("/{a}/{a}", #"invalid URL pattern "/{a}/{a}": the parameter 'a' is named twice; give each its own name"#),
        ("/{rest:**}/x", #"invalid URL pattern "/{rest:**}/x": '**' must be the last segment"#),
        ("/users/:user-id", #"invalid URL pattern "/users/:user-id": segment ':user-id' is written as other routers write a parameter: write {user-id}, or %3Auser-id for a literal"#),
        ("/users/:id.json", #"invalid URL pattern "/users/:id.json": segment ':id.json' is written as other routers write a parameter: write {id.json}, or %3Aid.json for a literal"#),
        ("/users/:id+x", #"invalid URL pattern "/users/:id+x": segment ':id+x' is written as other routers write a parameter: write a parameter as a whole segment, {name}, or %3Aid+x for a literal"#),
        ("/search?sort=asc", #"invalid URL pattern "/search?sort=asc": segment 'search?sort=asc' has a '?', which starts a query: a pattern is a path, and routes never match a query; leave '?sort=asc' out, or write %3F for a literal '?'"#),
        ("/search?q={q}", #"invalid URL pattern "/search?q={q}": segment 'search?q={q}' has a '?', which starts a query: a pattern is a path, and routes never match a query; leave '?q={q}' out, or write %3F for a literal '?'"#),
        ("/p/\u{1B}[31m/{", #"invalid URL pattern "/p/\u{1B}[31m/{": segment '{' has braces that do not make it a parameter: a parameter is a whole segment, {name}; match a segment that holds more (v{n}, {base}...{head}) with one parameter and split its value, or write %7B and %7D for literal braces"#),
    ])
    func refused(_ text: String, _ message: String) {
        let error = #expect(throws: URLPattern.SyntaxError.self) { try URLPattern(text) }
        #expect(error?.description == message)
    }

    @Test("a path is built from values, each percent-encoded as one segment", arguments: [
        ("/repos/{owner}/{repo}/issues/{number:#}", ["owner": "apple", "repo": "swift", "number": "42"], "/repos/apple/swift/issues/42"),
        ("/users/{login}", ["login": "a b/c?d#e%f"], "/users/a%20b%2Fc%3Fd%23e%25f"),
        ("/users/{login}", ["login": "café-ø~._"], "/users/caf%C3%A9-%C3%B8~._"),
        ("/files/{path:**}", ["path": "docs/Read me.md"], "/files/docs/Read%20me.md"),
        ("/files/{path:**}", ["path": ""], "/files"),
        ("/{path:**}", ["path": ""], "/"),
        ("/", [:], "/"),
        ("/a%2Fb/{x}", ["x": "..."], "/a%2Fb/..."),
    ])
    func builds(_ text: String, _ values: [String: String], _ path: String) throws {
        #expect(try URLPattern(text).path(with: values) == path)
    }

    @Test("a value that cannot be built is refused, saying which and why", arguments: [
        ("/repos/{owner}/{repo}", ["owner": "apple"], "cannot build a path from \"/repos/{owner}/{repo}\": no value for {repo}"),
        ("/repos/{owner}/{repo}", ["owner": "a", "repo": "b", "onwer": "c"], "cannot build a path from \"/repos/{owner}/{repo}\": no parameter is named 'onwer'; its parameters are owner, repo"),
        ("/repos", ["id": "1"], "cannot build a path from \"/repos\": no parameter is named 'id'; it has no parameters"),
        ("/issues/{number:#}", ["number": "4a"], "cannot build a path from \"/issues/{number:#}\": the value for {number:#} must be one or more ASCII digits"),
        ("/issues/{number:#}", ["number": "٣"], "cannot build a path from \"/issues/{number:#}\": the value for {number:#} must be one or more ASCII digits"),
        ("/users/{login}", ["login": ""], "cannot build a path from \"/users/{login}\": the value for {login} is empty, which no segment is"),
        ("/users/{login}", ["login": ".."], "cannot build a path from \"/users/{login}\": the value for {login} is '..', which a server resolves away"),
        ("/files/{path:**}", ["path": "a//b"], "cannot build a path from \"/files/{path:**}\": the value for {path:**} has an empty segment"),
        ("/files/{path:**}", ["path": "a/./b"], "cannot build a path from \"/files/{path:**}\": the value for {path:**} has a segment '.', which a server resolves away"),
        ("/users/*", [:], "cannot build a path from \"/users/*\": segment 2 is '*' without a name: write {name} to build a path with it"),
    ])
    func refusedValues(_ text: String, _ values: [String: String], _ message: String) throws {
        let pattern = try URLPattern(text)
        let error = #expect(throws: URLPattern.ParameterError.self) { try pattern.path(with: values) }
        #expect(error?.description == message)
    }

    @Test("a named pattern registers as its unnamed form, and a match gives its values")
    func matcherCaptures() throws {
        var matcher = URLModelMatcher(pathPrefix: "/v3")
        try matcher.add("/users/*", User.self)
        try matcher.add("/users/{login}", User.self)
        try matcher.add("/repos/{owner}/{repo}/issues/{number:#}", Issue.self)
        #expect(matcher.routes.map(\.pattern.description) == ["/users/{login}", "/repos/{owner}/{repo}/issues/{number:#}"])
        let url = try #require(URL(string: "https://api.example.com/v3/repos/apple/sw%20ift/issues/42?page=2"))
        let route = try #require(matcher.route(for: url))
        #expect(route.parameters == ["owner": "apple", "repo": "sw ift", "number": "42"])
        #expect(matcher.routes.allSatisfy { $0.parameters.isEmpty })
    }

    /// Patterns and values made from a seed: literals, named `*`, `#` and a final `**`, values
    /// with what a path reserves and text beyond ASCII.
    static func generated(_ seed: UInt64) -> (pattern: String, values: [String: String]) {
        var random = SeededRandom(seed: seed)
        let pieces = ["a", "/", "?", "#", "%", " ", "é", "\u{1F600}", ".", "~", "+", ":", "{", "}", "x9"]
        func text() -> String { (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "a" }.joined() }
        var segments: [String] = []
        var values: [String: String] = [:]
        for index in 0..<Int.random(in: 0...6, using: &random) {
            switch Int.random(in: 0...2, using: &random) {
            case 0: segments.append("lit\(index)")
            case 1:
                var value = text()
                if value == "." || value == ".." { value += "x" }
                segments.append("{p\(index)}")
                values["p\(index)"] = value
            default:
                segments.append("{n\(index):#}")
                values["n\(index)"] = String(Int.random(in: 0...999_999, using: &random))
            }
        }
        if Bool.random(using: &random) {
            let rest = (0..<Int.random(in: 0...3, using: &random)).map { _ in "r" + text().replacingOccurrences(of: "/", with: "") }
            segments.append("{rest:**}")
            values["rest"] = rest.joined(separator: "/")
        }
        return ("/" + segments.joined(separator: "/"), values)
    }

    @Test("built paths match their pattern and give back the values they were built from", arguments: 0..<200 as Range<UInt64>)
    func roundTrip(_ seed: UInt64) throws {
        let (text, values) = Self.generated(seed)
        let pattern = try URLPattern(text)
        var matcher = URLModelMatcher(pathPrefix: "/api")
        try matcher.add(text, Issue.self)
        let path = try pattern.path(with: values)
        let url = try #require(URL(string: "https://example.com/api" + (path == "/" ? "" : path)), "\(path)")
        let route = try #require(matcher.route(for: url), "\(text) does not match \(url)")
        #expect(route.parameters == values, "\(text) \(path)")
    }

    @Test("names are identifiers as OpenAPI documents write them, with '-' and '.'")
    func openAPINames() throws {
        var matcher = URLModelMatcher()
        try matcher.add("/enterprises/{enterprise}/teams/{enterprise-team}/{api.version}", User.self)
        let url = try #require(URL(string: "https://h/enterprises/e/teams/t1/v2"))
        let route = try #require(matcher.route(for: url))
        #expect(route.parameters == ["enterprise": "e", "enterprise-team": "t1", "api.version": "v2"])
    }

    @Test("a route named otherwise than the one it would replace is refused, and the first keeps its names")
    func renamedRouteRefused() throws {
        var matcher = URLModelMatcher()
        try matcher.add("/y/{a}", User.self)
        let error = #expect(throws: URLPattern.SyntaxError.self) { try matcher.add("/y/{b}", Issue.self) }
        #expect(error?.description == #"invalid URL pattern "/y/{b}": it matches the paths /y/{a} matches, for the same method and status, with other parameter names: it would replace that route, and its values would come back under the other names; write the same names, or tell the two apart by method or status"#)
        try matcher.add("/y/{b}", Issue.self, method: .post)
        let url = try #require(URL(string: "https://h/y/v"))
        #expect(matcher.route(for: url)?.parameters == ["a": "v"])
        #expect(matcher.route(for: url)?.modelType?.type == User.self)
        #expect(matcher.route(for: url, method: .post)?.parameters == ["b": "v"])
    }

    @Test("a route registered again without names keeps the names it had")
    func reRegisteredWithoutNames() throws {
        var matcher = URLModelMatcher()
        try matcher.add(Endpoint<User>("/users/{login}/repos/{repo}"))
        try matcher.add("/users/*/repos/{repo}", User.self)
        try matcher.add("/users/*/repos/*", User.self)
        let url = try #require(URL(string: "https://h/users/octocat/repos/hello"))
        let route = try #require(matcher.route(for: url))
        #expect(route.parameters == ["login": "octocat", "repo": "hello"])
        #expect(route.pattern.description == "/users/{login}/repos/{repo}")
        #expect(matcher.routes.count == 1)
    }
}
