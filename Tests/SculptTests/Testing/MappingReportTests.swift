import Foundation
import HTTPTypes
import Sculpt
import SculptJSON
import SculptMatchers
import SculptTesting
import Testing

/// A mapping report over recorded responses: what maps, what fails, which routes no fixture
/// covers, and which members each model never read.
@Suite("Mapping reports")
struct MappingReportTests {
    struct Organization: Decodable, Sendable {
        let login: String
        let publicRepos: Int

        enum CodingKeys: String, CodingKey {
            case login
            case publicRepos = "public_repos"
        }
    }

    struct Owner: Decodable, Sendable {
        let login: String
    }

    struct Issue: Decodable, Sendable {
        let number: Int
        let title: String
        let user: Owner
    }

    /// A GitHub client's routes: one (`/users/*`) has no recording in the package.
    static func serializer() throws -> ModelResponseSerializer<URLModelMatcher> {
        var routes = URLModelMatcher()
        try routes.add("/orgs/*", Organization.self)
        try routes.add("/repos/*/*", Repository.self)
        try routes.add("/repositories/#", Repository.self)
        try routes.add("/repos/*/*/labels", [Label].self)
        try routes.add("/repos/*/*/labels/*", Label.self)
        try routes.add("/repos/*/*/issues", [Issue].self)
        try routes.add("/users/*", User.self)
        try routes.add("/", [String: String].self)
        var serializer = ModelResponseSerializer(matcher: routes, decoder: SculptJSONDecoder())
        serializer.errorMatcher = StaticModelMatcher(APIError.self)
        return serializer
    }

