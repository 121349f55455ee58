import Foundation
import HTTPTypes
import SculptTesting
import Testing

/// Drift between two recordings of one API: the package's GitHub recordings against a copy with
/// changes planted, each found, and nothing else.
@Suite("Recording diffs")
struct RecordingDiffTests {
    /// The GitHub recordings with changes planted: in the issues list a member removed, two
    /// retyped, one starting to be `null`, one added; a status and a content type changed; one
    /// interaction dropped and one added.
    static func planted() throws -> [Fixture] {
        var fixtures = try GitHubFixtures.all().filter { $0.source != "delete-label.json" }
        for index in fixtures.indices {
            switch fixtures[index].source {
            case "list-issues.json":
                var issues = try #require(try JSONSerialization.jsonObject(with: fixtures[index].data) as? [[String: Any]])
                for position in issues.indices { issues[position]["node_id"] = nil }
                issues[1]["comments"] = "3"
                issues[2]["state"] = NSNull()
                issues[0]["milestone"] = ["number": 1]
                issues[0]["type"] = "issue"
                fixtures[index].response.body = try JSONSerialization.data(withJSONObject: issues)
            case "get-label.json":
                fixtures[index].response.status = .nonAuthoritativeInformation
            case "get-root.json":
                fixtures[index].response.headerFields[.contentType] = "application/vnd.github+json"
            default:
                break
            }
        }
        fixtures.append(try .stub(.get, "https://api.github.com/users/octocat", json: #"{"login": "octocat"}"#))
        return fixtures
    }

    @Test("every planted change is found, and only those; removed and retyped members are breaking")
    func plantedChanges() throws {
        let diff = RecordingDiff(old: try GitHubFixtures.all(), new: try Self.planted())
        let issues = "GET /repos/octokit-fixture-org/paginate-issues/issues"
        let expected: Set<String> = [
            "\(issues): removed [].node_id (string) [breaking]",
            "\(issues): retyped [].comments: number -> string or number [breaking]",
            "\(issues): retyped [].state: string -> string or null [breaking]",
            "\(issues): retyped [].milestone: null -> object or null [breaking]",
            "\(issues): added [].type (string)",
            "GET /repos/octokit-fixture-org/labels/labels/test-label: status 200 -> 203",
            "GET /: content type application/json -> application/vnd.github+json",
            "DELETE /repos/octokit-fixture-org/labels/labels/test-label-updated: only in the old recording [breaking]",
            "GET /users/octocat: only in the new recording",
        ]
        #expect(Set(diff.changes.map(\.description)) == expected, "\(diff)")
        #expect(diff.changes.count == expected.count)
        #expect(diff.isBreaking)
        #expect(diff.description.hasSuffix("9 changes, 5 breaking"))
    }

    @Test("a recording against itself, or against one whose values alone changed, has no changes")
    func valuesAreNoChange() throws {
        let fixtures = try GitHubFixtures.all()
        #expect(RecordingDiff(old: fixtures, new: fixtures).changes.isEmpty)
        let renamed = fixtures.map { fixture in
            var fixture = fixture
            fixture.response.body = Data(String(decoding: fixture.data, as: UTF8.self).replacingOccurrences(of: "octokit", with: "renamed").utf8)
            return fixture
        }
        let diff = RecordingDiff(old: fixtures, new: renamed)
        #expect(diff.changes.isEmpty, "\(diff)")
        #expect(RecordingDiff(old: [Fixture](), new: []).description == "no changes")
    }

    @Test("pages of one path merge: a member missing from one page is no change", arguments: [
        ([#"{"a": 1, "b": "x"}"#, #"{"a": 2}"#], [#"{"a": 3, "b": "y"}"#], [String]()),
        ([#"{"a": 1}"#], [#"{"a": null}"#, #"{"a": 2}"#], ["GET /p: retyped a: number -> number or null [breaking]"]),
        ([#"{"a": 1, "b": null}"#], [#"{"a": 1}"#], ["GET /p: removed b (null) [breaking]"]),
        ([#"{"a": "x"}"#, #"{"a": null}"#], [#"{"a": "y"}"#], ["GET /p: narrowed a: string or null -> string"]),
        ([#"{"a": {"b": 1}}"#], [#"{"a": [1]}"#], ["GET /p: retyped a: object -> array [breaking]"]),
        ([#"[1, 2]"#], [#"{"items": [1]}"#], ["GET /p: retyped the body: array -> object [breaking]"]),
        ([#"{"a": 1}"#], ["not json"], ["GET /p: retyped the body: object -> a body that is not JSON [breaking]"]),
    ])
    func shapes(_ old: [String], _ new: [String], _ expected: [String]) throws {
        let before = try old.enumerated().map { try Fixture.stub(.get, "/p?page=\($0.offset)", body: Data($0.element.utf8)) }
        let after = try new.enumerated().map { try Fixture.stub(.get, "/p?page=\($0.offset)", body: Data($0.element.utf8)) }
        #expect(RecordingDiff(old: before, new: after).changes.map(\.description) == expected)
    }

    @Test("a repeated member name is not part of the shape: decoders read the first, so a repeat of another kind changes nothing", arguments: [
        (#"{"n": {"x": 1}}"#, #"{"n": {"x": 1, "x": "s"}}"#),
        (#"{"é": 1}"#, #"{"é": 1, "e\u0301": "s"}"#),
    ])
    func repeatedNames(old: String, new: String) throws {
        let diff = RecordingDiff(old: [try .stub(.get, "/thing", json: old)], new: [try .stub(.get, "/thing", json: new)])
        #expect(diff.changes.isEmpty, "\(diff)")
    }

    @Test("a whole number becoming one written with a fraction is a new kind of value; the other way, a narrowing", arguments: [
        (#"{"n": 1}"#, #"{"n": 1.5}"#, "retyped n: number -> number with a fraction or exponent [breaking]"),
        (#"{"n": 9007199254740993}"#, #"{"n": 1.0}"#, "retyped n: number -> number with a fraction or exponent [breaking]"),
        (#"{"n": 2}"#, #"{"n": 2e3}"#, "retyped n: number -> number with a fraction or exponent [breaking]"),
        (#"{"n": 1.5}"#, #"{"n": 2}"#, "narrowed n: number with a fraction or exponent -> number"),
    ])
    func fractions(old: String, new: String, change: String) throws {
        let diff = RecordingDiff(old: [try .stub(.get, "/thing", json: old)], new: [try .stub(.get, "/thing", json: new)])
        #expect(diff.changes.map(\.description) == ["GET /thing: \(change)"])
    }

    @Test("paths and member names shaped like credentials are not shown in a diff's lines")
    func credentialsInLines() throws {
        let token = "ghp_" + String(repeating: "a1B2", count: 9)
        let old = [try Fixture.stub(.get, "/hooks/\(token)", json: "{}"), try Fixture.stub(.get, "/p", json: #"{"\#(token)": 1}"#)]
        let new = [try Fixture.stub(.get, "/p", json: "{}")]
        let diff = RecordingDiff(old: old, new: new)
        #expect(diff.changes.count == 2)
        #expect(!diff.description.contains(token), "\(diff)")
    }

    @Test("a member named by a secret value a recording holds is listed as REDACTED, so a token that changes is no change")
    func secretValuesAsNames() throws {
        let session = "Hunter2SuperSecretPw"
        let old = [
            try Fixture.stub(.post, "/login", json: #"{"session_token": "\#(session)"}"#),
            try Fixture.stub(.get, "/sessions", json: #"{"sessions": {"\#(session)": {"user": "octocat"}}}"#),
        ]
        let renewed = [
            try Fixture.stub(.post, "/login", json: #"{"session_token": "Renewed2SecretValue"}"#),
            try Fixture.stub(.get, "/sessions", json: #"{"sessions": {"Renewed2SecretValue": {"user": 1}}}"#),
        ]
        let diff = RecordingDiff(old: old, new: renewed)
        #expect(diff.changes.map(\.kind) == [.retyped(member: "sessions.REDACTED.user", from: "string", to: "number")])
        #expect(!diff.description.contains(session) && !diff.description.contains("Renewed2"), "\(diff)")
    }

    @Test("a member whose name holds a secret value a recording holds shows the rest of its name, the value REDACTED")
    func secretValuesInNames() throws {
        let old = [try Fixture.stub(.get, "/y", json: #"{"x=hunterPin77Secret": 1, "a hunterPin77Secret b": 1}"#)]
        let new = [try Fixture.stub(.get, "/y", json: #"{"password": "hunterPin77Secret"}"#)]
        let diff = RecordingDiff(old: old, new: new)
        #expect(!diff.description.contains("hunterPin77"), "\(diff)")
        #expect(diff.description.contains("x=REDACTED") && diff.description.contains("a REDACTED b"), "\(diff)")
    }

    @Test("a member named by a secret value the request's URL or a header holds is listed as REDACTED")
    func secretValuesOfTheRequestAsNames() throws {
        let old = [try Fixture.stub(.get, "/x", json: #"{"a": 1}"#)]
        var renewed = try Fixture.stub(.get, "/x?access_token=urlKey12345", json: #"{"a": 1, "urlKey12345": {"b": 1}, "hdrKey12345": 2, "ckKey12345x": 3}"#)
        renewed.request.headerFields[.authorization] = "Bearer hdrKey12345"
        renewed.request.headerFields[.cookie] = "sid=ckKey12345x; theme=dark"
        let diff = RecordingDiff(old: old, new: [renewed])
        for secret in ["urlKey12345", "hdrKey12345", "ckKey12345x"] {
            #expect(!diff.description.contains(secret), "\(diff)")
        }
        #expect(diff.description.contains("added REDACTED"), "\(diff)")
    }

    @Test("sculpt diff lists the changes and exits 1 on a breaking one, 0 on none, 2 on a recording it cannot read")
    func command() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-diff-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let new = folder.appending(path: "new.json")
        try Cassette(try Self.planted()).encoded().write(to: new)
        let (status, output, _) = try await CommandProcess.run(["diff", "Tests/Fixtures/github", new.path])
        #expect(status == 1)
        #expect(output.contains("GET /repos/octokit-fixture-org/paginate-issues/issues: removed [].node_id (string) [breaking]\n"))
        #expect(output.hasSuffix("9 changes, 5 breaking.\n"), "\(output)")

        let (same, unchanged, _) = try await CommandProcess.run(["diff", "Tests/Fixtures/github", "Tests/Fixtures/github"])
        #expect(same == 0)
        #expect(unchanged == "No changes.\n")

        try Data("{\"interactions\": [".utf8).write(to: folder.appending(path: "broken.json"))
        let (broken, _, error) = try await CommandProcess.run(["diff", "Tests/Fixtures/github", folder.appending(path: "broken.json").path])
        #expect(broken == 2)
        #expect(error.hasPrefix("error: \(folder.appending(path: "broken.json").path): line 1: not JSON"), "\(error)")
        try FileManager.default.createDirectory(at: folder.appending(path: "empty"), withIntermediateDirectories: true)
        let (empty, _, nothing) = try await CommandProcess.run(["diff", "Tests/Fixtures/github", folder.appending(path: "empty").path])
        #expect(empty == 2)
        #expect(nothing == "error: \(folder.appending(path: "empty").path): holds no fixture, cassette or HAR archive\n")
        let fifoFolder = folder.appending(path: "with-fifo")
        try FileManager.default.createDirectory(at: fifoFolder, withIntermediateDirectories: true)
        try Cassette(try GitHubFixtures.all()).encoded().write(to: fifoFolder.appending(path: "github.json"))
        #expect(mkfifo(fifoFolder.appending(path: "pipe.json").path, 0o644) == 0)
        let (fifo, _, notRegular) = try await CommandProcess.run(["diff", "Tests/Fixtures/github", fifoFolder.path])
        #expect(fifo == 2)
        #expect(notRegular == "error: \(fifoFolder.appending(path: "pipe.json").path): not a regular file\n")
        let (missing, _, absent) = try await CommandProcess.run(["diff", "Tests/Fixtures/github", folder.appending(path: "nowhere").path])
        #expect(missing == 2)
        #expect(absent.contains("no such file or folder"))
    }
}
