import Foundation
import FuzzSupport
import HTTPTypes
import Sculpt
import SculptTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A fixture built from the input's bytes the way `FixtureRecorder` builds one from a live
/// interaction, so that the property "whatever the recorder writes, the loader reads back" is
/// checked on what a recorder can write, not only on files that already read.
///
/// The input is read as: a first line `STATUS METHOD URL`, then response header lines `Name: value`
/// up to an empty line, then request header lines up to an empty line, then the response body.
/// Like the recorder: the status is any integer (Foundation passes a server's through; out of
/// 0...999 it becomes 0), the method falls back to GET, a URL that does not parse becomes `file:///`,
/// header names that are not tokens are left out, values are kept as sent, and secrets are
/// redacted with the default ``Redaction``.
enum RecordedFixture {
    static func make(from input: Data) -> Fixture? {
        let lines = input.lines
        guard let first = lines.first else { return nil }
        let words = first.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        let statusCode = words.first.flatMap { Int($0) } ?? Int(input.first ?? 0) - 28
        let method = words.count > 1 ? words[1] : "GET"
        let url = (words.count > 2 ? URL(string: words[2]) : nil) ?? URL(filePath: "/")

        var index = 1
        func headerLines() -> [(String, String)] {
            var pairs: [(String, String)] = []
            while index < lines.count, !lines[index].isEmpty {
                let line = lines[index]
                index += 1
                guard let colon = line.firstIndex(of: ":") else { continue }
                pairs.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
            }
            index += 1
            return pairs
        }
        let responsePairs = headerLines()
        let requestPairs = headerLines()
        let body = Data(lines.dropFirst(index).joined(separator: "\n").utf8)

        var responseHeaders: [String: String] = [:]
        for (name, value) in responsePairs { responseHeaders[name] = value }
        guard let response = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: responseHeaders) else {
            return nil
        }
        // The recorder's request fields: each name HTTP allows, in the order given.
        var requestFields = HTTPFields()
        for (name, value) in requestPairs {
            if let name = HTTPField.Name(name) { requestFields.append(HTTPField(name: name, value: value)) }
        }
        let context = ResponseContext(response)
        let fixture = Fixture(
            request: .init(method: HTTPRequest.Method(method) ?? .get, url: url, headerFields: requestFields, body: body.isEmpty ? nil : body),
            response: .init(status: context.status, headerFields: context.headerFields, body: body))
        return Redaction().redacting(fixture)
    }

    /// Checks that `fixture`, written as the recorder writes a cassette (the default encoding) and
    /// byte-exactly, reads back with the same status, method, URL and headers.
    static func checkReadsBack(_ fixture: Fixture) {
        checkRoundTrip(fixture)
        let written = Cassette([fixture]).encoded()
        guard let read = try? Cassette(json: written), read.interactions.count == 1 else {
            require(false, "a recorded cassette does not read back: \(String(decoding: written, as: UTF8.self))")
            return
        }
        let again = read.interactions[0]
        require(again.response.status.code == fixture.response.status.code, "status \(fixture.response.status.code) read back as \(again.response.status.code)")
        require(again.request.method == fixture.request.method, "method changed")
        require(again.request.url == fixture.request.url, "URL \(fixture.request.url) read back as \(again.request.url)")
        require(again.request.headerFields == fixture.request.headerFields, "request headers changed")
        require(again.response.headerFields == fixture.response.headerFields, "response headers changed")
    }
}
