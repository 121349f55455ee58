public import Foundation
import SculptShared
public import HTTPTypes
import Sculpt

/// What is replaced with ``marker`` before a recording is kept: Sculpt's secrets, with names of
/// your own added. ``FixtureRecorder`` and ``HARArchive`` apply it, so secrets never reach a
/// fixture, in memory or on disk; replay-miss descriptions, and every description Sculpt makes
/// (`SculptError`, `ResponseContext`), hide the defaults by the same rules.
///
/// ```swift
/// let redaction = Redaction(headers: [HTTPField.Name("X-Signature")!], queryParameters: ["pin"], bodyFields: ["pin"])
/// let recorder = FixtureRecorder(redaction: redaction)
/// Redaction().redacting(URL(string: "https://u:pw@api.example.com/cb?Access_Token=abc#id_token=x&state=1")!)
/// // https://REDACTED:REDACTED@api.example.com/cb?Access_Token=REDACTED#id_token=REDACTED&state=1
/// ```
///
/// The rules, the same everywhere:
/// - **Headers** in ``headers`` (``defaultHeaders`` and those named), compared case-insensitively,
///   and any whose name ends in `Token`, `Secret`, `Password`, `Passwd`, `Passphrase`, `Api-Key`, `Access-Key`, `Private-Key`, `Signing-Key`, `Credential`, `Signature`, `Session`, `Session-Id`, `Cookie`, `Authorization`, `Bearer`, `JWT`, `CSRF` or `XSRF`, have
///   their whole value replaced; in any other header but a challenge (`WWW-Authenticate`), the
///   credential after `Bearer` or `Basic` is. URLs in the values of `Location`, `Content-Location`,
///   `Referer`, `Refresh` (after `url=`) and each `<...>` of `Link` are redacted as URLs.
/// - **URLs**: the user name and the password; parameters in the query and in the fragment
///   (`#access_token=...&state=1`, the OAuth implicit flow) named in ``queryParameters``. Names
///   compare case-insensitively, percent-decoded, and ignoring `_` and `-` (`accessToken` is
///   `access_token`); `&`, `;` and `?` all separate parameters (so a URL inside a value is looked
///   into); a value that holds parameters itself (`state=token=x`) or percent-encoded ones
///   (`next=%2Fcb%3Ftoken%3Dx`, encoded up to three times) is looked into too; `name[]=` and
///   `outer[name]=` count as `name`; every repeat is redacted. A URL with a base is redacted in
///   its absolute form, so the base's user, password and query never show.
/// - **`code`** is redacted in a query or fragment that also has `state`, `redirect_uri`,
///   `grant_type`, `code_verifier` or `client_id`: there it is an OAuth 2.0 authorization code
///   (RFC 6749 4.1.2), which buys tokens. Elsewhere `code` is an ordinary name (a country, an
///   error, a currency), and redacting it would make distinct recorded requests match any value on
///   replay; name it to redact it everywhere.
/// - **JSON bodies** (request and response): the value of any member named in ``bodyFields``
///   (compared as query parameters are, at any depth) becomes `"REDACTED"`; every other byte is
///   kept (white space, member order, number spelling). `null`, `true` and `false` are kept. A
///   string value holding a URL or a reference (`"/next?access_token=..."`) has it redacted as a
///   URL, and one holding a JSON document (`"{\"token\": ...}"`, as webhooks carry payloads) has
///   the document redacted as a body, four strings deep. A body that does not start (after white
///   space) with `{` or `[` is not JSON text.
/// - **Form and text bodies** (`application/x-www-form-urlencoded`, as an OAuth token request
///   sends; `text/*`): the value of any parameter named in ``queryParameters`` or ``bodyFields``
///   becomes `REDACTED`, as do quoted secret members written in the text, the credential after
///   `Bearer` or `Basic`, and the user name and password of every URL in it
///   (`https://user:password@host/`). An HTML page's tags are read as XML's (a secret `<input>`'s
///   `value`, a CSRF `<meta>`'s `content`).
/// - **XML bodies**: the content of an element, and the value of an attribute, named in
///   ``bodyFields`` or in the parameters given beyond the defaults; parameters in its text as in
///   a form; and JSON written in its text or CDATA (`<payload>{"access_token": ...}</payload>`)
///   as a JSON body.
///
/// - **Multipart bodies** (a form posted as `multipart/form-data`): a part named in
///   ``queryParameters`` or ``bodyFields`` (`password`) has its content replaced; every other part
///   is redacted as a body of its own content type.
///
/// A body stored compressed is decompressed first, and one in another encoding (UTF-16 JSON, a
/// form in `charset=iso-8859-1`) is read as its text and kept in its encoding (Docs/Fixtures.md).
/// Other bodies (binary) are kept as they are.
///
/// A replay treats a recorded ``marker`` as matching any value in each of these places.
public struct Redaction: Sendable {
    /// What a redacted value becomes: `REDACTED`.
    public static let marker = Secrets.marker

