import Foundation
package import HTTPTypes

/// What Sculpt treats as a secret wherever text leaves the process, in one place: no description
/// (``SculptError``, ``ResponseContext``, a replay miss) shows these values, SculptTesting's
/// recorder and HAR import never keep them, and `sculpt check` looks for them. SculptTesting's
/// `Redaction` is the public face of these lists and rules (its documentation states them), with
/// names of the caller's own added.
///
/// The names come from the APIs clients record most: OAuth 2.0 and OpenID Connect (tokens,
/// client credentials, PKCE, assertions), GitHub, GitLab, Stripe, Slack, Google (`key=`), AWS
/// (signed requests and presigned URLs), Azure, Vault, CSRF protection and session cookies.
package enum Secrets {
    /// What stands in for a secret value.
    package static let marker = "REDACTED"

    /// Headers whose whole value is a credential, by name: `Authorization`, `Proxy-Authorization`,
    /// `Cookie`, `Set-Cookie`, `X-Api-Key`, `Api-Key`, `X-Goog-Api-Key`,
    /// `Ocp-Apim-Subscription-Key` (Azure), `X-GitHub-OTP`, `DPoP` (OAuth proof of possession).
    /// Any header whose name ends in `Token`, `Secret`, `Password`, `Passwd`, `Passphrase`, `Api-Key`, `Access-Key`, `Private-Key`, `Signing-Key`, `Credential`, `Signature`, `Session`, `Session-Id`, `Cookie`, `Authorization`, `Bearer`, `JWT`, `CSRF` or `XSRF` is
    /// one too (``isCredentialHeader(_:)``): `X-Auth-Token`, `X-CSRF-Token`, `X-Vault-Token`,
    /// `Private-Token` (GitLab), `X-Amz-Security-Token`, `X-Shopify-Access-Token`.
    package static let headers: [HTTPField.Name] = [
        .authorization, .proxyAuthorization, .cookie, .setCookie, .literal("X-Api-Key"), .literal("X-Auth-Token"),
        .literal("X-Access-Token"), .literal("Api-Key"), .literal("X-Goog-Api-Key"), .literal("Private-Token"),
        .literal("Ocp-Apim-Subscription-Key"), .literal("X-Amz-Security-Token"), .literal("X-CSRF-Token"), .literal("X-GitHub-OTP"),
        .literal("DPoP"),
    ]

    /// Whether a header's value is a credential: its name is in ``headers``, ends in one of
    /// ``secretNameParts`` (`X-Vault-Token`, `X-CSRFToken`, `X-Client-Secret`, `X-Session`), or
    /// holds one of ``credentialNameEndings`` anywhere (`X-Api-Token-Value`).
    package static func isCredentialHeader(_ name: HTTPField.Name) -> Bool {
        guard !headerSet.contains(name) else { return true }
        let canonical = SecretPolicy.canonical(name.canonicalName)
        // A signature anywhere in a header's name (`X-Hub-Signature-256`, a webhook's) is an HMAC
        // that proves the sender: redacted as one ending in `Signature` is.
        return endsAsCredential(canonical) || credentialNameEndings.contains { canonical.contains($0) } || canonical.contains("signature")
    }

    /// Endings of a parameter's or a member's name (lowercased, without `_` and `-`) that say its
    /// value is a credential whatever comes before: `reset_token`, `personalAccessToken`,
    /// `db_password`, `webhookSecret`, `stripe_api_key`. A name that ends in `token` after a word
    /// of paging (``isCursorName(_:)``) is a cursor, not a credential.
    package static let credentialNameEndings = [
        "token", "secret", "password", "passwd", "passphrase", "apikey", "accesskey", "privatekey", "signingkey", "jwt",
        "sessionid",
    ]

    /// Whether a parameter's or a member's name, lowercased without `_` and `-`, ends in one of
    /// ``credentialNameEndings`` and is not a cursor.
    package static func endsAsCredentialName(_ canonical: String) -> Bool {
        credentialNameEndings.contains { canonical.hasSuffix($0) } && !isCursorName(canonical)
    }

    /// Whether a name that ends in `token` names a pagination cursor: the word before `token`
    /// is one of paging (`pageToken`, `nextPageToken`, `next_token`, `continuationToken`,
    /// `sync_token`, `pagination_token`).
    package static func isCursorName(_ canonical: String) -> Bool {
        guard canonical.hasSuffix("token") else { return false }
        let before = canonical.dropLast(5)
        return cursorWords.contains { before.hasSuffix($0) }
    }

    private static let cursorWords = ["page", "next", "prev", "previous", "continuation", "sync", "cursor", "pagination", "paging", "resume", "start", "more"]

    /// Whether a name, lowercased without `-` and `_`, ends in one of ``secretNameParts``.
    package static func endsAsCredential(_ canonical: String) -> Bool {
        secretNameParts.contains { canonical.hasSuffix($0) }
    }

    private static let headerSet = Set(headers)

    /// Headers whose value is a URL (or, for `Link`, URLs in `<...>`; for `Refresh`, after
    /// `url=`), redacted as URLs: `Location`, `Content-Location`, `Link`, `Referer`, `Refresh`.
    package static let urlHeaders: [HTTPField.Name] = [.location, .contentLocation, linkHeader, .referer, .literal("Refresh")]

    /// Query, fragment and form parameters that carry credentials (compared percent-decoded,
    /// ignoring case, `_` and `-`, so `accessToken` and `Access-Token` are `access_token`): OAuth's
    /// `access_token`, `refresh_token`, `id_token`, `client_secret`, `client_assertion`,
    /// `assertion`, `code_verifier`; `session_token`, `auth_token`, `private_token`, `token`,
    /// `jwt`; `api_key`, `key` (Google's `?key=`), `auth`, `secret`, `api_secret`,
    /// `private_key`, `session`, `session_id`, `password`, `passwd`, `pwd`, `passphrase`;
    /// `api_token`, `bearer_token`, `github_token`, OAuth 1.0a's `oauth_token` and
    /// `oauth_token_secret`, `secret_key`, `access_key`, `aws_secret_access_key`,
    /// `secret_access_key` (AWS STS's `SecretAccessKey`), `webhook_secret`, `credentials`,
    /// `connection_string`; CSRF tokens (`csrf`,
    /// `csrf_token`, `xsrf_token`, Rails' `authenticity_token`, Django's `csrfmiddlewaretoken`);
    /// the signatures of presigned URLs (`signature`, `sig`, `X-Amz-Signature`,
    /// `X-Amz-Credential`, `X-Amz-Security-Token`); and the credential headers' names
    /// (``headers``) and any name written as a credential header's is (with `-`, ending as
    /// ``isCredentialHeader(_:)`` says: `?X-Vault-Token=`), as a query sometimes carries them.
    /// Any name ending in one of ``credentialNameEndings`` is one too (``endsAsCredentialName(_:)``):
    /// `reset_token`, `sas_token`, `personalAccessToken`. SAML's `SAMLResponse`, OpenID Connect's
    /// `id_token_hint` and CAS's `ticket` are. (`pageToken`, `next_token` and the like are
    /// pagination cursors, not credentials.) `code` beside an OAuth
    /// parameter too (see `Redaction`); `code` alone is an ordinary name (a country, an error), and
    /// a `Redaction` adds it.
    package static let queryParameters = [
        "id_token_hint", "samlresponse", "ticket", "access_token", "refresh_token", "id_token", "session_token", "auth_token", "private_token", "api_key", "client_secret",
        "client_assertion", "assertion", "code_verifier", "token", "jwt", "key", "auth", "secret", "api_secret", "private_key",
        "session", "session_id", "password", "passwd", "pwd", "passphrase", "csrf", "csrf_token", "xsrf_token", "authenticity_token",
        "csrfmiddlewaretoken", "signature", "sig", "x-amz-signature", "x-amz-credential", "x-amz-security-token", "api_token",
        "bearer_token", "github_token", "oauth_token", "oauth_token_secret", "secret_key", "access_key", "aws_secret_access_key",
        "secret_access_key", "webhook_secret", "credentials", "connection_string",
    ] + headers.map { $0.canonicalName }

    /// JSON, form and XML members whose values are credentials (compared as ``queryParameters``
    /// are): the parameters' names, the credential headers' among them (so that an echo
    /// service's `{"headers": {"Authorization": ...}}` is not kept either), but the ones that
    /// name ordinary data as often in a body (`key`, `auth`, `session`, `signature`, `ticket`), and
    /// any name ``endsAsCredentialName(_:)`` takes.
    package static let bodyFields = queryParameters.filter { !["key", "auth", "session", "signature", "ticket"].contains($0) }

    /// Parts of a name (lowercased, letters and digits only) that say its value is secret: a
    /// header whose name ends in one is a credential (``isCredentialHeader(_:)``), and `sculpt
    /// check` flags a random-looking value under any name that holds one (`X-Api-Key`,
    /// `client_secret`, `refreshToken`, `sessionId`, `db_password`).
    package static let secretNameParts = [
        "token", "secret", "password", "passwd", "passphrase", "apikey", "accesskey", "privatekey", "signingkey", "credential",
        "signature", "session", "sessionid", "cookie", "authorization", "bearer", "jwt", "csrf", "xsrf",
    ]

    /// Whether `name` says its value is secret (``secretNameParts``), compared on its ASCII
    /// letters (lowercased) and digits: `X-Api-Key`, `client_secret` and `refreshToken` do.
    package static func nameSuggestsSecret(_ name: String) -> Bool {
        let folded: [UInt8] = name.utf8.compactMap { byte in
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39: ASCII.lowercased(byte)
            default: nil
            }
        }
        return secretNamePartBytes.contains { part in
            folded.count >= part.count && (0...(folded.count - part.count)).contains { folded[$0..<($0 + part.count)].elementsEqual(part) }
        }
    }

    private static let secretNamePartBytes = secretNameParts.map { Array($0.utf8) }

    /// How an error quotes a value it refuses, such as a fixture's method: the value, quoted and
    /// escaped, when it is as short as such a value is (16 bytes), not a credential's shape, and
    /// no `name=value` or `name:value` pair (`pw=hunter2`); else only its size, so that a secret
    /// written in the wrong field is not shown.
    ///
    /// ```swift
    /// Secrets.quoted("GE T")                           // "GE T"
    /// Secrets.quoted("pw=hunter2")                     // a value of 10 bytes
    /// Secrets.quoted("ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z")   // a value of 40 bytes
    /// ```
    package static func quoted(_ value: String) -> String {
        guard value.utf8.count <= 16, !value.utf8.contains(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ":") }),
            CredentialShape.find(in: Array(value.utf8)).isEmpty
        else { return "a value of \(value.utf8.count) bytes" }
        return "\"\(PrintableText.value(value, limit: 64))\""
    }

    private static let linkHeader = HTTPField.Name.literal("Link")
}
