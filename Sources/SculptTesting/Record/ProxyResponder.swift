import Foundation
import SculptShared
import HTTPTypes
import Sculpt
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers a request to a ``RecordingProxy``: forwards it to the target, records the exchange
/// redacted, and relays the target's answer with its URLs moved to the proxy.
struct ProxyResponder: HTTPResponder {
    /// The target's origin, `https://api.github.com`, without a trailing slash.
    let target: URL
    /// `http://127.0.0.1:<port>`, without a trailing slash.
    let baseURL: String
    let forwarder: ProxyForwarder
    let redaction: Redaction
    let recording: ProxyRecording
    let log: (@Sendable (ServedRequest) -> Void)?

    /// Fields that belong to the client's connection to the proxy, not to the proxy's to the
    /// target; and `Accept-Encoding`, so the target's body arrives, and is recorded, decoded.
    private static let notForwarded: Set<HTTPField.Name> = ServerResponse.connectionFields.union([
        HTTPField.Name.literal("Host"), .acceptEncoding, .expect, .proxyAuthorization,
    ])

    func respond(to head: HTTPRequestHead, body: Data?) -> ServerResponse {
        let (response, outcome) = answer(head, body: body ?? Data())
        log?(ServedRequest(method: head.method, target: head.target, status: response.status, outcome: outcome, policy: redaction.policy, fields: head.fields))
        return response
    }

    private func answer(_ head: HTTPRequestHead, body: Data) -> (ServerResponse, ServedRequest.Outcome) {
        // Appended to the origin, never resolved against it: `//elsewhere/x` stays a path.
        guard let url = WrittenURL.parse(target.absoluteString + head.target), url.host() == target.host(), url.port == target.port else {
            return failure("the request target \(head.target.prefix(256)) is not a path on \(target.absoluteString)", status: 400)
        }
        var fields = HTTPFields()
        for field in head.fields where !Self.notForwarded.contains(field.name) { fields.append(field) }
        var request = FoundationFields.request(url, method: head.method, fields: fields)
        if !body.isEmpty { request.httpBody = body }

        switch forwarder.send(request) {
        case .failure(let reason):
            return failure("\(target.absoluteString) could not be reached: \(redaction.redacting(urlText: reason))", status: 502)
        case .response(let http, let data):
            let status = (0...999).contains(http.statusCode) ? http.statusCode : 0
            let received = Fixture.Response(status: .standard(status), headerFields: RecordedBody.describingSessionBody(FoundationFields.fields(of: http)), body: data)
            let exchange = Fixture(request: .init(method: head.method, url: url, headerFields: fields, body: body.isEmpty ? nil : body), response: received)
            let outcome: ServedRequest.Outcome = recording.append(redaction.redacting(exchange)).map { .failed(reason: $0) } ?? .recorded
            return (ServerResponse(relaying: received, moving: location), outcome)
        }
    }

    /// The proxy's own answer when the exchange cannot happen; nothing is recorded.
    private func failure(_ reason: String, status: Int) -> (ServerResponse, ServedRequest.Outcome) {
        var response = ServerResponse.text(status, status == 502 ? "Bad Gateway" : "Bad Request", "sculpt record: \(reason)")
        response.fields[Self.recordField] = "failed"
        return (response, .failed(reason: reason))
    }

    /// `X-Sculpt-Record: failed` on the proxy's own answers.
    static let recordField = HTTPField.Name.literal("X-Sculpt-Record")

    /// A `Location` (or `Link` target) that names the target's origin, moved to the proxy (path,
    /// query and fragment kept); any other left as it is.
    func location(_ value: String) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard let url = WrittenURL.parse(trimmed.hasPrefix("//") ? (target.scheme ?? "https") + ":" + trimmed : trimmed),
            url.scheme.map(ASCII.lowercased) == target.scheme.map(ASCII.lowercased), url.host().map(ASCII.lowercased) == target.host().map(ASCII.lowercased),
            (url.port ?? Self.defaultPort(url.scheme)) == (target.port ?? Self.defaultPort(target.scheme))
        else { return value }
        let path = url.path(percentEncoded: true)
        let query = url.query(percentEncoded: true).map { "?\($0)" } ?? ""
        let fragment = url.fragment(percentEncoded: true).map { "#\($0)" } ?? ""
        return baseURL + (path.hasPrefix("/") ? path : "/" + path) + query + fragment
    }

    private static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme.map(ASCII.lowercased) {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}
