import Foundation
import Sculpt
import SculptJSON
import SculptMatchers
import Testing

/// Inside a serializer that decodes with `SculptJSONDecoder`, the type-field peek reads a scan of
/// the whole body, which the decode then reads too: the same outcomes as the peek alone and as
/// `JSONDecoder`, whatever the body.
@Suite("One scan for the type-field peek and SculptJSONDecoder")
struct SharedScanTests {
    static let context = ResponseContext(url: URL(string: "https://api.example.com/items"), status: .ok)
    static let fields = ["type", "meta.kind", "Kind", "m\u{E9}ta.caf\u{E9}"]

    /// What a matcher without registrations reports in a serializer with `decoder`: its `found`,
    /// or the error's code. (A serializer with `JSONDecoder` peeks on its own.)
    static func peek(_ matcher: TypeFieldModelMatcher, _ data: Data, _ decoder: any ModelDecoder) -> String {
        let serializer = ModelResponseSerializer(matcher: matcher, decoder: decoder)
        do {
            return "decoded \(try serializer.serialize(data, for: context))"
        } catch {
            switch error.reason {
            case .unknownDiscriminator(_, let found, _): return "found \(found ?? "nothing")"
            case .noModelMatched: return "matched nil"
            case .matcherFailed(let underlying): return (underlying as? SculptError).map { $0.reason.name } ?? "\(underlying)"
            default: return error.reason.name
            }
        }
    }

    @Test("the peek reading the shared scan finds what the peek alone finds, in every JSONTestSuite file", arguments: try JSONTestFile.all())
    func jsonTestSuite(_ file: JSONTestFile) {
        guard !file.data.isEmpty else { return }
        for field in Self.fields {
            let matcher = TypeFieldModelMatcher(field: field)
            #expect(Self.peek(matcher, file.data, SculptJSONDecoder()) == Self.peek(matcher, file.data, JSONDecoder()), "\(file.name) at \(field)")
        }
    }

    @Test("and in every sample of the corpus", arguments: ["stripe", "stackexchange", "github-webhooks", "octokit"])
    func corpus(_ folder: String) {
        for file in CorpusFiles.json(in: folder) {
            for field in ["type", "object", "action", "items", "sender.type", "owner.login"] {
                let matcher = TypeFieldModelMatcher(field: field)
                #expect(Self.peek(matcher, file.data, SculptJSONDecoder()) == Self.peek(matcher, file.data, JSONDecoder()), "\(folder)/\(file.name) at \(field)")
            }
        }
    }

    struct Blob: Decodable, Sendable, Equatable { let id: Int; let body: String; let type: String }
    struct Other: Decodable, Sendable, Equatable { let id: Int; let type: String }

    static let documents: [String] = [
        #"{"id":1,"body":"\#(String(repeating: #"lorem \"ipsum\" "#, count: 2_000))","type":"blob"}"#,
        #"{"type":"other","id":2,"type":"blob"}"#,
        #"{"t\u0079pe":"other","id":3}"#,
        #"{"id":4,"body":"x","type":"bl\u006Fb"}"#,
        #"{"id":5,"type":"blob","body":"\u0000"}"#,
        #"{"id":6,"type":"blob","body":"ok",}"#,
        #"{"id":7,"type":"blob","body":"ok"} trailing"#,
        #"{"id":8,"type":"blob","body":01}"#,
        #"{"id":9,"type":"nobody"}"#,
        "\u{FEFF}{\"id\":10,\"type\":\"other\"}",
        #"[{"type":"blob"}]"#,
        #"{"id":11,"type":"blob","body":"\ud800"}"#,
        #"{"id":12,"type":true}"#, #"{"id":13,"type":null}"#, #"{"id":14,"type":7}"#, #"{"id":15,"type":{"a":"blob"}}"#,
        #"{"id":16,"type":["blob"]}"#, #"{"id":17,"nested":{"type":"other"},"type":"other"}"#, #"{"id":18}"#, "{}", "[]", "\"blob\"",
        #"{"id":19,"type":"other","x":[1,{"type":"blob"}],"y":"\u00e9"}"#, #"{"id":20,"type":"oth\u0065r"}"#, #"{"id":21,"type":"other""#,
    ]

