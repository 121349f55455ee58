import Foundation
import HTTPTypes
import Sculpt
import SculptShared
import SculptMatchers
import SculptTesting
import Testing

/// The serializer at its edges: a matcher's own errors, number and odd tags, nesting limits in
/// every encoding, secrets wherever a body or URL holds them, and fixture files at their limits.
@Suite("Serializer edge cases")
struct SerializerEdgeCaseTests {
    static let url = URL(string: "https://api.example.com/v1/things")

    // MARK: - A matcher's own SculptError

    @Test("a SculptError a matcher throws carries the serializer's response and body, whatever it was built with")
    func matcherErrorKeepsTheResponse() throws {
        let elsewhere = ResponseContext(url: URL(string: "https://elsewhere/"))
        let serializer = ModelResponseSerializer(matcher: ClosureModelMatcher { _, _ in
            throw SculptError(.noModelMatched(candidates: ["x"]), response: elsewhere, body: Data())
        })
        let body = Data(#"{"id":1,"x":2}"#.utf8)
        let error = try #require(throws: SculptError.self) { try serializer.serialize(body, for: response()) }
        #expect(error.reason.name == "noModelMatched")
        #expect(error.body == body)
        #expect(error.response.url == response().url)
    }

    // MARK: - Limits at their extremes

    @Test("a limit at Int.max is described, not trapped on")
    func describesTheLargestLimit() {
        let error = SculptError(.nestingTooDeep(maximum: .max, offset: 3), response: response(), body: Data("[[[".utf8))
        #expect(error.description.contains("nests deeper than \(Int.max) levels (a deeper level opens at byte 3)"), "\(error.description)")
    }

    @Test("a negative limit is 0: an empty body passes the size limit, any container fails the nesting one")
    func negativeLimitsAreZero() throws {
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Int].self))
        serializer.maximumBodySize = -5
        let sized = try #require(throws: SculptError.self) { try serializer.serialize(Data("[1]".utf8), for: response()) }
        guard case .bodyTooLarge(let maximum) = sized.reason else { Issue.record("\(sized)"); return }
        #expect(maximum == 0)
        #expect(sized.description.contains("reads at most 0"), "\(sized.description)")

        serializer.maximumBodySize = nil
        serializer.maximumNestingDepth = -1
        let nested = try #require(throws: SculptError.self) { try serializer.serialize(Data("[1]".utf8), for: response()) }
        guard case .nestingTooDeep(let depth, let offset) = nested.reason else { Issue.record("\(nested)"); return }
        #expect(depth == 0 && offset == 0)
    }

    @Test("no acceptable content type at all is said so, not as an empty list")
    func noAcceptableContentType() throws {
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Int].self))
        serializer.acceptableContentTypes = []
        let context = ResponseContext(url: Self.url, method: .get, status: .ok, headerFields: [.contentType: "application/json"])
        let error = try #require(throws: SculptError.self) { try serializer.serialize(Data("[1]".utf8), for: context) }
        #expect(error.description.contains("No content type is acceptable (acceptableContentTypes is empty); found application/json."), "\(error)")
    }

    // MARK: - Numbers as tags

    /// The numbers a peek, a family and `JSONDecoder` must read alike: whole numbers past 2^53
    /// written with a fraction or an exponent, which `JSONDecoder` reads through `Decimal`.
    static let numbers = [
        "9007199254740993.0", "9007199254740993e0", "90071992547409930e-1", "4611686018427387905.0", "-9007199254740993.0",
        "9007199254740995e0", "123456789012345678e0", "9007199254740993.9", "9007199254740993.000000000000000000001",
        "3.0000000000000001", "2.50", "1e20", "3", "3.0", "-0", "1e-400", "1e999",
    ]

    struct Tagged: Decodable, Sendable, Equatable { let id: Int }
    struct Other: Decodable, Sendable, Equatable { let id: Int }

    /// Every number's tag as `JSONDecoder` reads it, each a `Tagged`; anything else `Other`.
    enum NumberFamily: TypeFieldFamily {
        static let field = "v"
        static let types: [String: any (Decodable & Sendable).Type] = Dictionary(
            numbers.compactMap { literal in
                let data = Data(literal.utf8)
                return (try? JSONDecoder().decode(Int.self, from: data)).map(String.init)
                    ?? (try? JSONDecoder().decode(Double.self, from: data)).map(JSONNumber.canonicalText(of:))
            }.map { ($0, Tagged.self as any (Decodable & Sendable).Type) }, uniquingKeysWith: { first, _ in first })
        static let fallback: (any (Decodable & Sendable).Type)? = Other.self
    }

    @Test("a number tag stands for what JSONDecoder decodes from it, for the peek and a family alike", arguments: numbers)
    func numberTags(_ literal: String) throws {
        let decoded = Data(literal.utf8)
        // What JSONDecoder makes of the number: an Int, else a Double, else nothing.
        let expected = (try? JSONDecoder().decode(Int.self, from: decoded)).map(String.init)
            ?? (try? JSONDecoder().decode(Double.self, from: decoded)).map(JSONNumber.canonicalText(of:))
        #expect(JSONNumber.canonicalText(of: literal) == expected, "\(literal)")
        guard let expected else { return }
        var matcher = TypeFieldModelMatcher(field: "v")
        try matcher.add(expected, Tagged.self)
        matcher.fallback = ModelType(Other.self)
        let body = #"{"v":\#(literal),"id":1}"#
        #expect(try matcher.modelType(for: response(), data: Data(body.utf8))?.type == Tagged.self, "\(literal) as \(expected)")
        let array = try JSONDecoder().decode(PolymorphicArray<NumberFamily>.self, from: Data("[\(body)]".utf8))
        #expect(array.elements.first is Tagged, "\(literal) as \(expected)")
    }

    // MARK: - Tag values only a decode refuses

    @Test("a tag JSONDecoder's scanner accepts but no decode reads: a fallback takes it; without one it is invalid JSON", arguments: [
        (#"{"type":03,"id":1}"#, "a number cannot have leading zeros", 9),
        (#"{"type":3.,"id":1}"#, "a number needs digits after '.'", 10),
        (#"{"type":-,"id":1}"#, "a number needs digits", 9),
        (#"{"type":"\ud800","id":1}"#, "a high surrogate must be followed by a low one", 9),
        ("{\"type\":\"a\u{01}b\",\"id\":1}", "a control character must be escaped in a string", 10),
    ])
    func undecodableTags(_ body: String, _ reason: String, _ offset: Int) throws {
        #expect(throws: Never.self) { try JSONDecoder().decode(Other.self, from: Data(body.utf8)) }
        var matcher = TypeFieldModelMatcher(field: "type")
        try matcher.add("3", Tagged.self)
        let error = try #require(throws: SculptError.self) { try matcher.modelType(for: response(), data: Data(body.utf8)) }
        #expect(error.reason.name == "invalidJSON")
        if case .invalidJSON(let found, let at) = error.reason {
            #expect(found == reason)
            #expect(at == offset)
        }
        matcher.fallback = ModelType(Other.self)
        #expect(try ModelResponseSerializer(matcher: matcher).serialize(Data(body.utf8), for: response(), as: Other.self) == Other(id: 1))
        var nothing = TypeFieldModelMatcher(field: "type")
        nothing.unknownValuesMatchNothing = true
        #expect(try nothing.modelType(for: response(), data: Data(body.utf8)) == nil)
    }

    // MARK: - Nesting in UTF-16 and UTF-32

    struct Deep: Decodable, Sendable { let id: Int }

    @Test("the nesting limit counts levels in UTF-16 and UTF-32 as JSONDecoder reads them", arguments: [
        String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian, .utf16,
    ])
    func nestingInOtherEncodings(_ encoding: String.Encoding) throws {
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Deep.self))
        serializer.maximumNestingDepth = 2
        // Brackets inside a string, and characters whose code units hold `"` or `[` bytes.
        let shallow = try #require(#"{"id":1,"s":"丢[[[∀"}"#.data(using: encoding))
        #expect(try serializer.serialize(shallow, for: response(), as: Deep.self).id == 1)
        let text = #"{"id":1,"s":"∀","d":[[[[[[1]]]]]]}"#
        let deep = try #require(text.data(using: encoding))
        let error = try #require(throws: SculptError.self) { try serializer.serialize(deep, for: response(), as: Deep.self) }
        #expect(error.reason.name == "nestingTooDeep")
        if case .nestingTooDeep(_, let offset) = error.reason {
            // The second `[` of "d" (level 3), counted in the body as it arrived.
            let prefix = try #require(String(text.prefix(21)).data(using: encoding == .utf16 ? .utf16LittleEndian : encoding))
            let mark = encoding == .utf16 ? 2 : 0
            #expect(offset == mark + prefix.count)
        }
    }

    @Test("a UTF-16 body of a byte order mark and white space is empty")
    func blankUTF16() throws {
        let body = try #require(" \n ".data(using: .utf16))
        let error = try #require(throws: SculptError.self) {
            try ModelResponseSerializer(matcher: StaticModelMatcher(Deep.self)).serialize(body, for: response())
        }
        #expect(error.reason.name == "emptyBody")
    }

    // MARK: - Secrets in descriptions

    static let secret = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"

    struct APIError: Decodable, Sendable { let message: String }
    struct Grant: Decodable, Sendable { let kind: String; let accessToken: String }

    /// The description of a 401 whose body decodes as `Model`, for `url`.
    func errorDescription<Model: Decodable & Sendable>(_ body: Data, _ model: Model.Type, url: String = "https://api.example.com/v1/x", contentType: String = "application/json")
        throws -> String
    {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), errorMatcher: StaticModelMatcher(Model.self))
        let context = ResponseContext(url: URL(string: url), method: .get, status: .unauthorized, headerFields: [.contentType: contentType])
        return try #require(throws: SculptError.self) { try serializer.serialize(body, for: context) }.description
    }

    static func shows(_ text: String) -> Bool {
        text.contains(secret) || text.contains(String(secret.prefix(12))) || text.contains(secret.map(String.init).joined(separator: "\\0"))
    }

    @Test("a URL's secret echoed in the body is hidden in the model and the excerpt")
    func urlSecretEchoed() throws {
        let body = Data(#"{"message":"Invalid API key: \#(Self.secret)"}"#.utf8)
        for url in ["https://api.example.com/v1/x?api_key=\(Self.secret)", "https://u:\(Self.secret)@api.example.com/v1/x"] {
            let text = try errorDescription(body, APIError.self, url: url)
            #expect(!Self.shows(text), "\(text)")
        }
    }

    @Test("a secret member of a JSON document written inside a string is hidden, and redacted from recordings")
    func embeddedDocument() throws {
        let inner = #"{\"token\":\"\#(Self.secret)\",\"n\":1}"#
        let body = Data(#"{"message":"\#(inner)"}"#.utf8)
        #expect(!Self.shows(try errorDescription(body, APIError.self)))
        let twice = Data(#"{"message":"{\"payload\":\"{\\\"token\\\":\\\"\#(Self.secret)\\\"}\"}"}"#.utf8)
        #expect(!Self.shows(try errorDescription(twice, APIError.self)))
        for recorded in [body, twice] {
            let redacted = Redaction().redacting(body: recorded)
            #expect(!Self.shows(String(decoding: redacted, as: UTF8.self)), "\(String(decoding: redacted, as: UTF8.self))")
            #expect((try? JSONSerialization.jsonObject(with: redacted)) != nil, "still JSON")
        }
    }

    @Test("a secret that holds a character descriptions escape is hidden in its escaped form")
    func escapedSecret() throws {
        struct Leaky: Decodable, Sendable { let message: String; let token: String }
        struct Quoting: Decodable, Sendable { let message: String; let echo: String }
        for secret in ["Hq\u{01}Lyj" + Self.secret, "Hq\u{200B}Lyj" + Self.secret] {
            let body = try JSONSerialization.data(withJSONObject: ["message": "x", "token": secret, "echo": secret])
            for text in [try errorDescription(body, Quoting.self), try errorDescription(body, Leaky.self)] {
                #expect(!Self.shows(text), "\(text)")
            }
        }
    }

    @Test("a secret cut by the description's bound shows no part of itself")
    func cutSecret() throws {
        let padding = String(repeating: "p", count: 960)
        let body = Data(#"{"message":"\#(padding) \#(Self.secret) tail","token":"\#(Self.secret)"}"#.utf8)
        let text = try errorDescription(body, APIError.self)
        #expect(!Self.shows(text), "\(text)")
        #expect(!text.contains("sk_live_4eC"), "\(text)")
    }

    @Test("a token after many other secrets, and one after 4 MB, is hidden")
    func manyAndLateSecrets() throws {
        let many = (0..<100).map { #"{"token":"value-number-\#($0)"}"# }.joined(separator: ",")
        let first = Data(#"{"message":"\#(Self.secret)","items":[\#(many)],"token":"\#(Self.secret)"}"#.utf8)
        #expect(!Self.shows(try errorDescription(first, APIError.self)))
        let filler = String(repeating: "f", count: 5 << 20)
        let late = Data(#"{"kind":"x","filler":"\#(filler)","accessToken":"\#(Self.secret)"}"#.utf8)
        let text = try errorDescription(late, Grant.self)
        #expect(!Self.shows(text), "\(text.prefix(600))")
        #expect(text.contains("a Grant (not shown: the body is 5,242,"), "past 4 MiB the model's values are withheld: \(text.prefix(600))")
    }

    @Test("a UTF-16 JSON error body is read for secrets, and shown as text")
    func utf16Body() throws {
        let body = try #require(#"{"message":"\#(Self.secret)","token":"\#(Self.secret)"}"#.data(using: .utf16LittleEndian))
        let text = try errorDescription(body, APIError.self)
        #expect(!Self.shows(text), "\(text)")
        #expect(text.contains("bytes, UTF-16LE): {\"message\":\"REDACTED\""), "\(text)")
    }

    @Test("a matcher's error that quotes the URL shows no secret of it")
    func matcherQuotesURL() throws {
        struct NoRoute: Error, CustomStringConvertible { let url: URL?; var description: String { "no route for \(url?.absoluteString ?? "")" } }
        let serializer = ModelResponseSerializer(matcher: ClosureModelMatcher { response, _ in throw NoRoute(url: response.url) })
        let context = ResponseContext(url: URL(string: "https://api.example.com/v1/x?access_token=\(Self.secret)"), method: .get)
        let error = try #require(throws: SculptError.self) { try serializer.serialize(Data("{}".utf8), for: context) }
        #expect(!Self.shows(error.description), "\(error)")
    }

    // MARK: - Secrets in recordings

    @Test("a reference with a secret in a JSON string, and a Refresh header's URL, are redacted")
    func referencesAndRefresh() throws {
        let body = Redaction().redacting(body: Data(#"{"next":"/page?access_token=\#(Self.secret)&page=2"}"#.utf8))
        #expect(String(decoding: body, as: UTF8.self) == #"{"next":"/page?access_token=REDACTED&page=2"}"#)
        let fields = Redaction().redacting([.literal("Refresh"): "0; url=https://h/x?token=\(Self.secret)"])
        #expect(fields[.literal("Refresh")] == "0; url=https://h/x?token=REDACTED")
    }

    // MARK: - Fixture files

    @Test("a fixture keeps a JSON body of null, and a byte-exact one keeps a byte order mark")
    func fixtureBodies() throws {
        let url = try #require(Self.url)
        let null = Fixture(request: .init(url: url), response: .init(headerFields: [.contentType: "application/json"], body: Data("null".utf8)))
        #expect(try Fixture(json: null.encoded()).response.body == Data("null".utf8))
        let marked = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"a":1}"#.utf8)
        for contentType in ["application/json", "text/plain"] {
            let fixture = Fixture(request: .init(url: url), response: .init(headerFields: [.contentType: contentType], body: marked))
            #expect(try Fixture(json: fixture.encoded(byteExact: true)).response.body == marked, "\(contentType)")
        }
    }

    @Test("a fixture or cassette holding a body 512 levels deep, as JSONDecoder reads, reads back", arguments: [511, 512])
    func deepBodies(_ depth: Int) throws {
        let url = try #require(Self.url)
        let body = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        let fixture = Fixture(request: .init(url: url), response: .init(headerFields: [.contentType: "application/json"], body: body))
        #expect(try Fixture(json: fixture.encoded()).response.body == body)
        #expect(try Cassette(json: Cassette([fixture]).encoded()).interactions.first?.response.body == body)
    }

    @Test("a format error's line counts CR, LF and CRLF line ends alike", arguments: ["\r", "\n", "\r\n"])
    func lineEnds(_ end: String) throws {
        let text = ["{", #""request": {"url": "https://x/a"},"#, #""response": {"status": "two"}"#, "}"].joined(separator: end)
        let file = FileManager.default.temporaryDirectory.appending(path: "line-ends-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = try #require(throws: Fixture.FormatError.self) { try Fixture(contentsOf: file) }
        #expect(error.line == 3)
    }
}
