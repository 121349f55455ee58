import Foundation
import HTTPTypes
import SculptTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("sculpt record", .timeLimit(.minutes(10)))
struct RecordCommandTests {
    /// A loopback API to record: a renamed repository (a redirect to the new name) and an OAuth
    /// token endpoint whose answer holds a token.
    static func target() async throws -> FixtureServer {
        let json: HTTPFields = [.contentType: "application/json"]
        let fixtures = [
            Fixture(
                request: .init(url: try #require(URL(string: "https://api.example.com/repos/old"))),
                response: .init(status: .movedPermanently, headerFields: [.location: "https://api.example.com/repos/new"])),
            Fixture(
                request: .init(url: try #require(URL(string: "https://api.example.com/repos/new"))),
                response: .init(status: .ok, headerFields: json, body: Data(#"{"name":"new"}"#.utf8))),
            Fixture(
                request: .init(method: .post, url: try #require(URL(string: "https://api.example.com/login/oauth/access_token"))),
                response: .init(status: .ok, headerFields: json, body: Data(#"{"access_token":"gho_16C7e42F292c6912E7710c838347Ae178B4a","scope":"repo"}"#.utf8))),
        ]
        return FixtureServer(replay: FixtureReplay(fixtures, options: .init(repeatsLastResponse: true)))
    }

    /// The paths this suite's clients ask the proxy for.
    static let paths: Set<String> = ["/repos/old", "/repos/new", "/login/oauth/access_token"]

    @Test("records any client's exchanges through the proxy, redacted, with redirects kept on the proxy, and stops on SIGINT")
    func record() async throws {
        let target = try await Self.target()
        let targetURL = try await target.start()
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-record-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "session.json")

        let command = try CommandProcess(["record", "--target", targetURL.absoluteString, "--out", file.path(percentEncoded: false)])
        let proxy = try await ServeCommandTests.baseURL(of: command, after: "Recording \(targetURL.absoluteString) through")
        let session = URLSession(configuration: .unhurried)
        defer { session.invalidateAndCancel() }

        var request = URLRequest(url: proxy.appending(path: "repos/old"))
        request.setValue("token ghp_Abcdefghijklmnopqrstuvwxyz0123456789", forHTTPHeaderField: "Authorization")
        let (body, response) = try await session.data(for: request)
        #expect(String(decoding: body, as: UTF8.self) == #"{"name":"new"}"#)
        #expect(response.url?.port == proxy.port, "the redirect came back through the proxy")

        var token = URLRequest(url: proxy.appending(path: "login/oauth/access_token"))
        token.httpMethod = "POST"
        token.httpBody = Data(#"{"client_secret":"9f3c2a","code":"abc"}"#.utf8)
        token.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (tokenBody, _) = try await session.data(for: token)
        #expect(String(decoding: tokenBody, as: UTF8.self).contains("gho_16C7e42F292c6912E7710c838347Ae178B4a"), "the client gets the token")

        #expect(try await command.line(containing: "GET /repos/old ->") == "GET /repos/old -> 301, recorded")
        #expect(try await command.line(containing: "GET /repos/new ->") == "GET /repos/new -> 200, recorded")
        #expect(try await command.line(containing: "POST ") == "POST /login/oauth/access_token -> 200, recorded")

        // Written after every exchange: it loads while the proxy still runs. The proxy records
        // whatever reaches its port; a request another test's client sends to a port its own
        // server has given up, and this proxy has since taken, is recorded too, so only this
        // test's exchanges are compared.
        let written = try Cassette(contentsOf: file)
        let ours = written.interactions.filter { Self.paths.contains($0.request.url.path()) }
        #expect(ours.map { "\($0.request.method) \($0.request.url.path()) \($0.response.status.code)" } == [
            "GET /repos/old 301", "GET /repos/new 200", "POST /login/oauth/access_token 200",
        ])
        let first = try #require(ours.first)
        #expect(first.request.headerFields[.authorization] == Redaction.marker)
        #expect(first.request.url.host() == "127.0.0.1", "recorded against the target")
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(!text.contains("gho_16C7"), "the token is redacted in the cassette")
        #expect(!text.contains("9f3c2a"), "the client secret is redacted in the cassette")

        command.send(SIGINT)
        #expect(await command.exit() == 0)
        let recorded = try Cassette(contentsOf: file).interactions.count
        #expect(command.standardOutput.contains("Recorded \(recorded) interactions into \(file.path(percentEncoded: false))."))
        await target.stop()

        // What was recorded checks clean and replays as the target answered.
        let check = try await CommandProcess.run(["check", file.path(percentEncoded: false)])
        #expect(check.status == 0, "\(check.output)")
        let replay = FixtureServer(fixtures: try Cassette(contentsOf: file).interactions)
        let replayed = try await session.data(from: try await replay.start().appending(path: "repos/old"))
        #expect(String(decoding: replayed.0, as: UTF8.self) == #"{"name":"new"}"#)
        await replay.stop()
    }

    @Test("a cassette in a folder that does not exist, or a folder for a cassette, is refused before anything starts", arguments: ["/no/such/folder/session.json", "/tmp"])
    func badOut(_ out: String) async throws {
        let (status, _, errors) = try await CommandProcess.run(["record", "--target", "http://127.0.0.1:8080", "--out", out])
        #expect(status == 64)
        #expect(errors.contains("--out \(out)"), "\(errors)")
    }

    @Test("a target that is not an origin is refused before anything starts", arguments: [
        "https://api.example.com/v3", "ftp://example.com", "https://user:pw@api.example.com", "api.example.com",
        "HTTP://127.0.0.1:8080", "http://127.0.0.1:99999",
    ])
    func badTarget(_ target: String) async throws {
        let (status, _, errors) = try await CommandProcess.run(["record", "--target", target, "--out", "/tmp/never.json"])
        #expect(status == 64)
        #expect(errors.contains("--target must be an http or https origin"), "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.json"))
    }
}
