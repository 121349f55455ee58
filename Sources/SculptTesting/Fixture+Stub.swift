public import Foundation
import SculptShared
public import HTTPTypes

/// Fixtures written in a test, without a file: the smallest way to give a replay or a serializer
/// a response.
extension Fixture {
    /// A fixture answering `method` on `url` with `status` and a JSON body.
    ///
    /// ```swift
    /// let replay = FixtureReplay([
    ///     try .stub(.get, "https://api.example.com/users/1", json: #"{"id": 1, "login": "ada"}"#),
    ///     try .stub(.delete, "https://api.example.com/users/1", status: .noContent),
    /// ])
    /// ```
    ///
    /// `Content-Type: application/json; charset=utf-8` is added unless `headerFields` has a
    /// content type.
    /// - Parameters:
    ///   - method: the request's method.
    ///   - url: the request's URL: absolute, `http` or `https` (`https://host/path?query`), or a
    ///     path (`/users/1`); a replay compares only method, path and query.
    ///   - status: the response's status.
    ///   - headerFields: the response's header fields.
    ///   - json: the response body, which must be JSON.
    /// - Returns: the fixture, its ``source`` reading `stub GET /users/1`.
    /// - Throws: ``FormatError`` when `url` is not a URL or `json` is not JSON.
    public static func stub(
        _ method: HTTPRequest.Method = .get, _ url: String, status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:],
        json: String
    ) throws(FormatError) -> Fixture {
        do {
            _ = try OrderedJSON(parsing: Data(json.utf8), maximumDepth: OrderedJSON.maximumFileDepth)
        } catch {
            throw FormatError(reason: "the stub's body for \(method) \(PrintableText.value(url, limit: 256)) is not JSON: \(error)")
        }
        return try stub(method, url, status: status, headerFields: headerFields, contentType: "application/json; charset=utf-8", body: Data(json.utf8))
    }

    /// A fixture answering `method` on `url` with `status` and a text body.
    ///
    /// ```swift
    /// let fixture = try Fixture.stub(.get, "/health", text: "ok")
    /// ```
    ///
    /// `Content-Type: text/plain; charset=utf-8` is added unless `headerFields` has a content type.
    /// - Parameters:
    ///   - method: the request's method.
    ///   - url: the request's URL, absolute or a path.
    ///   - status: the response's status.
    ///   - headerFields: the response's header fields.
    ///   - text: the response body, stored as UTF-8.
    /// - Returns: the fixture.
    /// - Throws: ``FormatError`` when `url` is not a URL.
    public static func stub(
        _ method: HTTPRequest.Method = .get, _ url: String, status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:],
        text: String
    ) throws(FormatError) -> Fixture {
        try stub(method, url, status: status, headerFields: headerFields, contentType: "text/plain; charset=utf-8", body: Data(text.utf8))
    }

    /// A fixture answering `method` on `url` with `status` and `body` as given: no content type
    /// is added.
    ///
    /// ```swift
    /// let deleted = try Fixture.stub(.delete, "/repos/apple/swift/labels/bug", status: .noContent)
    /// ```
    /// - Parameters:
    ///   - method: the request's method.
    ///   - url: the request's URL, absolute or a path.
    ///   - status: the response's status.
    ///   - headerFields: the response's header fields.
    ///   - body: the response's bytes; none by default.
    /// - Returns: the fixture.
    /// - Throws: ``FormatError`` when `url` is not a URL.
    public static func stub(
        _ method: HTTPRequest.Method = .get, _ url: String, status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:],
        body: Data = Data()
    ) throws(FormatError) -> Fixture {
        try stub(method, url, status: status, headerFields: headerFields, contentType: nil, body: body)
    }

    /// The stub of the public forms: `contentType` added when the fields have none.
    private static func stub(
        _ method: HTTPRequest.Method, _ url: String, status: HTTPResponse.Status, headerFields: HTTPFields, contentType: String?, body: Data
    ) throws(FormatError) -> Fixture {
        // An absolute http(s) URL with a host, or a path: what a replay can be asked for.
        let scheme = WrittenURL.parse(url)?.scheme.map { $0.lowercased() }
        guard let parsed = WrittenURL.parse(url), !url.isEmpty,
            scheme == nil ? url.hasPrefix("/") && !url.hasPrefix("//") : (scheme == "http" || scheme == "https") && parsed.host() != nil
        else {
            throw FormatError(reason: "the stub's URL \"\(PrintableText.value(url, limit: 256))\" is not a URL; write an absolute URL or a path such as /users/1")
        }
        var fields = headerFields
        if let contentType, fields[.contentType] == nil {
            fields[.contentType] = contentType
        }
        let path = RequestComparison.shownPath(of: parsed)
        return Fixture(
            request: Request(method: method, url: parsed),
            response: Response(status: status, headerFields: fields, body: body),
            source: "stub \(method) \(PrintableText.value(path, limit: 256))")
    }
}