    /// The headers always redacted by name: `Authorization`, `Proxy-Authorization`, `Cookie`,
    /// `Set-Cookie`, `X-Api-Key`, `X-Auth-Token`, `X-Access-Token`, `Api-Key`, `X-Goog-Api-Key`,
    /// `Private-Token` (GitLab), `Ocp-Apim-Subscription-Key` (Azure), `X-Amz-Security-Token`,
    /// `X-CSRF-Token`, `X-GitHub-OTP`, `DPoP`. Any other header whose name ends in a word that
    /// names a secret (`Token`, `Secret`, `Password`, `Api-Key`, `Session`, `Signature` and the
    /// rest Docs/Fixtures.md lists: `X-Vault-Token`, `X-CSRFToken`, `X-Shopify-Access-Token`) is
    /// redacted too.
    public static let defaultHeaders = Secrets.headers
    /// The query, fragment and form parameters always redacted: OAuth's `access_token`,
    /// `refresh_token`, `id_token`, `client_secret`, `client_assertion`, `assertion`,
    /// `code_verifier`; `session_token`, `auth_token`, `private_token`, `token`, `jwt`; `api_key`,
    /// `key` (Google's `?key=`), `auth`, `secret`, `api_secret`, `private_key`, `session`,
    /// `session_id`, `password`, `passwd`, `pwd`, `passphrase`; `api_token`, `bearer_token`,
    /// `github_token`, OAuth 1.0a's `oauth_token` and `oauth_token_secret`, `secret_key`,
    /// `access_key`, `aws_secret_access_key`, `secret_access_key`, `webhook_secret`, `credentials`,
    /// `connection_string`; CSRF tokens (`csrf`, `csrf_token`, `xsrf_token`,
    /// `authenticity_token`, `csrfmiddlewaretoken`); the signatures of presigned URLs
    /// (`signature`, `sig`, `X-Amz-Signature`, `X-Amz-Credential`, `X-Amz-Security-Token`); the
    /// ``defaultHeaders``' names, and any name written as a credential header's is (`-` between
    /// its words, ending in `Token`, `Secret`, `Password`, `Passwd`, `Passphrase`, `Api-Key`, `Access-Key`, `Private-Key`, `Signing-Key`, `Credential`, `Signature`, `Session`, `Session-Id`, `Cookie`, `Authorization`, `Bearer`, `JWT`, `CSRF` or `XSRF`:
    /// `?X-Vault-Token=`; a cursor such as `pageToken` is not); and `code` beside an OAuth
    /// parameter. `code` alone is not: name it to redact it.
    public static let defaultQueryParameters = Secrets.queryParameters
    /// The JSON and XML members always redacted: ``defaultQueryParameters`` but the names that
    /// are as often ordinary data in a body (`key`, `auth`, `session`, `signature`), so a token
    /// endpoint's `{"access_token": ...}` and an echo service's `{"headers": {"Authorization":
    /// ...}}` are never recorded.
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

