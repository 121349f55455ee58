public import Foundation
public import HTTPTypes
import Sculpt

/// What is replaced with ``marker`` before a recording is kept: `Secrets`' rules with names of
/// your own added. ``FixtureRecorder`` and ``HARArchive`` apply it, so secrets never reach a
/// fixture, in memory or on disk, and replay-miss descriptions use the same rules.
///
/// ```swift
/// let redaction = Redaction(headers: [HTTPField.Name("X-Signature")!], queryParameters: ["sig"], bodyFields: ["pin"])
/// let recorder = FixtureRecorder(redaction: redaction)
/// ```
///
/// Always redacted (see `Secrets` for the rules):
/// - the headers `Secrets.headers` (`Authorization`, `Proxy-Authorization`, `Cookie`,
///   `Set-Cookie`, `X-Api-Key`, `X-Auth-Token`), any case;
/// - in the request URL and in the URLs of `Location`, `Content-Location`, `Link` and `Referer`:
///   the user name, the password, and query and fragment parameters named in
///   `Secrets.queryParameters` (`access_token`, `refresh_token`, `id_token`, `api_key`, `apikey`,
///   `client_secret`, `token`, `password`; `code` beside `state` and other OAuth parameters), in
///   any case, percent-encoded or not, as `name[]=`, `;`-separated or repeated;
/// - in request and response bodies that are JSON text, the value of any member named in
///   `Secrets.bodyFields`, at any depth; every other byte of the body is kept;
/// - in bodies whose `Content-Type` is `application/x-www-form-urlencoded` (an OAuth token
///   request, GitHub's token response without `Accept: application/json`), the value of any
///   parameter named in ``queryParameters`` or ``bodyFields``.
///
/// Other bodies (HTML, binary, JSON in UTF-16) are kept as they are.
///
/// A replay treats a recorded ``marker`` as matching any value in each of these places.
public struct Redaction: Sendable {
    /// What a redacted value becomes: `Secrets.marker`.
    public static let marker = Secrets.marker

    /// The headers always redacted: `Secrets.headers`.
    public static let defaultHeaders = Secrets.headers
    /// The query parameters always redacted: `Secrets.queryParameters`.
    public static let defaultQueryParameters = Secrets.queryParameters
    /// The JSON members always redacted: `Secrets.bodyFields`.
    public static let defaultBodyFields = Secrets.bodyFields

    /// Nothing redacted: for importing an archive you mean to keep whole. Never share what it
    /// records.
    ///
    /// ```swift
    /// let archive = try HARArchive(contentsOf: file, redaction: .disabled)
    /// ```
    public static let disabled = Redaction(policy: .disabled)

    /// Every header redacted: the defaults and the ones named at creation.
    public var headers: Set<HTTPField.Name> { policy.headers }
    /// Every query and fragment parameter redacted (lowercased): the defaults and the ones named.
    public var queryParameters: Set<String> { policy.parameters }
    /// Every JSON member redacted (lowercased): the defaults and the ones named.
    public var bodyFields: Set<String> { policy.bodyFields }

    /// The rules and names, shared with Sculpt's descriptions.
    let policy: SecretPolicy

    /// Creates a redaction of the defaults plus the headers, parameters and JSON members named
    /// (names compare case-insensitively).
    ///
    /// ```swift
    /// let redaction = Redaction(queryParameters: ["sig"])
    /// ```
    public init(headers: [HTTPField.Name] = [], queryParameters: [String] = [], bodyFields: [String] = []) {
        self.policy = SecretPolicy(headers: headers, parameters: queryParameters, bodyFields: bodyFields)
    }

    private init(policy: SecretPolicy) {
        self.policy = policy
    }

    /// `fixture` with every secret its request and response hold replaced by ``marker``: the
    /// request URL, both sides' headers, and both bodies.
    ///
    /// ```swift
    /// let shareable = Redaction().redacting(fixture)
    /// ```
    public func redacting(_ fixture: Fixture) -> Fixture {
        var fixture = fixture
        fixture.request.url = redacting(fixture.request.url)
        fixture.request.headerFields = redacting(fixture.request.headerFields)
        fixture.request.body = fixture.request.body.map { redacting(body: $0, describedBy: fixture.request.headerFields) }
        fixture.response.body = redacting(body: fixture.response.body, describedBy: fixture.response.headerFields)
        fixture.request.headerFields = redacting(fixture.request.headerFields)
        fixture.response.headerFields = redacting(fixture.response.headerFields)
        return fixture
    }

    /// `fields` with the value of every redacted header replaced by ``marker``, and the URLs in
    /// `Location`, `Content-Location`, `Link` and `Referer` redacted.
    ///
    /// ```swift
    /// Redaction().redacting([.authorization: "Bearer abc"])   // Authorization: REDACTED
    /// ```
    public func redacting(_ fields: HTTPFields) -> HTTPFields {
        policy.redacting(fields)
    }

    /// `url` in its absolute form with its user name, password and redacted query and fragment
    /// parameters replaced by ``marker``.
    ///
    /// ```swift
    /// Redaction().redacting(URL(string: "https://TOKEN@h/a?Access_Token=x")!)   // https://REDACTED@h/a?Access_Token=REDACTED
    /// ```
    public func redacting(_ url: URL) -> URL {
        policy.redacting(url)
    }

    /// `body` with the value of every redacted JSON member replaced by `"REDACTED"`; `body` itself
    /// when it holds none or is not JSON text.
    ///
    /// ```swift
    /// Redaction().redacting(body: Data(#"{"refresh_token":"r1","scope":"repo"}"#.utf8))   // {"refresh_token":"REDACTED","scope":"repo"}
    /// ```
    public func redacting(body: Data) -> Data {
        policy.redacting(json: body)
    }

    /// `body` redacted as JSON text when it is JSON text, else as a form when its `Content-Type`
    /// allows one (a form type, `text/*`, or none).
    func redacting(body: Data, describedBy fields: HTTPFields) -> Data {
        policy.redacting(body: body, contentTypes: fields[values: .contentType])
    }

    /// URL text (absolute, or a reference such as `/next?token=x`) redacted as a request URL is.
    func redacting(urlText: String) -> String {
        policy.redacting(urlText: urlText)
    }
}
