import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import SculptXML
import Testing

/// Secrets in XML bodies: a secret element's content or a secret attribute's value, prefixed or
/// not, never reaches a description or a recording, and a redacted recording still replays.
@Suite("Secrets in XML bodies")
struct XMLSecretsTests {
    struct Session: Decodable, Sendable { let expires: Int }
    struct Fault: ErrorResponseModel { let faultcode: String }

    static let token = "tok_4f9a8b7c6d5e"
    static let password = "hunter2-hunter2"

    static let bodies: [String] = [
        "<session><access_token>\(token)</access_token><expires>soon</expires></session>",
        "<session>\n  <access_token>\n    \(token)\n  </access_token>\n  <expires>later</expires>\n</session>",
        "<session><access_token><![CDATA[\(token)]]></access_token><expires>x</expires></session>",
        #"<session client_secret="\#(token)" expires="x"/>"#,
        #"<session><auth client_secret='\#(token)' password = "\#(password)"/><expires>x</expires></session>"#,
        "<s:Envelope xmlns:s=\"urn:s\"><s:Header><wsse:Security><wsse:Password>\(password)</wsse:Password><wsse:Token>\(token)</wsse:Token></wsse:Security></s:Header><s:Body><expires>x</expires></s:Body></s:Envelope>",
        "<session><access_token>\n  <![CDATA[\(token)]]>\n</access_token><expires>x</expires></session>",
        "<session><access_token><!-- x -->\(token)</access_token><expires>x</expires></session>",
        "<session><password><value>\(password)</value></password><expires>x</expires></session>",
        "<plist><dict><key>access_token</key><string>\(token)</string><key>expires</key><string>x</string></dict></plist>",
    ]

