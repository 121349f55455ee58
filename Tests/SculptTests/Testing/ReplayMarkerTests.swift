import Foundation
import HTTPTypes
import Sculpt
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A recorded `REDACTED` matches any value in every place a redaction can put it, through a
/// `URLSession` (the replay's `URLProtocol`) and over HTTP (`FixtureServer`) alike; anything
/// else still has to match.
@Suite("Replaying redacted recordings")
struct ReplayMarkerTests {
    /// A recorded request with the marker somewhere, and a live request with a value there.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var method = "GET"
        /// The recorded path and query.
        var recorded: String
        /// The live request's path and query.
        var asked: String
        var recordedFields: [String: String] = [:]
        var askedFields: [String: String] = [:]
        var recordedBody: String?
        var askedBody: String?
        /// Whether the live request must be answered.
        var matches = true

        var testDescription: String { name }

        var options: FixtureReplay.Options {
            .init(
                matchedHeaders: recordedFields.keys.compactMap { HTTPField.Name($0) }.sorted { $0.canonicalName < $1.canonicalName },
                matchesBody: recordedBody != nil)
        }
    }

    static let rows: [Row] = [
        Row(name: "a query value", recorded: "/me?access_token=REDACTED&page=2", asked: "/me?page=2&access_token=live1"),
        Row(name: "a query value, the name in capitals", recorded: "/me?ACCESS_TOKEN=REDACTED", asked: "/me?ACCESS_TOKEN=live1"),
        Row(name: "a query value, the name percent-encoded", recorded: "/me?access%5Ftoken=REDACTED", asked: "/me?access_token=live1"),
        Row(name: "a query value in the a[]= form", recorded: "/me?access_token%5B%5D=REDACTED", asked: "/me?access_token%5B%5D=live1"),
        Row(name: "a query value among ;-separated ones", recorded: "/me?a=1;access_token=REDACTED;b=2", asked: "/me?a=1;access_token=live1;b=2"),
        Row(name: "repeated query values", recorded: "/me?token=REDACTED&token=REDACTED", asked: "/me?token=one&token=two"),
        Row(name: "a secret inside a URL in a value", recorded: "/go?next=/cb?token=REDACTED", asked: "/go?next=/cb?token=live1"),
        Row(name: "a secret inside a percent-encoded URL in a value", recorded: "/go?next=%2Fcb%3Ftoken%3DREDACTED", asked: "/go?next=%2Fcb%3Ftoken%3Dlive1"),
        Row(name: "an OAuth code beside its state", recorded: "/cb?code=REDACTED&state=xyz", asked: "/cb?code=live1&state=xyz"),
        Row(name: "a redacted value does not excuse another difference", recorded: "/me?access_token=REDACTED&page=1", asked: "/me?access_token=live1&page=2", matches: false),
        Row(name: "a redacted value does not excuse a missing parameter", recorded: "/me?access_token=REDACTED", asked: "/me", matches: false),
        Row(name: "a matched Authorization header", recorded: "/me", asked: "/me", recordedFields: ["Authorization": "REDACTED"], askedFields: ["Authorization": "Bearer live1"]),
        Row(name: "a matched Cookie header", recorded: "/me", asked: "/me", recordedFields: ["Cookie": "REDACTED"], askedFields: ["Cookie": "a=live1; b=live2"]),
        Row(name: "a matched header in any case", recorded: "/me", asked: "/me", recordedFields: ["x-api-key": "REDACTED"], askedFields: ["X-API-KEY": "live1"]),
        Row(name: "a matched Referer with a redacted URL", recorded: "/me", asked: "/me", recordedFields: ["Referer": "https://app.example/cb?code=REDACTED&state=1"],
            askedFields: ["Referer": "https://app.example/cb?code=live1&state=1"]),
        Row(name: "a matched header that is absent", recorded: "/me", asked: "/me", recordedFields: ["Authorization": "REDACTED"], matches: false),
        Row(name: "a JSON body member", method: "POST", recorded: "/token", asked: "/token",
            recordedBody: #"{"grant_type":"password","password":"REDACTED"}"#, askedBody: #"{"password": "live1", "grant_type": "password"}"#),
        Row(name: "a nested JSON body member of another type", method: "POST", recorded: "/token", asked: "/token",
            recordedBody: #"{"auth":{"refresh_token":"REDACTED","scope":["a"]}}"#, askedBody: #"{"auth":{"scope":["a"],"refresh_token":{"v":1}}}"#),
        Row(name: "a JSON body that differs beside the redacted member", method: "POST", recorded: "/token", asked: "/token",
            recordedBody: #"{"user":"a","password":"REDACTED"}"#, askedBody: #"{"user":"b","password":"live1"}"#, matches: false),
        Row(name: "a form body value", method: "POST", recorded: "/token", asked: "/token",
            recordedBody: "grant_type=refresh_token&refresh_token=REDACTED&client_id=c1", askedBody: "grant_type=refresh_token&refresh_token=live1&client_id=c1"),
        Row(name: "a form body that differs beside the redacted value", method: "POST", recorded: "/token", asked: "/token",
            recordedBody: "grant_type=refresh_token&refresh_token=REDACTED&client_id=c1", askedBody: "grant_type=refresh_token&refresh_token=live1&client_id=c2",
            matches: false),
        Row(name: "a form body with a parameter more", method: "POST", recorded: "/token", asked: "/token",
            recordedBody: "client_secret=REDACTED", askedBody: "client_secret=live1&extra=1", matches: false),
    ]

    private func fixture(_ row: Row) throws -> Fixture {
        var fields = HTTPFields()
        for (name, value) in row.recordedFields { fields[try #require(HTTPField.Name(name))] = value }
        return Fixture(
            request: .init(
                method: try #require(HTTPRequest.Method(row.method)), url: try #require(URL(string: "https://api.example.com\(row.recorded)")),
                headerFields: fields, body: row.recordedBody.map { Data($0.utf8) }),
            response: .init(status: .ok, headerFields: [.contentType: "text/plain"], body: Data("answered".utf8)))
    }

    private func request(_ url: URL, _ row: Row) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = row.method
        for (name, value) in row.askedFields { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = row.askedBody.map { Data($0.utf8) }
        return request
    }

    @Test("through URLSession", arguments: rows)
    func session(_ row: Row) async throws {
        let replay = FixtureReplay([try fixture(row)], options: row.options)
        let url = try #require(URL(string: "https://api.example.com\(row.asked)"))
        let result = await Self.outcome { try await replay.makeSession().data(for: request(url, row)) }
        switch result {
        case .success(let (data, _)):
            #expect(row.matches, "answered, but should have missed")
            #expect(String(decoding: data, as: UTF8.self) == "answered")
        case .failure(let error):
            #expect(!row.matches, "missed: \(error)")
        }
    }

    @Test("over HTTP", arguments: rows)
    func server(_ row: Row) async throws {
        let server = FixtureServer(replay: FixtureReplay([try fixture(row)], options: row.options))
        try await server.start()
        let url = try await server.url(for: row.asked)
        let result = await Self.outcome { try await URLSession(configuration: .unhurried).data(for: request(url, row)) }
        await server.stop()
        let (data, response) = try result.get()
        let status = (response as? HTTPURLResponse)?.statusCode
        #expect(status == (row.matches ? 200 : 404), "\(String(decoding: data, as: UTF8.self))")
        if row.matches { #expect(String(decoding: data, as: UTF8.self) == "answered") }
    }

    /// The outcome of an async throwing body.
    private static func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
