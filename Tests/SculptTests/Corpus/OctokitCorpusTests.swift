import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import Testing

/// One interaction of an octokit/fixtures recording (the corpus's `octokit` folder).
struct OctokitInteraction: CustomTestStringConvertible, Sendable {
    var recording: String
    var method: HTTPRequest.Method
    var url: URL
    var status: HTTPResponse.Status
    var contentType: String?
    var location: String?
    var body: Data

    var testDescription: String { "\(recording): \(method.rawValue) \(url.path()) \(status.code)" }

    /// Every interaction of every recording, or none when the corpus is absent.
    static func all() throws -> [OctokitInteraction] {
        let folder = Paths.corpus.appending(path: "octokit")
        var interactions: [OctokitInteraction] = []
        for recording in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            let file = folder.appending(path: "\(recording)/normalized-fixture.json")
            guard let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]] else { continue }
            for entry in entries {
                guard let scope = entry["scope"] as? String, let path = entry["path"] as? String,
                    let url = URL(string: scope + path), let method = (entry["method"] as? String).flatMap({ HTTPRequest.Method($0.uppercased()) }),
                    let status = entry["status"] as? Int
                else { continue }
                let headers = entry["headers"] as? [String: Any] ?? [:]
                let binary = entry["responseIsBinary"] as? Bool ?? false
                let body: Data
                switch entry["response"] {
                case let text as String: body = binary ? Data(base64Encoded: text) ?? Data(text.utf8) : Data(text.utf8)
                case let object?: body = try JSONSerialization.data(withJSONObject: object)
                case nil: body = Data()
                }
                interactions.append(.init(
                    recording: recording, method: method, url: url, status: .init(code: status),
                    contentType: headers["content-type"] as? String, location: headers["location"] as? String, body: body))
            }
        }
        return interactions
    }
}

/// GitHub's REST route table (the corpus's `github-routes.txt`): `METHOD /path/{param}` lines.
struct GitHubRoutes {
    struct Route {
        var method: HTTPRequest.Method
        var template: String
        /// The template's segments, `nil` for a `{param}`.
        var segments: [Substring?]
        /// The template as a Sculpt pattern: every `{param}` is `*`.
        var pattern: String { "/" + segments.map { $0.map(String.init) ?? "*" }.joined(separator: "/") }

        init(method: HTTPRequest.Method, template: String) {
            self.method = method
            self.template = template
            self.segments = template.split(separator: "/").map { $0.hasPrefix("{") ? nil : $0 }
        }
    }

    var routes: [Route]

    static func load() throws -> GitHubRoutes? {
        let file = Paths.corpus.appending(path: "github-routes.txt")
        let lines = try String(contentsOf: file, encoding: .utf8).split(whereSeparator: \.isNewline)
        return GitHubRoutes(routes: lines.compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let method = HTTPRequest.Method(String(parts[0])) else { return nil }
            return Route(method: method, template: String(parts[1]))
        })
    }

    func matcher() throws -> URLModelMatcher {
        var matcher = URLModelMatcher()
        for route in routes {
            try matcher.add(route.pattern, AnyJSON.self, method: route.method)
        }
        return matcher
    }

    /// A brute-force reference: every template whose segments accept the path, the most specific
    /// (a literal segment before a parameter, from the left) winning. No trie, no backtracking.
    func expectedPattern(for url: URL, method: HTTPRequest.Method) -> String? {
        let segments = url.path(percentEncoded: false).split(separator: "/")
        let accepted = routes.filter { route in
            route.method == method && route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { token, segment in token == nil || token == segment }
        }
        let best = accepted.min { lhs, rhs in
            lhs.segments.map { $0 == nil ? 1 : 0 }.lexicographicallyPrecedes(rhs.segments.map { $0 == nil ? 1 : 0 })
        }
        return best.map { "\(method.rawValue) \($0.pattern)" }
    }
}

