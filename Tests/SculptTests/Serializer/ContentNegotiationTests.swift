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

/// XML models, and a decoder chosen for each response by its `Content-Type`, on the recorded XML
/// responses in Tests/Fixtures/xml (an RSS feed, SOAP 1.1 and 1.2 faults, a property list).
@Suite("XML and content negotiation")
struct ContentNegotiationTests {
    struct FeedItem: Decodable, Sendable, Equatable {
        let title: String
        let link: URL
        let creator: String
        let pubDate: String
        let category: [String]?
        let guid: String

        enum CodingKeys: String, CodingKey {
            case title, link, pubDate, category, guid
            case creator  // dc:creator, its namespace prefix dropped
        }
    }

    struct NumberToWords: Decodable, Sendable {
        let NumberToWordsResult: String
    }

    /// A SOAP 1.1 fault (SOAP 1.1, section 4.4).
    struct SOAPFault: ErrorResponseModel, Equatable {
        let faultcode: String
        let faultstring: String
    }

    /// A SOAP 1.2 fault (SOAP 1.2 part 1, section 5.4).
    struct SOAP12Fault: ErrorResponseModel, Equatable {
        struct Code: Decodable, Sendable, Equatable { let Value: String }
        struct Reason: Decodable, Sendable, Equatable { let Text: String }
        let Code: Code
        let Reason: Reason
    }

    struct Settings: Decodable, Sendable, Equatable {
        let minimumVersion: String
        let refreshInterval: Int
        let features: [String]
    }

    static func fixture(_ name: String) throws -> Fixture {
        try Fixture(contentsOf: Paths.fixtures.appending(path: "xml/\(name).json"))
    }

    /// Element names without namespace prefixes, so that `soap:Body` and `env:Body` both read as
    /// `Body`, and `dc:creator` as `creator`.
    static let xml = XMLModelDecoder { $0.shouldProcessNamespaces = true }

    static func routes() throws -> URLModelMatcher {
        var routes = URLModelMatcher()
        try routes.add("/feed.xml", [FeedItem].self, at: "channel.item")
        try routes.add("/v1/settings.plist", Settings.self)
        try routes.add("/repos/*/*/labels/*", Label.self)
        try routes.add("/webservicesserver/NumberConversion.wso", NumberToWords.self, at: "Body.NumberToWordsResponse", method: .post)
        return routes
    }

    static func serializer() throws -> ModelResponseSerializer<URLModelMatcher> {
        ModelResponseSerializer(
            matcher: try routes(),
            decoders: [.json(), .xml(xml), .propertyList()],
            errorMatcher: FirstMatchModelMatcher([
                ClosureModelMatcher { response, _ in
                    response.headerFields[.contentType]?.hasPrefix("application/soap+xml") == true ? ModelType(SOAP12Fault.self, at: "Body.Fault") : nil
                },
                StaticModelMatcher(SOAPFault.self, at: "Body.Fault"),
            ]))
    }

    @Test("an RSS feed's items decode at a key path through the XML decoder")
    func rssItems() throws {
        let feed = try Self.fixture("rss-feed")
        let items = try Self.serializer().serialize(feed.data, for: feed.context, as: [FeedItem].self)
        #expect(items.map(\.title) == ["Sculpt 0.3: XML & content negotiation", "Sculpt 0.2: loading, caching, pages", "Sculpt 0.1"])
        #expect(items.map(\.creator) == ["Ada", "Grace", "Ada"])
        #expect(items.first?.category == ["release", "xml"])
        #expect(items.last?.category == nil)
        #expect(items.first?.link == URL(string: "https://news.example.org/2026/11/sculpt-0-3"))
    }

    @Test("one serializer decodes JSON, XML and a property list, each by the decoder its Content-Type names", arguments: [
        "json", "xml", "plist",
    ])
    func negotiated(kind: String) throws {
        let serializer = try Self.serializer()
        switch kind {
        case "json":
            let fixture = try GitHubFixtures.load("get-label")
            #expect(try serializer.serialize(fixture.data, for: fixture.context, as: Label.self).name == "test-label")
        case "xml":
            let fixture = try Self.fixture("soap11-response")
            #expect(try serializer.serialize(fixture.data, for: fixture.context, as: NumberToWords.self).NumberToWordsResult == "one hundred and twenty three")
        default:
            let fixture = try Self.fixture("settings-plist")
            let settings = try serializer.serialize(fixture.data, for: fixture.context, as: Settings.self)
            #expect(settings == Settings(minimumVersion: "2.4.0", refreshInterval: 3600, features: ["offline", "xml"]))
        }
    }

