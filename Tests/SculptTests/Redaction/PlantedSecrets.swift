import Foundation
import HTTPTypes
import SculptShared

/// Credentials of every shape the redaction vocabulary knows, named secrets, and terminal escapes,
/// to plant in every input a text of Sculpt's can quote: URLs, paths, headers, bodies, tags, names.
enum Planted {
    /// A run of `count` letters and digits of its own for `seed`, with digits in it (an issuer's
    /// random part has them), so that no two planted credentials share one.
    static func run(_ seed: String, _ count: Int, alphabet: String = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789") -> String {
        let letters = Array(alphabet)
        var state = seed.utf8.reduce(UInt64(1_469_598_103_934_665_603)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        return String((0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return letters[Int((state >> 33) % UInt64(letters.count))]
        })
    }

    /// One credential of each shape (``CredentialShape/known``, a JWT, a private key), each with
    /// the part that must never be shown.
    static let credentials: [(token: String, secret: String)] = {
        let upper = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
        var made: [(String, String)] = []
        for prefix in ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"] { made.append((prefix, run(prefix, 36))) }
        for prefix in ["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xoxc-", "xoxd-"] { made.append((prefix, run(prefix, 40))) }
        for prefix in ["sk_live_", "rk_live_"] { made.append((prefix, run(prefix, 24))) }
        for prefix in ["AKIA", "ASIA"] { made.append((prefix, run(prefix, 16, alphabet: upper))) }
        made.append(("github_pat_", run("github_pat_", 60)))
        made.append(("AIza", run("AIza", 35)))
        made.append(("glpat-", run("glpat-", 20)))
        made.append(("npm_", run("npm_", 36)))
        made.append(("sk-proj-", run("sk-proj-", 48)))
        made.append(("SG.", run("SG1", 22) + "." + run("SG2", 43)))
        made.append(("eyJhbGciOiJIUzI1NiJ9.eyJ", run("jwt1", 24) + "." + run("jwt2", 32)))
        return made.map { (token: $0 + $1, secret: String($1.prefix(10))) }
            + [(token: "-----BEGIN RSA PRIVATE KEY-----", secret: "-----BEGIN RSA PRIVATE KEY-----")]
    }()

    /// The credential of the shape whose prefix is `prefix`.
    static func credential(_ prefix: String) -> String {
        credentials.first { $0.token.hasPrefix(prefix) }?.token ?? prefix
    }

    /// A password, a query token and a bearer credential: secret by their names, not their shape.
    static let password = "Hunter2PlantedPw"
    static let queryToken = "PlantedQueryToken9"
    static let bearer = "PlantedBearerToken77"

    /// What no text may show: each credential's secret part, and the named secrets.
    static let secrets: [String] = credentials.map(\.secret) + [password, queryToken, bearer]

    /// Terminal escapes: set a window title, clear the screen.
    static let escape = "\u{1B}]0;pwned\u{7}\u{1B}[2J"

    /// A URL with a credential in its user information, its path, its query (named and by
    /// shape, and a named one repeated under an ordinary name) and its fragment, and an escape in
    /// its path.
    static let url: URL = {
        let text = "https://user:\(password)@api.example.com/v3/users/\(credential("ghp_"))/keys/\(credential("xoxb-"))/%1B%5D0%3Bpwned%07"
            + "?access_token=\(credential("AKIA"))&token=\(queryToken)&state=\(queryToken)&note=\(credential("sk_live_"))#id_token=\(credential("eyJ"))"
        return URL(string: text) ?? URL(filePath: "/")
    }()

    /// The same path and query without the prefix `/v3`.
    static let unprefixedURL: URL = URL(string: url.absoluteString.replacingOccurrences(of: "/v3/", with: "/")) ?? url

    /// Header fields with credentials under secret names and by shape, and an escape.
    static let fields: HTTPFields = [
        .authorization: "Bearer \(bearer)",
        .contentType: "application/json",
        HTTPField.Name("X-Api-Key")!: credential("AIza"),
        HTTPField.Name("X-Note")!: "\(credential("glpat-")) \(escape)",
    ]

    /// A JSON body holding secrets under secret names, by shape under other names, and escapes.
    static let body = Data("""
        {"token": "\(credential("sk-proj-"))", "password": "\(password)", "note": "\(credential("npm_")) \\u001B]0;pwned\\u0007", \
        "type": "\(credential("SG."))", "items": [{"id": "\(credential("ghs_"))"}, {"id": 2}]}
        """.utf8)

    /// The secrets `text` shows, and whether it holds a raw control character.
    static func leaks(in text: String) -> [String] {
        var found = secrets.filter { text.contains($0) }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }) {
            found.append("a raw control character")
        }
        return found
    }
}
