import Foundation
import HTTPTypes
import Sculpt
import SculptJSON
import SculptMatchers
import Testing

private struct Push: Decodable, Sendable, Equatable { let type: String; let commits: Int }

private enum Events: TypeFieldFamily {
    static let types: [String: any (Decodable & Sendable).Type] = ["PushEvent": Push.self]
}

private enum EventsKeepingUnknown: TypeFieldFamily {
    static let types = Events.types
    static let fallback: (any (Decodable & Sendable).Type)? = JSONValue.self
}

private struct Question: Decodable, Sendable { let type: String; let title: String }

/// The events an observer heard, in order.
private final class Heard: Sendable {
    private let events = Locked<[DecodingEvent]>([])
    var all: [DecodingEvent] { events.withLock { $0 } }
    func observer() -> @Sendable (DecodingEvent) -> Void { { event in self.events.withLock { $0.append(event) } } }
}

/// A serializer's decoding observer hears of every part of a response a decode loses without
/// failing, with where it was, why, and which request and route it came from.
@Suite("Decoding observers hear what lossy decodes leave out")
struct DecodingObserverTests {
    private static let users = #"[{"login":"a","id":1},{"login":"b","id":"two"},{"login":"c","id":3}]"#

    private func serializer<Matcher: ModelMatcher>(_ matcher: Matcher, decoder: any ModelDecoder = SculptJSONDecoder(), _ heard: Heard) -> ModelResponseSerializer<Matcher> {
        var serializer = ModelResponseSerializer(matcher: matcher, decoder: decoder)
        serializer.decodingObserver = heard.observer()
        return serializer
    }

    private func userRoutes() throws -> URLModelMatcher {
        var routes = URLModelMatcher(pathPrefix: "/v3")
        try routes.add("/orgs/{org}/members", LossyArray<User>.self, method: .get)
        return routes
    }

    enum Decoder: String, CaseIterable, Sendable {
        case sculptJSON, foundationJSON
        var decoder: any ModelDecoder { self == .sculptJSON ? SculptJSONDecoder() : JSONDecoder() }
    }

    @Test("a skipped element is told with its index, path, reason, route, status and redacted URL", arguments: Decoder.allCases)
    func skippedElement(decoder: Decoder) throws {
        let heard = Heard()
        let serializer = serializer(try userRoutes(), decoder: decoder.decoder, heard)
        let context = response("https://api.example.com/v3/orgs/apple/members?access_token=s3cr3t-t0ken")
        let users = try serializer.serialize(.json(Self.users), for: context, as: LossyArray<User>.self)
        #expect(users.elements.map(\.login) == ["a", "c"])
        let event = try #require(heard.all.only)
        #expect(event.kind == .elementSkipped(index: 1, tag: nil))
        #expect(event.codingPath == "[1]")
        #expect(event.reason == "At [1].id: expected Int. (the value is not shown)")
        #expect(event.error is DecodingError)
        #expect(event.route == "GET /orgs/{org}/members -> LossyArray<User>")
        #expect(event.method == "GET")
        #expect(event.status == 200)
        #expect(event.url == "https://api.example.com/v3/orgs/apple/members?access_token=REDACTED")
        #expect(event.description == "GET https://api.example.com/v3/orgs/apple/members?access_token=REDACTED -> 200, route GET /orgs/{org}/members -> LossyArray<User>: skipped element [1]: At [1].id: expected Int. (the value is not shown)")
    }

    @Test("every entry point of the serializer and its envelope tells the observer")
    func everyEntryPoint() throws {
        let heard = Heard()
        let serializer = serializer(try userRoutes(), heard)
        let context = response("https://api.example.com/v3/orgs/apple/members")
        _ = try serializer.serialize(.json(Self.users), for: context)
        _ = try serializer.serialize(.json(Self.users), for: context, as: LossyArray<User>.self)
        _ = try serializer.result(.json(Self.users), for: context, as: LossyArray<User>.self).get()
        struct Meta: Decodable, Sendable {}
        _ = try serializer.enveloped(in: Meta.self).serialize(.json(Self.users), for: context, as: LossyArray<User>.self)
        #expect(heard.all.map(\.kind) == Array(repeating: .elementSkipped(index: 1, tag: nil), count: 4))
    }