    @Test("a SOAP 1.1 fault (500, text/xml) is the caller's error model")
    func soap11Fault() throws {
        let fault = try Self.fixture("soap11-fault")
        let result = try Self.serializer().result(fault.data, for: fault.context, as: NumberToWords.self)
        guard case .failure(let error) = result else {
            Issue.record("a SOAP fault serialized")
            return
        }
        #expect(error.errorModel(as: SOAPFault.self)?.faultcode == "soap:Client")
        #expect(error.errorModel(as: SOAPFault.self)?.faultstring.hasPrefix("Server was unable to read request.") == true)
        #expect(error.response.status == .internalServerError)
        #expect(error.body == fault.data)
    }

    @Test("with XMLCoder's defaults, names keep their prefixes, and a key path names them so")
    func prefixedKeyPath() throws {
        let fault = try Self.fixture("soap11-fault")
        let serializer = ModelResponseSerializer(
            matcher: StaticModelMatcher(NumberToWords.self, at: "soap:Body.NumberToWordsResponse"),
            decoders: [.xml()],
            errorMatcher: StaticModelMatcher(SOAPFault.self, at: "soap:Body.soap:Fault"))
        guard case .failure(let error) = serializer.result(fault.data, for: fault.context, as: NumberToWords.self) else {
            Issue.record("a SOAP fault serialized")
            return
        }
        #expect(error.errorModel(as: SOAPFault.self)?.faultcode == "soap:Client", "\(error)")
    }

    @Test("a SOAP 1.2 fault (400, application/soap+xml) is the caller's error model")
    func soap12Fault() throws {
        let fault = try Self.fixture("soap12-fault")
        let result = try Self.serializer().result(fault.data, for: fault.context, as: NumberToWords.self)
        guard case .failure(let error) = result else {
            Issue.record("a SOAP fault serialized")
            return
        }
        let model = error.errorModel(as: SOAP12Fault.self)
        #expect(model == SOAP12Fault(Code: .init(Value: "env:Sender"), Reason: .init(Text: "Sender Timeout")))
        #expect("\(error)".contains("SOAP12Fault"), "\(error)")
    }

    @Test("the acceptable content types are the initializer's decoders', and setting the decoders later leaves them")
    func acceptableTypesFollowDecoders() throws {
        let feed = try Self.fixture("rss-feed")
        var serializer = ModelResponseSerializer(matcher: try Self.routes())
        #expect(serializer.acceptableContentTypes == ContentDecoder.jsonContentTypes)
        do {
            _ = try serializer.serialize(feed.data, for: feed.context)
            Issue.record("a JSON-only serializer took an RSS feed")
        } catch {
            guard case .unacceptableContentType(let acceptable) = error.reason else {
                Issue.record("\(error)")
                return
            }
            #expect(acceptable == ["*/*+json", "application/json", "text/javascript", "text/json"])
        }
        // Setting the decoders leaves the acceptable types as the caller set them.
        serializer.decoders = [.json(), .xml(Self.xml)]
        #expect(serializer.acceptableContentTypes == ContentDecoder.jsonContentTypes)
        #expect(throws: SculptError.self) { try serializer.serialize(feed.data, for: feed.context, as: [FeedItem].self) }
        serializer.acceptableContentTypes?.formUnion(ContentDecoder.xml().contentTypes)
        #expect(try serializer.serialize(feed.data, for: feed.context, as: [FeedItem].self).count == 3)
        // The initializer accepts what its decoders read, and no more.
        serializer = ModelResponseSerializer(matcher: try Self.routes(), decoders: [.xml()])
        #expect(serializer.acceptableContentTypes == ["application/xml", "text/xml", "*/*+xml"])
        let label = try GitHubFixtures.load("get-label")
        #expect(throws: SculptError.self) { try serializer.serialize(label.data, for: label.context) }
    }

