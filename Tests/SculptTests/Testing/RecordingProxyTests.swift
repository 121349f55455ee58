import Foundation
import HTTPTypes
import SculptTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("RecordingProxy", .timeLimit(.minutes(10)))
struct RecordingProxyTests {
    /// Log entries, collected from any thread.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [ServedRequest] = []
        func append(_ entry: ServedRequest) { lock.withLock { entries.append(entry) } }
        var all: [ServedRequest] { lock.withLock { entries } }
    }

    static func cassetteFile() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "sculpt-proxy-\(UUID()).json")
    }

    @Test("a target that cannot be reached is a 502 that says so, logged as failed, and nothing is recorded")
    func unreachable() async throws {
        // Port 1 (tcpmux) on loopback: no test server takes it, where a stopped server's port may
        // be another test's server's at once.
        let port = 1
        let log = Log()
        let proxy = try RecordingProxy(target: try #require(URL(string: "http://127.0.0.1:\(port)")), onRequest: log.append)
        let base = try await proxy.start()
        let (body, response) = try await URLSession(configuration: .unhurried).data(from: base.appending(path: "users/octocat"))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 502)
        #expect(http.value(forHTTPHeaderField: "X-Sculpt-Record") == "failed")
        #expect(String(decoding: body, as: UTF8.self).hasPrefix("sculpt record: http://127.0.0.1:\(port) could not be reached"))
        #expect(await proxy.cassette.interactions.isEmpty)
        #expect(log.all.count == 1)
        guard case .failed = log.all.first?.outcome else {
            Issue.record("logged as \(String(describing: log.all.first))")
            return
        }
        await proxy.stop()
    }

    @Test("stopping the proxy while clients follow redirects through it ends their requests, and the process goes on")
    func stoppedWhileRedirecting() async throws {
        let target = try ScriptedServer { _ in "HTTP/1.1 302 Found\r\nLocation: /loop\r\nContent-Length: 0\r\nConnection: close\r\n\r\n" }
        defer { target.stop() }
        let client = URLSession(configuration: .unhurried)
        defer { client.invalidateAndCancel() }
        for round in 1...30 {
            let proxy = try RecordingProxy(target: try #require(URL(string: "http://127.0.0.1:\(target.port)")))
            let base = try await proxy.start()
            let ended = Locked(false)
            client.dataTask(with: base.appending(path: "loop")) { _, _, _ in ended.withLock { $0 = true } }.resume()
            // Stopped after a number of hops that varies by round, while the client follows them.
            let seen = target.heads.count
            while target.heads.count < seen + round % 4 + 1, !ended.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(2)) }
            await proxy.stop()
            while !ended.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test("a path that looks like another host stays a path on the target")
    func pathStaysOnTarget() async throws {
        let seen = Log()
        let target = FixtureServer(fixtures: [], onRequest: seen.append)
        let targetURL = try await target.start()
        let proxy = try RecordingProxy(target: targetURL)
        let base = try await proxy.start()
        let url = try #require(URL(string: base.absoluteString + "//evil.example/steal"))
        let (_, response) = try await URLSession(configuration: .unhurried).data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 404, "the target's own miss")
        #expect(seen.all.map(\.target) == ["//evil.example/steal"])
        #expect(await proxy.cassette.interactions.first?.request.url.host() == "127.0.0.1")
        await proxy.stop()
        await target.stop()
    }

    @Test("an existing cassette is added to, and a request body reaches the target and is recorded redacted")
    func appendsAndForwardsBodies() async throws {
        let file = Self.cassetteFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let earlier = Fixture(request: .init(url: try #require(URL(string: "https://api.example.com/earlier"))), response: .init(status: .ok))
        try Cassette([earlier]).encoded().write(to: file)

        let created = Fixture(
            request: .init(method: .post, url: try #require(URL(string: "https://api.example.com/tokens")), body: Data(#"{"password":"hunter2","name":"ci"}"#.utf8)),
            response: .init(status: .created, headerFields: [.contentType: "application/json"], body: Data(#"{"token":"t0k3n"}"#.utf8)))
        // The target matches bodies: the request body must arrive whole for it to answer 201.
        let target = FixtureServer(replay: FixtureReplay([created], options: .init(matchesBody: true)))
        let proxy = try RecordingProxy(target: try await target.start(), cassette: file)
        var request = URLRequest(url: try await proxy.start().appending(path: "tokens"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"name":"ci","password":"hunter2"}"#.utf8)
        let (body, response) = try await URLSession(configuration: .unhurried).data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(String(decoding: body, as: UTF8.self) == #"{"token":"t0k3n"}"#, "the client gets the token")

        let recorded = try Cassette(contentsOf: file).interactions
        #expect(recorded.map { $0.request.url.path() } == ["/earlier", "/tokens"])
        #expect(recorded[1].request.body.map { String(decoding: $0, as: UTF8.self) } == #"{"name":"ci","password":"REDACTED"}"#)
        #expect(String(decoding: recorded[1].response.body, as: UTF8.self) == #"{"token":"REDACTED"}"#)
        await proxy.stop()
        await target.stop()
    }

    @Test("a target that is not an http or https origin is refused", arguments: [
        "https://api.example.com/v3", "https://api.example.com?x=1", "ftp://example.com", "https://u:p@example.com", "/relative",
    ])
    func badTarget(_ text: String) throws {
        #expect(throws: URLError.self) { try RecordingProxy(target: try #require(URL(string: text))) }
    }
}
