import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The names and places the default redaction covers, as real APIs use them: what a recording, a
/// HAR import and a description all leave out.
@Suite("Redaction's default vocabulary")
struct RedactionVocabularyTests {
    static func redacted(url: String = "https://api.example.com/a", headers: HTTPFields = [:], body: String? = nil, redaction: Redaction = Redaction()) throws -> Fixture {
        let fixture = Fixture(
            request: .init(method: body == nil ? .get : .post, url: try #require(URL(string: url)), headerFields: headers, body: body.map { Data($0.utf8) }),
            response: .init(status: .ok))
        return redaction.redacting(fixture)
    }

    @Test("query parameters: Google's key, auth, secret, session, session_id and private_key, beside the OAuth names", arguments: [
        "key", "auth", "secret", "session", "session_id", "private_key", "jwt", "assertion", "passwd", "Access-Token", "API_KEY",
    ])
    func queryNames(_ name: String) throws {
        let fixture = try Self.redacted(url: "https://api.example.com/a?\(name)=s3cretValue1&page=2")
        #expect(fixture.request.url.absoluteString == "https://api.example.com/a?\(name)=REDACTED&page=2")
    }

    @Test("a query parameter named as a credential header is, as a header carried in the query", arguments: [
        "X-Vault-Token", "x-shopify-access-token", "X-Client-Secret", "X-DD-Api-Key", "X%2DVault%2DToken",
    ])
    func headerNamesInTheQuery(_ name: String) throws {
        let fixture = try Self.redacted(url: "https://api.example.com/a?\(name)=s3cretValue1&page=2")
        #expect(fixture.request.url.absoluteString == "https://api.example.com/a?\(name)=REDACTED&page=2")
        let url = try #require(URL(string: "https://api.example.com/a?\(name)=s3cretValue1&page=2"))
        let description = ResponseContext(url: url, method: .get, status: .notFound, headerFields: [:]).description
        #expect(!description.contains("s3cretValue1"), "\(description)")
    }

    @Test("pagination cursors named ...Token stay: a replay tells one page from the next by them", arguments: [
        "pageToken", "next_token", "NextToken", "continuationToken", "syncToken",
    ])
    func cursorsStay(_ name: String) throws {
        let fixture = try Self.redacted(url: "https://api.example.com/a?\(name)=c2&page=2")
        #expect(fixture.request.url.absoluteString == "https://api.example.com/a?\(name)=c2&page=2")
    }

    @Test("headers named as credentials are: CSRF tokens and any vendor's ...-Token, -Secret or -Api-Key", arguments: [
        "X-CSRF-Token", "X-XSRF-TOKEN", "X-CSRFToken", "X-Vault-Token", "X-Shopify-Access-Token", "X-Figma-Token", "X-Client-Secret",
        "X-DD-Api-Key", "X-GitHub-OTP", "DPoP", "X-Session-Id", "X-Hub-Signature-256",
    ])
    func headerNames(_ name: String) throws {
        let field = try #require(HTTPField.Name(name))
        let fixture = try Self.redacted(headers: [field: "s3cretValue1", .init("X-Request-Id")!: "r-1"])
        #expect(fixture.request.headerFields[field] == "REDACTED")
        #expect(fixture.request.headerFields[.init("X-Request-Id")!] == "r-1")
    }

    @Test("a JSON member named jwt or private_key, at any depth")
    func jsonMembers() throws {
        let fixture = try Self.redacted(body: #"{"grant":{"jwt":"eyJhbGciOi.abc.def","private_key":"k1","kind":"x"}}"#)
        #expect(String(decoding: fixture.request.body ?? Data(), as: UTF8.self) == #"{"grant":{"jwt":"REDACTED","private_key":"REDACTED","kind":"x"}}"#)
    }

    @Test("a URL's user and password in a text body", arguments: [
        ("connect to https://alice:s3cret@db.example.com/x now", "connect to https://REDACTED:REDACTED@db.example.com/x now"),
        ("redis://:s3cret@cache.example.com:6379", "redis://REDACTED:REDACTED@cache.example.com:6379"),
        ("see https://token123@git.example.com/r.git", "see https://REDACTED@git.example.com/r.git"),
    ])
    func userInfoInText(_ text: String, _ expected: String) throws {
        let fixture = try Self.redacted(headers: [.contentType: "text/plain"], body: text)
        #expect(String(decoding: fixture.request.body ?? Data(), as: UTF8.self) == expected)
    }

    @Test("JSON written inside XML, as text or CDATA", arguments: [
        (#"<r><payload>{"access_token":"abc123","n":1}</payload></r>"#, #"<r><payload>{"access_token":"REDACTED","n":1}</payload></r>"#),
        (#"<r><![CDATA[{"refresh_token": "abc123"}]]></r>"#, #"<r><![CDATA[{"refresh_token": "REDACTED"}]]></r>"#),
    ])
    func jsonInXML(_ xml: String, _ expected: String) throws {
        let fixture = try Self.redacted(headers: [.contentType: "application/xml"], body: xml)
        #expect(String(decoding: fixture.request.body ?? Data(), as: UTF8.self) == expected)
    }

    @Test("a description hides what a recording hides")
    func descriptions() throws {
        let url = try #require(URL(string: "https://api.example.com/a?key=s3cretValue1"))
        let context = ResponseContext(url: url, method: .get, status: .notFound, headerFields: [.init("X-Vault-Token")!: "s3cretValue2"])
        #expect(!context.description.contains("s3cretValue1"))
        #expect(!context.description.contains("s3cretValue2"))
    }

    @Test("any parameter whose name ends as a credential's is one, wherever it stands; cursors stay", arguments: [
        ("reset_token", true), ("sas_token", true), ("upload_token", true), ("personalAccessToken", true), ("db_password", true),
        ("webhookSecret", true), ("id_token_hint", true), ("SAMLResponse", true),
        ("nextPageToken", false), ("prev_page_token", false), ("pagination_token", false), ("max_tokens", false),
    ])
    func nameEndings(_ name: String, _ isSecret: Bool) throws {
        let url = "https://api.example.com/a?\(name)=s3cretValue1&page=2"
        let fixture = try Self.redacted(url: url, headers: [.contentType: "application/json"], body: #"{"\#(name)":"s3cretValue2","n":1}"#)
        let recordedURL = fixture.request.url.absoluteString
        let recordedBody = String(decoding: fixture.request.body ?? Data(), as: UTF8.self)
        let description = SculptError(
            .decodingFailed(ModelType(Int.self), underlying: CocoaError(.coderReadCorrupt)),
            response: ResponseContext(url: URL(string: url), method: .get, status: .ok, headerFields: [.contentType: "application/json"]),
            body: Data(#"{"\#(name)":"s3cretValue2","n":1}"#.utf8)
        ).description
        if isSecret {
            #expect(recordedURL == "https://api.example.com/a?\(name)=REDACTED&page=2")
            #expect(!recordedBody.contains("s3cretValue2"), "\(recordedBody)")
            #expect(!description.contains("s3cretValue1") && !description.contains("s3cretValue2"), "\(description)")
        } else {
            #expect(recordedURL == url)
            #expect(description.contains("s3cretValue1"), "\(description)")
        }
    }

    @Test("CAS's ticket is secret in a URL, and ordinary data in a body")
    func ticket() throws {
        let fixture = try Self.redacted(
            url: "https://sso.example.com/validate?ticket=ST-s3cretValue1", headers: [.contentType: "application/json"], body: #"{"ticket":"T-42"}"#)
        #expect(fixture.request.url.absoluteString == "https://sso.example.com/validate?ticket=REDACTED")
        #expect(String(decoding: fixture.request.body ?? Data(), as: UTF8.self) == #"{"ticket":"T-42"}"#)
    }

    @Test("a header that holds a credential's word anywhere in its name is one")
    func headerWordInside() throws {
        let field = try #require(HTTPField.Name("X-Api-Token-Value"))
        let fixture = try Self.redacted(headers: [field: "s3cretValue1", .init("Access-Control-Allow-Credentials")!: "true"])
        #expect(fixture.request.headerFields[field] == "REDACTED")
        #expect(fixture.request.headerFields[.init("Access-Control-Allow-Credentials")!] == "true")
    }

    static let githubToken = "ghp_" + String(repeating: "aB3dE5fG7h", count: 3) + "J9kL1m"
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"

    @Test("a credential of a known shape under an ordinary name, or in prose: recorded as REDACTED, never described", arguments: [
        githubToken, jwt,
    ])
    func credentialShapes(_ credential: String) throws {
        let body = #"{"note":"\#(credential)","type":"\#(credential)","n":1}"#
        let fixture = try Self.redacted(headers: [.contentType: "application/json"], body: body)
        let recorded = String(decoding: fixture.request.body ?? Data(), as: UTF8.self)
        #expect(recorded == #"{"note":"REDACTED","type":"REDACTED","n":1}"#)
        let error = SculptError(
            .unknownDiscriminator(field: "type", found: credential, registered: ["question"]),
            response: ResponseContext(url: URL(string: "https://api.example.com/feed"), method: .get, status: .ok, headerFields: [.contentType: "application/json"]),
            body: Data(body.utf8))
        #expect(!error.description.contains(credential), "\(error.description)")
    }

    @Test("a form, a parameter or a credential written in a JSON string is recorded redacted, its other escapes kept, as descriptions hide it, and check passes it", arguments: [
        (#"{"a":"a=1&token=abc123456"}"#, #"{"a":"a=1&token=REDACTED"}"#),
        (#"{"b":"token=def123456"}"#, #"{"b":"token=REDACTED"}"#),
        (#"{"c":"x token=ghi123456 y"}"#, #"{"c":"x token=REDACTED y"}"#),
        (#"{"d":"https://h/cb?token=jkl123456"}"#, #"{"d":"https://h/cb?token=REDACTED"}"#),
        (#"{"e":"Authorization: Bearer mno123456789"}"#, #"{"e":"Authorization: Bearer REDACTED"}"#),
        (#"{"f":"a\u003d1\u0026token\u003dpqr123456"}"#, #"{"f":"a\u003d1\u0026token\u003dREDACTED"}"#),
        (#"{"g":"token=pqr123456\u0026next\u003d1\n\/x"}"#, #"{"g":"token=REDACTED\u0026next\u003d1\n\/x"}"#),
        (#"{"h":"{\"password\":\"pqr123456\"}\u0026\u00e9"}"#, #"{"h":"{\"password\":\"REDACTED\"}\u0026\u00e9"}"#),
        (#"{"note":"password=\"s3cr3tvalue99\""}"#, #"{"note":"password=\"REDACTED\""}"#),
        (#"{"q":"password=\ud800hunter2hunter2 \u0041"}"#, #"{"q":"password=REDACTED \u0041"}"#),
        (#"{"q":"x password=hunter2\ud800hunter2 y"}"#, #"{"q":"x password=REDACTED y"}"#),
        (#"{"q":"Bearer \udc00abcdefghijklmnop"}"#, #"{"q":"Bearer REDACTED"}"#),
    ])
    func parametersInStrings(_ body: String, _ expected: String) throws {
        let fixture = try Self.redacted(headers: [.contentType: "application/json"], body: body)
        #expect(String(decoding: fixture.request.body ?? Data(), as: UTF8.self) == expected)
        let findings = SecretScan.findings(inJSON: fixture.encoded())
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test("a secret parameter in a text body ends at its line, or where prose or markup ends it: what follows is kept, and the stated length is the kept body's", arguments: [
        ("line one\ntoken=abc123456\nline three", "line one\ntoken=REDACTED\nline three"),
        ("token=abc123456\r\nuser=bob\nlines of text that matter\nid=42; done", "token=REDACTED\r\nuser=bob\nlines of text that matter\nid=42; done"),
        ("a token = abc123456\nnext", "a token = REDACTED\nnext"),
        ("<p>token=abc1234567</p><p>keep me</p>", "<p>token=REDACTED</p><p>keep me</p>"),
        ("x=1 token=sekretValue99 y=2", "x=1 token=REDACTED y=2"),
        ("password=ab;sekretValue99\nnext=1", "password=REDACTED\nnext=1"),
        ("password=ab&sekretValue99\nnext=1", "password=REDACTED\nnext=1"),
        ("sid=1; password=abc123456; theme=dark", "sid=1; password=REDACTED; theme=dark"),
        (#"password="abc defsecret" rest"#, #"password="REDACTED" rest"#),
        ("password='abc defsecret' rest", "password='REDACTED' rest"),
        (#"Authorization: Token token="abcdefgh12345678""#, #"Authorization: Token token="REDACTED""#),
        ("password=ab;cdsecret more", "password=REDACTED more"),
        ("password=ab&cdsecret more", "password=REDACTED more"),
        ("password=what?cdsecret more", "password=REDACTED more"),
        ("password=abcsecret\u{0C}next", "password=REDACTED\u{0C}next"),
        ("(password=abcsecret99) and [token=abc123456] kept", "(password=REDACTED) and [token=REDACTED] kept"),
        ("x {token=abc123456}} y", "x {token=REDACTED}} y"),
        ("password=a(b)c99secret end", "password=REDACTED end"),
        ("user=bob id=3 session=abc123456 next=1 token=def123456", "user=bob id=3 session=REDACTED next=1 token=REDACTED"),
        ("a=1 b=2 c=3 d=4 e=5 password=abc123456 f=6", "a=1 b=2 c=3 d=4 e=5 password=REDACTED f=6"),
    ])
    func parameterInTextEndsAtItsLine(_ body: String, _ expected: String) throws {
        let fixture = try Self.redacted(headers: [.contentType: "text/plain", .contentLength: "\(body.utf8.count)"], body: body)
        let kept = String(decoding: fixture.request.body ?? Data(), as: UTF8.self)
        #expect(kept == expected)
        #expect(fixture.request.headerFields[.contentLength] == "\(kept.utf8.count)")
    }

    @Test("a finding shows a value of no known shape as REDACTED and its length, no character of it", arguments: [
        #"{"users":{"a":{"password":"abcd1234XYZ"}}}"#,
        #"{"request":{"url":"https://bob:abcd1234XYZ@h/x"}}"#,
    ])
    func findingShowsNoCharacter(_ json: String) {
        let findings = SecretScan.findings(inJSON: Data(json.utf8))
        #expect(findings.map(\.shown) == ["REDACTED (11 characters)"], "\(findings)")
    }

    @Test("what a recording keeps, sculpt check does not flag")
    func recordingPassesTheCheck() throws {
        let body = #"{"personal_access_token":"Zq8LmN2pQ4rS6tU8vW0x","resetToken":"Iq8LmN2pQ4rS6tU8vW0y","note":"\#(Self.githubToken)"}"#
        let fixture = try Self.redacted(
            url: "https://api.example.com/a?reset_token=Zq8LmN2pQ4rS6tU8vW0z", headers: [.init("X-Api-Token-Value")!: "Iq8LmN2pQ4rS6tU8vW0w", .contentType: "application/json"],
            body: body)
        let findings = SecretScan.findings(inJSON: fixture.encoded())
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test("sculpt check flags each secret a recording would replace, beside a credential in the same body, however the file writes the body", arguments: [
        ("application/json", #"{"login":"octocat","password":"hunter2hunter2","note":"ghp_Abcdefghijklmnopqrstuvwxyz0123456789"}"#),
        ("application/x-www-form-urlencoded", "login=octocat&password=hunter2hunter2&note=ghp_Abcdefghijklmnopqrstuvwxyz0123456789"),
        ("text/plain", "password=hunter2hunter2 note ghp_Abcdefghijklmnopqrstuvwxyz0123456789"),
    ], [false, true])
    func checkFlagsEverySecret(_ row: (contentType: String, body: String), _ byteExact: Bool) throws {
        let (contentType, body) = row
        let fixture = Fixture(
            request: .init(url: try #require(URL(string: "https://api.example.com/a"))),
            response: .init(headerFields: [.contentType: contentType], body: Data(body.utf8)))
        let kinds = Set(SecretScan.findings(inJSON: fixture.encoded(byteExact: byteExact)).map(\.kind))
        #expect(kinds == ["a GitHub token", #"an unredacted "password""#], "\(kinds)")
        #expect(SecretScan.findings(inJSON: Redaction().redacting(fixture).encoded(byteExact: byteExact)).isEmpty)
    }

    @Test("sculpt check never shows a value it finds in the path of a finding, where a member is named by it", arguments: [false, true])
    func findingPathsHideValues(base64: Bool) throws {
        let body = Data(#"{"sessions":{"Hunter2SuperSecretPw":{"password":"Hunter2SuperSecretPw"}}}"#.utf8)
        var fixture = try Fixture.stub(.get, "https://api.example.com/sessions", json: "{}")
        fixture.response.body = body
        var encoded = fixture.encoded()
        if base64 {
            // The same body stored in base64, as a recording keeps a body that is not text.
            var object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
            var response = try #require(object["response"] as? [String: Any])
            response["body"] = body.base64EncodedString()
            response["bodyEncoding"] = "base64"
            object["response"] = response
            encoded = try JSONSerialization.data(withJSONObject: object)
        }
        let findings = SecretScan.findings(inJSON: encoded)
        #expect(!findings.isEmpty)
        for finding in findings {
            #expect(!finding.path.contains("Hunter2") && !finding.shown.contains("Hunter2"), "\(finding.path)")
        }
        #expect(findings.contains { $0.path.hasSuffix("sessions.REDACTED.password") }, "\(findings.map(\.path))")
    }

    @Test("sculpt check never shows in a finding's path a word of a secret value: a credential after its scheme, a cookie's value", arguments: [
        #"{"authorization":"Token abcSecretXyz12345","m":{"abcSecretXyz12345":"ghp_Abcdefghijklmnopqrstuvwxyz0123456789"}}"#,
        #"{"cookie":"theme=dark; sid=abcSecretXyz12345","m":{"abcSecretXyz12345":"ghp_Abcdefghijklmnopqrstuvwxyz0123456789"}}"#,
    ])
    func findingPathsHideWords(_ body: String) throws {
        var fixture = try Fixture.stub(.get, "https://api.example.com/m", json: "{}")
        fixture.response.body = Data(body.utf8)
        let findings = SecretScan.findings(inJSON: fixture.encoded())
        #expect(findings.contains { $0.path.hasSuffix("m.REDACTED") }, "\(findings.map(\.path))")
        for finding in findings {
            #expect(!finding.path.contains("abcSecret"), "\(finding.path)")
        }
    }

    @Test("a JSON body in the single-byte charset it declares is recorded whole, its secrets replaced", arguments: ["iso-8859-1", "windows-1252"])
    func declaredCharsetJSON(_ charset: String) throws {
        let body = try #require(#"{"next":"https://h/x?page=2&access_token=abc1234567 more","note":"see password=abc1234567 here","name":"café"}"#.data(using: .isoLatin1))
        let fixture = Fixture(
            request: .init(url: try #require(URL(string: "https://api.example.com/a"))),
            response: .init(headerFields: [.contentType: "application/json; charset=\(charset)"], body: body))
        let recorded = try #require(String(data: Redaction().redacting(fixture).response.body, encoding: .isoLatin1))
        // A URL's query value runs to its `&` or its end, space and all.
        #expect(recorded == #"{"next":"https://h/x?page=2&access_token=REDACTED","note":"see password=REDACTED here","name":"café"}"#)
    }

    /// Bodies with bytes that are not UTF-8, as sent and as recorded: (content type, body, recorded).
    static let notUTF8: [(String, [UInt8], [UInt8])] = [
        ("text/plain", Array("a token = abcSecret12345\nline\n".utf8) + [0xFF, 0xFE, 0x20, 0xE9] + Array(" raw\r\nend".utf8),
         Array("a token = REDACTED\nline\n".utf8) + [0xFF, 0xFE, 0x20, 0xE9] + Array(" raw\r\nend".utf8)),
        ("application/x-www-form-urlencoded", Array("a=".utf8) + [0xE9] + Array("&token=abcSecret12345&b=2".utf8),
         Array("a=".utf8) + [0xE9] + Array("&token=REDACTED&b=2".utf8)),
    ]

    @Test("a text or form body that is not UTF-8 keeps every byte but the secret's when it is recorded", arguments: notUTF8)
    func bytesThatAreNotUTF8(_ contentType: String, _ body: [UInt8], _ expected: [UInt8]) throws {
        let fixture = Fixture(
            request: .init(method: .post, url: try #require(URL(string: "https://api.example.com/a")), headerFields: [.contentType: contentType], body: Data(body)),
            response: .init(status: .ok))
        #expect(Redaction().redacting(fixture).request.body.map(Array.init) == expected)
    }

    @Test("a UTF-16 body that does not decode whole, or ends in half a unit, is redacted as its text, every other byte kept", arguments: [
        ([0xFF, 0xFE] + Array(#"{"password":"s3cr3tvalue99","n":""#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) + [0x00, 0xD8, 0x22, 0x00, 0x7D, 0x00], "application/json"),
        ([0xFF, 0xFE] + Array("password=s3cr3tvalue99&a=b".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) + [0x41], "application/x-www-form-urlencoded"),
    ] as [([UInt8], String)])
    func wideTextThatDoesNotDecode(_ body: [UInt8], _ contentType: String) throws {
        let fixture = Fixture(
            request: .init(url: try #require(URL(string: "https://api.example.com/a"))),
            response: .init(headerFields: [.contentType: contentType], body: Data(body)))
        let recorded = Array(Redaction().redacting(fixture).response.body)
        let text = String(decoding: recorded.dropFirst(2).chunks(), as: UTF16.self)
        #expect(!text.contains("s3cr3t") && text.contains("REDACTED"), "\(text)")
        #expect(recorded.starts(with: [0xFF, 0xFE]) && recorded.count % 2 == body.count % 2 && recorded.last == body.last)
    }

    @Test("a parameter name of a team's own is redacted in a text body wherever the default names are, and check agrees", arguments: [
        ("query: has teamkey=zzSECRETzz123456&user=a", "query: has teamkey=REDACTED&user=a"),
        ("id=3 teamkey=zzSECRETzz123456 next", "id=3 teamkey=REDACTED next"),
    ])
    func ownNameInText(_ body: String, _ expected: String) throws {
        let redaction = Redaction(queryParameters: ["teamkey"])
        let fixture = try Self.redacted(headers: [.contentType: "text/plain"], body: body, redaction: redaction)
        #expect(String(decoding: fixture.request.body ?? Data(), as: UTF8.self) == expected)
        let findings = SecretScan.findings(inJSON: fixture.encoded(), redaction: redaction)
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test("an HTML page's secret input value and CSRF meta content are recorded redacted, as descriptions hide them, and check agrees", arguments: [
        (#"<html><form><input type="hidden" name="authenticity_token" value="Zq81vXk2Lm0Qa19"></form></html>"#, []),
        (#"<html><head><meta name="csrf-token" content="Qa19nBv72KxQa19"></head><p>kept</p></html>"#, []),
        (#"<html><input name="pinCode" value="Qa19nBv72KxQa19"></html>"#, ["pinCode"]),
        (#"<HTML><INPUT TYPE="hidden" NAME="password" VALUE="Zq81vXk2Lm0Qa19"></HTML>"#, []),
        ("<html><input type=hidden name=authenticity_token value=Zq81vXk2Lm0Qa19></html>", []),
        ("<html><meta name=csrf-token content=Qa19nBv72KxQa19><p>kept</p></html>", []),
        (#"<form><input type="password" name="user[password]" value="Zq81vXk2Lm0Qa19"></form>"#, []),
        (#"<form><input name="pass&#119;ord" value="Zq81vXk2Lm0Qa19"></form>"#, []),
    ])
    func htmlTags(_ body: String, _ ownNames: [String]) throws {
        let redaction = Redaction(queryParameters: ownNames)
        let raw = Fixture(request: .init(url: try #require(URL(string: "https://api.example.com/login"))), response: .init(headerFields: [.contentType: "text/html; charset=utf-8"], body: Data(body.utf8)))
        #expect(!SecretScan.findings(inJSON: raw.encoded(), redaction: redaction).isEmpty)
        let recorded = redaction.redacting(raw)
        let text = String(decoding: recorded.response.body, as: UTF8.self)
        #expect(!text.contains("Zq81vXk2") && !text.contains("Qa19nBv72") && text.contains("REDACTED"), "\(text)")
        #expect(SecretScan.findings(inJSON: recorded.encoded(), redaction: redaction).isEmpty)
    }

    @Test("a team's own names are redacted in XML elements and attributes and in parameters written in JSON strings, and check agrees", arguments: [
        (#"<r><b pinCode="Qa19nBv72KxQa19"/><pinCode>Zq81vXk2Lm0Qa19</pinCode></r>"#, "application/xml", "parameter pinCode"),
        (#"{"b":"x=1&myPin=Qa19nBv72KxQa19"}"#, "application/json", "body field myPin"),
    ])
    func ownNamesInBodies(_ body: String, _ contentType: String, _ named: String) throws {
        let name = String(named.split(separator: " ").last ?? "")
        let redaction = named.hasPrefix("parameter") ? Redaction(queryParameters: [name]) : Redaction(bodyFields: [name])
        let raw = Fixture(request: .init(url: try #require(URL(string: "https://api.example.com/a"))), response: .init(headerFields: [.contentType: contentType], body: Data(body.utf8)))
        let recorded = redaction.redacting(raw)
        let text = String(decoding: recorded.response.body, as: UTF8.self)
        #expect(!text.contains("Zq81vXk2") && !text.contains("Qa19nBv72"), "\(text)")
        #expect(SecretScan.findings(inJSON: recorded.encoded(), redaction: redaction).isEmpty)
    }

    @Test("a form field written with brackets in a JSON string is recorded redacted and never described", arguments: ["user[password]", "a[b][token]"])
    func bracketedNameInString(_ name: String) throws {
        let body = #"{"q":"a=1&\#(name)=Zq81vXk2Lm0Qa19&b=2"}"#
        let recorded = try Self.redacted(headers: [.contentType: "application/json"], body: body)
        #expect(String(decoding: recorded.request.body ?? Data(), as: UTF8.self) == #"{"q":"a=1&\#(name)=REDACTED&b=2"}"#)
        #expect(SecretScan.findings(inJSON: recorded.encoded()).isEmpty)
        struct Item: Decodable { let q: Int }
        let context = ResponseContext(url: URL(string: "https://h/x"), status: .ok, headerFields: [.contentType: "application/json"])
        let error = try #require(throws: SculptError.self) { try ModelResponseSerializer(matcher: StaticModelMatcher(Item.self)).serialize(Data(body.utf8), for: context) }
        #expect(!error.description.contains("Zq81vXk2"), "\(error.description)")
    }

    @Test("a YAML body's secret parameter is recorded redacted, as check reads it")
    func yamlBody() throws {
        let recorded = try Self.redacted(headers: [.contentType: "application/yaml"], body: "config: x\ntoken=Zq81vXk2Lm0Qa19\n")
        #expect(String(decoding: recorded.request.body ?? Data(), as: UTF8.self) == "config: x\ntoken=REDACTED\n")
        #expect(SecretScan.findings(inJSON: recorded.encoded()).isEmpty)
    }

    @Test("sculpt check flags a secret parameter carried percent-encoded in another parameter's value, as redaction replaces it", arguments: [
        "https://api.example.com/a?q=a%3D1%26password%3Dhunter2secret&r=1",
        "https://api.example.com/a?next=%2Fcb%253Ftoken%253Dhunter2secret",
    ])
    func encodedQueryInValue(_ url: String) throws {
        let file = Data(#"{"request": {"url": "\#(url)"}, "response": {"status": 200}}"#.utf8)
        #expect(!SecretScan.findings(inJSON: file).isEmpty)
        let redacted = try Self.redacted(url: url)
        #expect(!redacted.request.url.absoluteString.contains("hunter2"))
        #expect(SecretScan.findings(inJSON: redacted.encoded()).isEmpty)
    }

    @Test("sculpt check flags a number under a name redaction always replaces, as redaction replaces it")
    func numberUnderSecretName() throws {
        var fixture = try Fixture.stub(.get, "https://api.example.com/m", json: "{}")
        fixture.response.body = Data(#"{"password":12345678901234,"n":1}"#.utf8)
        #expect(SecretScan.findings(inJSON: fixture.encoded()).contains { $0.kind == #"an unredacted "password""# })
        let redacted = Redaction().redacting(fixture)
        #expect(String(decoding: redacted.response.body, as: UTF8.self) == #"{"password":"REDACTED","n":1}"#)
        #expect(SecretScan.findings(inJSON: redacted.encoded()).isEmpty)
    }

    @Test("a text body of megabytes of name=value pairs on one line is redacted in time linear in the body", .timeLimit(.minutes(10)), arguments: ["a=1 ", "token=x "])
    func linearInPairs(_ unit: String) throws {
        let body = String(repeating: unit, count: (2 << 20) / unit.utf8.count)
        let fixture = try Self.redacted(headers: [.contentType: "text/plain"], body: body)
        let kept = String(decoding: fixture.request.body ?? Data(), as: UTF8.self)
        #expect(kept == (unit == "a=1 " ? body : body.replacingOccurrences(of: "token=x ", with: "token=REDACTED ")))
    }

    @Test("a credential after Bearer or Basic under a header of no secret name is recorded redacted; a challenge's scheme is kept")
    func schemeCredentialInAnyHeader() throws {
        let fixture = try Self.redacted(headers: [HTTPField.Name("X-Debug")!: "Bearer abcdefgh12345678", .wwwAuthenticate: "Basic realm=RestrictedArea"])
        #expect(fixture.request.headerFields[HTTPField.Name("X-Debug")!] == "Bearer REDACTED")
        #expect(fixture.request.headerFields[.wwwAuthenticate] == "Basic realm=RestrictedArea")
    }

    @Test("a credential after Bearer or Basic in a text body is recorded redacted, as in a header; a short word after them is prose", arguments: [
        ("curl -H 'Authorization: Bearer abcdefgh12345678' https://h", "text/plain", "curl -H 'Authorization: Bearer REDACTED' https://h"),
        ("Bearer abcdefgh12345678\nnext line", "text/plain", "Bearer REDACTED\nnext line"),
        ("<pre>basic dXNlcjpwYXNzd29yZA==</pre>", "text/html", "<pre>basic REDACTED</pre>"),
        ("the Basic plan and a bearer bond", "text/plain", "the Basic plan and a bearer bond"),
    ])
    func schemeCredentialInText(_ body: String, _ contentType: String, _ expected: String) throws {
        let fixture = try Self.redacted(headers: [.contentType: contentType], body: body)
        #expect(String(decoding: fixture.request.body ?? Data(), as: UTF8.self) == expected)
    }

    @Test("a body whose first bytes make it UTF-16 but that is text that only starts so has its secret recorded redacted, and check flags it", arguments: [
        ([0xFF, 0xFE] as [UInt8], " raw first\ntoken=abcSecret12345\nend"), ([0xFF, 0xFE, 0x41, 0x00], " raw first\ntoken=abcSecret12345\nend"),
        ([0xFF, 0xFE], "token=abcSecret12345&x=1"), ([0xFE, 0xFF], "token=abcSecret12345&x=1"),
    ])
    func textThatStartsAsUTF16(_ start: [UInt8], _ text: String) throws {
        let body = Data(start) + Data(text.utf8)
        let fixture = Fixture(
            request: .init(url: try #require(URL(string: "https://api.example.com/a"))),
            response: .init(headerFields: [.contentType: "text/plain"], body: body))
        let recorded = Redaction().redacting(fixture).response.body
        #expect(!String(decoding: recorded, as: UTF8.self).contains("abcSecret"))
        #expect(recorded.starts(with: start))
        #expect(SecretScan.findings(inJSON: fixture.encoded()).contains { $0.kind.contains("token") }, "\(SecretScan.findings(inJSON: fixture.encoded()))")
    }

    @Test("UTF-16 text whose bytes would spell a secret read one byte a character is kept whole where its zero bytes make it UTF-16, and check flags nothing", arguments: [
        ("application/json", String.Encoding.utf16BigEndian, [0xFE, 0xFF] as [UInt8]), ("application/json", .utf16LittleEndian, [0xFF, 0xFE]),
        ("application/json; charset=utf-16be", .utf16BigEndian, []),
    ])
    func wideTextSpellingASecret(_ contentType: String, _ encoding: String.Encoding, _ mark: [UInt8]) throws {
        // CJK characters whose UTF-16 code units are two ASCII bytes each.
        let inner = try #require(String(data: Data("xx password=abcdefghijk & yy".utf8), encoding: encoding))
        let body = Data(mark) + (try #require(#"{"note":"\#(inner)"}"#.data(using: encoding)))
        let fixture = Fixture(
            request: .init(url: try #require(URL(string: "https://api.example.com/a"))),
            response: .init(headerFields: [.contentType: contentType], body: body))
        #expect(Redaction().redacting(fixture).response.body == body)
        #expect(SecretScan.findings(inJSON: fixture.encoded()).isEmpty, "\(SecretScan.findings(inJSON: fixture.encoded()).map(\.kind))")
    }

    @Test("bytes that read both as UTF-16 text and, one byte a character, as a secret have the secret replaced, and still read as UTF-16", arguments: [
        ("text/plain; charset=utf-16be", String.Encoding.utf16BigEndian), ("text/plain; charset=utf-16le", .utf16LittleEndian),
    ])
    func ambiguousWideText(_ contentType: String, _ encoding: String.Encoding) throws {
        let bytes = Data("xx password=abcdefghijk & yy".utf8)
        let fixture = Fixture(
            request: .init(url: try #require(URL(string: "https://api.example.com/a"))),
            response: .init(headerFields: [.contentType: contentType], body: bytes))
        #expect(!SecretScan.findings(inJSON: fixture.encoded()).isEmpty)
        let recorded = Redaction().redacting(fixture)
        let kept = recorded.response.body
        #expect(!String(decoding: kept, as: UTF8.self).contains("abcdefghijk") && kept.count % 2 == 0, "\(String(decoding: kept, as: UTF8.self))")
        #expect(String(data: kept, encoding: encoding) != nil)
        #expect(kept.suffix(4) == bytes.suffix(4), "the code units after the change are where they were")
        #expect(SecretScan.findings(inJSON: recorded.encoded()).isEmpty)
    }

    @Test("a team's own body field names are checked in form, text and multipart bodies as redaction replaces them", arguments: [
        ("application/x-www-form-urlencoded", "pin=98765432198765&a=1"),
        ("text/plain", "note pin=98765432198765 end"),
        ("multipart/form-data; boundary=b1", "--b1\r\nContent-Disposition: form-data; name=\"pin\"\r\n\r\n98765432198765\r\n--b1--\r\n"),
    ])
    func ownBodyFieldsChecked(_ contentType: String, _ body: String) throws {
        let redaction = Redaction(bodyFields: ["pin"])
        let fixture = Fixture(
            request: .init(method: .post, url: try #require(URL(string: "https://api.example.com/a")), headerFields: [.contentType: contentType], body: Data(body.utf8)),
            response: .init(status: .noContent))
        #expect(!SecretScan.findings(inJSON: fixture.encoded(), redaction: redaction).isEmpty)
        let recorded = redaction.redacting(fixture)
        #expect(!String(decoding: recorded.request.body ?? Data(), as: UTF8.self).contains("98765432198765"))
        #expect(SecretScan.findings(inJSON: recorded.encoded(), redaction: redaction).isEmpty)
    }

    @Test("a request's secret header values are hidden where its URL repeats them, in a miss and in the server's log")
    func headerValuesInTheURL() async throws {
        let logged = Locked<[String]>([])
        let server = FixtureServer(replay: FixtureReplay([try .stub(.get, "/a", text: "a")]), limits: .unhurried) { request in
            logged.withLock { $0.append(request.description) }
        }
        let base = try await server.start()
        var request = URLRequest(url: base.appending(path: "zz").appending(queryItems: [URLQueryItem(name: "x", value: "zzSecretWord9x")]))
        request.setValue("Bearer zzSecretWord9x", forHTTPHeaderField: "Authorization")
        let client = URLSession(configuration: .unhurried)
        let answered: Result<(Data, URLResponse), any Error>
        do { answered = .success(try await client.data(for: request)) } catch { answered = .failure(error) }
        client.invalidateAndCancel()
        await server.stop()
        let text = String(decoding: try answered.get().0, as: UTF8.self)
        #expect(text.contains("No recorded interaction matches") && !text.contains("zzSecretWord9x"), "\(text)")
        let lines = logged.withLock { $0 }
        #expect(!lines.isEmpty && !lines.contains { $0.contains("zzSecretWord9x") }, "\(lines)")
    }

    @Test("a replay miss hides a request header's quoted word where the URL repeats it", arguments: [
        ("Cookie", #"sid="zzSecretWord9x"; theme=dark"#), ("Authorization", #"Token token="zzSecretWord9x""#),
        ("Authorization", #"Digest username="bob", response="zzSecretWord9x""#),
    ])
    func quotedHeaderWordsInAMiss(_ name: String, _ value: String) throws {
        let replay = FixtureReplay([try .stub(.get, "/a", text: "a")])
        var request = Fixture.Request(url: try #require(URL(string: "https://api.example.com/users/zzSecretWord9x?state=zzSecretWord9x")))
        request.headerFields[try #require(HTTPField.Name(name))] = value
        let miss = try #require(throws: FixtureReplay.MissError.self) { try replay.response(for: request) }
        #expect(!miss.description.contains("zzSecretWord9x"), "\(miss)")
    }

    @Test("a replay miss hides the words of a secret parameter where the URL repeats them", arguments: ["Token+", "Token%20", "Bearer%20", "Bearer%2520", "Bearer%252520"])
    func wordsOfAParameterInAMiss(_ scheme: String) throws {
        let replay = FixtureReplay([try .stub(.get, "/a", text: "a")])
        let url = try #require(URL(string: "https://api.example.com/u/x?authorization=\(scheme)zzSecretWord9x&x=zzSecretWord9x"))
        let miss = try #require(throws: FixtureReplay.MissError.self) { try replay.response(for: Fixture.Request(url: url)) }
        #expect(!miss.description.contains("zzSecretWord9x"), "\(miss)")
    }

    @Test("a private key is not recorded: its material and end line go with its first line, in JSON and in text", arguments: [
        ("application/json", #"{"pem":"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx7Qm2Lp9Zt4Rv8Ws1Yd3Ku6Nb0Hc5Jf\nq2Wr7Ty9Ui3Op5As8Dd1Ff4Gg6Hh0Jj2Kk\n-----END RSA PRIVATE KEY-----","id":1}"#),
        ("text/plain", "key:\n-----BEGIN PRIVATE KEY-----\nMIIEowIBAAKCAQEAx7Qm2Lp9Zt4Rv8Ws1Yd3Ku6Nb0Hc5Jf\nq2Wr7Ty9Ui3Op5As8Dd1Ff4Gg6Hh0Jj2Kk\n-----END PRIVATE KEY-----\nid 1"),
        ("application/json", #"{"pem":"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17\n\nMIIEowIBAAKCAQEAx7Qm2Lp9Zt4Rv8Ws1Yd3Ku6Nb0Hc5Jf\nq2Wr7Ty9Ui3Op5As8Dd1Ff4Gg6Hh0Jj2Kk\n-----END RSA PRIVATE KEY-----","id":1}"#),
        ("application/x-www-form-urlencoded", "note=-----BEGIN+RSA+PRIVATE+KEY-----%0AMIIEowIBAAKCAQEAx7Qm2Lp9Zt4Rv8Ws1Yd3Ku6Nb0Hc5Jf%0Aq2Wr7Ty9Ui3Op5As8Dd1Ff4Gg6Hh0Jj2Kk%0A-----END+RSA+PRIVATE+KEY-----&id=1"),
    ])
    func privateKeyMaterial(_ contentType: String, _ body: String) throws {
        let fixture = Fixture(
            request: .init(url: try #require(URL(string: "https://example.com/keys/1"))),
            response: .init(headerFields: [.contentType: contentType], body: Data(body.utf8)))
        let kept = String(decoding: Redaction().redacting(fixture).response.body, as: UTF8.self)
        #expect(!kept.contains("MIIEowIBAAKCAQEA") && !kept.contains("q2Wr7Ty9Ui3Op5As8Dd1Ff4Gg6Hh0Jj2Kk") && !kept.contains("END"), "\(kept)")
        #expect(kept.contains("1"), "\(kept)")
    }
}

private extension Collection<UInt8> {
    /// Little-endian UTF-16 code units of the bytes, a last odd byte left out.
    func chunks() -> [UInt16] {
        let bytes = Array(self)
        return stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }
    }
}
