import Foundation
import HTTPTypes
import Sculpt
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The names and places the default redaction covers, as real APIs use them: what a recording, a
/// HAR import and a description all leave out.
@Suite("Redaction's default vocabulary")
struct RedactionVocabularyTests {
    static func redacted(url: String = "https://api.example.com/a", headers: HTTPFields = [:], body: String? = nil) throws -> Fixture {
        let fixture = Fixture(
            request: .init(method: body == nil ? .get : .post, url: try #require(URL(string: url)), headerFields: headers, body: body.map { Data($0.utf8) }),
            response: .init(status: .ok))
        return Redaction().redacting(fixture)
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
        "X-DD-Api-Key", "X-GitHub-OTP", "DPoP", "X-Session-Id",
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
}
