import Foundation
import HTTPTypes
import Sculpt
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Header values that are not ASCII keep their bytes on the way between the wire, Foundation and
/// `HTTPFields`: FoundationNetworking decodes header bytes as UTF-8, where HTTPTypesFoundation's
/// bridge would read each character as one ISO Latin-1 byte (`é` as 0xE9, `日` as a space).
@Suite("Foundation's header fields")
struct FoundationFieldsTests {
    static let fields: HTTPFields = [
        .contentType: "application/json",
        .contentDisposition: #"attachment; filename="résumé.pdf""#,
        .literal("X-Place"): "日本",
    ]

    static func fixture(_ url: String) throws -> Fixture {
        Fixture(request: .init(url: try #require(URL(string: url))), response: .init(status: .ok, headerFields: fields, body: Data("{}".utf8)))
    }

    static func expectSameValues(_ context: ResponseContext) {
        #expect(context.headerFields[.contentDisposition] == #"attachment; filename="résumé.pdf""#)
        #expect(context.headerFields[.literal("X-Place")] == "日本")
    }

    @Test("from a real server through URLSession")
    func fromServer() async throws {
        try await FixtureServer.running(FixtureReplay([try Self.fixture("https://api.example.com/files/1")])) { _, baseURL in
            let request = URLRequest(url: baseURL.appending(path: "files/1"))
            let (_, response) = try await URLSession(configuration: .unhurried).data(for: request)
            Self.expectSameValues(ResponseContext(response, request: request))
        }
    }

    @Test("from the replay protocol, and into a recording")
    func replayAndRecord() async throws {
        let replay = FixtureReplay([try Self.fixture("https://api.example.com/files/1")])
        let request = URLRequest(url: try #require(URL(string: "https://api.example.com/files/1")))
        let (_, response) = try await replay.makeSession().data(for: request)
        Self.expectSameValues(ResponseContext(response, request: request))
        try await FixtureServer.running(FixtureReplay([try Self.fixture("https://api.example.com/files/2")])) { _, baseURL in
            let recorder = FixtureRecorder()
            _ = try await recorder.data(for: URLRequest(url: baseURL.appending(path: "files/2")))
            Self.expectSameValues(try #require(recorder.interactions.first).context)
        }
    }
}
