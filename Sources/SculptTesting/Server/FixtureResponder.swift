import Foundation
import SculptShared
import HTTPTypes

/// Answers one request from a ``FixtureReplay``, as ``FixtureServer`` serves it.
///
/// The URL matched is the server's own base URL and the request's path and query: the request's
/// `Host` field, and the authority of an absolute-form target, never take part, so no client can
/// steer matching or redirects by what it claims the host is.
struct FixtureResponder: HTTPResponder {
    /// The interactions answered from.
    let replay: FixtureReplay
    /// `http://127.0.0.1:<port>`, without a trailing slash.
    let baseURL: String
    /// Told of every request answered, when set.
    var log: (@Sendable (ServedRequest) -> Void)?

    func respond(to head: HTTPRequestHead, body: Data?) -> ServerResponse {
        let (response, outcome) = answer(head, body: body)
        log?(ServedRequest(method: head.method, target: head.target, status: response.status, outcome: outcome, policy: .default, fields: head.fields))
        return response
    }

    /// The response to `head`, and what became of the request.
    private func answer(_ head: HTTPRequestHead, body: Data?) -> (ServerResponse, ServedRequest.Outcome) {
        guard let url = WrittenURL.parse(baseURL + head.target) else {
            return (.text(400, "Bad Request", "The request target \(head.target.prefix(256)) is not a URL this server can match."), .missed)
        }
        let asked = Fixture.Request(method: head.method, url: url, headerFields: head.fields, body: body)
        let fixture: Fixture
        do {
            fixture = try replay.response(for: asked)
        } catch {
            return (.text(404, "Not Found", error.description, replay: "miss"), .missed)
        }
        let code = fixture.response.status.code
        guard code >= 200 else {
            // A 1xx is not a final answer, and status 0 (no status) is not one at all: sent as
            // recorded, either would leave the client waiting or confused.
            let what = code == 0 ? "status 0 (the recorded request never got a status)" : "status \(code), an interim response"
            let source = fixture.source.map { " (\($0))" } ?? ""
            let text = "The recorded response\(source) has \(what), which cannot be replayed as a final response."
            return (.text(502, "Bad Gateway", text, replay: "unreplayable"), .unreplayable)
        }
        return (ServerResponse(relaying: fixture.response, moving: location), .matched(source: fixture.source))
    }

    /// An absolute `http` or `https` `Location` moved to this server (path, query and fragment
    /// kept as recorded, secrets and all, so the client's next request matches the recording);
    /// a relative one is left as it is.
    func location(_ value: String) -> String {
        // As a browser reads it (WHATWG): tabs and line breaks anywhere are dropped, C0 controls
        // and spaces around it trimmed, so `https://evil.example\t/x` names evil.example.
        let cleaned = String(String.UnicodeScalarView(value.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }))
            .trimmingCharacters(in: CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(0x20)))
        // A network-path reference (`//host/x`) names a host too: it is moved like an absolute URL.
        let absolute = cleaned.hasPrefix("//") ? "http:" + cleaned : cleaned
        guard let target = URL(string: absolute), let scheme = target.scheme.map(ASCII.lowercased), scheme == "http" || scheme == "https" else {
            // Something a browser might still read as another host is not sent as it is.
            return Self.mayNameAHost(cleaned) ? baseURL + "/" : value
        }
        let path = target.path(percentEncoded: true).hasPrefix("/") ? target.path(percentEncoded: true) : "/" + target.path(percentEncoded: true)
        let query = target.query(percentEncoded: true).map { "?\($0)" } ?? ""
        let fragment = target.fragment(percentEncoded: true).map { "#\($0)" } ?? ""
        return baseURL + path + query + fragment
    }

    /// Whether a `Location` this server cannot parse might still take a client elsewhere: it
    /// starts with a scheme (`https:`) or two slashes of either kind.
    private static func mayNameAHost(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let isSlash = { (byte: UInt8) in byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") }
        if bytes.count >= 2, isSlash(bytes[0]), isSlash(bytes[1]) { return true }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
        return bytes[..<colon].allSatisfy { (0x61...0x7A).contains($0 | 0x20) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    /// The path and query of `url` as a request to this server sends them, unredacted.
    static func target(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        return (path.isEmpty ? "/" : path) + (url.query(percentEncoded: true).map { "?\($0)" } ?? "")
    }
}
