import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Record modes: a `FixtureServer` on 127.0.0.1 stands in for the real API, and what it was asked
/// shows whether a recording reached the network.
@Suite("Record modes")
struct CassetteRecordingTests {
    /// The "real API": answers `/users/<name>` with the given bodies, each any number of times.
    struct API {
        let server: FixtureServer
        let base: URL

        init(_ users: [String: String]) async throws {
            let fixtures = users.map { name, body in
                Fixture(
                    request: .init(url: URL(filePath: "/").appending(path: "users/\(name)")),
                    response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data(body.utf8)))
            }
            server = FixtureServer(replay: FixtureReplay(fixtures, options: .init(repeatsLastResponse: true)))
            base = try await server.start()
        }

        func url(_ name: String) -> URL { base.appending(path: "users/\(name)") }

        /// How many of the API's users no request has reached.
        var untouched: Int { server.replay.unusedInteractions.count }
    }

    /// A cassette file in a fresh temporary folder (not created).
    static func cassetteFile() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "sculpt-cassette-\(UUID())/nested/user.json")
    }

    static func body(_ session: URLSession, _ url: URL, headers: [String: String] = [:]) async throws -> String {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, _) = try await session.data(for: request)
        return String(decoding: data, as: UTF8.self)
    }

    @Test("replay-only without a cassette is an error that says how to record it")
    func replayOnlyNeedsACassette() throws {
        let file = Self.cassetteFile()
        let error = try #require(throws: CassetteRecording.MissingCassetteError.self) {
            try CassetteRecording(file: file, mode: .replayOnly)
        }
        #expect(error.file == file)
        #expect(error.description.contains("SCULPT_RECORD_MODE=once"))
    }

    @Test("once records a missing cassette, then replays it without the network")
    func onceRecordsThenReplays() async throws {
        let api = try await API(["octocat": #"{"login":"octocat","id":1}"#])
        let file = Self.cassetteFile()
        let first = try CassetteRecording(file: file, mode: .once)
        #expect(first.records)
        let recorded = try await Self.body(first.makeSession(), api.url("octocat"))
        #expect(recorded == #"{"login":"octocat","id":1}"#)
        #expect(try first.save())
        #expect(api.untouched == 0)
        await api.server.stop()

        let cassette = try Cassette(contentsOf: file)
        #expect(cassette.interactions.count == 1)
        #expect(cassette.interactions.first?.request.url == api.url("octocat"))

        // The server is gone: the second recording can only be answered from the cassette (in the
        // process that recorded it, it would still record what the cassette lacks).
        let second = try CassetteRecording(file: file, mode: .once)
        #expect(second.replay.interactions.count == 1)
        var routes = URLModelMatcher()
        try routes.add("/users/*", User.self)
        let user = try await second.makeSession().model(from: api.url("octocat"), serializer: ModelResponseSerializer(matcher: routes), as: User.self)
        #expect(user == User(login: "octocat", id: 1))
        #expect(try !second.save())
    }

    @Test("replay-only answers a request the cassette lacks with a miss, and the network is never asked")
    func replayOnlyNeverReachesTheNetwork() async throws {
        let api = try await API(["octocat": #"{"login":"octocat","id":1}"#, "hubot": #"{"login":"hubot","id":2}"#])
        defer { Task { await api.server.stop() } }
        let file = Self.cassetteFile()
        let seed = try CassetteRecording(file: file, mode: .all)
        _ = try await Self.body(seed.makeSession(), api.url("octocat"))
        try seed.save()
        #expect(api.untouched == 1)

        let recording = try CassetteRecording(file: file, mode: .replayOnly)
        let session = recording.makeSession()
        #expect(try await Self.body(session, api.url("octocat")) == #"{"login":"octocat","id":1}"#)
        let error = await #expect(throws: (any Error).self) { try await Self.body(session, api.url("hubot")) }
        #expect(error.map { "\($0)" }?.contains("/users/hubot") == true, "\(String(describing: error))")
        #expect(api.untouched == 1)
        #expect(try !recording.save())
    }

    @Test("new episodes replays what the cassette has and records what it lacks, after it")
    func newEpisodes() async throws {
        let api = try await API(["octocat": #"{"login":"octocat","id":1}"#, "hubot": #"{"login":"hubot","id":2}"#])
        defer { Task { await api.server.stop() } }
        let file = Self.cassetteFile()
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let stale = Fixture(
            request: .init(url: api.url("octocat")),
            response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data(#"{"login":"octocat","id":100}"#.utf8)))
        try Cassette([stale]).encoded().write(to: file)

        let recording = try CassetteRecording(file: file, mode: .newEpisodes)
        let session = recording.makeSession()
        #expect(try await Self.body(session, api.url("octocat")) == #"{"login":"octocat","id":100}"#)  // from the cassette
        #expect(try await Self.body(session, api.url("hubot")) == #"{"login":"hubot","id":2}"#)  // from the network
        #expect(api.untouched == 1)
        try recording.save()
        let saved = try Cassette(contentsOf: file).interactions.map { $0.request.url.lastPathComponent }
        #expect(saved == ["octocat", "hubot"])
    }

    @Test("all records every request again and replaces the cassette")
    func all() async throws {
        let api = try await API(["octocat": #"{"login":"octocat","id":1}"#])
        defer { Task { await api.server.stop() } }
        let file = Self.cassetteFile()
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let stale = Fixture(request: .init(url: api.url("octocat")), response: .init(status: .ok, body: Data(#"{"id":100}"#.utf8)))
        try Cassette([stale, stale]).encoded().write(to: file)

        let recording = try CassetteRecording(file: file, mode: .all)
        #expect(try await Self.body(recording.makeSession(), api.url("octocat")) == #"{"login":"octocat","id":1}"#)
        try recording.save()
        let saved = try Cassette(contentsOf: file).interactions
        #expect(saved.count == 1)
        #expect(saved.first?.data == Data(#"{"login":"octocat","id":1}"#.utf8))
    }

    @Test("what is recorded has its secrets redacted before it is kept")
    func recordingRedacts() async throws {
        let api = try await API(["octocat": #"{"login":"octocat","id":1,"token":"ghp_live0123456789"}"#])
        defer { Task { await api.server.stop() } }
        let file = Self.cassetteFile()
        let recording = try CassetteRecording(file: file, mode: .once)
        var url = URLComponents(url: api.url("octocat"), resolvingAgainstBaseURL: false)
        url?.queryItems = [URLQueryItem(name: "access_token", value: "q-secret-42")]
        let full = try #require(url?.url)
        _ = try await Self.body(recording.makeSession(), full, headers: ["Authorization": "Bearer h-secret-42"])
        try recording.save()
        let text = try String(contentsOf: file, encoding: .utf8)
        for secret in ["q-secret-42", "h-secret-42", "ghp_live0123456789"] {
            #expect(!text.contains(secret), "\(secret) in \(text)")
        }
    }

    /// A mode named by the environment, or not, and what it resolves to.
    struct ModeRow: Sendable, CustomTestStringConvertible {
        var environment: [String: String]
        var preferred: RecordMode?
        var expected: RecordMode?
        var testDescription: String { "\(environment) preferring \(preferred.map(\.description) ?? "nothing")" }
    }

    @Test("the mode: SCULPT_RECORD_MODE, else the code's, else replay-only in CI and once elsewhere", arguments: [
        ModeRow(environment: [:], preferred: nil, expected: .once),
        ModeRow(environment: ["CI": "true"], preferred: nil, expected: .replayOnly),
        ModeRow(environment: ["CI": "1"], preferred: nil, expected: .replayOnly),
        ModeRow(environment: ["CI": "false"], preferred: nil, expected: .once),
        ModeRow(environment: ["CI": "true"], preferred: .newEpisodes, expected: .newEpisodes),
        ModeRow(environment: ["SCULPT_RECORD_MODE": "all"], preferred: .replayOnly, expected: .all),
        ModeRow(environment: ["SCULPT_RECORD_MODE": "New-Episodes", "CI": "true"], preferred: nil, expected: .newEpisodes),
        ModeRow(environment: ["SCULPT_RECORD_MODE": "none"], preferred: .all, expected: .replayOnly),
        ModeRow(environment: ["SCULPT_RECORD_MODE": "replay-only"], preferred: nil, expected: .replayOnly),
        ModeRow(environment: ["SCULPT_RECORD_MODE": ""], preferred: .once, expected: .once),
        ModeRow(environment: ["SCULPT_RECORD_MODE": "sometimes"], preferred: .once, expected: nil),
    ])
    func modeResolution(row: ModeRow) throws {
        guard let expected = row.expected else {
            let error = try #require(throws: RecordMode.InvalidNameError.self) { try RecordMode.resolved(preferring: row.preferred, environment: row.environment) }
            #expect(error.description == #"SCULPT_RECORD_MODE="sometimes" names no record mode; use one of replay-only, once, new-episodes, all"#)
            return
        }
        #expect(try RecordMode.resolved(preferring: row.preferred, environment: row.environment) == expected)
    }

    @Test("a cassette loads from a bundle by name, as a fixture does")
    func cassetteNamedInBundle() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "sculpt-cassette-bundle-\(UUID())")
        let folder = root.appending(path: "Fixtures/cassettes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Paths.fixtures.appending(path: "cassettes/github-paginate-issues.json"), to: folder.appending(path: "paginate.json"))
        let bundle = try #require(Bundle(url: root))
        let cassette = try Cassette(named: "paginate", in: bundle, subdirectory: "Fixtures/cassettes")
        #expect(cassette.interactions.count == (try Cassette(contentsOf: folder.appending(path: "paginate.json"))).interactions.count)
        #expect(cassette.interactions.count > 1)
        #expect(throws: Fixture.FormatError.self) { try Cassette(named: "../paginate", in: bundle, subdirectory: "Fixtures/cassettes") }
    }
}