    @Test("the recorded GitHub fixtures: every one maps, the route without a fixture is listed, and each model's unread members")
    func gitHubFixtures() throws {
        let report = try MappingReport(contentsOf: [Paths.fixtures.appending(path: "github")], serializer: Self.serializer())
        #expect(report.failures.isEmpty, "\(report)")
        #expect(report.unreadableFiles.isEmpty)
        // The renamed repository's 301 decodes as the error model: /repos/*/* never decodes a Repository.
        #expect(report.uncoveredRoutes.map(\.pattern.description) == ["/repos/*/*", "/users/*"])
        #expect(!report.isComplete)
        #expect(report.mappings.count == 9)

        let label = try #require(report.mappings.first { $0.fixture.source == "get-label.json" })
        #expect(label.route?.pattern.description == "/repos/*/*/labels/*")
        #expect(label.unreadMembers == ["id", "node_id", "url", "default", "description"])
        let labels = try #require(report.mappings.first { $0.fixture.source == "list-labels.json" })
        #expect(labels.unreadMembers == ["[].id", "[].node_id", "[].url", "[].default", "[].description"], "each member once, however many elements")
        let issues = try #require(report.mappings.first { $0.fixture.source == "list-issues.json" })
        #expect(issues.unreadMembers.contains("[].user.id"), "a member of a member that was read")
        #expect(!issues.unreadMembers.contains("[].user.login"))
        #expect(issues.unreadMembers.contains("[].labels") && !issues.unreadMembers.contains { $0.hasPrefix("[].labels[]") },
                "members under one never read are not listed")
        let root = try #require(report.mappings.first { $0.fixture.source == "get-root.json" })
        #expect(root.unreadMembers.isEmpty, "a [String: String] reads every member")
        let organization = try #require(report.mappings.first { $0.fixture.source == "get-organization.json" })
        #expect(!organization.unreadMembers.contains("public_repos"))
        #expect(organization.unreadMembers.contains("public_gists"))
        let missing = try #require(report.mappings.first { $0.fixture.source == "get-branch-protection-not-found.json" })
        #expect(missing.isErrorModel && "\(missing.modelType)" == "APIError")
        #expect(missing.unreadMembers == ["documentation_url"])
        #expect(report.description.hasSuffix("9 fixtures map, 0 fail, 2 routes uncovered"))
        #expect(report.description.contains("no fixture for: /users/* -> User"))
    }

    @Test("a fixture that does not map is a failure that states the serializer's error once")
    func failures() throws {
        let serializer = try Self.serializer()
        let report = MappingReport(fixtures: [
            try .stub(.get, "https://api.github.com/orgs/apple", json: #"{"login": "apple"}"#),
            try .stub(.get, "https://api.github.com/gists", json: "[]"),
            try .stub(.get, "https://api.github.com/users/ada", json: #"{"login": "ada", "id": 1, "site_admin": false}"#),
        ], serializer: serializer)
        #expect(report.failures.count == 2)
        #expect(report.mappings.map(\.unreadMembers) == [["site_admin"]])
        let line = try #require(report.failures.first?.description)
        #expect(line.hasPrefix("GET /orgs/apple -> 200 (stub GET /orgs/apple): "))
        #expect(line.contains("publicRepos") || line.contains("public_repos"), "\(line)")
        let unmatched = try #require(report.failures.last?.error as? SculptError)
        guard case .noModelMatched = unmatched.reason else {
            Testing.Issue.record("expected noModelMatched, got \(unmatched.reason)")
            return
        }
    }

    @Test("unread member paths", arguments: [
        (#"{"a": 1, "b": {"c": 2, "d": 3}, "e": [{"f": 1, "g": 2}, {"f": 3, "h": 4}]}"#, ["b.d", "e[].g", "e[].h"]),
        (#"{"a": 1, "a": 2, "b": {"c": 1, "d": 1}, "e": [], "x": {"deep": {"er": 1}}}"#, ["b.d", "x"]),
        (#"{"a": 1, "b": {"c": 1}, "e": [[{"f": 1, "z": 0}]]}"#, ["e[][].z"]),
        (#"{"a\u0041": 1, "\u0061": 1, "b": null, "e": null}"#, ["aA"]),
        (#"{"a": 1, "a.b": 2, "b": {"": 1}}"#, [#""a.b""#, #"b."""#]),
        (#"{"a": 1, "line\nbreak": 1, "back\\slash": 1}"#, [#""line\nbreak""#, #""back\\slash""#]),
        (#"[]"#, []),
        (#"{"a": 1, "b": {"c": 1}, "e": [{"f": 1, "m": {"x": {"y": 1, "w": 2}, "z": {}}}]}"#, ["e[].m.x.w"]),
    ])
    func paths(_ json: String, _ unread: [String]) throws {
        struct Inner: Decodable, Sendable {
            let c: Int?
            let y: Int?
        }
        struct Element: Decodable, Sendable {
            let f: Int
            let m: [String: Inner]?
        }
        struct Shape: Decodable, Sendable {
            let a: Int
            let b: Inner?
            let e: [Element]?
        }
        struct Nested: Decodable, Sendable {
            let a: Int
            let b: Inner
            let e: [[Element]]
        }
        let type: any (Decodable & Sendable).Type = json.contains("[[") ? Nested.self : json == "[]" ? [Int].self : Shape.self
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(type), decoder: SculptJSONDecoder())
        let report = MappingReport(fixtures: [try .stub(.get, "/shape", json: json)], serializer: serializer)
        #expect(report.failures.isEmpty, "\(report)")
        #expect(report.mappings.first?.unreadMembers == unread)
    }

    @Test("members read under a key strategy are read", arguments: [
        JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase,
        .custom { path in AnyCodingKey(path.last?.stringValue.replacingOccurrences(of: "_", with: "") ?? "") },
    ])
    func keyStrategies(_ strategy: JSONDecoder.KeyDecodingStrategy) throws {
        struct Wrapped: Decodable, Sendable {
            let publicrepos: Int?
            let publicRepos: Int?
        }
        var decoder = SculptJSONDecoder()
        decoder.keyDecodingStrategy = strategy
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Wrapped.self), decoder: decoder)
        let report = MappingReport(fixtures: [try .stub(.get, "/a", json: #"{"public_repos": 1, "site_admin": false}"#)], serializer: serializer)
        #expect(report.mappings.first?.unreadMembers == ["site_admin"])
    }

    struct AnyCodingKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test("a decode that a type starts inside its own init(from:) reads another document: it is not counted as the body's")
    func nestedDecode() throws {
        struct Inner: Decodable, Sendable {
            let a: Int
        }
        struct Outer: Decodable, Sendable {
            let a: Int
            let inner: Inner

            enum CodingKeys: String, CodingKey {
                case a, json
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                a = try container.decode(Int.self, forKey: .a)
                inner = try SculptJSONDecoder().decode(Inner.self, from: Data(try container.decode(String.self, forKey: .json).utf8))
            }
        }
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Outer.self), decoder: SculptJSONDecoder())
        let body = #"{"a": 1, "json": "{\"a\": 2, \"zz\": 1}", "unreadTop": true}"#
        let report = MappingReport(fixtures: [try .stub(.get, "/outer", json: body)], serializer: serializer)
        #expect(report.mappings.first?.unreadMembers == ["unreadTop"])
    }

    @Test("a member name shaped like a credential is not shown in a report's lines")
    func credentialNames() throws {
        let token = "ghp_" + String(repeating: "a1B2", count: 9)
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), decoder: SculptJSONDecoder())
        let report = MappingReport(fixtures: [try .stub(.get, "/users/ada", json: #"{"login": "ada", "id": 1, "\#(token)": true}"#)], serializer: serializer)
        #expect(report.mappings.first?.unreadMembers == [token], "the property keeps the name")
        #expect(!report.description.contains(token))
        #expect(report.description.contains("REDACTED"))
    }

    @Test("a decoder that does not tell reports no unread members; the mapping itself is the same")
    func foundationDecoder() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), decoder: JSONDecoder())
        let report = MappingReport(fixtures: [try .stub(.get, "/users/ada", json: #"{"login": "ada", "id": 1, "site_admin": false}"#)], serializer: serializer)
        #expect(report.mappings.count == 1)
        #expect(report.mappings.first?.unreadMembers == [])
    }

    @Test("tracking reads changes no decode: the same models with and without a report")
    func sameModels() throws {
        let serializer = try Self.serializer()
        for fixture in try GitHubFixtures.all() {
            let plain = Result { try serializer.serialize(fixture.data, for: fixture.context) }
            let report = MappingReport(fixtures: [fixture], serializer: serializer)
            if case .success(let model) = plain {
                #expect(report.mappings.first.map { "\($0.modelType)" } == "\(type(of: model))")
            } else {
                #expect(report.mappings.first?.isErrorModel ?? !report.failures.isEmpty)
            }
        }
    }

    @Test("an unreadable file is listed, not thrown; a missing path, or paths holding no recording, throw saying which")
    func unreadable() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-report-\(UUID())")
        try FileManager.default.createDirectory(at: folder.appending(path: "empty"), withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: folder.appending(path: "broken.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.appending(path: "dangling.json").path, withDestinationPath: "/nowhere/at/all.json")
        try Fixture.stub(.get, "/users/ada", json: #"{"login": "ada", "id": 1}"#).encoded().write(to: folder.appending(path: "user.json"))
        let report = try MappingReport(contentsOf: [folder], serializer: Self.serializer())
        #expect(report.unreadableFiles.count == 2)
        #expect(report.unreadableFiles.first?.contains("broken.json: line 1: not JSON") == true, "\(report.unreadableFiles)")
        #expect(report.unreadableFiles.last?.hasSuffix("dangling.json: cannot be opened by this name: a link to nothing, or a name that is not valid UTF-8 (rename it)") == true, "\(report.unreadableFiles)")
        #expect(report.mappings.count == 1)
        #expect(!report.isComplete)
        #expect(report.description.hasSuffix("\n1 fixture maps, 0 fail, 7 routes uncovered, 2 files unreadable"), "\(report)")
        let missing = try #require(throws: RecordingFileError.self) { try MappingReport(contentsOf: [folder.appending(path: "nowhere")], serializer: Self.serializer()) }
        #expect(missing.description == "\(folder.appending(path: "nowhere").path): no such file or folder")
        let empty = try #require(throws: RecordingFileError.self) { try MappingReport(contentsOf: [folder.appending(path: "empty")], serializer: Self.serializer()) }
        #expect(empty.reason == "holds no fixture, cassette or HAR archive")
    }

    @Test("a report's description is bounded, however many lines it has; the properties keep everything")
    func boundedDescription() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), decoder: SculptJSONDecoder())
        let fixtures = try (0..<5_000).map { try Fixture.stub(.get, "/users/\($0)", json: #"{"login": "u", "id": \#($0), "extra_\#($0)": true}"#) }
        let report = MappingReport(fixtures: fixtures, serializer: serializer)
        #expect(report.mappings.count == 5_000)
        #expect(report.description.utf8.count <= 64 << 10)
        #expect(report.description.contains(" more lines\n5000 fixtures map, 0 fail, 0 routes uncovered"), "\(report.description.suffix(200))")
    }

    @Test("a fixture reads as one line: method, path, status, file; secrets redacted")
    func fixtureLine() throws {
        var fixture = try Fixture.stub(.get, "https://api.github.com/user?access_token=s3cret&page=2", status: .unauthorized, json: "{}")
        fixture.source = "github/user.json"
        #expect("\(fixture)" == "GET /user?access_token=REDACTED&page=2 -> 401 (github/user.json)")
    }

    @Test("a route whose matcher answered nothing for a fixture is not covered by it; the route that decoded it is")
    func delegateThatAnsweredNothing() throws {
        struct Tagged: Decodable, Sendable { let type: String }
        struct Plain: Decodable, Sendable { let id: Int }
        var byType = TypeFieldModelMatcher(field: "type")
        try byType.add("tagged", Tagged.self)
        byType.unknownValuesMatchNothing = true
        var routes = URLModelMatcher()
        try routes.add("/items/*", matcher: byType)
        try routes.add("/items/**", Plain.self)
        let fixture = try Fixture.stub(.get, "/items/1", json: #"{"type":"other","id":1}"#)
        let report = MappingReport(fixtures: [fixture], serializer: ModelResponseSerializer(matcher: routes))
        #expect(report.failures.isEmpty, "\(report)")
        #expect(report.mappings.first?.route?.pattern.description == "/items/**")
        #expect(report.uncoveredRoutes.map(\.pattern.description) == ["/items/*"])
    }

    @Test("a route is covered by a fixture its model decoded: not by one that failed, nor one the error model took")
    func coverageByDecodes() throws {
        struct Org: Decodable, Sendable { let login: String }
        struct APIError: Decodable, Sendable { let message: String }
        var routes = URLModelMatcher()
        try routes.add("/users/*", User.self)
        try routes.add("/orgs/*", Org.self)
        try routes.add("/repos/*", Org.self)
        let fixtures = [
            try Fixture.stub(.get, "/users/ghost", status: .notFound, json: #"{"message":"Not Found"}"#),
            try Fixture.stub(.get, "/orgs/apple", json: #"{"name":"no login"}"#),
            try Fixture.stub(.get, "/repos/swift", json: #"{"login":"swift"}"#),
        ]
        let report = MappingReport(fixtures: fixtures, serializer: ModelResponseSerializer(matcher: routes, errorMatcher: StaticModelMatcher(APIError.self)))
        #expect(report.mappings.count == 2)
        #expect(report.failures.count == 1)
        #expect(report.uncoveredRoutes.map(\.pattern.description) == ["/users/*", "/orgs/*"])
    }
}
