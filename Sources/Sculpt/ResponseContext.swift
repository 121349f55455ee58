import Foundation
import SculptShared
public import HTTPTypes
#if canImport(FoundationNetworking)
public import FoundationNetworking
#else
public import Foundation
#endif

/// Everything about a response except its body: what a ``ModelMatcher`` looks at and what every
/// ``SculptError`` carries.
///
/// ```swift
/// let context = ResponseContext(url: URL(string: "https://api.github.com/users/octocat"), method: .get)
/// let (data, response) = try await URLSession.shared.data(for: request)
/// let fromSession = ResponseContext(response, request: request)
/// ```
///
/// It is built from whatever HTTP client the caller has: from a `URLResponse` with
/// ``init(_:request:)``, or field by field with ``init(url:method:status:headerFields:)``.
public struct ResponseContext: Sendable {
    /// The URL the response came from: after redirects where the client followed any.
    public var url: URL? {
        get { source.url }
        set { source.url = newValue }
    }

    /// The request's method, when known. URL matchers use it for per-method routes, and a `HEAD`
    /// request is allowed an empty body.
    public var method: HTTPRequest.Method? {
        get { source.method }
        set { source.method = newValue }
    }

    /// The response's status.
    public var status: HTTPResponse.Status

    /// The response's header fields, in the order received, repeated fields kept.
    ///
    /// A Foundation response keeps neither: it joins a repeated field's values with commas and
    /// holds its fields in no order, so a context made from one gives them sorted by name, the
    /// same on every read. They are converted on each read: a
    /// matcher that looks at several reads them once into a local, and a context kept to be read
    /// again can be ``materialized``.
    public var headerFields: HTTPFields {
        get { source.fields }
        set { source.fields = newValue }
    }

    /// Where the URL, method and header fields come from.
    var source: ResponseSource

    /// Creates a context from its parts.
    ///
    /// ```swift
    /// let context = ResponseContext(url: url, method: .post, status: .created,
    ///                               headerFields: [.contentType: "application/json"])
    /// ```
    /// - Parameters:
    ///   - url: the response's URL, after any redirects; `nil` when there is none.
    ///   - method: the request's method, when known.
    ///   - status: the response's status.
    ///   - headerFields: the response's header fields.
    public init(
        url: URL?,
        method: HTTPRequest.Method? = nil,
        status: HTTPResponse.Status = .ok,
        headerFields: HTTPFields = [:]
    ) {
        self.status = status
        self.source = ResponseSource(url: url, method: method, fields: headerFields)
    }

    /// Creates a context from a Foundation response and, optionally, the request that produced it.
    ///
    /// ```swift
    /// let (data, response) = try await session.data(for: request)
    /// let context = ResponseContext(response, request: request)
    /// ```
    ///
    /// The URL is the response's (the final one, after redirects), else the request's; the method
    /// is the request's. A response that is not an `HTTPURLResponse` (a `file:` or `data:` URL)
    /// counts as `200 OK` with its MIME type as `Content-Type`. The status has its standard
    /// reason phrase (`404 Not Found`, as RFC 9110 names it); a code
    /// outside 0...999, which `HTTPResponse.Status` cannot hold, becomes 0, which no serializer
    /// accepts. The URL, method and header fields are read from the response when asked for: a
    /// serializer that needs only the status and content type reads nothing else.
    /// - Parameters:
    ///   - response: the response URLSession gave; an `HTTPURLResponse` gives its status and fields.
    ///   - request: the request, whose method (and URL, when the response has none) the context keeps.
    public init(_ response: URLResponse, request: URLRequest? = nil) {
        guard let http = response as? HTTPURLResponse else {
            self.status = .ok
            self.source = ResponseSource(
                url: response.url ?? request?.url, method: request.flatMap(FoundationResponse.method(of:)),
                fields: response.mimeType.map { [.contentType: $0] } ?? [:])
            return
        }
        self.status = .standard(http.statusCode)
        self.source = ResponseSource(http, request: request)
    }
}

extension ResponseContext {
    /// This context with its URL, method and header fields read out of the Foundation response it
    /// was made from, once: for a context that is kept and read again (a loaded value's, a
    /// page's), whose fields would otherwise be converted on each read. A context made from its
    /// parts is returned as it is.
    ///
    /// ```swift
    /// let kept = ResponseContext(response, request: request).materialized
    /// ```
    public var materialized: ResponseContext {
        var context = self
        context.source.materialize()
        return context
    }
}

extension ResponseContext: CustomStringConvertible {
    /// The method, URL and status on one line, e.g. `GET https://api.github.com/users/x -> 404 Not Found`,
    /// through the gate every text of Sculpt's passes: the URL in its absolute form, redacted
    /// (the rules SculptTesting's `Redaction` states) and cut after 1,024 bytes; the method and
    /// reason phrase after 64. At most about 1.2 KB, whatever the context holds.
    public var description: String {
        let method = self.method.map { ClippedText.value($0.rawValue, limit: 64) } ?? "(method unknown)"
        let url = self.url.map(Self.shown) ?? "(no URL)"
        let reason = status.reasonPhrase.isEmpty ? "" : " \(ClippedText.value(status.reasonPhrase, limit: 64))"
        return ShownText.line("\(method) \(url) -> \(status.code)\(reason)", limit: Self.shownURLLimit + 256)
    }

    /// The longest URL a description shows, in bytes.
    static let shownURLLimit = 1024

    /// `url`'s absolute form, redacted (its secret values hidden wherever it repeats them), and at most its first 1,024 bytes with how many more there
    /// were (after redaction). Only the first 64 KB are read: a longer URL's tail is never shown.
    static func shown(_ url: URL) -> String {
        let absolute = url.absoluteString
        let window = absolute.utf8.count > 64 << 10 ? ClippedText.prefix(absolute, bytes: 64 << 10) : absolute
        let redacted = SecretPolicy.default.shown(urlText: window)
        let (text, cut) = ClippedText.prefix(ofBytes: redacted.utf8, bytes: shownURLLimit)
        let more = cut + absolute.utf8.count - window.utf8.count
        return more > 0 ? "\(text)… (\(more) more bytes)" : text
    }
}
