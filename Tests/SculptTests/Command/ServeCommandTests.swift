import Foundation
import SculptTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("sculpt serve", .timeLimit(.minutes(10)))
struct ServeCommandTests {
    /// The base URL a started `serve` (`... at URL`) or `record` (`... through URL into ...`)
    /// printed on its line containing `words`.
    static func baseURL(of command: CommandProcess, after words: String) async throws -> URL {
        let line = try await command.line(containing: words).split(separator: " ")
        let marker = try #require(line.firstIndex { $0 == "at" || $0 == "through" })
        return try #require(URL(string: String(line[line.index(after: marker)])))
    }

    @Test("serves a folder's fixtures, logs each request and whether it matched, and stops on SIGINT and SIGTERM", arguments: [SIGINT, SIGTERM])
    func serve(_ signal: Int32) async throws {
        let command = try CommandProcess(["serve", "Tests/Fixtures/github", "Tests/Fixtures/cassettes"])
        let base = try await Self.baseURL(of: command, after: "Serving 16 interactions from 11 files at")
        let session = URLSession(configuration: .unhurried)
        defer { session.invalidateAndCancel() }

        let (body, found) = try await session.data(from: base.appending(path: "orgs/octokit-fixture-org"))
        #expect((found as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains(#""login":"octokit-fixture-org""#))
        #expect(try await command.line(containing: "GET /orgs/octokit-fixture-org -> 200, matched get-organization.json").isEmpty == false)

        // By default the answer repeats, as a server a client talks to for a while should.
        let (_, again) = try await session.data(from: base.appending(path: "orgs/octokit-fixture-org"))
        #expect((again as? HTTPURLResponse)?.statusCode == 200)

        let (message, missing) = try await session.data(from: base.appending(path: "orgs/nobody").appending(queryItems: [.init(name: "access_token", value: "s3cret")]))
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        #expect(String(decoding: message, as: UTF8.self).contains("/orgs/octokit-fixture-org"), "the miss names the nearest")
        let logged = try await command.line(containing: "GET /orgs/nobody")
        #expect(logged == "GET /orgs/nobody?access_token=REDACTED -> 404, missed")

        command.send(signal)
        #expect(await command.exit() == 0)
        #expect(command.standardOutput.hasSuffix("Stopped.\n"))
    }

    @Test("serves a HAR archive on the port given")
    func harOnPort() async throws {
        // A port is free when it is chosen, but a server another test starts may take it before
        // serve binds it: serve then says so and ends, and another port is chosen.
        var started: (command: CommandProcess, port: UInt16)?
        for _ in 0..<5 where started == nil {
            let port = try await Self.freePort()
            let command = try CommandProcess(["serve", "--port", "\(port)", "--quiet", "Tests/Fixtures/corpus/har/pollyjs_github-getUser_gzip-hex-chunks.har"])
            if try await command.lineIfWritten(containing: "Serving") != nil {
                started = (command, port)
            } else {
                #expect(command.standardError.contains("bind"), "\(command.standardError)")
            }
        }
        let (command, port) = try #require(started, "five ports in a row were taken before serve bound them")
        let base = try await Self.baseURL(of: command, after: "Serving")
        #expect(base.port == Int(port))
        let (body, response) = try await URLSession(configuration: .unhurried).data(from: base.appending(path: "users/netflix"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains(#""login":"Netflix""#))
        command.send(SIGINT)
        #expect(await command.exit() == 0)
        #expect(!command.standardOutput.contains("GET /users/netflix"), "--quiet logs no requests")
    }

    @Test("no fixtures, a broken fixture, or a port in use end with a message and a failure status")
    func failures() async throws {
        let empty = FileManager.default.temporaryDirectory.appending(path: "sculpt-serve-empty-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try await CommandProcess.run(["serve", empty.path(percentEncoded: false)])
        #expect(none.status != 0)
        #expect(none.errors.contains("no interactions found"), "\(none.errors)")

        let broken = empty.appending(path: "broken.json")
        try Data("{\n  \"request\": {},\n  \"response\": {\"status\": 200}\n}".utf8).write(to: broken)
        let format = try await CommandProcess.run(["serve", broken.path(percentEncoded: false)])
        #expect(format.status != 0)
        #expect(format.errors.contains("fixture broken.json:2:"), "\(format.errors)")

        let first = try CommandProcess(["serve", "Tests/Fixtures/github"])
        let base = try await Self.baseURL(of: first, after: "Serving")
        let taken = try await CommandProcess.run(["serve", "--port", "\(try #require(base.port))", "Tests/Fixtures/github"])
        #expect(taken.status != 0)
        #expect(taken.errors.contains("bind"), "\(taken.errors)")
        first.send(SIGTERM)
        #expect(await first.exit() == 0)
    }

    /// A port nothing listens on now: one a server was given for port 0, then stopped.
    static func freePort() async throws -> UInt16 {
        let server = FixtureServer(fixtures: [])
        let url = try await server.start()
        await server.stop()
        return UInt16(try #require(url.port))
    }
}
