public import Foundation
public import HTTPTypes

/// What Sculpt treats as a secret, wherever text leaves the process: SculptTesting's recorder and
/// HAR import never keep these values, and no description (``SculptError``, ``ResponseContext``, a
/// replay miss) shows them.
///
/// ```swift
/// let shown = Secrets.redacting(URL(string: "https://u:pw@api.example.com/cb?Access_Token=abc#id_token=x&state=1")!)
/// // https://REDACTED:REDACTED@api.example.com/cb?Access_Token=REDACTED#id_token=REDACTED&state=1
/// ```
///
/// The rules, the same everywhere:
/// - **Headers** in ``headers``, compared case-insensitively, have their whole value replaced.
///   URLs in the values of ``urlHeaders`` (`Location`, `Content-Location`, `Referer`, and each
///   `<...>` of `Link`) are redacted as URLs.
/// - **URLs**: the user name and the password; parameters in the query and in the fragment
///   (`#access_token=...&state=1`, the OAuth implicit flow) whose name is in ``queryParameters``.
///   Names compare case-insensitively and percent-decoded; `&`, `;` and `?` all separate
///   parameters (so a URL inside a value is looked into); a value that holds parameters itself
///   (`state=token=x`) or percent-encoded ones (`next=%2Fcb%3Ftoken%3Dx`, encoded up to three
///   times) is looked into too; `name[]=` and `outer[name]=` count as `name`; every repeat is
///   redacted. A URL with a base is redacted in its absolute form, so the
///   base's user, password and query never show.
/// - **`code`** is redacted in a query or fragment that also has `state`, `redirect_uri`,
///   `grant_type`, `code_verifier` or `client_id`: there it is an OAuth 2.0 authorization code
///   (RFC 6749 4.1.2), which buys tokens. Elsewhere `code` is an ordinary name (a country, an
///   error, a currency), and redacting it would make distinct recorded requests match any value on
///   replay; add it to a `Redaction` to redact it everywhere.
/// - **JSON bodies**: the value of any member named in ``bodyFields`` (case-insensitively, at any
///   depth) becomes `"REDACTED"`; every other byte is kept. `null`, `true` and `false` are kept. A
///   body that does not start (after white space) with `{` or `[` is not JSON text and is kept as
///   it is.
/// - **Form bodies** (`application/x-www-form-urlencoded`): the value of any parameter named in
///   ``queryParameters`` or ``bodyFields`` becomes `REDACTED`, as in a query.
public enum Secrets {
    /// What stands in for a secret value.
    public static let marker = "REDACTED"

    /// Headers whose whole value is a credential: `Authorization`, `Proxy-Authorization`, `Cookie`,
    /// `Set-Cookie`, `X-Api-Key`, `X-Auth-Token`, `X-Access-Token`, `Api-Key`, `X-Goog-Api-Key`,
    /// `Private-Token` (GitLab), `Ocp-Apim-Subscription-Key` (Azure), `X-Amz-Security-Token`.
    public static let headers: [HTTPField.Name] = [
        .authorization, .proxyAuthorization, .cookie, .setCookie, .literal("X-Api-Key"), .literal("X-Auth-Token"),
        .literal("X-Access-Token"), .literal("Api-Key"), .literal("X-Goog-Api-Key"), .literal("Private-Token"),
        .literal("Ocp-Apim-Subscription-Key"), .literal("X-Amz-Security-Token"),
    ]

    /// Headers whose value is a URL (or, for `Link`, URLs in `<...>`), redacted as URLs:
    /// `Location`, `Content-Location`, `Link`, `Referer`.
    public static let urlHeaders: [HTTPField.Name] = [.location, .contentLocation, linkHeader, .referer]

    /// Query and fragment parameters that carry credentials (compared percent-decoded, ignoring
    /// case, `_` and `-`, so `accessToken` and `Access-Token` are `access_token`): `access_token`,
    /// `refresh_token`, `id_token`, `session_token`, `auth_token`, `private_token`, `api_key`,
    /// `client_secret`, `client_assertion`, `code_verifier`, `token`, `password`, and the
    /// signatures of presigned URLs (`signature`, `sig`, `X-Amz-Signature`, `X-Amz-Credential`,
    /// `X-Amz-Security-Token`). `code` beside an OAuth parameter too (see above). Names that are
    /// often something else (`key`, `code`) are not in the list: add them to a `Redaction`.
    public static let queryParameters = [
        "access_token", "refresh_token", "id_token", "session_token", "auth_token", "private_token", "api_key", "client_secret",
        "client_assertion", "code_verifier", "token", "password", "signature", "sig", "x-amz-signature", "x-amz-credential",
        "x-amz-security-token",
    ]

    /// JSON members whose values are credentials (compared as ``queryParameters`` are): the same
    /// names, so a token endpoint's `{"access_token": ..., "refresh_token": ...}` and GitHub's
    /// `{"token": ...}` are never recorded, and the credential headers' names, so an echo
    /// service's `{"headers": {"Authorization": ...}}` is not either.
    public static let bodyFields = queryParameters + headers.map { $0.canonicalName }

    /// `url` in its absolute form with its user name, password and secret query and fragment
    /// parameters replaced by ``marker``. `parameters` are lowercased names.
    ///
    /// ```swift
    /// Secrets.redacting(URL(string: "https://h/a?access_token=abc&page=2")!)   // https://h/a?access_token=REDACTED&page=2
    /// ```
    public static func redacting(_ url: URL, queryParameters parameters: Set<String> = Set(queryParameters)) -> URL {
        SecretPolicy(parameters: parameters).redacting(url)
    }

    private static let linkHeader = HTTPField.Name.literal("Link")
}
