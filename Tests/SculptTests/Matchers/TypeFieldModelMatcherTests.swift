import Foundation
import Sculpt
import SculptMatchers
import Testing

private func questionsAndAnswers(field: String = "type") throws -> TypeFieldModelMatcher {
    var matcher = TypeFieldModelMatcher(field: field)
    try matcher.add("question", ModelA.self)
    try matcher.add("answer", ModelB.self)
    try matcher.add("3", ModelC.self)
    try matcher.add("true", ModelD.self)
    return matcher
}

private func matched(_ json: String, field: String = "type") throws -> AnyModel? {
    try questionsAndAnswers(field: field).modelType(for: response(), data: .json(json))?.type
}

private let longString = String(repeating: #"ab\"c\\d/ "#, count: 30_000)
private let deepValue = String(repeating: #"{"a":["#, count: 500) + #""x""# + String(repeating: "]}", count: 500)

@Suite("TypeFieldModelMatcher")
struct TypeFieldModelMatcherTests {
    @Test("finds the tag wherever it sits", arguments: [
        (#"{"type":"question","title":"t"}"#, "first"),
        (#"{"title":"t","type":"question"}"#, "last"),
        (#"{"owner":{"type":"answer","x":[1,{"type":"answer"}]},"type":"question"}"#, "after nested objects with their own type"),
        (#"{"body":"\#(longString)","type":"question"}"#, "after a long string full of escapes"),
        (#"{"deep":\#(deepValue),"type":"question"}"#, "after 500 levels of nesting"),
        (#"{"items":["type","question",{"type":"answer"}],"type":"question"}"#, "after an array holding the same words"),
        (" \n\t{ \"a\" : 1 ,\n \"type\"\t:\r\n\"question\" } ", "with white space everywhere"),
        (#"{"typ":"answer","types":"answer","Type":"answer","type":"question"}"#, "past near-miss keys"),
        (#"{"a":-1.5e+3,"b":true,"c":null,"d":[],"e":{},"type":"question"}"#, "past scalars and empty containers"),
        (#"{"a":"}{][\"","type":"question"}"#, "past brackets inside strings"),
    ])
    func positions(_ json: String, _ name: String) throws {
        #expect(try matched(json) == ModelA.self, "\(name)")
    }

    @Test("nested fields", arguments: [
        (#"{"meta":{"type":"answer"},"type":"question"}"#, "meta.type", ModelB.self as AnyModel?),
        (#"{"type":"question","meta":{"x":{"type":"question"},"type":"answer"}}"#, "meta.type", ModelB.self),
        (#"{"meta":"answer"}"#, "meta.type", nil),
        (#"{"meta.type":"answer"}"#, #"meta\.type"#, ModelB.self),
        (#"{"a":{"b":{"c":"question"}}}"#, "a.b.c", ModelA.self),
    ])
    func nested(_ json: String, _ field: String, _ expected: AnyModel?) throws {
        var matcher = try questionsAndAnswers(field: field)
        matcher.unknownValuesMatchNothing = true
        #expect(try matcher.modelType(for: response(), data: .json(json))?.type == expected)
    }

    @Test("keys and values compare after unescaping", arguments: [
        #"{"ty\u0070e":"question"}"#,
        #"{"type":"qu\u0065stion"}"#,
        #"{"\u0074\u0079\u0070\u0065":"\u0071\u0075\u0065\u0073\u0074\u0069\u006F\u006E"}"#,
        #"{"type":"question","ty\"pe":"answer"}"#,
    ])
    func escapes(_ json: String) throws {
        #expect(try matched(json) == ModelA.self)
    }

    @Test("escaped values that are not a registered tag are quoted as JSON writes them", arguments: [
        (#"{"type":"quest\"ion"}"#, #""quest\"ion""#),
        (#"{"type":"\ud83d\ude00"}"#, "\"\u{1F600}\""),
        (#"{"type":"a\nb"}"#, #""a\nb""#),
    ])
    func unknownEscaped(_ json: String, _ found: String) throws {
        let error = try #require(throws: SculptError.self) { try matched(json) }
        #expect(error.reason.name == "unknownDiscriminator")
        if case .unknownDiscriminator(_, let value, _) = error.reason { #expect(value == found) }
    }

    @Test("a duplicated key resolves to its first occurrence, as JSONDecoder does", arguments: [
        #"{"type":"question","type":"answer"}"#,
        #"{"type":"answer","type":"question"}"#,
        #"{"ty\u0070e":"answer","type":"question"}"#,
    ])
    func duplicates(_ json: String) throws {
        struct Tagged: Decodable { let type: String }
        let decoded = try JSONDecoder().decode(Tagged.self, from: .json(json)).type
        let expected: AnyModel = decoded == "question" ? ModelA.self : ModelB.self
        #expect(try matched(json) == expected)
    }

    @Test("numbers match by value, booleans by their text", arguments: [
        (#"{"type":3}"#, ModelC.self as AnyModel?),
        (#"{"type":true}"#, ModelD.self),
        (#"{"type":"3"}"#, ModelC.self),
        (#"{"type":3.0}"#, ModelC.self),
        (#"{"type":3e0}"#, ModelC.self),
        (#"{"type":30E-1}"#, ModelC.self),
        (#"{"type":3.5}"#, nil),
        (#"{"type":"3.0"}"#, nil),
        (#"{"type":-3}"#, nil),
        (#"{"type":false}"#, nil),
    ])
    func literals(_ json: String, _ expected: AnyModel?) throws {
        var matcher = try questionsAndAnswers()
        matcher.unknownValuesMatchNothing = true
        #expect(try matcher.modelType(for: response(), data: .json(json))?.type == expected)
    }

    @Test("unknown or missing tags without a fallback say what was found and what is registered", arguments: [
        (#"{"type":"comment"}"#, #"Found "comment"; registered: "3", "answer", "question", "true"."#),
        (#"{"kind":"question"}"#, #"Found no "type" member; registered: "3", "answer", "question", "true"."#),
        (#"{"type":null}"#, "Found null;"),
        (#"{"type":{"name":"question"}}"#, "Found an object;"),
        (#"{"type":["question"]}"#, "Found an array;"),
        (#"{"type":4}"#, "Found 4;"),
        (#"{}"#, #"Found no "type" member;"#),
        (#"["question"]"#, "Found a body that is not an object;"),
        (#""question""#, "Found a body that is not an object;"),
        ("null", "Found a body that is not an object;"),
    ])
    func unknown(_ json: String, _ message: String) throws {
        let error = try #require(throws: SculptError.self) { try matched(json) }
        #expect(error.reason.name == "unknownDiscriminator")
        if case .unknownDiscriminator(let field, _, let registered) = error.reason {
            #expect(field == "type")
            #expect(registered == ["3", "answer", "question", "true"])
        }
        #expect(error.body == .json(json))
        #expect(error.description.contains(message), "\(error)")
    }

    @Test("a fallback takes unknown and missing tags", arguments: [#"{"type":"comment"}"#, #"{"kind":"question"}"#, "[1]", #"{"type":null}"#])
    func fallback(_ json: String) throws {
        var matcher = try questionsAndAnswers()
        matcher.fallback = ModelType(ModelE.self)
        #expect(try matcher.modelType(for: response(), data: .json(json)) == ModelType(ModelE.self))
    }

    @Test("unknownValuesMatchNothing answers nil for unknown and missing tags")
    func matchNothing() throws {
        var matcher = try questionsAndAnswers()
        matcher.unknownValuesMatchNothing = true
        #expect(try matcher.modelType(for: response(), data: .json(#"{"type":"comment"}"#)) == nil)
        #expect(try matcher.modelType(for: response(), data: .json("{}")) == nil)
    }

    @Test("a body that is not JSON is invalidJSON, saying what was expected and what is there, and where", arguments: [
        ("<html><body>Error</body></html>", "expected a JSON value, found '<'", 0),
        (#"{"type":}"#, "expected a JSON value, found '}'", 8),
        (#"{"type":"quest"#, "the text ends inside a string", 14),
        (#"{"a":"unterminated"#, "the text ends inside a string", 18),
        (#"{"a":[1,2,{"b":3}"#, "the text ends inside an object or array", 17),
        (#"{"type":"\x"}"#, #"invalid escape \x"#, 9),
        (#"{"type":"\ud800"}"#, "a high surrogate must be followed by a low one", 9),
        (#"{"type":"\ud800\u0041"}"#, "a high surrogate must be followed by a low one", 9),
        (#"{"type":"\udc00"}"#, "a low surrogate without a high one", 9),
        (#"{"type":tru}"#, "expected true, found 't'", 8),
        (#"{"type":01}"#, "a number cannot have leading zeros", 9),
        (#"{"type":1.}"#, "a number needs digits after '.'", 10),
        (#"{"type":3x}"#, "unexpected 'x' after a number", 9),
        (#"{"type":nullx}"#, "unexpected 'x' after null", 12),
        (#"{"type" "question"}"#, #"expected ':', found '"'"#, 8),
        (#"{"a":1 "type":"question"}"#, #"expected ',' or '}' after a value, found '"'"#, 7),
        (#"{type:"question"}"#, "expected a key in quotes, found 't'", 1),
        ("{\"type\":\"a\u{01}b\"}", "a control character must be escaped in a string", 10),
    ])
    func invalidJSON(_ body: String, _ reason: String, _ offset: Int) throws {
        let error = try #require(throws: SculptError.self) { try matched(body) }
        #expect(error.reason.name == "invalidJSON")
        if case .invalidJSON(let found, let at) = error.reason {
            #expect(found == reason)
            #expect(at == offset)
        }
        #expect(error.body == .json(body))
    }

    @Test("invalid UTF-8 in the tag is invalidJSON; elsewhere it is skipped, as JSONDecoder skips it")
    func invalidUTF8() throws {
        let inTag = Data(#"{"type":""#.utf8) + Data([0xFF]) + Data(#""}"#.utf8)
        let error = #expect(throws: SculptError.self) { try questionsAndAnswers().modelType(for: response(), data: inTag) }
        #expect(error?.reason.name == "invalidJSON")
        if case .invalidJSON(let reason, let offset)? = error?.reason {
            #expect(reason == "a string is not valid UTF-8")
            #expect(offset == 9)
        }
        let elsewhere = Data(#"{"a":""#.utf8) + Data([0xFF]) + Data(#"","type":"question"}"#.utf8)
        #expect(try questionsAndAnswers().modelType(for: response(), data: elsewhere)?.type == ModelA.self)
    }

    @Test("byte order marks and UTF-16 and UTF-32 bodies are read as JSONDecoder reads them", arguments: [
        Data([0xEF, 0xBB, 0xBF]) + Data(#"{"type":"question"}"#.utf8),
        #"{"type":"question"}"#.data(using: .utf16LittleEndian),
        #"{"type":"question"}"#.data(using: .utf16BigEndian),
        #"{"type":"question"}"#.data(using: .utf16),
        #"{"type":"question"}"#.data(using: .utf32LittleEndian),
        #"{"type":"question"}"#.data(using: .utf32BigEndian),
    ])
    func encodings(_ data: Data?) throws {
        let data = try #require(data)
        struct Tagged: Decodable { let type: String }
        #expect(try JSONDecoder().decode(Tagged.self, from: data).type == "question")
        #expect(try questionsAndAnswers().modelType(for: response(), data: data)?.type == ModelA.self)
    }

    /// `JSONDecoder`'s reading of a byte order mark, quirks included: it takes `FE FF 00 00` for
    /// UTF-32LE's mark and `FF FE 00 00` for UTF-16LE's, then a NUL. The peek agrees either way.
    @Test("a byte order mark means what it means to JSONDecoder", arguments: [
        ([0xFE, 0xFF, 0x00, 0x00], String.Encoding.utf32LittleEndian),
        ([0xFF, 0xFE, 0x00, 0x00], .utf32LittleEndian),
        ([0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian),
        ([0x00, 0x00, 0xFF, 0xFE], .utf32BigEndian),
        ([0xFF, 0xFE], .utf16LittleEndian),
        ([0xFE, 0xFF], .utf16BigEndian),
        ([0xFE, 0xFF, 0xFE, 0xFF], .utf16BigEndian),
    ] as [([UInt8], String.Encoding)])
    func orderMarks(_ mark: [UInt8], _ encoding: String.Encoding) throws {
        let data = try Data(mark) + #require(#"{"type":"question"}"#.data(using: encoding))
        struct Tagged: Decodable { let type: String }
        if (try? JSONDecoder().decode(Tagged.self, from: data))?.type == "question" {
            #expect(try questionsAndAnswers().modelType(for: response(), data: data)?.type == ModelA.self)
        } else {
            let error = #expect(throws: SculptError.self, "JSONDecoder refuses \(mark) + \(encoding)") {
                try questionsAndAnswers().modelType(for: response(), data: data)
            }
            #expect(error?.reason.name == "invalidJSON")
        }
    }

    @Test("UTF-16 that does not decode, or decodes to a leading NUL, is invalidJSON, once", arguments: [
        Data([0x00, 0x7B, 0xD8, 0x00]),
        "\u{0}{}".data(using: .utf16BigEndian),
        Data([0x00]),
    ])
    func brokenUTF16(_ data: Data?) throws {
        let data = try #require(data)
        let error = #expect(throws: SculptError.self) { try questionsAndAnswers().modelType(for: response(), data: data) }
        #expect(error?.reason.name == "invalidJSON")
    }

    @Test("zero bytes outside JSONDecoder's UTF-16 and UTF-32 patterns leave a body UTF-8")
    func zeroBytesInUTF8() throws {
        // JSONDecoder reads this as UTF-8: its zeros are not at bytes 0 and 2 or 1 and 3.
        let data = Data([0x22, 0x00, 0x00, 0x79, 0x22])
        do {
            _ = try questionsAndAnswers().modelType(for: response(), data: data)
        } catch {
            #expect(!String(describing: error).contains("UTF-16"), "\(error)")
        }
    }

    @Test("an empty body answers nil", arguments: ["", "  \n"])
    func emptyBody(_ body: String) throws {
        #expect(try matched(body) == nil)
    }

    @Test("registering a value again replaces its type, as a URL route does; an invalid key path throws and changes nothing")
    func registration() throws {
        var matcher = try questionsAndAnswers()
        #expect(matcher.modelType(forValue: "question") == ModelType(ModelA.self))
        #expect(throws: ModelKeyPath.SyntaxError.self) { try matcher.add("question", ModelE.self, at: "items[") }
        #expect(matcher.modelType(forValue: "question") == ModelType(ModelA.self))
        try matcher.add("question", ModelE.self)
        #expect(matcher.modelType(forValue: "question") == ModelType(ModelE.self))
        #expect(matcher.registeredValues == ["3", "answer", "question", "true"])
    }

    @Test("a field that is not a key-only path is one literal key")
    func literalField() throws {
        var matcher = TypeFieldModelMatcher(field: "a[0]")
        try matcher.add("x", ModelA.self)
        #expect(try matcher.modelType(for: response(), data: .json(#"{"a[0]":"x"}"#))?.type == ModelA.self)
    }

    @Test("through the serializer: the tag picks the type and its key path")
    func serializer() throws {
        struct Question: Decodable, Sendable, Equatable { let title: String }
        var matcher = TypeFieldModelMatcher()
        try matcher.add("question", [Question].self, at: "items")
        let serializer = ModelResponseSerializer(matcher: matcher)
        let body = Data.json(#"{"items":[{"title":"Why?"}],"has_more":false,"type":"question"}"#)
        #expect(try serializer.serialize(body, for: response(), as: [Question].self) == [Question(title: "Why?")])
        let html = try #require(throws: SculptError.self) { try serializer.serialize(.json("<html>"), for: response(contentType: nil)) }
        #expect(html.description == """
            The body of GET https://api.example.com/users/octocat -> 200 OK is not valid JSON at byte 0: expected a JSON value, found '<'.
            Body (6 bytes): <html>
            """)
    }
}
