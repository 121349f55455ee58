import Foundation
import HTTPTypes
import Sculpt
import SculptJSON
import SculptMatchers
import SculptTesting
import Testing

/// A secret value a response holds is hidden by every text that shows it, however that text
/// spells it: percent-encoded another way, in another case, as a member's name or a tag.
@Suite("A response's secret values are hidden in every channel and spelling")
struct SecretSpellingChannelsTests {
    static let secret = "s3cretvalue9"

    struct Sessions: Decodable, Sendable {
        struct Inner: Decodable, Sendable { var a: Int }
        var sessions: [String: Inner]
    }

    struct Counts: Decodable, Sendable {
        var m: [String: Lossy<Int>]
    }

    static func fixture(path: String, body: String) throws -> Fixture {
        Fixture(
            request: .init(url: try #require(URL(string: "https://h.example\(path)"))),
            response: .init(headerFields: [.contentType: "application/json"], body: Data(body.utf8)))
    }

    @Test("a matcher's diagnosis and a fixture's mapping error hide a value the body holds under a secret name where the path repeats it")
    func diagnosisAndMappingError() throws {
        var matcher = URLModelMatcher(pathPrefix: "/v3")
        try matcher.add("/users/{login}", Sessions.self, status: .created)
        let fixture = try Self.fixture(path: "/users/\(Self.secret)", body: #"{"password":"\#(Self.secret)"}"#)
        let error = try #require(throws: Fixture.MappingError.self) { try fixture.model(serializer: ModelResponseSerializer(matcher: matcher), as: Sessions.self) }
        #expect(!error.description.contains(Self.secret), "\(error)")
        let failure = try #require(error.error as? SculptError)
        #expect(!failure.diagnosis.isEmpty && !failure.diagnosis.joined().contains(Self.secret), "\(failure.diagnosis)")
    }

    @Test("a path that spells a secret value with other escapes is shown without it, in a description and a diff", arguments: ["s3cr%65tvalue9", "S3CR%45TVALUE9", "s3cret%76alue9"])
    func otherEscapes(_ written: String) throws {
        let url = try #require(URL(string: "https://h.example/v3/n/\(written)?token=\(Self.secret)"))
        let context = ResponseContext(url: url, method: .get, status: .ok, headerFields: [.contentType: "application/json"])
        let error = try #require(throws: SculptError.self) {
            try ModelResponseSerializer(matcher: URLModelMatcher(pathPrefix: "/v3")).serialize(Data("{}".utf8), for: context)
        }
        let shown = error.description + error.diagnosis.joined()
        #expect(!shown.contains(written) && !shown.contains(Self.secret), "\(shown)")
        let new = Fixture(request: .init(url: url), response: .init(headerFields: [.contentType: "application/json"], body: Data("{}".utf8)))
        let diff = RecordingDiff(old: [], new: [new]).description
        #expect(!diff.contains(written) && !diff.contains(Self.secret), "\(diff)")
    }

    @Test("a mapping report's unread members hide a member named by a secret value the response holds", arguments: [
        #"{"password":"s3cretvalue9","sessions":{"s3cretvalue9":{"a":1,"b":2}}}"#,
        #"{"note":"x=1&token=s3cretvalue9","sessions":{"s3cretvalue9":{"a":1,"b":2}}}"#,
    ])
    func unreadMembers(_ body: String) throws {
        let report = MappingReport(fixtures: [try Self.fixture(path: "/x", body: body)], serializer: ModelResponseSerializer(matcher: StaticModelMatcher(Sessions.self), decoder: SculptJSONDecoder()))
        let mapping = try #require(report.mappings.first)
        #expect(!mapping.unreadMembers.isEmpty)
        #expect(!mapping.description.contains(Self.secret) && !report.description.contains(Self.secret), "\(report)")
    }

    @Test("a decoding event hides a key made of a secret value the body holds, in another case or percent-encoded", arguments: ["S3CRETVALUE9", "s3cr%65tvalue9"])
    func eventKeys(_ key: String) throws {
        let heard = Locked<[DecodingEvent]>([])
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Counts.self), decoder: SculptJSONDecoder())
        serializer.decodingObserver = { event in heard.withLock { $0.append(event) } }
        let context = ResponseContext(url: URL(string: "https://h.example/x"), method: .get, status: .ok, headerFields: [.contentType: "application/json"])
        _ = try serializer.serialize(Data(#"{"password":"\#(Self.secret)","m":{"\#(key)":"not a number"}}"#.utf8), for: context, as: Counts.self)
        let events = heard.withLock { $0 }
        #expect(!events.isEmpty)
        for event in events {
            let shown = "\(event) \(event.codingPath) \(event.reason ?? "")"
            #expect(!shown.contains(key) && !shown.lowercased().contains(Self.secret), "\(shown)")
        }
    }

    @Test("sculpt check flags a credential after Bearer written in a JSON string, which a recording replaces", arguments: [
        #"{"note":"x Bearer 8f3kQz9LmP2xR7vTa1Wc y"}"#, #"{"cmd":"curl -H 'Authorization: Bearer 8f3kQz9LmP2xR7vTa1Wc' https://h"}"#,
    ])
    func bearerInAString(_ body: String) throws {
        let fixture = try Self.fixture(path: "/x", body: body)
        #expect(!SecretScan.findings(inJSON: fixture.encoded()).isEmpty)
        let recorded = Redaction().redacting(fixture)
        #expect(!String(decoding: recorded.response.body, as: UTF8.self).contains("8f3kQz9LmP2xR7vTa1Wc"))
        #expect(SecretScan.findings(inJSON: recorded.encoded()).isEmpty)
    }

    @Test("a miss whose closest recording differs only in a hidden value says the hidden values differ")
    func hiddenValuesDiffer() throws {
        let replay = FixtureReplay([try .stub(.get, "https://h.example/a?token=Zq81vXk2Lm0Qa19", text: "1")])
        let asked = Fixture.Request(url: try #require(URL(string: "https://h.example/a?token=Qa19nBv72KxQa19")))
        let miss = try #require(throws: FixtureReplay.MissError.self) { try replay.response(for: asked) }
        #expect(miss.description.contains("query: has token=REDACTED, lacks token=REDACTED (hidden values that differ)"), "\(miss)")
        #expect(!miss.description.contains("Zq81vXk2") && !miss.description.contains("Qa19nBv72"))
    }

    @Test("a diff lists a member named by a secret value in another case or encoding under the marker")
    func diffMemberNames() throws {
        let old = try Self.fixture(path: "/s", body: #"{"password":"Zk8qWm3xPt","zk8qwm3xpt":2,"Zk8q%57m3xPt":3,"pre-ZK8QWM3XPT":5}"#)
        let new = try Self.fixture(path: "/s", body: #"{"password":"Zk8qWm3xPt"}"#)
        let diff = RecordingDiff(old: [old], new: [new]).description
        #expect(!diff.lowercased().contains("zk8qwm3xpt") && !diff.contains("Zk8q%57m3xPt"), "\(diff)")
        #expect(diff.contains("removed REDACTED") && diff.contains("removed pre-REDACTED"), "\(diff)")
    }

    @Test("sculpt check never shows a value it finds in a finding's path, whatever its spelling there")
    func checkPathSpellings() throws {
        let body = #"{"password":"Zk8qWm3xPt","sessions":{"ZK8QWM3XPT":{"token":"Qq1Ww2Ee3Rr4Tt5"},"Zk8q%57m3xPt":{"token":"Qq1Ww2Ee3Rr4Tt6"}}}"#
        let findings = SecretScan.findings(inJSON: try Self.fixture(path: "/s", body: body).encoded())
        #expect(!findings.isEmpty)
        for finding in findings {
            #expect(!finding.path.lowercased().contains("zk8qwm3xpt") && !finding.path.contains("Zk8q%57m3xPt"), "\(finding.path)")
        }
    }

    @Test("a decoding event's URL hides a value the body holds under a secret name")
    func eventURL() throws {
        struct Items: Decodable, Sendable { var items: LossyArray<Int> }
        let heard = Locked<[DecodingEvent]>([])
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Items.self), decoder: SculptJSONDecoder())
        serializer.decodingObserver = { event in heard.withLock { $0.append(event) } }
        let context = ResponseContext(url: URL(string: "https://h.example/password-resets/q7Zt9mXv2LpKw3"), method: .get, status: .ok, headerFields: [.contentType: "application/json"])
        _ = try serializer.serialize(Data(#"{"reset_token":"q7Zt9mXv2LpKw3","items":[1,"x"]}"#.utf8), for: context, as: Items.self)
        let events = heard.withLock { $0 }
        #expect(!events.isEmpty)
        #expect(events.allSatisfy { !$0.url.contains("q7Zt9mXv2LpKw3") && !"\($0)".contains("q7Zt9mXv2LpKw3") }, "\(events)")
    }

    @Test("a credential after Bearer in an XML body is recorded redacted, and check agrees")
    func bearerInXML() throws {
        let fixture = Fixture(
            request: .init(url: try #require(URL(string: "https://h.example/x"))),
            response: .init(headerFields: [.contentType: "application/xml"], body: Data("<a><note>Bearer abcdefgh12345678XYZ</note></a>".utf8)))
        #expect(!SecretScan.findings(inJSON: fixture.encoded()).isEmpty)
        let recorded = Redaction().redacting(fixture)
        #expect(String(decoding: recorded.response.body, as: UTF8.self) == "<a><note>Bearer REDACTED</note></a>")
        #expect(SecretScan.findings(inJSON: recorded.encoded()).isEmpty)
    }
}