@Suite("octokit recordings")
struct OctokitCorpusTests {
    /// The route table and its matcher, built once for all rows.
    static let table: (routes: GitHubRoutes, matcher: URLModelMatcher)? = {
        guard let routes = try? GitHubRoutes.load(), let matcher = try? routes.matcher() else { return nil }
        return (routes, matcher)
    }()

    @Test("GitHub's route table resolves every recorded path to the expected route", arguments: try OctokitInteraction.all())
    func resolvesRoutes(_ interaction: OctokitInteraction) throws {
        let (routes, matcher) = try #require(Self.table)
        let route = matcher.route(for: interaction.url, method: interaction.method)
        let found = route.map { "\($0.method?.rawValue ?? "") \($0.pattern)" }
        #expect(found == routes.expectedPattern(for: interaction.url, method: interaction.method))
    }

    @Test("every route of the table, filled in, resolves as the brute-force reference says", arguments: ["value", "42", "tags"])
    func wholeTable(_ parameter: String) throws {
        let (routes, matcher) = try #require(Self.table)
        var resolved = 0
        for route in routes.routes {
            let path = route.segments.map { $0.map(String.init) ?? parameter }.joined(separator: "/")
            let url = try #require(URL(string: "https://api.github.com/" + path))
            let found = matcher.route(for: url, method: route.method).map { "\($0.method?.rawValue ?? "") \($0.pattern)" }
            let expected = routes.expectedPattern(for: url, method: route.method)
            #expect(found == expected, "\(route.method.rawValue) \(route.template)")
            if found != nil { resolved += 1 }
        }
        #expect(resolved == routes.routes.count)
    }

    @Test("spot checks of the reference itself", arguments: [
        ("PUT", "https://api.github.com/repos/o/r/collaborators/u", "PUT /repos/*/*/collaborators/*"),
        ("GET", "https://api.github.com/repos/o/r/releases/tags/v1.0.0", "GET /repos/*/*/releases/tags/*"),
        ("POST", "https://api.github.com/repos/o/r/releases/1000/assets?name=a", "POST /repos/*/*/releases/*/assets"),
        ("DELETE", "https://api.github.com/repos/o/r/releases/assets/1000", "DELETE /repos/*/*/releases/assets/*"),
        ("GET", "https://api.github.com/", "GET /"),
        ("GET", "https://codeload.github.com/o/r/legacy.tar.gz/refs/heads/main", nil),
    ])
    func spotChecks(_ method: String, _ url: String, _ expected: String?) throws {
        let (routes, matcher) = try #require(Self.table)
        let method = try #require(HTTPRequest.Method(method))
        let url = try #require(URL(string: url))
        #expect(routes.expectedPattern(for: url, method: method) == expected)
        #expect(matcher.route(for: url, method: method).map { "\($0.method?.rawValue ?? "") \($0.pattern)" } == expected)
    }

    @Test("every interaction goes through the serializer to the outcome its status and body call for", arguments: try OctokitInteraction.all())
    func serializes(_ interaction: OctokitInteraction) throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(AnyJSON.self))
        var fields = HTTPFields()
        if let contentType = interaction.contentType { fields[.contentType] = contentType }
        let context = ResponseContext(url: interaction.url, method: interaction.method, status: interaction.status, headerFields: fields)
        let result = Result { try serializer.serialize(interaction.body, for: context) }
        switch (interaction.status.kind, interaction.status.code) {
        case (.successful, 204), (.successful, 205):
            #expect(try result.get() is NoContent)
        case (.successful, _) where interaction.contentType?.contains("json") == true:
            #expect(try result.get() is AnyJSON)
        case (.successful, _):
            let error = #expect(throws: SculptError.self) { try result.get() }
            #expect(error?.reason.name == "unacceptableContentType")
            #expect(error?.body == interaction.body)
        default:
            let error = #expect(throws: SculptError.self) { try result.get() }
            #expect(error?.reason.name == "unacceptableStatusCode")
            #expect(error?.body == interaction.body)
            #expect(error?.response.status == interaction.status)
        }
    }
}
