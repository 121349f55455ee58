import Foundation
package import HTTPTypes

/// What Sculpt treats as a secret wherever text leaves the process: no description
/// (``SculptError``, ``ResponseContext``, a replay miss) shows these values, and SculptTesting's
/// recorder and HAR import never keep them. SculptTesting's `Redaction` is the public face of these
/// lists and rules (its documentation states them), with names of the caller's own added.
package enum Secrets {
    /// What stands in for a secret value.
    package static let marker = "REDACTED"

    /// Headers whose whole value is a credential: `Authorization`, `Proxy-Authorization`, `Cookie`,
    /// `Set-Cookie`, `X-Api-Key`, `X-Auth-Token`, `X-Access-Token`, `Api-Key`, `X-Goog-Api-Key`,
    /// `Private-Token` (GitLab), `Ocp-Apim-Subscription-Key` (Azure), `X-Amz-Security-Token`.
    package static let headers: [HTTPField.Name] = [
        .authorization, .proxyAuthorization, .cookie, .setCookie, .literal("X-Api-Key"), .literal("X-Auth-Token"),
        .literal("X-Access-Token"), .literal("Api-Key"), .literal("X-Goog-Api-Key"), .literal("Private-Token"),
        .literal("Ocp-Apim-Subscription-Key"), .literal("X-Amz-Security-Token"),
    ]

    /// Headers whose value is a URL (or, for `Link`, URLs in `<...>`; for `Refresh`, after
    /// `url=`), redacted as URLs: `Location`, `Content-Location`, `Link`, `Referer`, `Refresh`.
    package static let urlHeaders: [HTTPField.Name] = [.location, .contentLocation, linkHeader, .referer, .literal("Refresh")]

    /// Query and fragment parameters that carry credentials (compared percent-decoded, ignoring
    /// case, `_` and `-`, so `accessToken` and `Access-Token` are `access_token`): `access_token`,
    /// `refresh_token`, `id_token`, `session_token`, `auth_token`, `private_token`, `api_key`,
    /// `client_secret`, `client_assertion`, `code_verifier`, `token`, `password`, and the
    /// signatures of presigned URLs (`signature`, `sig`, `X-Amz-Signature`, `X-Amz-Credential`,
    /// `X-Amz-Security-Token`). `code` beside an OAuth parameter too (see above). Names that are
    /// often something else (`key`, `code`) are not in the list: a `Redaction` adds them.
    package static let queryParameters = [
        "access_token", "refresh_token", "id_token", "session_token", "auth_token", "private_token", "api_key", "client_secret",
        "client_assertion", "code_verifier", "token", "password", "signature", "sig", "x-amz-signature", "x-amz-credential",
        "x-amz-security-token",
    ]

    /// JSON members whose values are credentials (compared as ``queryParameters`` are): the same
    /// names, so a token endpoint's `{"access_token": ..., "refresh_token": ...}` and GitHub's
    /// `{"token": ...}` are never recorded, and the credential headers' names, so an echo
    /// service's `{"headers": {"Authorization": ...}}` is not either.
    package static let bodyFields = queryParameters + headers.map { $0.canonicalName }

    private static let linkHeader = HTTPField.Name.literal("Link")
}
