import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import SculptXML
import Testing

/// A secret the body holds under a secret name, echoed in a value the description quotes (a
/// decoding error naming the value it could not take): never printed, whatever the body's format,
/// encoding or size, and wherever the secret is written.
@Suite("Secrets echoed in other values")
struct EchoedSecretTests {
    static let secret = "xQzSECRET42"

    enum Kind: String, Decodable, Sendable { case user }
    struct Typed: Decodable, Sendable { let kind: Kind }

    /// A body, how it is sent, and which decoder reads it.
    struct Body: Sendable, CustomTestStringConvertible {
        let name: String
        let data: Data
        var contentType = "application/json"
        var decoder = ContentDecoder.json()
        var testDescription: String { name }
    }

    /// A binary property list of one dictionary of strings, as `PropertyListEncoder` writes it.
    static func binaryList(_ members: [String: String]) -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return (try? encoder.encode(members)) ?? Data()
    }

    static let bodies: [Body] = [
        Body(
            name: "a binary property list", data: binaryList(["token": secret, "kind": secret]),
            contentType: "application/x-plist", decoder: .propertyList()),
        Body(
            name: "XML in UTF-32LE with its byte order mark",
            data: Data([0xFF, 0xFE, 0x00, 0x00]) + ("<r><token>\(secret)</token><kind>\(secret)</kind></r>".data(using: .utf32LittleEndian) ?? Data()),
            contentType: "application/xml", decoder: .xml()),
        Body(
            name: "XML whose link carries the secret in its query",
            data: Data("<r><link>https://h/cb?access_token=\(secret)</link><kind>\(secret)</kind></r>".utf8),
            contentType: "application/xml", decoder: .xml()),
        Body(
            name: "XML in the ISO-8859-1 it declares, the secret past ASCII",
            data: Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><r><token>xSECR"#.utf8) + Data([0xC9]) + Data("Tx</token><kind>xSECR".utf8)
                + Data([0xC9]) + Data("Tx</kind></r>".utf8),
            contentType: "application/xml", decoder: .xml()),
        Body(name: "a form inside a JSON string", data: Data(#"{"data":"a=1&token=\#(secret)","kind":"\#(secret)"}"#.utf8)),
        Body(name: "the echo followed by a combining mark", data: Data(#"{"password":"\#(secret)","kind":"\#(secret)\#u{301} here"}"#.utf8)),
        Body(name: "the echo followed by an enclosing keycap", data: Data(#"{"password":"\#(secret)","kind":"\#(secret)\#u{20E3}"}"#.utf8)),
        Body(name: "the echo upper-cased", data: Data(#"{"password":"\#(secret)","kind":"\#(secret.uppercased())"}"#.utf8)),
        Body(
            name: "a secret past the first 4 MiB, echoed before them",
            data: Data((#"{"kind":"\#(secret)","# + String(repeating: " ", count: 5 << 20) + #""token":"\#(secret)"}"#).utf8)),
    ] + [
        "api_token", "oauth_token", "secret_key", "aws_secret_access_key", "passphrase", "bearer_token", "github_token", "pwd", "token ", " token",
        "secretAccessKey", "webhook_secret", "credentials", "connection_string", "token\u{A0}", "to\u{200B}ken", "api\u{212A}ey", #"api\u212Aey"#,
    ].map {
        Body(name: "JSON under \"\($0)\"", data: Data(#"{"\#($0)":"\#(secret)","kind":"\#(secret)"}"#.utf8))
    } + [
        #"{"data":"a=1\u0026token=\#(secret)","kind":"\#(secret)"}"#,
        #"{"data":"a=1&token\u003d\#(secret)","kind":"\#(secret)"}"#,
        #"{"data":"a=1&token=xQz\/SECRET42","kind":"xQz/SECRET42"}"#,
        #"{"note":"line\nBearer \#(secret)","kind":"\#(secret)"}"#,
        #"{"note":"h=Bearer \#(secret)","kind":"\#(secret)"}"#,
        #"{"note":"Bearer\t\#(secret)","kind":"\#(secret)"}"#,
        #"{"note":"Bearer\u00A0\#(secret)","kind":"\#(secret)"}"#,
        #"{"note":"Bearer  \#(secret)","kind":"\#(secret)"}"#,
        #"{"note":"Bearer xQz\/SECRET42","kind":"xQz/SECRET42"}"#,
        #"{"Authorization":"Token \#(secret)","kind":"\#(secret)"}"#,
        #"{"cookie":"sid=\#(secret); theme=dark","kind":"\#(secret)"}"#,
        #"{"authorization":"token \#(secret)","kind":"\#(secret)"}"#,
        #"{"authorization":"Token token=\"\#(secret)\"","kind":"\#(secret)"}"#,
        #"{"cookie":"sid=\"\#(secret)\"; theme=dark","kind":"\#(secret)"}"#,
    ].map { Body(name: $0, data: Data($0.utf8)) } + [
        Body(
            name: "an XML secret element written with an entity whose value refers to another",
            data: Data(#"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "\#(secret)"><!ENTITY f "&e;">]><r><password>&f;</password><kind>&e;</kind></r>"#.utf8),
            contentType: "application/xml", decoder: .xml()),
        Body(
            name: "an XML secret element written with an entity that refers to another through a character reference",
            data: Data(#"<!DOCTYPE r [<!ENTITY f "\#(secret)"><!ENTITY e "&#38;f;">]><r><password>&e;</password><kind>&f;</kind></r>"#.utf8),
            contentType: "application/xml", decoder: .xml()),
        Body(name: "a form whose secret parameter is a credential after its scheme", data: Data("authorization=Token+\(secret)&kind=\(secret)".utf8), contentType: "application/x-www-form-urlencoded"),
        Body(name: "a text body, the credential and its echo on lines of their own", data: Data("authorization=Token \(secret)\nkind=\(secret)\n".utf8), contentType: "text/plain"),
        Body(name: "a form's cookie, percent-encoded", data: Data("cookie=theme%3Ddark%3B+sid%3D\(secret)&kind=\(secret)".utf8), contentType: "application/x-www-form-urlencoded"),
        Body(name: "a query in a JSON string, the credential after its scheme", data: Data(#"{"next":"https://h/?authorization=Token%20\#(secret)","kind":"\#(secret)"}"#.utf8)),
        Body(
            name: "an XML secret element written with an entity the document declares",
            data: Data(#"<!DOCTYPE r [<!ENTITY e "\#(secret)">]><r><password>&e;</password><kind>&e;</kind></r>"#.utf8),
            contentType: "application/xml", decoder: .xml()),

        Body(
            name: "a property list key written with a reference",
            data: Data("<plist><dict><key>t&#111;ken</key><string>\(secret)</string><key>kind</key><string>\(secret)</string></dict></plist>".utf8),
            contentType: "application/x-plist", decoder: .propertyList()),
        Body(
            name: "an XML secret element's attribute", data: Data(#"<r><token v="\#(secret)"/><kind>\#(secret)</kind></r>"#.utf8),
            contentType: "application/xml", decoder: .xml()),
    ]

    @Test("never printed", arguments: bodies)
    func neverPrinted(_ body: Body) throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Typed.self), decoders: [body.decoder])
        let context = ResponseContext(url: URL(string: "https://h/x"), status: .ok, headerFields: [.contentType: body.contentType])
        let error = try #require(throws: SculptError.self) { try serializer.serialize(body.data, for: context) }
        // Any part of a secret, its end included: a value cut short by a delimiter still hides it.
        #expect(!error.description.contains("SECRET42") && !error.description.contains("RET42") && !error.description.contains("xSECR\u{C9}Tx"),
            "\(error.description.prefix(1_500))")
    }

    @Test("a word of a secret value the URL holds (a credential after its scheme) is never printed", arguments: [
        "https://h/x?authorization=Token+\(secret)", "https://h/x?authorization=Token%20\(secret)", "https://h/x?authorization=Bearer%20\(secret)",
        "https://h/x?access_token=%22\(secret)%22",
    ])
    func wordOfURLSecret(_ url: String) throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Typed.self))
        let context = ResponseContext(url: URL(string: url), status: .ok, headerFields: [.contentType: "application/json"])
        let error = try #require(throws: SculptError.self) { try serializer.serialize(Data(#"{"kind":"\#(Self.secret)"}"#.utf8), for: context) }
        #expect(!error.description.contains("SECRET42"), "\(error.description.prefix(1_500))")
    }

    @Test("a secret value is hidden where it is repeated percent-encoded, cased to another length, or in another canonical spelling", arguments: [
        ("p@ss w0rd/Zq8XkPm2Rt7VwY4nB6cD!", "p%40ss%20w0rd%2FZq8XkPm2Rt7VwY4nB6cD%21", "Zq8XkPm2Rt7VwY4nB6cD"),
        ("p@ss w0rd/Zq8XkPm2Rt7VwY4nB6cD!", "p%40ss+w0rd%2FZq8XkPm2Rt7VwY4nB6cD%21", "Zq8XkPm2Rt7VwY4nB6cD"),
        ("straßeGeheimnis1", "STRASSEGEHEIMNIS1", "GEHEIMNIS1"),
        ("caf\u{E9}Geheimnis1", "cafe\u{301}Geheimnis1", "Geheimnis1"),
        ("ab%2FcdefGeheim9", "ab/cdefGeheim9", "cdefGeheim9"),
    ])
    func repeatedInAnotherForm(_ password: String, _ repeated: String, _ part: String) throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Typed.self))
        // The repeated form as the path holds it: written as it is, past ASCII percent-encoded.
        let path = repeated.addingPercentEncoding(withAllowedCharacters: CharacterSet.urlPathAllowed.union(CharacterSet(charactersIn: "%"))) ?? ""
        let context = ResponseContext(url: URL(string: "https://h/u/\(path)/x"), status: .ok, headerFields: [.contentType: "application/json"])
        let body = try JSONSerialization.data(withJSONObject: ["password": password, "kind": repeated, "note": "a \(repeated) b"])
        let error = try #require(throws: SculptError.self) { try serializer.serialize(body, for: context) }
        #expect(!error.description.contains(part), "\(error.description.prefix(1_500))")
    }

    @Test("the password of a Basic credential is hidden where the body or a replay miss repeats it")
    func basicPassword() throws {
        let password = "Zq81vXk2Lm0Qa19"
        let basic = "Basic " + Data("admin:\(password)".utf8).base64EncodedString()
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Typed.self))
        let context = ResponseContext(url: URL(string: "https://h/x"), status: .ok, headerFields: [.contentType: "application/json"])
        let error = try #require(throws: SculptError.self) { try serializer.serialize(Data(#"{"kind":"\#(password)","auth":"\#(basic)"}"#.utf8), for: context) }
        #expect(!error.description.contains(password), "\(error.description.prefix(1_500))")

        let replay = FixtureReplay([try .stub(.get, "https://h/users/octocat", json: "{}")])
        let asked = Fixture.Request(url: try #require(URL(string: "https://h/users/\(password)")), headerFields: [.authorization: basic])
        let miss = try #require(throws: FixtureReplay.MissError.self) { try replay.response(for: asked) }
        #expect(!miss.description.contains(password), "\(miss.description)")
    }

    @Test("a description of a body of megabytes of =, or of names and =, is built in time linear in the body", .timeLimit(.minutes(10)), arguments: [
        "=", "a=", "token=",
    ])
    func linearInEqualsSigns(_ unit: String) throws {
        let body = Data(#"{"kind":""#.utf8) + Data(String(repeating: unit, count: (4 << 20) / unit.utf8.count).utf8) + Data(#""}"#.utf8)
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Typed.self))
        let context = ResponseContext(url: URL(string: "https://h/x"), status: .ok, headerFields: [.contentType: "application/json"])
        let error = try #require(throws: SculptError.self) { try serializer.serialize(body, for: context) }
        #expect(error.description.utf8.count <= 4_096)
    }

    @Test("a UTF-32LE body with its byte order mark is named and read as UTF-32LE")
    func utf32Named() throws {
        let data = Data([0xFF, 0xFE, 0x00, 0x00]) + ("<r><kind>plain</kind></r>".data(using: .utf32LittleEndian) ?? Data())
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Typed.self), decoders: [.xml()])
        let context = ResponseContext(url: URL(string: "https://h/x"), status: .ok, headerFields: [.contentType: "application/xml"])
        let error = try #require(throws: SculptError.self) { try serializer.serialize(data, for: context) }
        #expect(error.description.contains("UTF-32LE): <r><kind>plain</kind></r>"), "\(error.description)")
    }

    @Test("past the first 4 MiB a JSON excerpt keeps its keys and structure, its values withheld")
    func excerptPastScan() throws {
        let data = Data((#"{"kind":"plain","id":12345,"n":7,"# + String(repeating: " ", count: 5 << 20) + "}").utf8)
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Typed.self))
        let context = ResponseContext(url: URL(string: "https://h/x"), status: .ok, headerFields: [.contentType: "application/json"])
        let error = try #require(throws: SculptError.self) { try serializer.serialize(data, for: context) }
        #expect(error.description.contains(#"{"kind":"…","id":…,"n":7,"#), "\(error.description.prefix(1_500))")
    }

    @Test("past the first 4 MiB a key a model made of a value is not shown unless the body names a member so", arguments: [false, true])
    func valueAsKeyPastScan(named: Bool) throws {
        typealias Keyed = KeyedByReference<Int>
        // The secret lies past the bytes read for secrets; a key the body names as a member is a
        // key, shown.
        let key = named ? "quantity" : "Hunter2SuperSecretPw"
        let data = Data((#"{"ref":"\#(key)","quantity":"many","# + String(repeating: " ", count: 5 << 20) + #""password":"Hunter2SuperSecretPw"}"#).utf8)
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Keyed.self))
        let context = ResponseContext(url: URL(string: "https://h/x"), status: .ok, headerFields: [.contentType: "application/json"])
        let error = try #require(throws: SculptError.self) { try serializer.serialize(data, for: context) }
        #expect(!error.description.contains("Hunter2"), "\(error.description.prefix(1_500))")
        #expect(error.description.contains("At quantity") == named, "\(error.description.prefix(1_500))")
    }

    @Test("a credential in an HTML page's hidden input or meta tag, or after its scheme in text, is not shown", arguments: [
        ("text/html", #"<html><form><input type="hidden" name="authenticity_token" value="\#(secret)"></form></html>"#),
        ("text/html", #"<html><head><meta name="csrf-token" content="\#(secret)"></head></html>"#),
        ("text/html", #"<html><input value="\#(secret)" name="csrfmiddlewaretoken" type="hidden"></html>"#),
        ("text/plain", "Authorization: Bearer \(secret)\nretry later"),
        ("text/plain", "curl -H 'Authorization: Basic \(secret)' https://h/x"),
    ])
    func textCredentials(_ contentType: String, _ page: String) throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Typed.self))
        let context = ResponseContext(url: URL(string: "https://h/x"), status: .ok, headerFields: [.contentType: contentType])
        let error = try #require(throws: SculptError.self) { try serializer.serialize(Data(page.utf8), for: context) }
        #expect(!error.description.contains(Self.secret), "\(error.description)")
    }

    @Test("credential names in a URL's query are not shown", arguments: ["api_token", "oauth_token", "apiToken", "access_key", "secret_key"])
    func queryNames(_ name: String) throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Typed.self))
        let context = ResponseContext(url: URL(string: "https://h/x?\(name)=\(Self.secret)"), status: .ok, headerFields: [.contentType: "application/json"])
        let error = try #require(throws: SculptError.self) { try serializer.serialize(Data("{}".utf8), for: context) }
        #expect(!error.description.contains(Self.secret), "\(error.description)")
    }
}
