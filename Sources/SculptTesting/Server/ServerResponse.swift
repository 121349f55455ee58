import Foundation
import SculptShared
import HTTPTypes
import Sculpt

/// A response as the server writes it: the status line, the fields, and the body, framed by the
/// server alone (RFC 9112, section 6.3).
struct ServerResponse: Sendable {
    /// The status code, 200 to 999.
    var status: Int
    /// The reason phrase (may be empty).
    var reason: String
    /// The fields, without any framing field: the server adds `Content-Length` and `Connection`.
    var fields: HTTPFields
    /// The body, sent unless the status or the request's method forbids one: the fixture's own
    /// bytes, shared, not copied per response.
    var body: Data

    /// A plain-text answer made by the server itself (a miss, a refused request), its text through
    /// the gate every text of Sculpt's passes: it may quote what a client sent.
    static func text(_ status: Int, _ reason: String, _ text: String, replay: String? = nil) -> ServerResponse {
        var fields: HTTPFields = [.contentType: "text/plain; charset=utf-8"]
        if let replay { fields[ServerResponse.replayField] = replay }
        let shown = ShownText.lines([text], lineLimit: 8_192, limit: 64 << 10, keepingLineBreaks: true)
        return ServerResponse(status: status, reason: reason, fields: fields, body: Data((shown + "\n").utf8))
    }

    /// `X-Sculpt-Replay`: `miss` or `unreplayable` on the server's own answers.
    static let replayField = HTTPField.Name.literal("X-Sculpt-Replay")

    /// Framing fields a recorded response carries for its own wire, which this server replaces,
    /// and the hop-by-hop fields that describe that connection, not this one.
    static let connectionFields: Set<HTTPField.Name> = [
        .contentLength, .transferEncoding, .connection, HTTPField.Name.literal("Keep-Alive"), .te, .trailer, .upgrade,
        HTTPField.Name.literal("Proxy-Connection"),
    ]

    /// Whether a response to `method` with this status has a body: never for HEAD, 1xx, 204, 205
    /// or 304 (RFC 9110, sections 6.4.1, 9.3.2 and 15.3.6).
    func hasBody(answering method: HTTPRequest.Method) -> Bool {
        method != .head && status >= 200 && status != 204 && status != 205 && status != 304
    }

    /// The bytes of the status line and fields; `closing` adds `Connection: close`.
    func head(answering method: HTTPRequest.Method, closing: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        for field in fields {
            text += "\(field.name.rawName): \(field.value)\r\n"
        }
        // A HEAD answer states the length a GET would get; 205 states that it has none; 204 and
        // 304 state no length at all.
        if status == 205 {
            text += "Content-Length: 0\r\n"
        } else if status >= 200, status != 204, status != 304 {
            text += "Content-Length: \(body.count)\r\n"
        }
        if closing { text += "Connection: close\r\n" }
        return Array((text + "\r\n").utf8)
    }
}
