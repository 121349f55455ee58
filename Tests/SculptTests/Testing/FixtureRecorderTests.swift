import Foundation
import HTTPTypes
import Sculpt
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Recording")
struct FixtureRecorderTests {
    private static let secret = "s3cret-\(UUID().uuidString)"

    /// A loopback server with a resource that sets a cookie and a redirect.
    private func server() throws -> FixtureServer {
        func url(_ text: String) throws -> URL { try #require(URL(string: "http://recorded.example\(text)")) }
        return FixtureServer(replay: FixtureReplay([
            Fixture(
                request: .init(url: try url("/secure?x=1&access_token=\(Redaction.marker)&signature=\(Redaction.marker)")),
                response: .init(status: .ok, headerFields: [.contentType: "application/json", .setCookie: "id=\(Self.secret)"], body: Data(#"{"ok":true}"#.utf8))),
            Fixture(request: .init(url: try url("/old")), response: .init(status: .movedPermanently, headerFields: [.location: "/new"])),
            Fixture(request: .init(url: try url("/new")), response: .init(status: .ok, headerFields: [.contentType: "text/plain"], body: Data("moved".utf8))),
        ], options: .init(repeatsLastResponse: true)))
    }

    @Test("secrets in headers and query parameters never reach the written file")
    func redacts() async throws {
        let server = try server()
        try await server.start()
        let recorder = FixtureRecorder(
            redaction: Redaction(headers: [try #require(HTTPField.Name("X-Api-Key"))], queryParameters: ["Signature"]))
        var request = URLRequest(url: try await server.url(for: "/secure?x=1&access_token=\(Self.secret)&signature=\(Self.secret)"))
        request.setValue("Bearer \(Self.secret)", forHTTPHeaderField: "Authorization")
        request.setValue("session=\(Self.secret)", forHTTPHeaderField: "Cookie")
        request.setValue(Self.secret, forHTTPHeaderField: "X-Api-Key")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, _) = try await recorder.data(for: request)
        await server.stop()
        #expect(String(decoding: data, as: UTF8.self) == #"{"ok":true}"#)

        let file = FileManager.default.temporaryDirectory.appending(path: "sculpt-recorded-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try recorder.cassette.encoded().write(to: file)
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(!written.contains(Self.secret), "\(written)")
        #expect(!written.contains("s3cret"))
        let fixture = try #require(try Cassette(contentsOf: file).interactions.first)
        #expect(fixture.request.headerFields[.authorization] == Redaction.marker)
        #expect(fixture.request.headerFields[.cookie] == Redaction.marker)
        #expect(fixture.request.headerFields[try #require(HTTPField.Name("X-Api-Key"))] == Redaction.marker)
        #expect(fixture.request.headerFields[.accept] == "application/json")
        #expect(fixture.response.headerFields[.setCookie] == Redaction.marker)
        #expect(fixture.request.url.query() == "x=1&access_token=\(Redaction.marker)&signature=\(Redaction.marker)")
        #expect(fixture.data == Data(#"{"ok":true}"#.utf8))
    }

    @Test("a body the session decompressed is recorded as the session gave it, without the coding it undid: a .gz file served gzipped is the file")
    func sessionDecodedBody() async throws {
        let file = GzipData.member("hello world, a gzip file\n")
        let wire = GzipData.member(file)
        let server = try ScriptedServer(bytes: { _ in
            Array("HTTP/1.1 200 OK\r\nContent-Type: application/gzip\r\nContent-Encoding: gzip\r\nContent-Length: \(wire.count)\r\nConnection: close\r\n\r\n".utf8) + Array(wire)
        })
        defer { server.stop() }
        let recorder = FixtureRecorder(configuration: .unhurried)
        let (live, _) = try await recorder.data(for: URLRequest(url: server.url("/file.gz")))
        #expect(live == file)
        let recorded = try #require(recorder.interactions.first)
        #expect(recorded.response.body == file)
        #expect(recorded.response.headerFields[.contentEncoding] == nil)
        let replayed = try Fixture(json: recorded.encoded())
        #expect(replayed.data == file)
    }

    @Test("a redacted recording replays for a request with any secret")
    func replaysRedacted() async throws {
        let recorded = Fixture(
            request: .init(url: try #require(URL(string: "https://api.example.com/me?access_token=\(Redaction.marker)")), headerFields: [.authorization: Redaction.marker]),
            response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data("{}".utf8)))
        let session = FixtureReplay([recorded], options: .init(matchedHeaders: [.authorization])).makeSession()
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/me?access_token=other")))
        request.setValue("Bearer other", forHTTPHeaderField: "Authorization")
        let (_, response) = try await session.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test("redirects are recorded hop by hop and replay the same way")
    func redirects() async throws {
        let server = try server()
        try await server.start()
        let recorder = FixtureRecorder()
        let (data, response) = try await recorder.data(for: URLRequest(url: try await server.url(for: "/old")))
        await server.stop()
        #expect(String(decoding: data, as: UTF8.self) == "moved")
        #expect(response.url?.path() == "/new")
        #expect(recorder.interactions.map(\.response.status.code) == [301, 200])
        #expect(recorder.interactions.map { $0.request.url.path() } == ["/old", "/new"])

        let replay = FixtureReplay(try Cassette(json: recorder.cassette.encoded()).interactions)
        let (replayed, final) = try await replay.makeSession().data(from: try #require(recorder.interactions.first?.request.url))
        #expect(String(decoding: replayed, as: UTF8.self) == "moved")
        #expect(final.url?.path() == "/new")
        try replay.verifyAllUsed()
    }

    @Test("cancelling the task that records cancels the request in flight; nothing is recorded")
    func cancelledInFlight() async throws {
        let release = DispatchSemaphore(value: 0)
        let server = try ScriptedServer { _ in
            // Answers once the recording has ended, or after ten minutes if cancelling did not end it.
            _ = release.wait(timeout: .now() + 600)
            return "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        }
        defer { server.stop() }
        let recorder = FixtureRecorder(configuration: .unhurried)
        let recording = Task { try await recorder.data(for: URLRequest(url: server.url("/slow"))) }
        while server.heads.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        recording.cancel()
        let error = await #expect(throws: URLError.self) { try await recording.value }
        release.signal()
        #expect(error?.code == .cancelled)
        #expect(recorder.interactions.isEmpty)
    }

    @Test("a task cancelled before it records sends nothing and records nothing")
    func cancelledBeforeSending() async throws {
        let configuration = URLSessionConfiguration.unhurried
        configuration.protocolClasses = [RefusedConnection.self]
        let recorder = FixtureRecorder(configuration: configuration)
        let url = try #require(URL(string: "https://\(UUID().uuidString.lowercased()).example/never"))
        let recording = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await recorder.data(for: URLRequest(url: url))
        }
        let error = await #expect(throws: URLError.self) { try await recording.value }
        #expect(error?.code == .cancelled)
        #expect(!RefusedConnection.wasAsked(for: url), "the request reached the loading system")
        #expect(recorder.interactions.isEmpty)
    }
}
