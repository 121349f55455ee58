import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Descriptions and recordings hold what a server sent escaped, bounded, and without secrets,
/// however the secret is spelled or wherever it is written.
@Suite("Descriptions and recordings: escaped, bounded, no secret")
struct DescriptionSecretsTests {
    static let secret = "xQzSECRET42"

    static func context(_ contentType: String = "application/json", status: HTTPResponse.Status = .ok) -> ResponseContext {
        ResponseContext(url: URL(string: "https://h/x"), method: .get, status: status, headerFields: [.contentType: contentType])
    }

    /// The description of the error serializing `body` as a `User` gives.
    static func description(of body: String, contentType: String = "application/json", status: HTTPResponse.Status = .ok) -> String {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))
        switch serializer.result(Data(body.utf8), for: context(contentType, status: status), as: User.self) {
        case .success: return "(serialized)"
        case .failure(let error): return error.description
        }
    }

    // MARK: Log spoofing

    @Test("what a server sends cannot add lines or reorder text in a description", arguments: [
        "\n", "\r\n", "\u{2028}", "\u{202E}", "\u{061C}", "\u{AD}", "\u{34F}", "\u{180E}", "\u{206A}", "\u{3164}", "\u{FFA0}", "\u{FFF9}", "\u{E0041}",
        "\u{115F}", "\u{1160}", "\u{FE0F}", "\u{E0100}", "\u{17B4}", "\u{180B}", "\u{1BCA0}", "\u{1D173}",
    ])
    func descriptionsEscape(character: String) throws {
        let serializer = ModelResponseSerializer(matcher: TypeFieldModelMatcher(field: "type", ["user": User.self]))
        let body = #"{"type":"x\#(character)SculptError: all good"}"#.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
        let error = try #require(throws: SculptError.self) { try serializer.serialize(Data(body.utf8), for: Self.context()) }
        let text = error.description
        let scalar = try #require(character.unicodeScalars.last)
        #expect(!text.unicodeScalars.contains(scalar) || scalar == "\n" && text.components(separatedBy: "\n").count == 3, "\(text)")
        #expect(text.components(separatedBy: "\n").allSatisfy { !$0.hasPrefix("SculptError: all good") })
    }

    @Test("a fixture file's and a HAR entry's texts are escaped too")
    func testingDescriptionsEscape() throws {
        let fixture = #"{"request":{"method":"G\u202E\nINJECTED","url":"https://h/"},"response":{"status":200}}"#
        let error = try #require(throws: Fixture.FormatError.self) { try Fixture(json: Data(fixture.utf8)) }
        #expect(!error.description.contains("\n"))
        #expect(!error.description.unicodeScalars.contains("\u{202E}"))
        let har = #"{"log":{"entries":[{"request":{"method":"GET","url":"ht tp://user:\#(Self.secret)@h/\u202E"},"response":{"status":200}}]}}"#
        let archive = try HARArchive(json: Data(har.utf8))
        let skipped = try #require(archive.skipped.first)
        #expect(!skipped.description.contains(Self.secret), "\(skipped)")
        #expect(!skipped.description.unicodeScalars.contains("\u{202E}"))
    }

    // MARK: Secrets

    @Test("a URL inside a JSON string value loses its secrets, in recordings and in descriptions", arguments: [
        #"{"paging":{"next":"https://graph.facebook.com/v1/me?access_token=SECRET&after=x"}}"#,
        #"{"next":"https:\/\/graph.facebook.com\/v1\/me?access_token=SECRET&after=x"}"#,  // PHP's escaped slashes
        #"["https://user:SECRET@h/a"]"#,
        #"{"links":[{"href":"https://h/cb#access_token=SECRET&state=1"}]}"#,
    ])
    func urlsInJSONStrings(body: String) throws {
        let planted = body.replacingOccurrences(of: "SECRET", with: Self.secret)
        let redacted = String(decoding: Redaction().redacting(body: Data(planted.utf8)), as: UTF8.self)
        #expect(!redacted.contains(Self.secret), "\(redacted)")
        #expect(redacted.contains("REDACTED"))
        #expect(!Self.description(of: planted).contains(Self.secret))
        // The rest of the document is kept: it still parses, and a URL with no secret is untouched.
        #expect((try? JSONSerialization.jsonObject(with: Data(redacted.utf8))) != nil)
    }

    @Test("credential headers echoed in a JSON body are redacted")
    func echoedHeaders() throws {
        let body = #"{"headers":{"Authorization":"Bearer \#(Self.secret)","Cookie":"s=\#(Self.secret)","X-Api-Key":"\#(Self.secret)","X-Auth-Token":"\#(Self.secret)"}}"#
        let redacted = String(decoding: Redaction().redacting(body: Data(body.utf8)), as: UTF8.self)
        #expect(!redacted.contains(Self.secret), "\(redacted)")
        #expect(!Self.description(of: body).contains(Self.secret))
    }

    @Test("a body that is not JSON text shows no secret, whatever its type claims", arguments: [
        ("application/json", "access_token=SECRET&x=1"),
        ("application/octet-stream", "access_token=SECRET&x=1"),
        ("text/javascript", #"cb({"access_token":"SECRET"})"#),
        ("application/json", #"xx{"token":"SECRET"}"#),
        ("application/json", #"{'access_token':'SECRET'}"#),
        ("text/plain", #")]}'{"refresh_token": "SECRET"}"#),
    ])
    func notJSONText(contentType: String, body: String) {
        let planted = body.replacingOccurrences(of: "SECRET", with: Self.secret)
        let text = Self.description(of: planted, contentType: contentType, status: .badRequest)
        #expect(!text.contains(Self.secret), "\(text)")
    }

    @Test("JSONP and pseudo-JSON keep no secret in a recording")
    func jsonpRecorded() {
        let redaction = Redaction()
        for body in [#"cb({"access_token":"SECRET"})"#, #"{'access_token':'SECRET'}"#] {
            let planted = Data(body.replacingOccurrences(of: "SECRET", with: Self.secret).utf8)
            let fixture = Fixture(
                request: .init(url: URL(string: "https://h/token")!),
                response: .init(status: .ok, headerFields: [.contentType: "text/javascript"], body: planted))
            let recorded = redaction.redacting(fixture)
            #expect(!String(decoding: recorded.response.body, as: UTF8.self).contains(Self.secret))
        }
    }

    @Test("secret names however they are spelled, and the names APIs use for credentials", arguments: [
        "https://h/a?code[]=SECRET&state[]=1", "https://h/a?token%00=SECRET", "https://h/a?accessToken=SECRET",
        "https://s3.example/b/k?X-Amz-Signature=SECRET&X-Amz-Credential=SECRET", "https://h/a?Access-Token=SECRET",
        "https://h/a?sig=SECRET", "https://h/a?session_token=SECRET",
    ])
    func parameterNames(url: String) throws {
        let planted = try #require(URL(string: url.replacingOccurrences(of: "SECRET", with: Self.secret)))
        #expect(!Redaction().redacting(planted).absoluteString.contains(Self.secret), "\(Redaction().redacting(planted))")
        #expect(!ResponseContext(url: planted).description.contains(Self.secret))
    }

    @Test("camelCase JSON members and more credential headers are redacted in recordings")
    func membersAndHeaders() throws {
        let body = #"{"accessToken":"\#(Self.secret)","refreshToken":"\#(Self.secret)","sessionToken":"\#(Self.secret)","id":1}"#
        #expect(!String(decoding: Redaction().redacting(body: Data(body.utf8)), as: UTF8.self).contains(Self.secret))
        var fields = HTTPFields()
        for name in ["Private-Token", "X-Goog-Api-Key", "Api-Key", "X-Access-Token", "Ocp-Apim-Subscription-Key"] {
            fields[try #require(HTTPField.Name(name))] = Self.secret
        }
        let redacted = Redaction().redacting(fields)
        #expect(!redacted.contains { $0.value.contains(Self.secret) }, "\(redacted)")
        let form = Fixture(
            request: .init(
                method: .post, url: URL(string: "https://h/token")!, headerFields: [.contentType: "application/x-www-form-urlencoded"],
                body: Data("grant_type=authorization_code&code_verifier=\(Self.secret)".utf8)),
            response: .init(status: .ok))
        #expect(!String(decoding: Redaction().redacting(form).request.body ?? Data(), as: UTF8.self).contains(Self.secret))
    }

    // MARK: Transport errors

    @Test("a transport error from the URLSession helpers carries no secret of its URL")
    func transportErrorRedacted() async throws {
        let url = try #require(URL(string: "http://user:\(Self.secret)@127.0.0.1:1/x?access_token=\(Self.secret)"))
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))
        do {
            _ = try await URLSession(configuration: .unhurried).model(from: url, serializer: serializer, as: User.self)
            Issue.record("port 1 answered")
        } catch let error as URLError {
            #expect(error.code == .cannotConnectToHost)
            #expect(!"\(error)".contains(Self.secret), "\(error)")
            #expect(!(error.failingURL?.absoluteString.contains(Self.secret) ?? false))
        }
        let recorder = FixtureRecorder()
        do {
            _ = try await recorder.data(for: URLRequest(url: url))
            Issue.record("port 1 answered")
        } catch {
            #expect(!"\(error)".contains(Self.secret), "\(error)")
        }
    }

    // MARK: Descriptions built only as far as they show

    struct Errors: Decodable, Sendable { let errors: [String] }
    struct Thrown: Error { let payload: String }

    @Test("an error model with 200,000 strings, or a thrown error holding 10 MB, is described by what is shown")
    func describedByWhatIsShown() throws {
        let many = "[" + Array(repeating: #""e""#, count: 200_000).joined(separator: ",") + "]"
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), errorMatcher: StaticModelMatcher(Errors.self))
        let error = try #require(throws: SculptError.self) {
            try serializer.serialize(Data(#"{"errors":\#(many)}"#.utf8), for: Self.context(status: .badRequest))
        }
        #expect(error.description.utf8.count <= 4_096)
        #expect(error.description.contains(#"Errors(errors: ["e", "e""#))
        #expect(error.description.contains("…"))

        let payload = String(repeating: "p", count: 10 << 20)
        let throwing = ModelResponseSerializer(matcher: ClosureModelMatcher { _, _ in throw Thrown(payload: payload) })
        let thrown = try #require(throws: SculptError.self) { try throwing.serialize(Data("{}".utf8), for: Self.context()) }
        #expect(thrown.description.utf8.count <= 4_096)
        #expect(thrown.description.contains("Thrown(payload: \"ppp"))
        #expect(thrown.description.contains("(10,485,760 bytes)"))
    }

    // MARK: Secrets past what is looked at

    struct Problem: Decodable, Sendable { let message: String }
    enum Kind: String, Decodable, Sendable { case user }
    struct Typed: Decodable, Sendable { let kind: Kind }

    /// A token under a secret name, after `padding` bytes, beside a value that echoes it.
    static func echoing(after padding: Int, echo: String) -> Data {
        Data(#"{"pad":"\#(String(repeating: "x", count: padding))","token":"\#(secret)",\#(echo)}"#.utf8)
    }

    @Test("a secret past the body's first 4 MiB, or past 1,024 secret values, is never printed: what the report would quote from the body is withheld, saying why", arguments: [
        ("an error model", 5 << 20, 0),
        ("an error model", 0, 1_100),
        ("a decoding error", 5 << 20, 0),
        ("a type field", 5 << 20, 0),
    ])
    func secretPastWhatIsLookedAt(quoted: String, padding: Int, decoys: Int) throws {
        let decoyMembers = (0..<decoys).map { #"{"token":"decoy-\#($0)-value"}"# }.joined(separator: ",")
        let error: SculptError
        switch quoted {
        case "an error model":
            let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), errorMatcher: StaticModelMatcher(Problem.self))
            let body = Self.echoing(after: padding, echo: #""decoys":[\#(decoyMembers)],"message":"bad token \#(Self.secret)""#)
            error = try #require(throws: SculptError.self) { try serializer.serialize(body, for: Self.context(status: .unauthorized)) }
            let reason = decoys > 0 ? "the body holds more than 1,024 secret values" : "the body is 5,242,9"
            #expect(error.description.contains("401 Unauthorized: a Problem (not shown: \(reason)"), "\(error.description.prefix(600))")
        case "a decoding error":
            let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Typed.self))
            error = try #require(throws: SculptError.self) { try serializer.serialize(Self.echoing(after: padding, echo: #""kind":"\#(Self.secret)""#), for: Self.context()) }
            #expect(error.description.contains("At kind: the data is not valid. (not shown: the body is"), "\(error.description.prefix(600))")
        default:
            let serializer = ModelResponseSerializer(matcher: TypeFieldModelMatcher(field: "kind", ["user": User.self]))
            error = try #require(throws: SculptError.self) { try serializer.serialize(Self.echoing(after: padding, echo: #""kind":"\#(Self.secret)""#), for: Self.context()) }
            #expect(error.description.contains("Found a value of 13 bytes (not shown: the body is"), "\(error.description.prefix(600))")
        }
        #expect(!error.description.contains(Self.secret))
        #expect(error.description.utf8.count <= 4_096)
    }

    @Test("a body within what is looked at keeps its values in the report, its secrets replaced")
    func secretWithinWhatIsLookedAt() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), errorMatcher: StaticModelMatcher(Problem.self))
        let body = Self.echoing(after: 1 << 20, echo: #""message":"bad token \#(Self.secret)""#)
        let error = try #require(throws: SculptError.self) { try serializer.serialize(body, for: Self.context(status: .unauthorized)) }
        #expect(error.description.contains(#"Problem(message: "bad token REDACTED")"#), "\(error.description.prefix(600))")
    }

    @Test("a body past what is looked at still says what is wrong with the document as a whole")
    func documentErrorsPastWhatIsLookedAt() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))
        let body = Data(("[" + String(repeating: "1,", count: 3 << 20) + "]").utf8)
        let error = try #require(throws: SculptError.self) { try serializer.serialize(body, for: Self.context()) }
        #expect(!error.description.contains("not shown"), "\(error.description.prefix(600))")
    }

    @Test("a body in UTF-16 that does not read is not shown, so no secret in it is")
    func unreadableWideBody() throws {
        var body = try #require(#"{"message":"x","token":"\#(Self.secret)"}"#.data(using: .utf16LittleEndian))
        body.append(contentsOf: [0x00, 0xD8])  // a high surrogate with nothing after it
        let error = try #require(throws: SculptError.self) {
            try ModelResponseSerializer(matcher: StaticModelMatcher(User.self)).serialize(body, for: Self.context())
        }
        #expect(!error.description.contains("S\\0E\\0C"), "\(error.description)")
        #expect(error.description.contains("UTF-16 or UTF-32 that does not read, not shown"), "\(error.description)")
    }
}
