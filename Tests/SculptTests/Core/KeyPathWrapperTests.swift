import Foundation
import Sculpt
import SculptMatchers
import Testing

/// Key paths as APIs wrap their models: under `data.object` and `data.objects`, under a root key
/// such as `authors`, and nested with indexes (`json.nested[12].array`).
@Suite("Key paths through wrappers, root keys and indexes")
struct KeyPathWrapperTests {
    struct Item: Decodable, Sendable, Equatable { let id: Int }

    private func decode<M: Decodable & Sendable>(_ json: String, _ type: M.Type, at keyPath: String) throws -> M {
        try ModelResponseSerializer(matcher: StaticModelMatcher(M.self, at: keyPath)).serialize(.json(json), for: response(), as: M.self)
    }

    @Test("a model under data.object, a list under data.objects")
    func wrapped() throws {
        #expect(try decode(#"{"status":"ok","data":{"object":{"id":1}}}"#, Item.self, at: "data.object") == Item(id: 1))
        #expect(try decode(#"{"status":"ok","data":{"objects":[{"id":1},{"id":2}]}}"#, [Item].self, at: "data.objects") == [Item(id: 1), Item(id: 2)])
    }

    @Test("a list under a root key")
    func rootKey() throws {
        #expect(try decode(#"{"authors":[{"id":7}],"count":1}"#, [Item].self, at: "authors") == [Item(id: 7)])
    }

    @Test("nested and indexed paths, multi-digit indices", arguments: [
        ("json.array", [Item(id: 0)]),
        ("json.nested[12].array", [Item(id: 12)]),
        ("json.nested[10].array", [Item(id: 10)]),
    ])
    func indexed(_ keyPath: String, _ expected: [Item]) throws {
        let nested = (0..<13).map { #"{"array":[{"id":\#($0)}]}"# }.joined(separator: ",")
        let json = #"{"json":{"array":[{"id":0}],"nested":[\#(nested)]}}"#
        #expect(try decode(json, [Item].self, at: keyPath) == expected)
    }

    @Test("null and missing keys")
    func nullAndMissing() throws {
        #expect(try decode(#"{"data":{"object":null}}"#, Item?.self, at: "data.object") == nil)
        let null = try #require(throws: SculptError.self) { try decode(#"{"data":{"object":null}}"#, Item.self, at: "data.object") }
        #expect(null.reason.name == "decodingFailed")
        if case .decodingFailed(_, let underlying) = null.reason {
            guard case .valueNotFound? = underlying as? DecodingError else {
                Issue.record("expected DecodingError.valueNotFound, got \(underlying)")
                return
            }
        }
        let missing = try #require(throws: SculptError.self) { try decode(#"{"data":{"other":1}}"#, Item.self, at: "data.object") }
        #expect(missing.reason.name == "keyPathNotFound")
        if case .keyPathNotFound(let miss) = missing.reason {
            #expect(miss == SculptError.KeyPathMiss(keyPath: "data.object", failedAt: "data.object", availableKeys: ["other"]))
        }
    }
}