    /// The rules and names, shared with Sculpt's descriptions and the texts of the tools that
    /// record (the cassette trait's).
    package let policy: SecretPolicy

    /// Creates a redaction of the defaults plus the headers, parameters and JSON members named
    /// (names compare case-insensitively).
    ///
    /// ```swift
    /// let redaction = Redaction(queryParameters: ["sig"])
    /// ```
    /// - Parameters:
    ///   - headers: header fields to redact beyond the defaults.
    ///   - queryParameters: query and fragment parameters to redact beyond the defaults.
    ///   - bodyFields: JSON members to redact beyond the defaults, at any depth.
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
    /// - Parameter fixture: The interaction to redact.
    public func redacting(_ fixture: Fixture) -> Fixture {
        var fixture = fixture
        // Each body as every reader of recordings reads it: a compressed one decompressed, so
        // that what it holds can be redacted.
        (fixture.response.body, fixture.response.headerFields) = RecordedBody.decodedForWriting(fixture.response.body, fields: fixture.response.headerFields)
        if let body = fixture.request.body {
            let readable = RecordedBody.decodedForWriting(body, fields: fixture.request.headerFields)
            (fixture.request.body, fixture.request.headerFields) = (readable.body, readable.fields)
        }
        fixture.request.url = redacting(fixture.request.url)
        fixture.request.headerFields = redacting(fixture.request.headerFields)
        fixture.request.body = fixture.request.body.map { redacting(body: $0, describedBy: fixture.request.headerFields) }
        fixture.response.body = redacting(body: fixture.response.body, describedBy: fixture.response.headerFields)
        fixture.request.headerFields = RecordedBody.stating(fixture.request.body, in: redacting(fixture.request.headerFields))
        fixture.response.headerFields = RecordedBody.stating(fixture.response.body, in: redacting(fixture.response.headerFields))
        return fixture
    }

    /// `fields` with the value of every redacted header replaced by ``marker``, and the URLs in
    /// `Location`, `Content-Location`, `Link` and `Referer` redacted.
    ///
    /// ```swift
    /// Redaction().redacting([.authorization: "Bearer abc"])   // Authorization: REDACTED
    /// ```
    /// - Parameter fields: The header fields to redact.
    public func redacting(_ fields: HTTPFields) -> HTTPFields {
        policy.redacting(fields)
    }

    /// `url` in its absolute form with its user name, password and redacted query and fragment
    /// parameters replaced by ``marker``.
    ///
    /// ```swift
    /// Redaction().redacting(URL(string: "https://TOKEN@h/a?Access_Token=x")!)   // https://REDACTED@h/a?Access_Token=REDACTED
    /// ```
    /// - Parameter url: The URL to redact.
    public func redacting(_ url: URL) -> URL {
        policy.redacting(url)
    }

    /// `body` with the value of every redacted JSON member replaced by `"REDACTED"`; `body` itself
    /// when it holds none or is not JSON text.
    ///
    /// ```swift
    /// Redaction().redacting(body: Data(#"{"refresh_token":"r1","scope":"repo"}"#.utf8))   // {"refresh_token":"REDACTED","scope":"repo"}
    /// ```
    /// - Parameter body: A JSON body.
    public func redacting(body: Data) -> Data {
        policy.redacting(json: body)
    }

    /// `body` redacted as JSON text when it is JSON text, else as a form when its `Content-Type`
    /// allows one (a form type, `text/*`, or none), a multipart body part by part; a body in
    /// another encoding than UTF-8 (UTF-16 JSON, a `charset=iso-8859-1` form) as its text, and
    /// kept in its encoding.
    func redacting(body: Data, describedBy fields: HTTPFields) -> Data {
        policy.redacting(body: body, contentTypes: fields[values: .contentType])
    }

    /// URL text (absolute, or a reference such as `/next?token=x`) redacted as a request URL is.
    func redacting(urlText: String) -> String {
        policy.redacting(urlText: urlText)
    }
}
