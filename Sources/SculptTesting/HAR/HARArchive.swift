public import Foundation
import SculptShared
import HTTPTypes
import Sculpt

/// The entries of a HAR 1.2 archive (what browsers, Charles, Proxyman, mitmproxy and Playwright
/// export) as fixtures.
///
/// ```swift
/// let archive = try HARArchive(contentsOf: URL(filePath: "session.har"))
/// let replay = FixtureReplay(archive.fixtures)
/// for skipped in archive.skipped { print(skipped) }   // "entry 1 (https://...): status 0: ..."
/// ```
///
/// - A UTF-8 byte order mark at the start of the file is ignored.
/// - Entries with `status: 0` (blocked, aborted or failed requests) are skipped, with the reason.
/// - `content.encoding: "base64"` bodies are decoded; a missing `content` or `content.text` is an
///   empty body; a body a recorder kept as hex chunks (Polly.JS's `_isBinary`) is joined.
/// - A body still gzip-compressed is decompressed, every member of it (RFC 1952), and
///   `Content-Encoding` and `Content-Length`, which describe the wire bytes, are dropped: fixtures
///   hold the body a client sees. A truncated or corrupt member, bytes after the last member that
///   are not one, or a body past 64 MB, or past 256 MB with the bodies decompressed before it,
///   skip the entry with the reason.
/// - `redirectURL` becomes a `Location` header when the response has none.
/// - Headers keep their order and repeats; HTTP/2 pseudo-headers (`:status`) are left out.
/// - Secrets are redacted as ``FixtureRecorder`` redacts them (``Redaction``, on by default):
///   credentials in headers (`Authorization`, `Cookie`, `Set-Cookie`, ...), in URLs (user,
///   password, `access_token` and the other secret parameters, in the query and the fragment) and
///   in JSON bodies; a skipped entry's URL too. Pass `redaction: .disabled` to keep them.
public struct HARArchive: Sendable {
    /// An entry that was not imported, and why.
    public struct Skipped: Sendable, CustomStringConvertible {
        /// The entry's position in `log.entries`.
        public var index: Int
        /// The entry's request URL, when it had one, through the gate every text of Sculpt's
        /// passes (secrets redacted, escaped, at most 1 KB).
        public var url: String?
        /// Why it was skipped.
        public var reason: String

        /// E.g. `entry 1 (https://www.google.com/): status 0: the request did not complete`; at
        /// most 4,096 bytes, whatever the archive holds.
        public var description: String {
            // The URL as written may not parse: its secrets are found in its text.
            let shown = url.map { " (\(ClippedText.value(SecretPolicy.default.shown(urlText: String($0.utf8.prefix(64 << 10)) ?? ""), limit: 1_024)))" }
            return ShownText.line("entry \(index)\(shown ?? ""): \(reason)", limit: 4_096)
        }
    }

    /// The imported entries, in archive order.
    public var fixtures: [Fixture]
    /// The entries left out, with reasons.
    public var skipped: [Skipped]

    /// Imports an archive file.
    ///
    /// ```swift
    /// let archive = try HARArchive(contentsOf: harFile)   // secrets redacted
    /// ```
    /// - Parameters:
    ///   - file: the `.har` file.
    ///   - redaction: what to redact from each entry; the defaults by default.
    /// - Throws: the file system's error, or ``Fixture/FormatError`` when the file is not a HAR
    ///   archive (entries that are malformed are skipped, not thrown).
    public init(contentsOf file: URL, redaction: Redaction = Redaction()) throws {
        self = try Fixture.FormatError.reading(file) { try HARArchive(json: $0, source: file.lastPathComponent, redaction: redaction) }
    }

    /// Imports an archive from its bytes.
    ///
    /// ```swift
    /// let archive = try HARArchive(json: data)
    /// ```
    /// - Parameters:
    ///   - data: the archive's bytes.
    ///   - source: where the bytes came from, named in errors; `nil` when unknown.
    ///   - redaction: what to redact from each entry; the defaults by default.
    /// - Throws: ``Fixture/FormatError`` when the bytes are not a HAR archive.
    public init(json data: Data, source: String? = nil, redaction: Redaction = Redaction()) throws {
        let root: OrderedJSON
        do {
            root = try OrderedJSON(parsing: data)
        } catch {
            throw Fixture.FormatError(reason: "not JSON: \(error)", location: .offset(error.offset))
        }
        guard let entries = root["log"]?["entries"]?.array else {
            throw Fixture.FormatError(reason: "not a HAR archive: no log.entries array", at: "log.entries")
        }
        fixtures = []
        skipped = []
        var budget = DecompressionBudget()
        for (index, entry) in entries.enumerated() {
            do {
                var fixture = redaction.redacting(try Self.fixture(from: entry, budget: &budget))
                fixture.source = "\(source ?? "HAR") entry \(index)"
                fixtures.append(fixture)
            } catch {
                // Shown as every text is, whatever the fixtures keep.
                let policy = redaction.policy.redactsURLs ? redaction.policy : .default
                let url = entry["request"]?["url"]?.string.map { ShownText.line(policy.shown(urlText: $0), limit: 1_024, policy: policy) }
                skipped.append(Skipped(index: index, url: url, reason: error.reason))
            }
        }
    }