    @Test("a Lossy model that does not decode is told as a dropped value at the top level")
    func droppedValue() throws {
        let heard = Heard()
        let serializer = serializer(StaticModelMatcher(Lossy<User>.self), heard)
        let status = try serializer.serialize(.json(#"{"login":"a"}"#), for: response(), as: Lossy<User>.self)
        #expect(status.value == nil)
        let event = try #require(heard.all.only)
        #expect(event.kind == .valueDropped)
        #expect(event.codingPath == "(top level)")
        #expect(event.reason == #"At id: missing key "id"."#)
        #expect(event.route == "Lossy<User>")
    }

    @Test("a polymorphic element skipped or answered by the fallback is told with its tag")
    func polymorphic() throws {
        let heard = Heard()
        let body = #"[{"type":"PushEvent","commits":2},{"type":"PushEvent"},{"type":"PollEvent","question":"why?"}]"#
        let lossy = try serializer(StaticModelMatcher(LossyPolymorphicArray<Events>.self), heard)
            .serialize(.json(body), for: response(), as: LossyPolymorphicArray<Events>.self)
        #expect(lossy.elements.count == 1)
        #expect(heard.all.map(\.kind) == [.elementSkipped(index: 1, tag: #""PushEvent""#), .elementSkipped(index: 2, tag: #""PollEvent""#)])
        #expect(heard.all.map(\.codingPath) == ["[1]", "[2]"])

        let kept = Heard()
        let events = try serializer(StaticModelMatcher(LossyPolymorphicArray<EventsKeepingUnknown>.self), kept)
            .serialize(.json(body), for: response(), as: LossyPolymorphicArray<EventsKeepingUnknown>.self)
        #expect(events.elements.count == 2)
        #expect(kept.all.count == 2)
        #expect(kept.all.first?.kind == .elementSkipped(index: 1, tag: #""PushEvent""#))
        let fallback = try #require(kept.all.last)
        #expect(fallback.kind == .unknownTag(field: "type", found: #""PollEvent""#, fallback: "JSONValue"))
        #expect(fallback.codingPath == "[2]")
        #expect(fallback.reason == nil)
        #expect("\(fallback)".hasSuffix(#": "type" is "PollEvent", not registered; decoded as JSONValue at [2]"#), "\(fallback)")
    }

    @Test("an unknown tag is shown as the body has it: a string in quotes, a number or boolean bare")
    func tagAsWritten() throws {
        let heard = Heard()
        _ = try serializer(StaticModelMatcher(PolymorphicArray<EventsKeepingUnknown>.self), heard)
            .serialize(.json(#"[{"type":"Poll"},{"type":3.50},{"type":true},{}]"#), for: response(), as: PolymorphicArray<EventsKeepingUnknown>.self)
        #expect(heard.all.map(\.kind) == [#""Poll""#, "3.5", "true", nil].map { .unknownTag(field: "type", found: $0, fallback: "JSONValue") })
    }

    @Test("the fallback keeps an unknown element's JSON, to encode again as it came")
    func fallbackKeepsJSON() throws {
        let body = #"[{"type":"PollEvent","question":"why?","votes":[1,2.5,null,true],"by":{"login":"a"}}]"#
        let events = try ModelResponseSerializer(matcher: StaticModelMatcher(PolymorphicArray<EventsKeepingUnknown>.self))
            .serialize(.json(body), for: response(), as: PolymorphicArray<EventsKeepingUnknown>.self)
        let unknown = try #require(events.elements.first as? JSONValue)
        #expect(unknown["type"] == .string("PollEvent"))
        #expect(unknown["votes"]?[1] == .double(2.5))
        #expect(unknown.description == #"{"by":{"login":"a"},"question":"why?","type":"PollEvent","votes":[1,2.5,null,true]}"#)
        let encoded = try JSONEncoder().encode(unknown)
        #expect(try JSONDecoder().decode(JSONValue.self, from: encoded) == unknown)
        #expect(try SculptJSONDecoder().decode(JSONValue.self, from: encoded) == unknown)
    }

    @Test("JSONValue keeps a whole number past Int's range exactly, with either decoder", arguments: [
        ("18446744073709551616", "18446744073709551616"),
        ("9223372036854775808", "9223372036854775808"),
        ("123456789012345678901234567890", "123456789012345678901234567890"),
        ("-9223372036854775809", "-9223372036854775809"),
    ])
    func wholeNumbers(_ text: String, _ expected: String) throws {
        for decoder in Decoder.allCases {
            let value = try ModelResponseSerializer(matcher: StaticModelMatcher(JSONValue.self), decoder: decoder.decoder)
                .serialize(.json("[\(text)]"), for: response(), as: JSONValue.self)
            #expect(value.description == "[\(expected)]")
            let again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
            #expect(again == value)
        }
    }

    @Test("a type-field matcher's fallback is told at the top level, and names the route that delegated to it")
    func matcherFallback() throws {
        var byType = TypeFieldModelMatcher(field: "type")
        try byType.add("question", Question.self)
        byType.fallback = ModelType(JSONValue.self)
        var routes = URLModelMatcher()
        try routes.add("/feed/*", matcher: byType)
        let heard = Heard()
        let serializer = serializer(routes, heard)
        let question = try serializer.serialize(.json(#"{"type":"question","title":"t"}"#), for: response("https://x/feed/1"))
        #expect(question is Question)
        #expect(heard.all.isEmpty)

        let unknown = try serializer.serialize(.json(#"{"type":"poll","title":"t"}"#), for: response("https://x/feed/2"))
        #expect((unknown as? JSONValue)?["type"] == .string("poll"))
        let event = try #require(heard.all.only)
        #expect(event.kind == .unknownTag(field: "type", found: #""poll""#, fallback: "JSONValue"))
        #expect(event.codingPath == "(top level)")
        #expect(event.route == "/feed/* -> type: fallback -> JSONValue")

        _ = try serializer.serialize(.json(#"{"title":"t"}"#), for: response("https://x/feed/3"))
        #expect(heard.all.last?.kind == .unknownTag(field: "type", found: nil, fallback: "JSONValue"))
        #expect(heard.all.last.map { "\($0.kind)" } == #"no "type"; decoded as JSONValue"#)
    }

    @Test("matchers describe the route that resolved a response", arguments: [
        ("https://x/v3/users/octocat", "GET", "GET /users/{login} -> User"),
        ("https://x/v3/feed/1", "GET", #"/feed/* -> kind: "3" -> Question"#),
        ("https://x/v3/nothing", "GET", "User"),
        ("https://x/nothing", "GET", "User"),
    ])
    func matchedRoutes(url: String, method: String, expected: String) throws {
        var byKind = TypeFieldModelMatcher(field: "kind")
        try byKind.add("3", Question.self)
        var routes = URLModelMatcher(pathPrefix: "/v3")
        try routes.add("/users/{login}", User.self, method: .get)
        try routes.add("/feed/*", matcher: byKind)
        let matcher = FirstMatchModelMatcher([routes, StaticModelMatcher(User.self)])
        let context = response(url, method: HTTPRequest.Method(method))
        #expect(matcher.matchedRoute(for: context, data: .json(#"{"kind":3.0}"#)) == expected)
    }

    @Test("a serializer without an observer, run inside an observed decode, keeps its events from that observer")
    func nestedUnobserved() throws {
        struct Outer: Decodable, Sendable {
            let inner: LossyArray<User>
            init(from decoder: any Swift.Decoder) throws {
                let text = try decoder.singleValueContainer().decode(String.self)
                inner = try ModelResponseSerializer(matcher: StaticModelMatcher(LossyArray<User>.self))
                    .serialize(.json(text), for: response(), as: LossyArray<User>.self)
            }
        }
        let heard = Heard()
        let body = try String(decoding: JSONEncoder().encode(Self.users), as: UTF8.self)
        let outer = try serializer(StaticModelMatcher(Outer.self), heard).serialize(.json(body), for: response(), as: Outer.self)
        #expect(outer.inner.failures.count == 1)
        #expect(heard.all.isEmpty)
    }

    @Test("a response that fails delivers no events: its error says what failed", arguments: 0..<4)
    func failingResponse(_ row: Int) throws {
        struct Page: Decodable, Sendable { let items: LossyArray<User>; let total: Int }
        struct Strict: Decodable, Sendable { let type: String; let question: String }
        enum FallbackFails: TypeFieldFamily {
            static let types = Events.types
            static let fallback: (any (Decodable & Sendable).Type)? = Strict.self
        }
        var byType = TypeFieldModelMatcher(field: "type")
        try byType.add("PushEvent", Push.self)
        byType.fallback = ModelType(JSONValue.self)
        let heard = Heard()
        #expect(throws: SculptError.self) {
            switch row {
            case 0: _ = try serializer(StaticModelMatcher(Page.self), heard).serialize(.json(#"{"items":\#(Self.users)}"#), for: response(), as: Page.self)
            case 1: _ = try serializer(StaticModelMatcher(PolymorphicArray<FallbackFails>.self), heard)
                .serialize(.json(#"[{"type":"Poll"}]"#), for: response(), as: PolymorphicArray<FallbackFails>.self)
            case 2: _ = try serializer(byType, heard).serialize(.json(#"{"type":"Poll"}"#), for: response(), as: Push.self)
            default:
                var errors = ModelResponseSerializer(matcher: StaticModelMatcher([Int].self), errorMatcher: StaticModelMatcher(LossyArray<Int>.self))
                errors.decodingObserver = heard.observer()
                _ = try errors.serialize(.json(#"[1,"x"]"#), for: response(status: .notFound), as: [Int].self)
            }
        }
        #expect(heard.all.isEmpty)
    }

    @Test("what the observer decodes itself is not observed")
    func observerDecodes() throws {
        let heard = Heard()
        var serializer = ModelResponseSerializer(matcher: try userRoutes())
        let inner = heard.observer()
        serializer.decodingObserver = { event in
            inner(event)
            _ = try? JSONDecoder().decode(LossyArray<Int>.self, from: Data(#"["not a number"]"#.utf8))
        }
        _ = try serializer.serialize(.json(Self.users), for: response("https://x/v3/orgs/a/members"), as: LossyArray<User>.self)
        #expect(heard.all.count == 1)
    }

    @Test("keys from the body on a coding path are shown on one line, escaped")
    func dictionaryKeys() throws {
        let heard = Heard()
        _ = try serializer(StaticModelMatcher(LossyArray<[String: Int]>.self), heard)
            .serialize(.json(#"[{"k\nINFO fake line":"x"}]"#), for: response(), as: LossyArray<[String: Int]>.self)
        let event = try #require(heard.all.only)
        #expect(!(event.reason ?? "").contains("\n"))
        #expect(!event.codingPath.contains("\n"))
        #expect(!event.description.contains("\n"))
    }

    @Test("a tag is kept to 256 bytes and shown on one line")
    func hostileTag() throws {
        let heard = Heard()
        let tag = "x\u{1B}[31m\n" + String(repeating: "y", count: 100_000)
        let body = try String(decoding: JSONEncoder().encode([["type": tag]]), as: UTF8.self)
        _ = try serializer(StaticModelMatcher(PolymorphicArray<EventsKeepingUnknown>.self), heard)
            .serialize(.json(body), for: response(), as: PolymorphicArray<EventsKeepingUnknown>.self)
        let kind = try #require(heard.all.only).kind
        guard case .unknownTag(_, let found?, _) = kind else { Issue.record("\(kind)"); return }
        #expect(found.utf8.count < 400)
        #expect(!"\(kind)".contains("\n") && !"\(kind)".contains("\u{1B}"))
    }

    @Test("without an observer nothing is told, and the lossy shapes still keep their failures")
    func noObserver() throws {
        let users = try ModelResponseSerializer(matcher: try userRoutes())
            .serialize(.json(Self.users), for: response("https://x/v3/orgs/a/members"), as: LossyArray<User>.self)
        #expect(users.failures.map(\.index) == [1])
    }

    @Test("concurrent responses each tell their own URL")
    func concurrentResponses() async throws {
        let heard = Heard()
        let serializer = serializer(try userRoutes(), heard)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for org in 0..<64 {
                group.addTask {
                    _ = try serializer.serialize(.json(Self.users), for: response("https://x/v3/orgs/\(org)/members"), as: LossyArray<User>.self)
                }
            }
            try await group.waitForAll()
        }
        #expect(Set(heard.all.map(\.url)) == Set((0..<64).map { "https://x/v3/orgs/\($0)/members" }))
    }

    @Test("an event is one bounded line whatever the body and URL hold")
    func boundedLine() throws {
        let heard = Heard()
        let tag = "Evil\n" + String(repeating: "x", count: 100_000)
        let body = try String(decoding: JSONEncoder().encode([["type": tag]]), as: UTF8.self)
        _ = try serializer(StaticModelMatcher(LossyPolymorphicArray<Events>.self), heard)
            .serialize(.json(body), for: response("https://x/" + String(repeating: "p", count: 50_000)), as: LossyPolymorphicArray<Events>.self)
        let line = try #require(heard.all.only).description
        #expect(!line.contains("\n"))
        #expect(line.utf8.count <= 4_096 + 64)
    }

    /// A model whose own decoding throws an error at no coding path, quoting the body's values.
    private struct Quoting: Decodable, Sendable {
        init(from decoder: any Swift.Decoder) throws {
            let values = (try? decoder.singleValueContainer().decode([String: String].self)).map { $0.values.sorted().joined(separator: " ") } ?? ""
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "refused \(values)"))
        }
    }

    private static let quotedSecrets = ["sk_live_4eC39HqLyjWDarjtT1zdp7dc", "xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy", "correct-horse-battery"]

    @Test("a reason quotes nothing a model's own error says: a whole-body Lossy and a lossy array's element", arguments: Decoder.allCases)
    func reasonQuotesNoBodyValue(decoder: Decoder) throws {
        let heard = Heard()
        let secrets = Self.quotedSecrets
        let object = #"{"a":"\#(secrets[0])","b":"\#(secrets[1])","c":"\#(secrets[2])"}"#
        _ = try serializer(StaticModelMatcher(Lossy<Quoting>.self), decoder: decoder.decoder, heard).serialize(.json(object), for: response(), as: Lossy<Quoting>.self)
        _ = try serializer(StaticModelMatcher(LossyArray<Quoting>.self), decoder: decoder.decoder, heard).serialize(.json("[\(object)]"), for: response(), as: LossyArray<Quoting>.self)
        #expect(heard.all.map(\.kind) == [.valueDropped, .elementSkipped(index: 0, tag: nil)])
        for event in heard.all {
            for text in [event.description, event.reason ?? "", event.codingPath] {
                #expect(!secrets.contains { text.contains($0) }, "\(text)")
            }
            #expect(event.reason?.contains("(the value is not shown)") == true, "\(event.reason ?? "")")
        }
    }

    @Test("an element that is skipped is told once, at the element: what a Lossy inside it left nil is not in the result")
    func skippedElementHidesWhatItHeld() throws {
        struct Row: Decodable, Sendable { let note: Lossy<Int>; let id: Int }
        let heard = Heard()
        let rows = try serializer(StaticModelMatcher(LossyArray<Row>.self), heard)
            .serialize(.json(#"[{"note":1,"id":1},{"note":"x","id":"y"},{"note":"z","id":3}]"#), for: response(), as: LossyArray<Row>.self)
        #expect(rows.elements.map(\.id) == [1, 3])
        #expect(heard.all.map(\.kind) == [.elementSkipped(index: 1, tag: nil), .valueDropped])
        #expect(heard.all.map(\.codingPath) == ["[1]", "[2].note"])
    }

    @Test("a fallback that does not decode is told as the skip, naming the unknown tag and the fallback")
    func fallbackFailureNamesTheTag() throws {
        struct Strict: Decodable, Sendable { let type: String; let question: String }
        enum FallbackFails: TypeFieldFamily {
            static let types = Events.types
            static let fallback: (any (Decodable & Sendable).Type)? = Strict.self
        }
        let heard = Heard()
        _ = try serializer(StaticModelMatcher(LossyPolymorphicArray<FallbackFails>.self), heard)
            .serialize(.json(#"[{"type":"Poll"}]"#), for: response(), as: LossyPolymorphicArray<FallbackFails>.self)
        let event = try #require(heard.all.only)
        #expect(event.kind == .elementSkipped(index: 0, tag: #""Poll""#))
        #expect(event.reason?.hasPrefix(#""type" is "Poll", not registered; its fallback Strict did not decode: At [0]"#) == true, "\(event.reason ?? "")")
    }

    @Test("a tag is quoted as JSON writes it by a family and a type-field matcher alike, and one that is not a scalar is told as what it is", arguments: [
        (#"{"type":"a\"b"}"#, #""a\"b""#),
        (#"{"type":"a\u001Bb"}"#, #""a\u001bb""#),
        (#"{"type":{"x":1}}"#, "an object"),
        (#"{"type":[1]}"#, "an array"),
        (#"{"type":null}"#, "null"),
        (#"{"type":3.0}"#, "3"),
    ])
    func tagsQuotedAlike(_ element: String, _ found: String) throws {
        let heard = Heard()
        _ = try serializer(StaticModelMatcher(PolymorphicArray<EventsKeepingUnknown>.self), heard)
            .serialize(.json("[\(element)]"), for: response(), as: PolymorphicArray<EventsKeepingUnknown>.self)
        var byType = TypeFieldModelMatcher(field: "type")
        try byType.add("PushEvent", Push.self)
        byType.fallback = ModelType(JSONValue.self)
        _ = try serializer(byType, heard).serialize(.json(element), for: response())
        let kinds = heard.all.map(\.kind)
        #expect(kinds.count == 2)
        for kind in kinds {
            guard case .unknownTag(_, let shown, _) = kind else { Issue.record("\(kind)"); continue }
            #expect(shown == found, "\(kind)")
        }
        #expect(Set(kinds.map(\.description)).count == 1, "the family and the matcher say it the same way: \(kinds.map(\.description))")
    }

    @Test("each of 20,000 skipped elements is told, in order, at its own index")
    func manySkippedElements() throws {
        let heard = Heard()
        let body = "[" + Array(repeating: #""x""#, count: 20_000).joined(separator: ",") + "]"
        let numbers = try serializer(StaticModelMatcher(LossyArray<Int>.self), heard).serialize(.json(body), for: response(), as: LossyArray<Int>.self)
        #expect(numbers.failures.count == 20_000)
        #expect(heard.all.count == 20_000)
        #expect(heard.all.map(\.codingPath) == (0..<20_000).map { "[\($0)]" })
        #expect(heard.all.last?.reason == "At [19999]: expected Int. (the value is not shown)")
    }

    @Test("a value the URL, a header or a secret member's words hold is not shown where a model used it as a key", arguments: [
        ("https://h/x?api_key=urlKey99x", nil, #"{"items":{"urlKey99x":{"id":"x"}}}"#, "urlKey99x"),
        ("https://bob:pwUrl99xy@h/x", nil, #"{"items":{"pwUrl99xy":{"id":"x"}}}"#, "pwUrl99xy"),
        ("https://h/x", "sid=ckS3cret77x; theme=dark", #"{"items":{"ckS3cret77x":{"id":"x"}}}"#, "ckS3cret77x"),
        ("https://h/x", nil, #"{"cookie":"sid=ckS3cret77x; theme=dark","items":{"ckS3cret77x":{"id":"x"}}}"#, "ckS3cret77x"),
        ("https://h/x", nil, #"{"authorization":"token azS3cret77x","items":{"azS3cret77x":{"id":"x"}}}"#, "azS3cret77x"),
        ("https://h/x?authorization=Token%20zzSecretWord9", nil, #"{"items":{"zzSecretWord9":{"id":"x"}}}"#, "zzSecretWord9"),
        ("https://h/x?authorization=Token+zzSecretWord9", nil, #"{"items":{"zzSecretWord9":{"id":"x"}}}"#, "zzSecretWord9"),
        ("https://h/x", nil, #"{"note":"a=1&authorization=Token+zzSecretWord9","items":{"zzSecretWord9":{"id":"x"}}}"#, "zzSecretWord9"),
    ])
    func otherSecretAsKey(_ url: String, _ cookie: String?, _ body: String, _ secret: String) throws {
        struct Item: Decodable, Sendable { let id: Int }
        struct Wrap: Decodable, Sendable { let items: [String: Lossy<Item>] }
        let heard = Heard()
        var context = response(url)
        if let cookie { context.headerFields[.setCookie] = cookie }
        _ = try serializer(StaticModelMatcher(Wrap.self), heard).serialize(.json(body), for: context, as: Wrap.self)
        #expect(heard.all.count == 1)
        for event in heard.all {
            for text in [event.description, event.reason ?? "", event.codingPath] {
                #expect(!text.contains(secret), "\(text)")
            }
        }
    }

    @Test("a value the body holds under a secret name is not shown where a model used it as a key", arguments: [1, 300])
    func bodyValueAsKey(elements: Int) throws {
        typealias Keyed = KeyedByReference<String>
        let heard = Heard()
        let body = "[" + (0..<elements).map { #"{"ref":"hunter2hunter2-\#($0)","password":"hunter2hunter2-\#($0)"}"# }.joined(separator: ",") + "]"
        _ = try serializer(StaticModelMatcher(LossyArray<Keyed>.self), heard).serialize(.json(body), for: response(), as: LossyArray<Keyed>.self)
        #expect(heard.all.count == elements)
        for event in heard.all {
            for text in [event.description, event.reason ?? "", event.codingPath] {
                #expect(!text.contains("hunter2"), "\(text)")
            }
        }
    }

    @Test("a skipped element's tag is written as a type-field matcher writes a tag", arguments: [
        (#"{"type":3.0}"#, "3"),
        (#"{"type":true}"#, "true"),
        (#"{"type":null}"#, "null"),
        (#"{"type":{"a":1}}"#, "an object"),
        (#"{"type":[1]}"#, "an array"),
        (#"{"type":"Poll"}"#, #""Poll""#),
    ])
    func skippedTagWritten(_ element: String, _ tag: String) throws {
        struct Strict: Decodable, Sendable { let question: String }
        enum FallbackFails: TypeFieldFamily {
            static let types = Events.types
            static let fallback: (any (Decodable & Sendable).Type)? = Strict.self
        }
        let heard = Heard()
        _ = try serializer(StaticModelMatcher(LossyPolymorphicArray<FallbackFails>.self), heard)
            .serialize(.json("[\(element)]"), for: response(), as: LossyPolymorphicArray<FallbackFails>.self)
        let event = try #require(heard.all.only)
        #expect(event.kind == .elementSkipped(index: 0, tag: tag))
        #expect(event.kind.description == "skipped element [0] (tag \(tag))")
    }

    @Test("a tag the body also holds under a secret name is not shown", arguments: [
        #"[{"type":"Hunter2SuperSecretPw","password":"Hunter2SuperSecretPw"}]"#,
        #"[{"type":"Hunter2SuperSecretPw","password":"Hunter2Super\u0053ecretPw"}]"#,
        #"[{"type":"Hunter2SuperSecretPw","data":"a=1&password=Hunter2SuperSecretPw"}]"#,
        #"[{"type":98765432,"password":98765432}]"#,
        #"[{"type":"Hunter2SuperSecretPw","note":"Authorization: Bearer Hunter2SuperSecretPw"}]"#,
        #"[{"type":"Hunter2SuperSecretPw","note":"Authorization: Bearer\tHunter2SuperSecretPw"}]"#,
        #"[{"type":"Hunter2SuperSecretPw","credentials":{"current":["Hunter2SuperSecretPw"]}}]"#,
    ], [false, true])
    func secretTag(body: String, skipped: Bool) throws {
        struct Strict: Decodable, Sendable { let question: String }
        enum Skipping: TypeFieldFamily {
            static let types = Events.types
            static let fallback: (any (Decodable & Sendable).Type)? = Strict.self
        }
        let heard = Heard()
        if skipped {
            _ = try serializer(StaticModelMatcher(LossyPolymorphicArray<Skipping>.self), heard).serialize(.json(body), for: response(), as: LossyPolymorphicArray<Skipping>.self)
        } else {
            _ = try serializer(StaticModelMatcher(PolymorphicArray<EventsKeepingUnknown>.self), heard).serialize(.json(body), for: response(), as: PolymorphicArray<EventsKeepingUnknown>.self)
        }
        let event = try #require(heard.all.only)
        for text in [event.description, event.kind.description, event.reason ?? "", "\(event.kind)"] {
            #expect(!text.contains("Hunter2") && !text.contains("98765432"), "\(text)")
        }
        #expect(event.kind.description.contains("REDACTED"))
    }
}

extension Array {
    /// The one element of an array that has exactly one.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