    @Test("without a Content-Type, or with one no decoder reads, the first decoder decodes", arguments: [nil, "application/octet-stream"] as [String?])
    func firstDecoderByDefault(contentType: String?) throws {
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Settings.self), decoders: [.propertyList(), .json()])
        serializer.acceptableContentTypes = nil
        let plist = try Self.fixture("settings-plist")
        var fields = HTTPFields()
        fields[.contentType] = contentType
        let context = ResponseContext(url: plist.context.url, method: .get, status: .ok, headerFields: fields)
        #expect(try serializer.serialize(plist.data, for: context, as: Settings.self).refreshInterval == 3600)
    }

    @Test("XML that is not well-formed, or does not fit, is a decoding error that keeps the body", arguments: [
        "<rss><channel><item><title>x</title></item>",  // truncated
        "<rss><channel><item><title>x</titel></item></channel></rss>",  // mismatched tags
        "\u{FEFF}<?xml version=\"1.0\"?><rss><item><title>x</title></item></rss>",  // no channel: the key path misses
        "{\"channel\":{\"item\":[]}}",  // JSON under an XML content type
        "<rss><channel><item><title>x</title></item></channel></rss>",  // items without their fields
    ])
    func malformedXML(body: String) throws {
        let feed = try Self.fixture("rss-feed")
        let data = Data(body.utf8)
        let result = try Self.serializer().result(data, for: feed.context, as: [FeedItem].self)
        guard case .failure(let error) = result else {
            Issue.record("\(body) serialized")
            return
        }
        switch error.reason {
        case .decodingFailed, .keyPathNotFound: break
        default: Issue.record("\(error)")
        }
        #expect(error.body == data)
        #expect("\(error)".utf8.count <= 4096)
    }

    struct Titled: Decodable, Sendable, Equatable { let title: String }

    static func items(_ count: Int) -> String {
        "<rss><channel>" + (0..<count).map { "<item><title>t\($0)</title><guid>g\($0)</guid></item>" }.joined() + "</channel></rss>"
    }

    /// What decoding `M` at `keyPath` in `body` gives, as text: `describe` of the value, or the miss.
    static func outcome<M: Decodable & Sendable>(_ type: M.Type, at keyPath: String, in body: String, _ describe: (M) -> String) -> String {
        let context = ResponseContext(url: URL(string: "https://news.example.org/feed.xml"), method: .get, status: .ok, headerFields: [.contentType: "application/rss+xml"])
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(M.self, at: keyPath), decoders: [.xml()])
        switch serializer.result(Data(body.utf8), for: context, as: M.self) {
        case .success(let value):
            return describe(value)
        case .failure(let error) where error.reason.name == "keyPathNotFound":
            guard case .keyPathNotFound(let miss) = error.reason else { return "" }
            return "miss: \(miss.failedAt), available \(miss.availableKeys.joined(separator: ", "))"
        case .failure(let error):
            return "\(error)"
        }
    }

    @Test("XML arrays at key paths hold however many elements there are: none is an empty array, a lone one is an array of one", arguments: [
        (items(0), "channel.item", ["[]"]),
        ("<rss><channel/></rss>", "channel.item", ["[]"]),
        (items(1), "channel.item", ["[t0]"]),
        (items(3), "channel.item", ["[t0, t1, t2]"]),
        (items(1), "channel.item[0]", ["t0"]),
        (items(3), "channel.item[2]", ["t2"]),
        (items(1), "channel.item[0].title", ["t0"]),
        (items(2), "channel.item[1].guid", ["g1"]),
        (items(1), "channel.item[1]", ["miss: channel.item[1], available [0]...[0]"]),
        // XMLCoder reads an empty element's container as holding the element's own name.
        (items(0), "channel.item[0]", ["miss: channel.item, available channel"]),
    ] as [(String, String, [String])])
    func xmlArraysAtKeyPaths(body: String, keyPath: String, expected: [String]) throws {
        let outcome = keyPath.hasSuffix("item") ? Self.outcome([Titled].self, at: keyPath, in: body) { "[\($0.map(\.title).joined(separator: ", "))]" }
            : keyPath.hasSuffix("]") ? Self.outcome(Titled.self, at: keyPath, in: body) { $0.title } : Self.outcome(String.self, at: keyPath, in: body) { $0 }
        #expect([outcome] == expected, "\(keyPath) in \(body)")
    }

    static func feed(_ title: [UInt8], declaring encoding: String? = nil) -> [UInt8] {
        let declaration = encoding.map { #"<?xml version="1.0" encoding="\#($0)"?>"# } ?? ""
        return Array("\(declaration)<rss><channel><item><title>".utf8) + title + Array("</title></item></channel></rss>".utf8)
    }

    static let encodings: [(String, [UInt8], String?)] = [
        ("UTF-8", feed(Array("caf\u{E9}".utf8)), "café"),
        ("UTF-8 with a byte order mark", [0xEF, 0xBB, 0xBF] + feed(Array("x".utf8), declaring: "UTF-8"), "x"),
        ("UTF-16LE with a byte order mark", [0xFF, 0xFE] + Array(String(decoding: feed(Array("\u{E5}".utf8), declaring: "UTF-16"), as: UTF8.self).utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "å"),
        ("UTF-16BE without one", Array(String(decoding: feed(Array("\u{E5}".utf8)), as: UTF8.self).utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "å"),
        ("ISO-8859-1, declared", feed([0x63, 0x61, 0x66, 0xE9], declaring: "ISO-8859-1"), "café"),
        ("Windows-1252, declared", feed([0x80], declaring: "windows-1252"), "€"),
        // FoundationXML's parser crashed on a name that is not UTF-8.
        ("not UTF-8 in a name", Array("<rss><channel><item><titl".utf8) + [0xE5] + Array(">x</title></item></channel></rss>".utf8), nil),
        ("not UTF-8 in text", feed([0x63, 0xE9, 0x28]), nil),
        ("an overlong encoding", feed([0xC0, 0xAF]), nil),
        ("an encoding Sculpt does not read", feed(Array("x".utf8), declaring: "EBCDIC-US"), nil),
    ]

    @Test("documents read in every encoding XML allows; bytes invalid in theirs are a decoding error, never a crash", arguments: encodings)
    func documentEncodings(name: String, bytes: [UInt8], title: String?) throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Titled].self, at: "channel.item"), decoders: [.xml()])
        let context = ResponseContext(url: URL(string: "https://news.example.org/feed.xml"), method: .get, status: .ok, headerFields: [.contentType: "application/xml"])
        switch serializer.result(Data(bytes), for: context, as: [Titled].self) {
        case .success(let items):
            #expect(items == title.map { [Titled(title: $0)] }, "\(name)")
        case .failure(let error):
            #expect(title == nil, "\(name): \(error)")
            guard case .decodingFailed = error.reason else {
                Issue.record("\(name): \(error)")
                return
            }
            #expect(error.body == Data(bytes))
        }
    }

    @Test("an external entity is never read: XXE finds nothing")
    func externalEntity() throws {
        struct Value: Decodable, Sendable { let v: String? }
        let secret = FileManager.default.temporaryDirectory.appending(path: "sculpt-xxe-\(UUID().uuidString)")
        try Data("root:x:0:0".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let body = Data(#"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "\#(secret.absoluteString)">]><r><v>&xxe;</v></r>"#.utf8)
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Value.self), decoders: [.xml()])
        let context = ResponseContext(url: URL(string: "https://api.example.com/x"), method: .get, status: .ok, headerFields: [.contentType: "application/xml"])
        switch serializer.result(body, for: context, as: Value.self) {
        case .success(let value): #expect(value.v?.contains("root:") != true)
        case .failure(let error): #expect(!"\(error)".contains("root:x"))
        }
    }

    @Test("a real URLSession against the fixture server: the feed, then the fault, through one serializer")
    func overURLSession() async throws {
        let feed = try Self.fixture("rss-feed")
        let fault = try Self.fixture("soap11-fault")
        let serializer = try Self.serializer()
        try await FixtureServer.running(FixtureReplay([feed, fault])) { server, _ in
            let session = URLSession(configuration: .unhurried)
            let items = try await session.model(from: try await server.url(for: feed), serializer: serializer, as: [FeedItem].self)
            #expect(items.count == 3)
            var request = URLRequest(url: try await server.url(for: fault))
            request.httpMethod = "POST"
            request.httpBody = fault.request.body
            request.setValue("text/xml; charset=utf-8", forHTTPHeaderField: "Content-Type")
            do {
                _ = try await session.model(for: request, serializer: serializer, as: NumberToWords.self)
                Issue.record("a SOAP fault serialized")
            } catch let error as SculptError {
                #expect(error.errorModel(as: SOAPFault.self)?.faultcode == "soap:Client")
            }
        }
    }

    @Test("one serializer shared by 200 concurrent XML decodes gives each its own answer")
    func concurrentDecodes() async throws {
        let feed = try Self.fixture("rss-feed")
        let fault = try Self.fixture("soap11-fault")
        let serializer = try Self.serializer()
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        return (try? serializer.serialize(feed.data, for: feed.context, as: [FeedItem].self).count) == 3
                    }
                    let result = serializer.result(fault.data, for: fault.context, as: NumberToWords.self)
                    guard case .failure(let error) = result else { return false }
                    return error.errorModel(as: SOAPFault.self)?.faultcode == "soap:Client"
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.count == 200 && outcomes.allSatisfy { $0 })
    }
}