    @Test("a serializer decoding with SculptJSONDecoder gives the models and errors it gives with JSONDecoder", arguments: documents)
    func models(_ json: String) throws {
        var types = TypeFieldModelMatcher(field: "type")
        try types.add("blob", Blob.self)
        try types.add("other", Other.self)
        let data = Data(json.utf8)
        func outcome(_ decoder: any ModelDecoder) -> String {
            do {
                return "\(try ModelResponseSerializer(matcher: types, decoder: decoder).serialize(data, for: Self.context))"
            } catch {
                return error.reason.name
            }
        }
        #expect(outcome(SculptJSONDecoder()) == outcome(JSONDecoder()), "\(json.prefix(80))")
        for encoding in [String.Encoding.utf16BigEndian, .utf32LittleEndian] {
            guard let encoded = json.data(using: encoding) else { continue }
            func encodedOutcome(_ decoder: any ModelDecoder) -> String {
                (try? ModelResponseSerializer(matcher: types, decoder: decoder).serialize(encoded, for: Self.context)).map { "\($0)" } ?? "failed"
            }
            #expect(encodedOutcome(SculptJSONDecoder()) == encodedOutcome(JSONDecoder()), "\(json.prefix(80)) in \(encoding)")
        }
    }

    @Test("an invalid tag's offset counts the body as it arrived, byte order mark and all",
          arguments: [#"{"type":01}"#, #"{"id":1,"type":"\u0001"}"#, #"{"type":"\ud800x"}"#, #"{"meta":{"kind":-}}"#])
    func invalidTagOffsets(_ json: String) throws {
        let types = TypeFieldModelMatcher(field: json.contains("meta") ? "meta.kind" : "type", ["a": Other.self])
        for prefix in [[], [0xEF, 0xBB, 0xBF]] as [[UInt8]] {
            let data = Data(prefix) + Data(json.utf8)
            func invalid(_ decoder: any ModelDecoder) -> String {
                do {
                    return "decoded \(try ModelResponseSerializer(matcher: types, decoder: decoder).serialize(data, for: Self.context))"
                } catch {
                    guard case .invalidJSON(let reason, let offset) = error.reason else { return error.reason.name }
                    return "\(reason) at \(offset)"
                }
            }
            #expect(invalid(SculptJSONDecoder()) == invalid(JSONDecoder()), "\(prefix.count)-byte prefix")
        }
    }

    @Test("a scan is read only for the body it was made of: a matcher that peeks other bytes of the same length")
    func otherBytes() throws {
        let padding = String(repeating: "x", count: 100)
        let first = Data(#"{"id":1,"type":"other","padding":"\#(padding)"}"#.utf8)
        let second = Data(#"{"type":"other","padding":"\#(padding)","id":2}"#.utf8)
        #expect(first.count == second.count)
        let types = TypeFieldModelMatcher(field: "type", ["other": Other.self])
        let peekingFirst = ClosureModelMatcher { context, _ in try types.modelType(for: context, data: first) }
        let serializer = ModelResponseSerializer(matcher: peekingFirst, decoder: SculptJSONDecoder())
        #expect(try serializer.serialize(second, for: Self.context, as: Other.self) == Other(id: 2, type: "other"))
        #expect(try serializer.serialize(first, for: Self.context, as: Other.self) == Other(id: 1, type: "other"))
    }

    @Test("and for a body small enough to be stored inline, whose bytes are lent out on the stack")
    func otherSmallBytes() throws {
        let peeked = Data(#"{"type":"a"}"#.utf8)
        let decoded = Data(#"["type","a"]"#.utf8)
        let types = TypeFieldModelMatcher(field: "type", ["a": [String].self])
        let peekingOther = ClosureModelMatcher { context, _ in try types.modelType(for: context, data: peeked) }
        let serializer = ModelResponseSerializer(matcher: peekingOther, decoder: SculptJSONDecoder())
        #expect(try serializer.serialize(decoded, for: Self.context, as: [String].self) == ["type", "a"])
    }
}