    struct Quoting: Decodable, Sendable {
        enum Keys: String, CodingKey { case accessToken = "access_token" }
        init(from decoder: any Decoder) throws {
            let value = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .accessToken)
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "refused \(value)"))
        }
    }

    @Test("a secret written with references is hidden as the decoder gives it, when an error quotes it", arguments: [
        "<session><access_token>tok_&amp;4f9a8b7c6d5e</access_token></session>",
        "<session><access_token>&#116;ok_4f9a8b7c6d5e</access_token></session>",
    ])
    func referencesInSecrets(body: String) throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Quoting.self), decoders: [.xml()])
        let context = ResponseContext(url: URL(string: "https://api.example.com/session"), method: .post, status: .ok, headerFields: [.contentType: "application/xml"])
        guard case .failure(let error) = serializer.result(Data(body.utf8), for: context, as: Quoting.self) else {
            Issue.record("\(body) serialized")
            return
        }
        #expect("\(error)".contains("refused REDACTED"), "\(error)")
    }

    @Test("a property list's secret is never shown in a description, as XML or binary")
    func propertyLists() throws {
        struct Grant: Decodable, Sendable { let expires: Int }
        let xml = Data("<plist><dict><key>access_token</key><string>\(Self.token)</string></dict></plist>".utf8)
        let binary = try PropertyListSerialization.data(fromPropertyList: ["access_token": Self.token], format: .binary, options: 0)
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Grant.self), decoders: [.propertyList()])
        for body in [xml, binary] {
            let context = ResponseContext(url: URL(string: "https://api.example.com/token"), method: .post, status: .unauthorized, headerFields: [.contentType: "application/x-plist"])
            guard case .failure(let error) = serializer.result(body, for: context, as: Grant.self) else {
                Issue.record("serialized")
                continue
            }
            #expect(!"\(error)".contains(Self.token), "\(error)")
        }
    }

    @Test("elements named as query secrets but not body secrets (an S3 listing's Key, a property list's key) are shown", arguments: [
        "<ListBucketResult><Contents><Key>photos/expires.jpg</Key></Contents></ListBucketResult>",
        "<plist><dict><key>expires</key><string>soon</string><key>session</key><string>abc</string></dict></plist>",
    ])
    func queryNamesInXML(body: String) throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Session.self), decoders: [.xml()])
        let context = ResponseContext(url: URL(string: "https://api.example.com/list"), method: .get, status: .ok, headerFields: [.contentType: "application/xml"])
        guard case .failure(let error) = serializer.result(Data(body.utf8), for: context, as: Session.self) else {
            Issue.record("\(body) serialized")
            return
        }
        #expect(!"\(error)".contains("REDACTED"), "\(error)")
    }

    @Test("an XML body's secret values never reach an error's description", arguments: bodies)
    func descriptions(body: String) throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Session.self), decoders: [.xml()], errorMatcher: StaticModelMatcher(Fault.self))
        for (status, contentType) in [(HTTPResponse.Status.ok, "application/xml"), (.ok, "text/xml; charset=utf-8"), (.unauthorized, "application/soap+xml"), (.ok, "text/html")] {
            let context = ResponseContext(url: URL(string: "https://api.example.com/session"), method: .post, status: status, headerFields: [.contentType: contentType])
            guard case .failure(let error) = serializer.result(Data(body.utf8), for: context, as: Session.self) else {
                Issue.record("\(body) serialized")
                continue
            }
            let description = "\(error)"
            #expect(!description.contains(Self.token) && !description.contains(Self.password), "\(contentType): \(description)")
            #expect(error.body == Data(body.utf8))
        }
    }

    @Test("a recorded XML body keeps no secret, stays well-formed, and keeps what is not secret", arguments: bodies + [
        "<feed><link>https://h/cb?access_token=\(token)&amp;state=kept</link><link href=\"https://h/cb?x=kept&amp;client_secret=\(token)\"/></feed>",
    ])
    func recordedBodies(body: String) throws {
        struct Anything: Decodable {}
        for contentType in ["application/xml", "text/xml; charset=utf-8", "application/soap+xml"] {
            let fixture = Fixture(
                request: .init(method: .get, url: URL(string: "https://api.example.com/session")!),
                response: .init(status: .ok, headerFields: [.contentType: contentType], body: Data(body.utf8)))
            let recorded = Redaction().redacting(fixture)
            let written = String(decoding: recorded.encoded(), as: UTF8.self)
            #expect(!written.contains(Self.token) && !written.contains(Self.password), "\(contentType): \(written)")
            #expect(throws: Never.self) { try XMLModelDecoder().decode(Anything.self, from: recorded.response.body) }
            let kept = ["expires", "state=kept", "x=kept"].filter { body.contains($0) }
            #expect(kept.allSatisfy { String(decoding: recorded.response.body, as: UTF8.self).contains($0) }, "\(written)")
        }
    }

    @Test("a secret element written with an entity the DTD declares, a parameter entity's declaration or reference too, is recorded without the secret", arguments: [
        #"<!DOCTYPE session [<!ENTITY e '\#(token)'>]><session><access_token>&e;</access_token><expires>x</expires></session>"#,
        #"<!DOCTYPE session [<!ENTITY % p "<!ENTITY e '\#(token)'>"> %p;]><session><access_token>&e;</access_token><expires>x</expires></session>"#,
        #"<!DOCTYPE session [<!ENTITY % p '\#(password)'>]><session><password>%p;</password><expires>x</expires></session>"#,
    ])
    func recordedDeclarations(body: String) throws {
        let fixture = Fixture(
            request: .init(method: .get, url: URL(string: "https://api.example.com/session")!),
            response: .init(status: .ok, headerFields: [.contentType: "application/xml"], body: Data(body.utf8)))
        let written = String(decoding: Redaction().redacting(fixture).encoded(), as: UTF8.self)
        #expect(!written.contains(Self.token) && !written.contains(Self.password) && written.contains("<expires>x</expires>"), "\(written)")
    }

    @Test("a SOAP request's WS-Security password is redacted in the recording, and the recording replays with bodies matched")
    func recordingAndReplay() async throws {
        let body = Data(Self.bodies[5].utf8)
        let fixture = Fixture(
            request: .init(method: .post, url: URL(string: "https://soap.example.com/Quote")!, headerFields: [.contentType: "text/xml; charset=utf-8"], body: body),
            response: .init(status: .ok, headerFields: [.contentType: "text/xml"], body: Data("<r><expires>1</expires></r>".utf8)))
        let recorded = Redaction().redacting(fixture)
        let written = String(decoding: recorded.encoded(), as: UTF8.self)
        #expect(!written.contains(Self.password) && !written.contains(Self.token), "\(written)")
        #expect(written.contains("<wsse:Password>REDACTED</wsse:Password>"))
        let session = FixtureReplay([recorded], options: .init(matchesBody: true)).makeSession()
        var request = URLRequest(url: fixture.request.url)
        request.httpMethod = "POST"
        request.httpBody = body
        let (_, response) = try await session.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        request.httpBody = Data(Self.bodies[5].replacingOccurrences(of: "<expires>x</expires>", with: "<expires>y</expires>").utf8)
        await #expect(throws: (any Error).self) { try await session.data(for: request) }
    }
}
