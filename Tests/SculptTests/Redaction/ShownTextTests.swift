import Foundation
import SculptShared
import Testing

/// The gate every text of Sculpt's passes, on its own: what it redacts, however a credential is
/// written around it.
@Suite("The gate every text passes")
struct ShownTextTests {
    static let sendGrid = "SG." + Planted.run("sg-a", 22) + "." + Planted.run("sg-b", 43)
    static let google = "AIza" + Planted.run("google", 35)
    static let npm = "npm_" + Planted.run("npm", 36)
    static let github = "ghp_" + Planted.run("github", 36)
    static let key = "MIIEowIBAAKCAQEA" + Planted.run("key-1", 48) + "\n" + Planted.run("key-2", 64) + "\n" + Planted.run("key-3", 40) + "=="

    /// A text and the secret parts it must not show.
    struct Row: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var text: String
        var hidden: [String]
    }

    static let rows: [Row] = [
        Row(testDescription: "a SendGrid key before a sentence's period", text: "Your key is \(sendGrid).", hidden: [String(sendGrid.dropFirst(3).prefix(22))]),
        Row(testDescription: "a Google key followed by '-'", text: "key \(google)-staging", hidden: [String(google.dropFirst(4).prefix(12))]),
        Row(testDescription: "a Google key followed by '_'", text: "key \(google)_x", hidden: [String(google.dropFirst(4).prefix(12))]),
        Row(testDescription: "an npm token followed by more letters", text: "npm: \(npm)abc", hidden: [String(npm.dropFirst(4).prefix(12))]),
        Row(testDescription: "a percent-encoded first letter", text: "GET /users/%67\(github.dropFirst()) -> 404", hidden: [String(github.dropFirst(4).prefix(12))]),
        Row(testDescription: "a first letter percent-encoded twice", text: "GET /users/%2567\(github.dropFirst()) -> 404", hidden: [String(github.dropFirst(4).prefix(12))]),
        Row(testDescription: "a first letter percent-encoded three times, cut short", text: "GET /users/%252567\(github.dropFirst().prefix(20))… (9 more bytes)", hidden: [String(github.dropFirst(4).prefix(12))]),
        Row(testDescription: "a percent-encoded letter in the middle", text: "/users/ghp_\(github.dropFirst(4).prefix(10))%41\(github.dropFirst(15))", hidden: [String(github.dropFirst(4).prefix(10)), String(github.suffix(12))]),
        Row(testDescription: "a JSON escape inside", text: #"{"note":"ghp_\#(github.dropFirst(4).prefix(4))\u0059\#(github.dropFirst(9))"}"#, hidden: [String(github.suffix(12)), String(github.dropFirst(4).prefix(4)) + "\\u0059"]),
        Row(testDescription: "a private key with its material and end line", text: "-----BEGIN RSA PRIVATE KEY-----\n\(key)\n-----END RSA PRIVATE KEY-----\nafter", hidden: ["MIIEowIBAAKCAQEA", Planted.run("key-2", 64), "BEGIN RSA PRIVATE", "END RSA PRIVATE"]),
        Row(testDescription: "a private key in JSON, its line breaks escaped", text: #"{"pem":"-----BEGIN PRIVATE KEY-----\n\#(key.replacingOccurrences(of: "\n", with: "\\n"))\n-----END PRIVATE KEY-----"}"#, hidden: ["MIIEowIBAAKCAQEA", Planted.run("key-3", 40)]),
        Row(testDescription: "a private key cut short, with no end line", text: "-----BEGIN EC PRIVATE KEY-----\n\(key.prefix(70))", hidden: ["MIIEowIBAAKCAQEA", Planted.run("key-1", 48)]),
        Row(testDescription: "a credential cut short before an ellipsis", text: "token \(github.prefix(14))… (40 bytes)", hidden: [String(github.dropFirst(4).prefix(10))]),
        Row(testDescription: "a credential written with an escape, cut short", text: "/%67\(github.dropFirst().prefix(20))… (7 more bytes)", hidden: [String(github.dropFirst(4).prefix(12))]),
        Row(testDescription: "an encrypted PEM key with its armor headers", text: "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n\(key)\n-----END RSA PRIVATE KEY-----",
            hidden: ["MIIEowIBAAKCAQEA", Planted.run("key-2", 64), "3F17F5316E2BAC89"]),
        Row(testDescription: "a PGP key block with its version line", text: "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\nlQOYBF\(Planted.run("pgp", 40))\n-----END PGP PRIVATE KEY BLOCK-----", hidden: [Planted.run("pgp", 40)]),
        Row(testDescription: "a private key written as a form writes it", text: "note=-----BEGIN+RSA+PRIVATE+KEY-----%0AMIIEowIBAAKCAQEA\(Planted.run("form", 40))%0A-----END+RSA+PRIVATE+KEY-----", hidden: [Planted.run("form", 40)]),
        Row(testDescription: "an unsigned JWT", text: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c2VyLTEyMzQ1Njc4OTAifQ.", hidden: ["eyJzdWIiOiJ1c2VyLTEyMzQ1Njc4OTAifQ"]),
        Row(testDescription: "a JWT without its signature or the dot before it", text: "GET /users/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0 -> 404", hidden: ["eyJzdWIiOiIxMjM0NTY3ODkwIn0"]),
        Row(testDescription: "a JWT with a short signature", text: "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEyMzQ1Njc4OTAifQ.abc12", hidden: ["eyJzdWIiOiJ1c2VyLTEyMzQ1Njc4OTAifQ", "abc12"]),
        Row(testDescription: "a credential cut short inside an escape", text: "token ghp_\(github.dropFirst(4).prefix(10))%4… (30 more bytes)", hidden: [String(github.dropFirst(4).prefix(10))]),
        Row(testDescription: "a credential written with XML's character references", text: "<note>&#103;hp_\(github.dropFirst(4))</note>", hidden: [String(github.suffix(12))]),
        Row(testDescription: "a credential written with a hexadecimal character reference", text: "<note>&#x67;hp_\(github.dropFirst(4))</note>", hidden: [String(github.suffix(12))]),
        Row(testDescription: "a Slack client token", text: "xoxc-" + Planted.run("xoxc", 40), hidden: [Planted.run("xoxc", 40)]),
        Row(testDescription: "a secret parameter after a long path", text: "https://a.x/" + String(repeating: "a", count: 300) + "/token=s3cretV4lue", hidden: ["s3cretV4lue"]),
    ]

    @Test("a credential is redacted whole however it is written", arguments: rows)
    func redacted(_ row: Row) {
        let shown = ShownText.line(row.text, limit: 4_096)
        for part in row.hidden {
            #expect(!shown.contains(part), "\(shown)")
        }
        #expect(shown.contains("REDACTED"), "\(shown)")
    }

    @Test("a credential written with an escape that crosses the budget is redacted whole before the line is cut", arguments: [
        #"\u0041"#, "%41", "&#65;",
    ])
    func escapeAtTheCut(_ escape: String) {
        let github = Self.github
        let head = "ghp_" + github.dropFirst(4).prefix(29)
        for padding in 150..<200 {
            let text = String(repeating: "p", count: padding) + " " + head + escape + github.suffix(6) + " tail " + String(repeating: "q", count: 600)
            let shown = ShownText.line(text, limit: 200)
            #expect(!shown.contains(String(github.dropFirst(4).prefix(6))), "\(padding): \(shown)")
        }
    }

    @Test("a prefix alone, as a finding shows one, and ordinary text are kept")
    func kept() {
        for text in ["ghp_… (40 characters)", "eyJ… (300 characters)", "Expected one of application/json; found text/html.", "At items[3].token: expected String."] {
            #expect(ShownText.line(text, limit: 4_096) == text)
        }
    }

    @Test("a known value is hidden whole even where a credential holds part of it")
    func knownValueAndShape() {
        let partial = "xoxb-" + Planted.run("slack", 24)
        let full = partial + "-" + Planted.run("slack-rest", 12)
        let shown = ShownText.line("routes were matched against /nomatch/\(full)", limit: 4_096, hiding: [partial])
        #expect(!shown.contains(Planted.run("slack-rest", 12)), "\(shown)")
    }
}
