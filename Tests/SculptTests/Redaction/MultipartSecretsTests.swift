import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A login form posted as `multipart/form-data` holds its password in a part named `password`:
/// the recorder, HAR import, `sculpt check` and descriptions read the parts by their names.
@Suite("Form fields posted as multipart are secrets by their names")
struct MultipartSecretsTests {
    static let boundary = "----sculpt-form-7"
    static let password = "correct-horse-battery-staple"
    static let fields: HTTPFields = [.contentType: "multipart/form-data; boundary=\(boundary)"]

    /// A login form: a login, a password, and a JSON part with a token.
    static let form = Data("""
        --\(boundary)\r
        Content-Disposition: form-data; name="login"\r
        \r
        octocat\r
        --\(boundary)\r
        Content-Disposition: form-data; name="password"\r
        \r
        \(password)\r
        --\(boundary)\r
        Content-Disposition: form-data; name="settings"; filename="settings.json"\r
        Content-Type: application/json\r
        \r
        {"theme": "dark", "api_key": "k-9f2c6a1d"}\r
        --\(boundary)--\r

        """.utf8)

    static func login() throws -> Fixture {
        Fixture(
            request: .init(method: .post, url: try #require(URL(string: "https://example.com/session")), headerFields: fields, body: form),
            response: .init(status: .noContent))
    }

    /// The request body a redaction keeps, as text.
    static func kept(_ fixture: Fixture) -> String {
        String(decoding: fixture.request.body ?? Data(), as: UTF8.self)
    }

    @Test("a redaction replaces a secret field and a secret member of a JSON part, and keeps the rest byte for byte")
    func redacts() throws {
        let kept = Self.kept(Redaction().redacting(try Self.login()))
        #expect(!kept.contains(Self.password) && !kept.contains("k-9f2c6a1d"), "\(kept)")
        #expect(kept.contains("name=\"password\"\r\n\r\nREDACTED\r\n--\(Self.boundary)"), "\(kept)")
        #expect(kept.contains("octocat") && kept.contains(#""theme": "dark""#))
        #expect(kept.hasSuffix("--\(Self.boundary)--\r\n"))
    }

    @Test("a preamble before the first part is redacted as text, and the parts after it as before")
    func preamble() throws {
        var login = try Self.login()
        login.request.body = Data("preamble password=Zq81vXk2Lm0Qa19\r\n".utf8) + Self.form
        let recorded = Redaction().redacting(login)
        let kept = Self.kept(recorded)
        #expect(kept.hasPrefix("preamble password=REDACTED\r\n--\(Self.boundary)"), "\(kept)")
        #expect(!kept.contains(Self.password) && kept.contains("octocat"), "\(kept)")
        #expect(SecretScan.findings(inJSON: recorded.encoded()).isEmpty)
    }

    @Test("a JSON part in UTF-16 or UTF-32 is redacted as its text and kept in its encoding, and check finds its secret", arguments: [
        String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian,
    ])
    func widePart(_ encoding: String.Encoding) throws {
        let json = try #require(#"{"token":"s3cr3tValueXyz9876","theme":"dark"}"#.data(using: encoding))
        let body = Data("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n".utf8)
            + json + Data("\r\n--\(Self.boundary)--\r\n".utf8)
        var login = try Self.login()
        login.request.body = body
        #expect(SecretScan.findings(inJSON: login.encoded()).contains { $0.kind.contains("token") }, "\(SecretScan.findings(inJSON: login.encoded()))")
        let recorded = Redaction().redacting(login)
        let kept = try #require(recorded.request.body)
        let expected = try #require(#"{"token":"REDACTED","theme":"dark"}"#.data(using: encoding))
        #expect(kept.range(of: expected) != nil, "\(Array(kept))")
        #expect(SecretScan.findings(inJSON: recorded.encoded()).isEmpty)
    }

    /// A part in UTF-16 or UTF-32 as forms and recorders write one: its name, header lines, its
    /// bytes, and the bytes a redaction keeps of it.
    struct WidePart: CustomTestStringConvertible, Sendable {
        var label: String
        var name = "note"
        var headers: String
        var content: Data
        var kept: Data
        var testDescription: String { label }
    }

    static let secret = "s3cr3tValueXyz9876"

    /// `text` in `encoding`, without a byte order mark.
    static func wide(_ text: String, _ encoding: String.Encoding = .utf16LittleEndian) -> Data {
        text.data(using: encoding) ?? Data()
    }

    static let wideParts: [WidePart] = [
        WidePart(
            label: "a JSON part with a lone surrogate", headers: "Content-Type: application/json",
            content: Data([0xFF, 0xFE]) + wide(#"{"token":"\#(secret)","bad":""#) + Data([0x00, 0xD8]) + wide(#""}"#),
            kept: Data([0xFF, 0xFE]) + wide(#"{"token":"REDACTED","bad":""#) + Data([0x00, 0xD8]) + wide(#""}"#)),
        WidePart(
            label: "a text part in its declared charset, its first character not ASCII", headers: "Content-Type: text/plain; charset=utf-16be",
            content: wide("Пароль password=\(secret) ok", .utf16BigEndian), kept: wide("Пароль password=REDACTED ok", .utf16BigEndian)),
        WidePart(
            label: "a text part in UTF-16 without a mark or charset, its first character not ASCII", headers: "Content-Type: text/plain",
            content: wide("Пароль: password=\(secret)&x=1"), kept: wide("Пароль: password=REDACTED&x=1")),
        WidePart(
            label: "a text part in UTF-32 without a mark or charset, its first character not ASCII", headers: "Content-Type: text/plain",
            content: wide("Пароль: password=\(secret)&x=1", .utf32LittleEndian), kept: wide("Пароль: password=REDACTED&x=1", .utf32LittleEndian)),
        WidePart(
            label: "a text part that starts with a byte order mark", headers: "Content-Type: text/plain",
            content: Data([0xFF, 0xFE]) + wide("password=\(secret)"), kept: Data([0xFF, 0xFE]) + wide("password=REDACTED")),
        WidePart(
            label: "a part with a byte past its last whole code unit", headers: "Content-Type: text/plain; charset=utf-16le",
            content: wide("password=\(secret)") + Data([0x41]), kept: wide("password=REDACTED") + Data([0x41])),
        WidePart(
            label: "a part a secret name names, in its declared charset", name: "password", headers: "Content-Type: text/plain; charset=utf-16le",
            content: wide(secret), kept: wide("REDACTED")),
    ]

    @Test("a part in UTF-16 or UTF-32 is read as its text by every reader, and redacted in its encoding with every other byte kept", arguments: wideParts)
    func readsWideParts(_ part: WidePart) throws {
        let body = Data("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"\r\n\(part.headers)\r\n\r\n".utf8)
            + part.content + Data("\r\n--\(Self.boundary)--\r\n".utf8)
        var login = try Self.login()
        login.request.body = body
        let found = SecretScan.findings(inJSON: login.encoded())
        #expect(!found.isEmpty, "check finds the secret")
        let recorded = Redaction().redacting(login)
        let kept = try #require(recorded.request.body)
        #expect(kept.range(of: part.kept + Data("\r\n--".utf8)) != nil, "\(Array(kept))")
        for encoding in [String.Encoding.utf8, .utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian] {
            #expect(kept.range(of: Self.wide(Self.secret, encoding)) == nil, "\(encoding)")
        }
        #expect(SecretScan.findings(inJSON: recorded.encoded()).isEmpty, "\(SecretScan.findings(inJSON: recorded.encoded()).map(\.kind))")
        // A description shows the body without the secret, however its characters are escaped.
        let context = ResponseContext(url: URL(string: "https://example.com/session"), method: .post, status: .ok, headerFields: Self.fields)
        let error = try #require(throws: SculptError.self) {
            try ModelResponseSerializer(matcher: StaticModelMatcher(User.self)).serialize(body, for: context, as: User.self)
        }
        let shown = error.description.replacingOccurrences(of: "\\0", with: "")
        #expect(!shown.contains(Self.secret), "\(error)")
    }

    /// A body of one part under `header`, delimited by `written`, its type naming `declared`.
    static func onePart(_ header: String, content: String = password, written: String, declared: String) -> (body: Data, fields: HTTPFields) {
        (Data("--\(written)\r\n\(header)\r\n\r\n\(content)\r\n--\(written)--\r\n".utf8), [.contentType: "multipart/form-data; boundary=\(declared)"])
    }

    /// Parts written as senders write them: a label, the part's header, the boundary written and
    /// the one declared.
    static let spelledFramings: [(String, String, String, String)] = [
        ("a folded Content-Disposition", #"Content-Disposition: form-data;\#r\#n name="password""#, "XyZ123", "XyZ123"),
        ("a boundary of 75 bytes", #"Content-Disposition: form-data; name="password""#, String(repeating: "b", count: 75), String(repeating: "b", count: 75)),
        ("a boundary of 2,000 bytes", #"Content-Disposition: form-data; name="password""#, String(repeating: "c", count: 2_000), String(repeating: "c", count: 2_000)),
        ("a declared boundary the body does not use", #"Content-Disposition: form-data; name="password""#, "real", "other"),
        ("a JSON part under a charset it is not in", "Content-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json; charset=utf-16", "XyZ123", "XyZ123"),
        ("a boundary of 5,000 bytes", #"Content-Disposition: form-data; name="password""#, String(repeating: "d", count: 5_000), String(repeating: "d", count: 5_000)),
        ("a ';' inside a quoted parameter before the name", #"Content-Disposition: form-data; x="a;name=q"; name="password""#, "XyZ123", "XyZ123"),
        ("a name written as an encoded word", #"Content-Disposition: form-data; name="=?utf-8?q?password?=""#, "XyZ123", "XyZ123"),
        ("a name written as a base64 encoded word", #"Content-Disposition: form-data; name="=?utf-8?b?cGFzc3dvcmQ=?=""#, "XyZ123", "XyZ123"),
    ]

    static let framings: [(String, Data, HTTPFields)] = spelledFramings.map { label, header, written, declared in
        let (body, fields) = onePart(header, content: header.contains("json") ? #"{"password":"\#(password)"}"# : password, written: written, declared: declared)
        return (label, body, fields)
    } + writtenFramings

    /// Bodies written whole: a label, the body and its fields.
    static let writtenFramings: [(String, Data, HTTPFields)] = [
        ("a line of the secret part that only starts as a delimiter", Data("--XyZ123\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nline\r\n--XyZ123tra\r\n\(password)\r\n--XyZ123--\r\n".utf8),
         [.contentType: "multipart/form-data; boundary=XyZ123"]),
        ("a preamble and a declared boundary the body does not use", Data("preamble\r\n--Real\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n\(password)\r\n--Real--\r\n".utf8),
         [.contentType: "multipart/form-data; boundary=Declared"]),
    ]

    @Test("a part framed or declared as senders write them is read by its name: redacted, found, and not described", arguments: framings)
    func framedParts(_ label: String, _ body: Data, _ fields: HTTPFields) throws {
        let fixture = Fixture(request: .init(method: .post, url: try #require(URL(string: "https://example.com/session")), headerFields: fields, body: body), response: .init(status: .noContent))
        #expect(!SecretScan.findings(inJSON: fixture.encoded()).isEmpty, "check finds the password")
        let recorded = Redaction().redacting(fixture)
        #expect(!Self.kept(recorded).contains(Self.password), "\(Self.kept(recorded))")
        #expect(SecretScan.findings(inJSON: recorded.encoded()).isEmpty, "\(SecretScan.findings(inJSON: recorded.encoded()).map(\.kind))")
        let context = ResponseContext(url: URL(string: "https://example.com/session"), method: .post, status: .ok, headerFields: fields)
        let error = try #require(throws: SculptError.self) {
            try ModelResponseSerializer(matcher: StaticModelMatcher(User.self)).serialize(body, for: context, as: User.self)
        }
        #expect(!error.description.contains(Self.password), "\(error)")
    }

    @Test("a passthrough recording keeps no password a form posted")
    func recording() async throws {
        let api = FixtureReplay([try Self.login()], options: .init(repeatsLastResponse: true))
        try await FixtureServer.running(api) { server, _ in
            let file = FileManager.default.temporaryDirectory.appending(path: "sculpt-multipart-\(UUID()).json")
            defer { try? FileManager.default.removeItem(at: file) }
            let recording = try CassetteRecording(file: file, mode: .once, playback: .passthrough)
            var request = URLRequest(url: try await server.url(for: "/session"))
            request.httpMethod = "POST"
            request.setValue("multipart/form-data; boundary=\(Self.boundary)", forHTTPHeaderField: "Content-Type")
            request.httpBody = Self.form
            _ = try await recording.session.data(for: request)
            recording.session.finishTasksAndInvalidate()
            try recording.save()
            let written = try String(contentsOf: file, encoding: .utf8)
            #expect(!written.contains(Self.password), "\(written)")
            #expect(written.contains("octocat"))
        }
    }

    @Test("a HAR import keeps no password a form posted, its type given by the headers or by postData alone", arguments: [true, false])
    func harImport(typeInHeaders: Bool) throws {
        let text = String(decoding: try JSONEncoder().encode(String(decoding: Self.form, as: UTF8.self)), as: UTF8.self)
        let headers = typeInHeaders ? #"[{"name": "Content-Type", "value": "multipart/form-data; boundary=\#(Self.boundary)"}]"# : "[]"
        let archive = Data("""
            {"log": {"entries": [{"request": {"method": "POST", "url": "https://example.com/session",
              "headers": \(headers),
              "postData": {"mimeType": "multipart/form-data; boundary=\(Self.boundary)", "text": \(text)}},
              "response": {"status": 204, "headers": [], "content": {}}}]}}
            """.utf8)
        let fixture = try #require(try HARArchive(json: archive).fixtures.first)
        #expect(!Self.kept(fixture).contains(Self.password))
        #expect(Self.kept(fixture).contains("octocat"))
        #expect(SecretScan.findings(inJSON: fixture.encoded()).isEmpty)
    }

    @Test("sculpt check finds a password left in a multipart body")
    func check() throws {
        let fixture = try Self.login().encoded()
        let findings = SecretScan.findings(inJSON: fixture)
        #expect(findings.contains { $0.kind == #"an unredacted "password""# }, "\(findings.map(\.kind))")
        #expect(SecretScan.findings(inJSON: Redaction().redacting(try Self.login()).encoded()).isEmpty)
    }

    @Test("an error's description shows a multipart body without its secret fields")
    func description() throws {
        let context = ResponseContext(url: URL(string: "https://example.com/session"), method: .post, status: .ok, headerFields: Self.fields)
        let error = try #require(throws: SculptError.self) {
            try ModelResponseSerializer(matcher: StaticModelMatcher(User.self)).serialize(Self.form, for: context, as: User.self)
        }
        #expect(!error.description.contains(Self.password), "\(error)")
    }

    /// A form whose password part is written one way, with a random boundary as browsers send.
    static func form(password header: String, content: String = password, preamble: String = "", extra: String = "") -> (body: Data, fields: HTTPFields) {
        let boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW"
        let body = Data("""
            \(preamble)--\(boundary)\r
            Content-Disposition: form-data; name="login"\r
            \r
            octocat \(extra)\r
            --\(boundary)\r
            \(header)\r
            \r
            \(content)\r
            --\(boundary)--\r

            """.utf8)
        return (body, [.contentType: "multipart/form-data; boundary=\(boundary)"])
    }

    static let spellings: [(String, String, String)] = [
        ("a preamble before the first part", #"Content-Disposition: form-data; name="password""#, password),
        ("spaces around the name's '='", #"Content-Disposition: form-data; name = "password""#, password),
        ("the name in its extended form", "Content-Disposition: form-data; name*=UTF-8''password", password),
        ("a JSON part written in base64", "Content-Disposition: form-data; name=\"settings\"\r\nContent-Type: application/json\r\nContent-Transfer-Encoding: base64",
         Data(#"{"password":"\#(password)"}"#.utf8).base64EncodedString()),
    ]

    @Test("a secret part is redacted and found however the form writes it", arguments: spellings)
    func spelledParts(_ row: (String, String, String)) throws {
        let (body, fields) = Self.form(password: row.1, content: row.2, preamble: row.0.hasPrefix("a preamble") ? "This is a preamble.\r\n" : "")
        let fixture = Fixture(request: .init(method: .post, url: try #require(URL(string: "https://example.com/session")), headerFields: fields, body: body), response: .init(status: .noContent))
        let kept = Self.kept(Redaction().redacting(fixture))
        #expect(!kept.contains(Self.password) && !kept.contains(row.2), "\(kept)")
        let findings = SecretScan.findings(inJSON: fixture.encoded())
        #expect(findings.contains { $0.kind.hasPrefix("an unredacted") }, "\(findings.map(\.kind))")
        #expect(SecretScan.findings(inJSON: Redaction().redacting(fixture).encoded()).isEmpty, "\(SecretScan.findings(inJSON: Redaction().redacting(fixture).encoded()).map(\.kind))")
    }

    @Test("a password part is found beside a credential of a known shape in the same form")
    func passwordBesideAToken() throws {
        let (body, fields) = Self.form(password: #"Content-Disposition: form-data; name="password""#, extra: "ghp_Abcdefghijklmnopqrstuvwxyz0123456789")
        let fixture = Fixture(request: .init(method: .post, url: try #require(URL(string: "https://example.com/session")), headerFields: fields, body: body), response: .init(status: .noContent))
        let kinds = Set(SecretScan.findings(inJSON: fixture.encoded()).map(\.kind))
        #expect(kinds == ["a GitHub token", #"an unredacted "password""#], "\(kinds)")
    }

    @Test("a credential in a base64 part, and a password in a nested multipart part, are found, redacted and not described")
    func encodedAndNestedParts() throws {
        let token = "ghp_Abcdefghijklmnopqrstuvwxyz0123456789"
        let body = Data("""
            --outer\r
            Content-Disposition: form-data; name="file"\r
            Content-Transfer-Encoding: base64\r
            \r
            \(Data("note \(token)".utf8).base64EncodedString())\r
            --outer\r
            Content-Disposition: form-data; name="files"\r
            Content-Type: multipart/mixed; boundary=inner\r
            \r
            --inner\r
            Content-Disposition: form-data; name="password"\r
            \r
            hunter2hunter2XYZ\r
            --inner--\r
            --outer--\r

            """.utf8)
        let fields: HTTPFields = [.contentType: "multipart/form-data; boundary=outer"]
        let fixture = Fixture(request: .init(method: .post, url: try #require(URL(string: "https://example.com/upload")), headerFields: fields, body: body), response: .init(status: .noContent))
        let kinds = Set(SecretScan.findings(inJSON: fixture.encoded()).map(\.kind))
        #expect(kinds == ["a GitHub token", #"an unredacted "password""#], "\(kinds)")
        let kept = Self.kept(Redaction().redacting(fixture))
        #expect(!kept.contains("hunter2hunter2XYZ") && !kept.contains(Data("note \(token)".utf8).base64EncodedString()), "\(kept)")
        let context = ResponseContext(url: URL(string: "https://example.com/upload"), method: .post, status: .ok, headerFields: fields)
        let error = try #require(throws: SculptError.self) { try ModelResponseSerializer(matcher: StaticModelMatcher(User.self)).serialize(body, for: context, as: User.self) }
        #expect(!error.description.contains("hunter2hunter2XYZ"), "\(error)")
    }
}
