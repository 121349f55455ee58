import Foundation
import Sculpt
import SculptMatchers
import Testing

private struct Push: Decodable, Sendable, Equatable { let type: String; let commits: Int }
private struct Watch: Decodable, Sendable, Equatable { let type: String }
private struct Unknown: Decodable, Sendable, Equatable { let type: String? }

private enum Events: TypeFieldFamily {
    static let types: [String: any (Decodable & Sendable).Type] = ["PushEvent": Push.self, "WatchEvent": Watch.self]
}

private enum EventsWithFallback: TypeFieldFamily {
    static let types = Events.types
    static let fallback: (any (Decodable & Sendable).Type)? = Unknown.self
}

private enum NestedTags: TypeFieldFamily {
    static let field = "meta.kind"
    static let types: [String: any (Decodable & Sendable).Type] = ["1": ModelA.self, "true": ModelB.self, "x": ModelC.self, "2.5": ModelD.self]
}

private func decode<M: Decodable & Sendable>(_ json: String, as type: M.Type) throws -> M {
    try ModelResponseSerializer(matcher: StaticModelMatcher(M.self)).serialize(.json(json), for: response(), as: M.self)
}

@Suite("Result shapes")
struct ResultShapeTests {
    @Test("M, [M] and M? register and decode")
    func singleMultipleOptional() throws {
        var routes = URLModelMatcher()
        try routes.add("/user", User.self)
        try routes.add("/users", [User].self)
        try routes.add("/maybe", User?.self)
        let serializer = ModelResponseSerializer(matcher: routes)
        let one = #"{"login":"a","id":1}"#
        #expect(try serializer.serialize(.json(one), for: response("https://x/user"), as: User.self).id == 1)
        #expect(try serializer.serialize(.json("[\(one),\(one)]"), for: response("https://x/users"), as: [User].self).count == 2)
        #expect(try serializer.serialize(.json("null"), for: response("https://x/maybe"), as: User?.self) == nil)
        #expect(try serializer.serialize(.json(one), for: response("https://x/maybe"), as: User?.self)?.login == "a")
        #expect(try (serializer.serialize(.json("null"), for: response("https://x/maybe")) as? User?) == .some(nil))
    }

