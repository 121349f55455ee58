import Foundation
import HTTPTypes
import Sculpt
import SculptJSON
import SculptMatchers
import SculptTesting
import Testing

/// Which decodes a report's unread members come from (every decode of the body, only the body's,
/// and only when the serializer's decoder tracks reads), how names are compared (as strings, as
/// decoders compare them) and how they are shown.
@Suite("Unread members come from the body's decodes, compare names as decoders do, and show every character")
struct UnreadMembersTests {
    struct Inner: Decodable, Sendable {
        let a: Int?
    }

    /// A model that decodes a JSON string of its body with `SculptJSONDecoder`, whatever decoder
    /// the serializer has.
    struct Outer: Decodable, Sendable {
        enum CodingKeys: String, CodingKey {
            case outer
        }

        init(from decoder: any Decoder) throws {
            let json = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .outer)
            _ = try SculptJSONDecoder().decode(Inner.self, from: Data(json.utf8))
        }
    }

    struct Kind: Decodable, Sendable {
        let type: String
    }

    struct Account: Decodable, Sendable {
        let type: String
        let login: String
        let id: Int
    }

    /// A model that reads no member.
    struct Nothing: Decodable, Sendable {}

    static func report<M: Decodable & Sendable>(_ body: String, as model: M.Type, decoder: any ModelDecoder = SculptJSONDecoder()) throws -> [String]? {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(model), decoder: decoder)
        return MappingReport(fixtures: [try .stub(.get, "/thing", json: body)], serializer: serializer).mappings.first?.unreadMembers
    }

    @Test("a JSON string a model decodes with SculptJSONDecoder is not the body, under any serializer's decoder")
    func innerDocument() throws {
        let body = #"{"outer": "{\"a\": 1, \"b\": 2}", "extra": 1}"#
        #expect(try Self.report(body, as: Outer.self, decoder: JSONDecoder()) == [])
        #expect(try Self.report(body, as: Outer.self) == ["extra"])
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Outer.self), decoder: JSONDecoder())
        let report = MappingReport(fixtures: [try .stub(.get, "/thing", json: body)], serializer: serializer)
        #expect(report.mappings.first?.readsAreTracked == false, "an empty list that says nothing is known")
        #expect(try MappingReport(fixtures: [.stub(.get, "/thing", json: body)], serializer: ModelResponseSerializer(matcher: StaticModelMatcher(Outer.self), decoder: SculptJSONDecoder())).mappings.first?.readsAreTracked == true)
    }

    @Test("a matcher that looks at the body with SculptJSONDecoder adds what it read to the model's reads")
    func matcherLook() throws {
        let matcher = ClosureModelMatcher { _, data in
            _ = try SculptJSONDecoder().decode(Kind.self, from: data)
            return ModelType(Account.self)
        }
        let body = #"{"type": "user", "login": "ada", "id": 1, "extra": 2}"#
        for (decoder, unread) in [(SculptJSONDecoder() as any ModelDecoder, ["extra"]), (JSONDecoder(), [])] {
            let serializer = ModelResponseSerializer(matcher: matcher, decoder: decoder)
            let report = MappingReport(fixtures: [try .stub(.get, "/account", json: body)], serializer: serializer)
            #expect(report.mappings.first?.unreadMembers == unread, "\(type(of: decoder))")
        }
    }

    @Test(
        "a repeated name equal as a string to one read is not listed, whichever is written beyond ASCII",
        arguments: [
            (#"{"\u212A": 1, "K": true}"#, "K"),
            (#"{"K": 1, "\u212A": {"x": 1}}"#, "K"),
            (#"{"e\u0301": [[1]], "é": [2]}"#, "é"),
            (#"{"é": 1, "e\u0301": 2}"#, "é"),
        ])
    func canonicalRepeats(body: String, name: String) throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(NamedReader.self), decoder: SculptJSONDecoder())
        let report = try NamedReader.$name.withValue(name) {
            MappingReport(fixtures: [try .stub(.get, "/thing", json: body)], serializer: serializer)
        }
        #expect(report.mappings.first?.unreadMembers == [])
    }

    @Test("a name with a character that shows as nothing or moves text is quoted, the character escaped")
    func invisibleNames() throws {
        let body = #"{"\u007f": 1, "a\u2028b": 2, "\u202e": 3, "\u0085": 4, "plain": 5}"#
        #expect(try Self.report(body, as: Nothing.self) == [#""\u007f""#, #""a\u2028b""#, #""\u202e""#, #""\u0085""#, "plain"])
    }

    @Test(
        "a member unread in elements whose names the decoder hashed and in ones it did not is listed once",
        arguments: [
            // The second element's escaped name gives it no key table: its names are hashed by the walk.
            #"[{"id": 1, "extra": true}, {"\u0069d": 2, "extra": false}]"#,
            #"[{"\u0069d": 1, "extra": true}, {"id": 2, "extra": false}]"#,
            // A repeated name gives the first no kept hashes.
            #"[{"id": 1, "id": 3, "extra": true}, {"id": 2, "extra": false}]"#,
            // Names beyond ASCII give the second no key table.
            #"[{"id": 1, "extra": true}, {"id": 2, "extra": false, "é": 0}]"#,
        ])
    func namesHashedTwoWays(body: String) throws {
        let unread = try #require(try Self.report(body, as: [Identified].self))
        #expect(unread.filter { $0 == "[].extra" }.count == 1, "\(unread)")
        #expect(unread.allSatisfy { $0 == "[].extra" || $0 == "[].é" }, "\(unread)")
    }

    @Test("the same unread members are listed under snake case and custom keys, whose names the decoder hashes converted or not at all")
    func convertedKeys() throws {
        let body = #"[{"id": 1, "node_id": "a", "extra": true}, {"id": 2, "node_id": "b", "extra": false}]"#
        for strategy: JSONDecoder.KeyDecodingStrategy in [.useDefaultKeys, .convertFromSnakeCase, .custom { $0.last ?? AnyKey(stringValue: "") }] {
            var decoder = SculptJSONDecoder()
            decoder.keyDecodingStrategy = strategy
            #expect(try Self.report(body, as: [Identified].self, decoder: decoder) == ["[].node_id", "[].extra"], "\(strategy)")
        }
    }

    @Test("a decoder a model keeps reads its own body's marks: what it reads later is not counted for the next body")
    func keptDecoder() throws {
        let box = KeptDecoder()
        let body = #"{"a": 1, "b": 2}"#
        let serializer = try ModelResponseSerializer(matcher: {
            var routes = URLModelMatcher()
            try routes.add("/keeping", Keeping.self)
            try routes.add("/peeking", Peeking.self)
            return routes
        }(), decoder: SculptJSONDecoder())
        let report = try KeptDecoder.$current.withValue(box) {
            MappingReport(fixtures: [try .stub(.get, "/keeping", json: body), try .stub(.get, "/peeking", json: body)], serializer: serializer)
        }
        #expect(report.mappings.map(\.unreadMembers) == [["b"], ["b"]])
        #expect(box.laterReads == [2], "the kept decoder read its own body's b while the next body decoded")
    }

    @Test(
        "names equal as strings are one name, whether read, unread in one object, or unread in several elements",
        arguments: [
            (#"[{"K": 1}, {"\u212A": 1}]"#, ["[].K"]),
            (#"[{"é": 1}, {"e\u0301": 1}]"#, ["[].é"]),
            (#"[{"A\u030A": 1}, {"\u212B": 1}, {"Å": 1}]"#, ["[].Å"]),
            (#"{"é": 1, "e\u0301": 2}"#, ["é"]),
            (#"{"\u037E": 1, ";": 2}"#, ["\u{037E}"]),
        ])
    func canonicalNames(body: String, unread: [String]) throws {
        #expect(try Self.report(body, as: Anything.self) == unread)
    }

    @Test("a name whose escape does not decode is not taken for the name its escape spells")
    func undecodableEscape() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Anything.self), decoder: SculptJSONDecoder())
        let body = Data(#"[{"\ud800": 1}, {"\\ud800": 1}]"#.utf8)
        let report = MappingReport(fixtures: [try .stub(.get, "/thing", body: body)], serializer: serializer)
        #expect(report.mappings.first?.unreadMembers.count == 2, "\(report)")
    }

    @Test(
        "names come from the text the decoder read: after a byte order mark, or from UTF-16 and UTF-32",
        arguments: [
            (String.Encoding.utf8, true), (.utf16LittleEndian, true), (.utf16BigEndian, true), (.utf16LittleEndian, false),
            (.utf32LittleEndian, false), (.utf32BigEndian, false),
        ])
    func encodedBodies(encoding: String.Encoding, byteOrderMark: Bool) throws {
        let json = #"{"id": 1, "xyz": 2, "é": 3}"#
        var body = try #require(json.data(using: encoding))
        if byteOrderMark { body = try #require("\u{FEFF}".data(using: encoding)) + body }
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Identified.self), decoder: SculptJSONDecoder())
        let report = MappingReport(fixtures: [try .stub(.get, "/thing", body: body)], serializer: serializer)
        #expect(report.mappings.first?.unreadMembers == ["xyz", "é"], "\(report)")
    }

    @Test(
        "a type field a TypeFieldModelMatcher reads counts as read, and the members on the way to it",
        arguments: [
            ("type", #"{"id": 1, "x": 2, "type": "q"}"#, ["x"]),
            ("meta.type", #"{"id": 1, "meta": {"type": "q", "v": 1}}"#, ["meta.v"]),
            ("meta.type", #"{"id": 1, "meta": {"type": "unknown"}, "z": 0}"#, ["z"]),
        ])
    func typeField(field: String, body: String, unread: [String]) throws {
        var matcher = TypeFieldModelMatcher(field: field, ["q": Identified.self])
        matcher.fallback = ModelType(Identified.self)
        let serializer = ModelResponseSerializer(matcher: matcher, decoder: SculptJSONDecoder())
        let report = MappingReport(fixtures: [try .stub(.get, "/thing", json: body)], serializer: serializer)
        #expect(report.mappings.first?.unreadMembers == unread, "\(report)")
    }

    @Test("a description writes only the unread paths it shows, and counts the rest")
    func deepDescription() throws {
        let depth = 40
        let members = (0..<2_000).map { #""m\#($0)": 0"# }.joined(separator: ", ")
        let body = String(repeating: #"{"n": "#, count: depth) + "{\(members)}" + String(repeating: "}", count: depth)
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Chain.self), decoder: SculptJSONDecoder())
        let report = MappingReport(fixtures: [try .stub(.get, "/deep", json: body)], serializer: serializer)
        let unread = try #require(report.mappings.first?.unreadMembers)
        #expect(unread.count == 2_000)
        #expect(unread.first == Array(repeating: "n", count: depth).joined(separator: ".") + ".m0")
        #expect(report.description.contains("more)"))
        #expect(report.description.utf8.count < 4_096)
    }
}

/// A model that reads nothing of any JSON value.
struct Anything: Decodable, Sendable {
    init(from decoder: any Decoder) throws {
        if var elements = try? decoder.unkeyedContainer() {
            while !elements.isAtEnd { _ = try elements.decode(Anything.self) }
        }
    }
}

/// A model that reads `id`.
struct Identified: Decodable, Sendable {
    let id: Int
}

/// Where a model keeps the decoder it was decoded with, for a later model to read through.
final class KeptDecoder: @unchecked Sendable {
    @TaskLocal static var current: KeptDecoder?
    var decoder: (any Decoder)?
    /// What the later model read through the kept decoder.
    var laterReads: [Int] = []
}

/// A model that reads `a` and keeps its decoder.
struct Keeping: Decodable, Sendable {
    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyKey.self).decode(Int.self, forKey: AnyKey(stringValue: "a"))
        KeptDecoder.current?.decoder = decoder
    }
}

/// A model that reads `a`, and reads `b` of the body before through the decoder kept from it.
struct Peeking: Decodable, Sendable {
    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyKey.self).decode(Int.self, forKey: AnyKey(stringValue: "a"))
        if let kept = KeptDecoder.current, let earlier = kept.decoder {
            kept.laterReads.append(try earlier.container(keyedBy: AnyKey.self).decode(Int.self, forKey: AnyKey(stringValue: "b")))
        }
    }
}

/// A model that reads one member, named by the test.
struct NamedReader: Decodable, Sendable {
    @TaskLocal static var name = ""

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        _ = container.contains(AnyKey(stringValue: Self.name))
        _ = try? container.decodeNil(forKey: AnyKey(stringValue: Self.name))
    }
}

/// A model that reads `n` at every depth, down to an object with no `n`.
indirect enum Chain: Decodable, Sendable {
    case next(Chain)
    case end

    enum CodingKeys: String, CodingKey {
        case n
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = try container.decodeIfPresent(Chain.self, forKey: .n).map(Chain.next) ?? .end
    }
}
