import Foundation
import HTTPTypes
import SculptTesting
import Testing

/// Choosing what a request must share with a recorded one, as a list of rules.
@Suite("Request matching rules")
struct RequestMatchingTests {
    static func request(_ method: HTTPRequest.Method = .get, _ url: String, headers: HTTPFields = [:], body: String? = nil) throws -> Fixture.Request {
        Fixture.Request(method: method, url: try #require(URL(string: url)), headerFields: headers, body: body.map { Data($0.utf8) })
    }

    static let recorded = Fixture(
        request: .init(
            method: .post, url: URL(string: "https://x.test/search?q=swift&page=1")!,
            headerFields: [.accept: "application/json", HTTPField.Name("X-Tenant")!: "a"], body: Data(#"{"a": 1}"#.utf8)),
        response: .init(status: .ok))

    @Test("each rule list compares what it names, and method and path always", arguments: [
        ([], "https://x.test/search?q=other", true),
        ([.methodAndPath], "https://x.test/search", true),
        ([.methodAndPath], "https://x.test/elsewhere?q=swift&page=1", false),
        (RequestMatching.default, "https://x.test/search?page=1&q=swift", true),
        (RequestMatching.default, "https://x.test/search?q=swift", false),
        ([.methodAndPath, .headers(.accept)], "https://x.test/search?q=other", true),
    ] as [([RequestMatching], String, Bool)])
    func rules(_ matching: [RequestMatching], _ url: String, _ matches: Bool) throws {
        let replay = FixtureReplay([Self.recorded], options: .init(matching: matching))
        let asked = try Self.request(.post, url, headers: [.accept: "application/json", HTTPField.Name("X-Tenant")!: "a"], body: #"{"a":1}"#)
        #expect(((try? replay.response(for: asked)) != nil) == matches)
    }

    @Test("headers, body and custom rules refuse what differs, each named in the miss", arguments: [
        ([.headers(.accept)], [HTTPField.Name.accept: "text/html"], #"{"a": 1}"#, "Accept: text/html, recorded application/json"),
        ([.body], [:], #"{"a": 2}"#, "body: 8 bytes differ from the recorded 8"),
        ([.custom("same tenant") { asked, recorded in asked.headerFields[HTTPField.Name("X-Tenant")!] == recorded.headerFields[HTTPField.Name("X-Tenant")!] }],
         [HTTPField.Name("X-Tenant")!: "b"], #"{"a": 1}"#, #"rule same tenant: refused the recorded request"#),
    ] as [([RequestMatching], HTTPFields, String, String)])
    func refusals(_ matching: [RequestMatching], _ headers: HTTPFields, _ body: String, _ line: String) throws {
        let replay = FixtureReplay([Self.recorded], options: .init(matching: [.methodAndPath] + matching))
        let asked = try Self.request(.post, "https://x.test/search", headers: headers, body: body)
        let miss = try #require(throws: FixtureReplay.MissError.self) { try replay.response(for: asked) }
        #expect(miss.nearest.first?.differences == [line], "\(miss)")
    }

    @Test("JSON bodies compare numbers by their exact value", arguments: [
        ("12345678901234567890", "12345678901234567891", false),
        ("1.50e3", "1500", true),
        ("-0", "0", true),
        ("0.1", "0.10", true),
        ("1e400", "10e399", true),
        ("9007199254740993", "9007199254740992", false),
    ])
    func exactNumbers(_ recorded: String, _ asked: String, _ matches: Bool) throws {
        let fixture = Fixture(
            request: .init(method: .post, url: URL(string: "https://x.test/n")!, body: Data(#"{"n": \#(recorded)}"#.utf8)),
            response: .init(status: .ok))
        let replay = FixtureReplay([fixture], options: .init(matching: [.methodAndPath, .body]))
        let request = try Self.request(.post, "https://x.test/n", body: #"{"n": \#(asked)}"#)
        #expect(((try? replay.response(for: request)) != nil) == matches)
    }

    @Test("a custom rule sees the request and the recording, and passes what it accepts")
    func customAccepts() throws {
        let seen = Locked<[String]>([])
        let rule = RequestMatching.custom("records") { asked, recorded in
            seen.withLock { $0.append("\(asked.url.path) \(recorded.url.path)") }
            return true
        }
        let replay = FixtureReplay([Self.recorded], options: .init(matching: [rule]))
        _ = try replay.response(for: try Self.request(.post, "https://x.test/search?any=thing"))
        #expect(seen.withLock { $0 } == ["/search /search"])
    }

    @Test("rules describe themselves", arguments: [
        (RequestMatching.methodAndPath, "method and path"), (.query, "query"), (.body, "body"),
        (.headers(.accept, .contentType), "headers Accept, Content-Type"), (.custom("tenant") { _, _ in true }, "tenant"),
    ])
    func descriptions(_ rule: RequestMatching, _ text: String) {
        #expect(rule.description == text)
    }
}