    @Test("a lossy array keeps what decodes and reports the rest with coding paths")
    func lossyArray() throws {
        let users = try decode(#"[{"login":"a","id":1},{"login":"b"},{"login":"c","id":3},7,null]"#, as: LossyArray<User>.self)
        #expect(users.elements.map(\.login) == ["a", "c"])
        #expect(users.values.map { $0?.login } == ["a", nil, "c", nil, nil])
        #expect(users.failures.map(\.index) == [1, 3, 4])
        #expect(users.failures[0].description.contains("At [1].id: missing key \"id\""), "\(users.failures[0])")
        #expect(users.failures[1].error is DecodingError)
    }

    @Test("an element failure's description quotes nothing its model's own error says: a value it names may be a secret")
    func elementFailureQuotesNoModelError() throws {
        struct Refusing: Decodable, Sendable {
            init(from decoder: any Decoder) throws {
                struct Keys: CodingKey { var stringValue: String; var intValue: Int? { nil }; init(stringValue: String) { self.stringValue = stringValue }; init?(intValue: Int) { nil } }
                let value = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: Keys(stringValue: "v"))
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "rejected \(value)"))
            }
        }
        let refused = try decode(#"[{"v":"famS3cret77","token":"famS3cret77"}]"#, as: LossyArray<Refusing>.self)
        let failure = try #require(refused.failures.first)
        #expect(!failure.description.contains("famS3cret77"), "\(failure)")
        #expect(failure.description.hasPrefix("element [0]: "), "\(failure)")
    }

    @Test("a lossy array is still an array")
    func lossyArrayNotArray() throws {
        let error = try #require(throws: SculptError.self) { try decode(#"{"login":"a"}"#, as: LossyArray<User>.self) }
        #expect(error.reason.name == "decodingFailed")
        if case .decodingFailed(let modelType, let underlying) = error.reason {
            #expect(modelType == ModelType(LossyArray<User>.self))
            guard case .typeMismatch? = underlying as? DecodingError else {
                Issue.record("expected DecodingError.typeMismatch, got \(underlying)")
                return
            }
        }
    }

    @Test("a polymorphic array decodes each element as its tag says")
    func polymorphic() throws {
        let events = try decode(#"[{"type":"PushEvent","commits":2},{"type":"WatchEvent"},{"commits":1,"type":"PushEvent"}]"#, as: PolymorphicArray<Events>.self)
        #expect(events.elements.count == 3)
        #expect(events.elements[0] as? Push == Push(type: "PushEvent", commits: 2))
        #expect(events.elements[1] as? Watch == Watch(type: "WatchEvent"))
        #expect(events.elements[2] as? Push == Push(type: "PushEvent", commits: 1))
    }

    @Test("an unknown or missing tag fails a strict array at the element's field", arguments: [
        (#"[{"type":"PushEvent","commits":1},{"type":"ForkEvent"}]"#, #"At [1].type: the data is not valid. Unknown discriminator "type": found "ForkEvent"; registered: "PushEvent", "WatchEvent"."#),
        (#"[{"type":"WatchEvent"},{"commits":1}]"#, #"At [1].type: the data is not valid. Unknown discriminator "type": found missing"#),
        (#"[{"type":null}]"#, "found null"),
        (#"[{"type":"WatchEvent"},"PushEvent"]"#, "At [1]:"),
        (#"[{"type":"PushEvent"}]"#, #"At [0].commits: missing key "commits""#),
    ])
    func polymorphicFailures(_ json: String, _ message: String) throws {
        let error = try #require(throws: SculptError.self) { try decode(json, as: PolymorphicArray<Events>.self) }
        #expect(error.reason.name == "decodingFailed")
        #expect(error.description.contains(message), "\(error)")
    }

    @Test("a family's fallback takes unknown tags")
    func polymorphicFallback() throws {
        let events = try decode(#"[{"type":"ForkEvent"},{"id":1},{"type":"WatchEvent"}]"#, as: PolymorphicArray<EventsWithFallback>.self)
        #expect(events.elements[0] as? Unknown == Unknown(type: "ForkEvent"))
        #expect(events.elements[1] as? Unknown == Unknown(type: nil))
        #expect(events.elements[2] is Watch)
    }

    @Test("tags can be nested, numbers (compared by value) and booleans")
    func nestedTags() throws {
        let items = try decode(
            #"[{"meta":{"kind":1}},{"meta":{"kind":true}},{"meta":{"kind":"x"}},{"meta":{"kind":1.0}},{"meta":{"kind":10E-1}},{"meta":{"kind":2.50}}]"#,
            as: PolymorphicArray<NestedTags>.self)
        #expect(items.elements.map { String(describing: type(of: $0)) } == ["ModelA", "ModelB", "ModelC", "ModelA", "ModelA", "ModelD"])
    }

    @Test("a lossy polymorphic array skips and reports unknown tags and failing elements")
    func lossyPolymorphic() throws {
        let events = try decode(
            #"[{"type":"PushEvent","commits":2},{"type":"ForkEvent"},{"type":"PushEvent"},{"nope":1},{"type":"WatchEvent"}]"#,
            as: LossyPolymorphicArray<Events>.self)
        #expect(events.elements.count == 2)
        #expect(events.skipped.map(\.index) == [1, 2, 3])
        #expect(events.skipped.map(\.tag) == ["ForkEvent", "PushEvent", nil])
        #expect(events.skipped[0].description.contains(#"Unknown discriminator "type": found "ForkEvent""#))
        #expect(events.skipped[1].description.contains(#"At [2].commits: missing key "commits""#))
    }
}

@Suite("Result shapes side by side")
struct LossyShapeTests {
    @Test("one body, five shapes: M and [M] throw, M? is nil only for null, Lossy<M> keeps the failure, LossyArray keeps each", arguments: [
        (#"{"login":"a","id":1}"#, "a"),
        (#"{"login":"a"}"#, nil),
        ("null", nil),
    ] as [(String, String?)])
    func lossy(body: String, login: String?) throws {
        let lossy = try decode(body, as: Lossy<User>.self)
        #expect(lossy.value?.login == login)
        #expect((lossy.failure == nil) == (login != nil))
        if login == nil {
            #expect(lossy.failure is DecodingError)
            let error = #expect(throws: SculptError.self) { try decode(body, as: User.self) }
            #expect(error?.reason.name == "decodingFailed")
        }
        #expect(try decode("[\(body)]", as: LossyArray<User>.self).values.map { $0?.login } == [login])
    }

    @Test("a body that is not JSON still throws for Lossy; a 204's empty body is no model and no failure")
    func lossyNotJSON() throws {
        let error = #expect(throws: SculptError.self) { try decode("<html>", as: Lossy<User>.self) }
        #expect(error?.reason.name == "decodingFailed")
        let noContent = ResponseContext(url: URL(string: "https://api.example.com/user"), method: .get, status: .noContent, headerFields: [:])
        let empty = try ModelResponseSerializer(matcher: StaticModelMatcher(Lossy<User>.self)).serialize(Data(), for: noContent, as: Lossy<User>.self)
        #expect(empty.value == nil && empty.failure == nil)
    }
}