    /// Why one entry cannot become a fixture.
    private struct EntryError: Error {
        var reason: String
    }

    private static func fixture(from entry: OrderedJSON, budget: inout DecompressionBudget) throws(EntryError) -> Fixture {
        guard let request = entry["request"], let response = entry["response"] else { throw EntryError(reason: "no request or response") }
        guard let urlText = request["url"]?.string, let url = WrittenURL.parse(urlText) else { throw EntryError(reason: "request.url is not a URL") }
        guard let method = request["method"]?.string.flatMap({ HTTPRequest.Method($0) }) else { throw EntryError(reason: "request.method is not a method") }
        guard let status = response["status"]?.int, status == 0 || (100...999).contains(status) else {
            throw EntryError(reason: "response.status is not an HTTP status (100 to 999)")
        }
        guard status != 0 else { throw EntryError(reason: "status 0: the request did not complete (blocked, aborted or failed)") }

        var responseFields = fields(response["headers"])
        var body = try self.body(of: response["content"])
        do {
            (body, responseFields) = try budget.decoded(body, fields: responseFields)
        } catch {
            throw EntryError(reason: "\(error)")
        }
        // A HAR's content is the body as the browser decoded it, whatever coding the wire had.
        responseFields[.contentEncoding] = nil
        responseFields[.contentLength] = nil
        if responseFields[.location] == nil, let redirect = response["redirectURL"]?.string, !redirect.isEmpty {
            responseFields[.location] = redirect
        }
        let requestBody = request["postData"]?["text"]?.string.map { Data($0.utf8) }
        var requestFields = fields(request["headers"])
        // The body's type, where the headers an exporter kept leave it out: a multipart form's
        // boundary is in it, which its parts are read (and redacted) by.
        if requestBody != nil, requestFields[.contentType] == nil, let type = request["postData"]?["mimeType"]?.string, !type.isEmpty {
            requestFields[.contentType] = type
        }
        return Fixture(
            request: .init(method: method, url: url, headerFields: requestFields, body: requestBody),
            response: .init(status: .standard(status), headerFields: responseFields, body: body))
    }

    /// `[{"name": ..., "value": ...}]` as fields, in order; names HTTP does not allow (HTTP/2
    /// pseudo-headers) are left out.
    private static func fields(_ value: OrderedJSON?) -> HTTPFields {
        var fields = HTTPFields()
        for header in value?.array ?? [] {
            guard let name = header["name"]?.string.flatMap({ HTTPField.Name($0) }), let text = header["value"]?.string else { continue }
            fields.append(HTTPField(name: name, value: text))
        }
        return fields
    }

    /// The body in `content`: text, base64, or a Polly.JS list of hex chunks.
    private static func body(of content: OrderedJSON?) throws(EntryError) -> Data {
        guard let text = content?["text"]?.string else { return Data() }
        if content?["encoding"]?.string == "base64" {
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { throw EntryError(reason: "content.text is not valid base64") }
            return data
        }
        if content?["_isBinary"] == .bool(true), let chunks = (try? OrderedJSON(parsing: Data(text.utf8)))?.array {
            var data = Data()
            for chunk in chunks {
                guard let hex = chunk.string, let bytes = Self.bytes(hex: hex) else { throw EntryError(reason: "content.text has a chunk that is not hex") }
                data.append(bytes)
            }
            return data
        }
        return Data(text.utf8)
    }

    private static func bytes(hex: String) -> Data? {
        let utf8 = Array(hex.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var data = Data(capacity: utf8.count / 2)
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let byte = UInt8(String(decoding: utf8[index..<(index + 2)], as: UTF8.self), radix: 16) else { return nil }
            data.append(byte)
        }
        return data
    }
}
