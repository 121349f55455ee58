import Foundation
package import HTTPTypes

/// The names that are secret and the rules that find them, as SculptTesting's `Redaction` documents them: the one
/// policy behind every redaction in Sculpt. ``SecretPolicy/default`` is ``Secrets``' names;
/// SculptTesting's `Redaction` is the default plus names a user adds.
///
/// ```swift
/// let policy = SecretPolicy(parameters: ["sig"])
/// policy.redacting(urlText: "https://h/a?sig=x&access_token=y")   // https://h/a?sig=REDACTED&access_token=REDACTED
/// ```
package struct SecretPolicy: Sendable {
    /// Headers whose whole value is replaced.
    package var headers: Set<HTTPField.Name>
    /// Query and fragment parameter names, lowercased.
    package var parameters: Set<String> {
        didSet { canonicalParameters = Set(parameters.map(Self.canonical)) }
    }
    /// JSON member names, lowercased.
    package var bodyFields: Set<String> {
        didSet { canonicalBodyFields = Set(bodyFields.map(Self.canonical)) }
    }
    /// The same names as compared: ``canonical(_:)``.
    private var canonicalParameters: Set<String>
    private var canonicalBodyFields: Set<String>
    /// Whether a URL's user name and password, `code` beside an OAuth parameter, and URLs in
    /// ``Secrets/urlHeaders`` are redacted; off only in ``disabled``.
    package var redactsURLs: Bool

    /// ``Secrets``' names and rules: what descriptions use.
    package static let `default` = SecretPolicy(
        headers: Set(Secrets.headers), parameters: Set(Secrets.queryParameters), bodyFields: Set(Secrets.bodyFields), redactsURLs: true)

    /// Nothing redacted.
    package static let disabled = SecretPolicy(headers: [], parameters: [], bodyFields: [], redactsURLs: false)

    /// The defaults plus the names given (any case).
    ///
    /// ```swift
    /// let policy = SecretPolicy(parameters: ["signature"])
    /// ```
    package init(headers: [HTTPField.Name] = [], parameters: some Sequence<String> = [String](), bodyFields: [String] = []) {
        if headers.isEmpty, bodyFields.isEmpty, parameters.first(where: { _ in true }) == nil {
            self = .default  // the defaults, built once: a replay makes a policy per difference it shows
            return
        }
        self.init(
            headers: Set(Secrets.headers + headers), parameters: Set((Secrets.queryParameters + parameters).map { ASCII.lowercased($0) }),
            bodyFields: Set((Secrets.bodyFields + bodyFields).map { ASCII.lowercased($0) }), redactsURLs: true)
    }

    private init(headers: Set<HTTPField.Name>, parameters: Set<String>, bodyFields: Set<String>, redactsURLs: Bool) {
        self.headers = headers
        self.parameters = parameters
        self.bodyFields = bodyFields
        self.canonicalParameters = Set(parameters.map(Self.canonical))
        self.canonicalBodyFields = Set(bodyFields.map(Self.canonical))
        self.redactsURLs = redactsURLs
    }

    /// The parameters that make a `code` beside them an OAuth 2.0 authorization code.
    package static let oauthCompanions: Set<String> = Set(["state", "redirect_uri", "grant_type", "code_verifier", "client_id"].map(canonical))

    /// Whether a parameter is secret, given its name as written (percent-encoded, any case,
    /// perhaps `name[]` or `outer[name]`) and whether an OAuth companion stands beside it.
    /// A name longer than ``longestDecodedName`` bytes is taken as secret: too long to be read
    /// at the cost of every comparison, and no one's usual parameter.
    package func isSecret(parameter raw: some StringProtocol, besideOAuth: Bool) -> Bool {
        guard raw.utf8.count <= Self.longestDecodedName else { return redactsURLs }
        // Most names are plain: nothing to decode, trim or take apart.
        if !raw.utf8.contains(where: Self.needsNormalizing) {
            let name = Self.canonical(raw)
            return isSecret(canonicalParameter: name, besideOAuth: besideOAuth)
                || (redactsURLs && Self.isHeaderLike(raw) && Secrets.endsAsCredential(name))
        }
        let normalized = Self.normalized(raw)
        return Self.pieces(of: normalized).contains { isSecret(canonicalParameter: $0, besideOAuth: besideOAuth) }
            || (redactsURLs && Self.isHeaderLike(normalized) && Secrets.endsAsCredential(Self.canonical(normalized)))
    }

    /// Whether a parameter's name, as ``canonical(_:)`` makes it, is secret: named, a `code` beside
    /// an OAuth parameter, or ending as a credential's name does (unless the policy is ``disabled``).
    private func isSecret(canonicalParameter name: String, besideOAuth: Bool) -> Bool {
        canonicalParameters.contains(name) || (redactsURLs && ((besideOAuth && name == "code") || Secrets.endsAsCredentialName(name)))
    }

    /// Whether a member's name, as ``canonical(_:)`` makes it, is secret: named, or ending as a
    /// credential's name does (unless the policy is ``disabled``).
    private func isSecret(canonicalBodyField name: String) -> Bool {
        canonicalBodyFields.contains(name) || (redactsURLs && Secrets.endsAsCredentialName(name))
    }

    /// Whether a name (an XML element's or attribute's) is one of the parameters this policy
    /// names beyond the defaults: a team's own name is secret wherever a body writes it, while a
    /// default query name that is as often data in a body (`key`, `session`) is not.
    package func isOwnParameter(_ name: some StringProtocol) -> Bool {
        let canonical = Self.canonical(name)
        return canonicalParameters.contains(canonical) && !Self.default.canonicalParameters.contains(canonical)
    }

    /// Whether a parameter's name is written as a header's is, its words joined by `-`
    /// (`X-Vault-Token`): a credential header carried in a query. A cursor is written otherwise
    /// (`pageToken`, `next_token`).
    private static func isHeaderLike(_ name: some StringProtocol) -> Bool {
        name.utf8.contains(UInt8(ascii: "-"))
    }

    /// Whether any of the names (as written, perhaps `state[]`) is an OAuth companion of `code`.
    package func hasOAuthCompanion(_ names: some Sequence<String>) -> Bool {
        // The companions' names are short: longer ones are not decoded to be compared.
        redactsURLs && names.contains { $0.utf8.count <= 64 && Self.pieces(of: Self.normalized($0)).contains(where: Self.oauthCompanions.contains) }
    }

    /// Whether a header's whole value is secret: it is named in ``headers``, or (unless the policy
    /// is ``disabled``) its name ends as a credential's does (``Secrets/isCredentialHeader(_:)``).
    package func isSecret(header name: HTTPField.Name) -> Bool {
        headers.contains(name) || (redactsURLs && Secrets.isCredentialHeader(name))
    }

    /// A JSON member name, as decoded from the document, is secret: compared as
    /// ``canonical(_:)`` makes it, spaces, tabs and NULs around it left out (`"token "`). A name
    /// past ASCII is compared as a decoder matches it to a coding key, canonically equivalent
    /// spellings alike (`api\u{212A}ey`, with KELVIN SIGN, is `apiKey`), with white space and
    /// invisible formatting characters left out (`token\u{A0}`, `to\u{200B}ken`).
    package func isSecret(bodyField name: some StringProtocol) -> Bool {
        let utf8 = Array(name.utf8)
        if utf8.contains(where: { $0 >= 0x80 }) {
            let visible = String(name).precomposedStringWithCanonicalMapping.unicodeScalars.filter {
                !$0.properties.isWhitespace && $0.properties.generalCategory != .format
            }
            var folded = ""
            folded.unicodeScalars.append(contentsOf: visible)
            return isSecret(canonicalBodyField: Self.canonical(folded))
        }
        guard let first = utf8.first, let last = utf8.last, Self.isPadding(first) || Self.isPadding(last) else {
            return isSecret(canonicalBodyField: Self.canonical(name))
        }
        let trimmed = utf8.drop(while: Self.isPadding).reversed().drop(while: Self.isPadding).reversed()
        return isSecret(canonicalBodyField: Self.canonical(String(decoding: trimmed, as: UTF8.self)))
    }

    /// Whether a byte around a name leaves the name what it is: a space, a tab, a NUL.
    private static func isPadding(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0
    }

    /// A normalized name as compared: itself, and for `name[]` or `outer[name]` each bracketed
    /// part too, each ``canonical(_:)``.
    private static func pieces(of name: String) -> [String] {
        guard name.utf8.contains(UInt8(ascii: "[")) else { return [canonical(name)] }
        return [canonical(name)] + name.split(whereSeparator: { $0 == "[" || $0 == "]" }).map(canonical)
    }

    /// A name as compared with the secret names: ASCII-lowercased, without `_` and `-`, so that
    /// `access_token`, `accessToken`, `Access-Token` and `ACCESSTOKEN` are one name.
    package static func canonical(_ name: some StringProtocol) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        for byte in name.utf8 where byte != UInt8(ascii: "_") && byte != UInt8(ascii: "-") {
            bytes.append(ASCII.lowercased(byte))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The longest parameter name decoded to be compared, in bytes.
    package static let longestDecodedName = 4_096

    /// Whether a byte of a name makes it more than its canonical form: an encoding, a space, a
    /// bracket.
    private static func needsNormalizing(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0
    }

    /// A name as compared: `+` read as a space, percent-decoded (up to three times), trimmed of spaces, ASCII-lowercased; longer names
    /// than ``longestDecodedName`` are not decoded (empty). Bytes only: this runs for every
    /// parameter a replay compares.
    package static func normalized(_ raw: some StringProtocol) -> String {
        guard raw.utf8.count <= Self.longestDecodedName else { return "" }
        // `+` is a space in form encoding: `token+` is `token `.
        var bytes = raw.utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
        // Up to three times: a name encoded twice (`access%255Ftoken`) is still its name.
        for _ in 0..<3 where bytes.contains(UInt8(ascii: "%")) {
            guard let decoded = String(decoding: bytes, as: UTF8.self).removingPercentEncoding else { break }
            bytes = Array(decoded.utf8)
        }
        // Spaces, tabs and NULs around a name (`token%00`) do not make it another name.
        let trimmed = bytes.drop(while: isPadding).reversed().drop(while: isPadding).reversed()
        return ASCII.lowercased(trimmed)
    }
}
