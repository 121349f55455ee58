import Foundation
import HTTPTypes
import Sculpt
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Whatever the recorder writes, the loader reads back: statuses the recorder keeps (0...999, with
/// 0 for a code out of range) and the odd header values a server sends.
@Suite("Recorder round trip")
struct RecorderRoundTripTests {
    /// A server's status code and what the recording holds after a write and a read.
    @Test("a recorded status reads back as written", arguments: [
        (0, 0), (1, 1), (42, 42), (99, 99), (100, 100), (999, 999), (1_000, 0), (-1, 0), (Int(Int32.max), 0),
    ])
    func status(_ sent: Int, _ read: Int) async throws {
        let path = "/status-\(UUID().uuidString)"
        StatusProtocol.answers.set(sent, for: path)
        let configuration = URLSessionConfiguration.unhurried
        configuration.protocolClasses = [StatusProtocol.self]
        let recorder = FixtureRecorder(configuration: configuration)
        _ = try await recorder.data(for: URLRequest(url: try #require(URL(string: "https://recorded.example\(path)"))))
        let written = recorder.cassette.encoded()
        let again = try Cassette(json: written)
        #expect(again.interactions.map(\.response.status.code) == [read], "\(String(decoding: written, as: UTF8.self))")
        #expect(try Fixture(json: again.interactions[0].encoded(byteExact: true)).response.status.code == read)
    }

    @Test("ResponseContext's status 0 (no valid status) survives a fixture file")
    func contextStatus() throws {
        let url = try #require(URL(string: "https://x/a"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: 1_000, httpVersion: nil, headerFields: ["X-Odd": " a\u{7F}é "]))
        let context = ResponseContext(response)
        let fixture = Fixture(request: .init(url: url), response: .init(status: context.status, headerFields: context.headerFields))
        let again = try Fixture(json: fixture.encoded())
        #expect(again.response.status.code == 0)
        #expect(again.response.headerFields == fixture.response.headerFields)
    }
}

/// Answers each request with the status registered for its path, and an empty body.
private final class StatusProtocol: URLProtocol {
    final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var byPath: [String: Int] = [:]

        func set(_ status: Int, for path: String) { lock.withLock { byPath[path] = status } }
        func get(_ path: String) -> Int? { lock.withLock { byPath[path] } }
    }

    static let answers = Answers()

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url, let status = Self.answers.get(url.path()),
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])
        else {
            client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
