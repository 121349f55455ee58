import Foundation
import Sculpt
import SculptMatchers
import Testing

@Suite("ModelKeyPath")
struct ModelKeyPathTests {
    @Test("parses", arguments: [
        ("data", [ModelKeyPath.Component.key("data")]),
        ("data.items", [.key("data"), .key("items")]),
        ("results[0].tracks", [.key("results"), .index(0), .key("tracks")]),
        ("[2]", [.index(2)]),
        ("[0][1].a", [.index(0), .index(1), .key("a")]),
        (#"links.self\.href"#, [.key("links"), .key("self.href")]),
        (#"a\[0\]"#, [.key("a[0]")]),
        (#"back\\slash"#, [.key(#"back\slash"#)]),
        ("caf\u{E9}.\u{1F600}", [.key("caf\u{E9}"), .key("\u{1F600}")]),
        ("a b", [.key("a b")]),
    ])
    func parses(_ text: String, _ components: [ModelKeyPath.Component]) throws {
        let path = try ModelKeyPath(text)
        #expect(path.components == components)
        #expect(try ModelKeyPath(path.description) == path)
    }

    @Test("rejects", arguments: [
        ("", "empty key path"),
        ("a..b", "empty key"),
        (".a", "empty key"),
        ("a.", "empty key after '.'"),
        ("a[", "never closed"),
        ("a[x]", "non-negative integer"),
        ("a[-1]", "non-negative integer"),
        ("a[]", "non-negative integer"),
        ("a[99999999999999999999]", "non-negative integer"),
        ("a]", "unexpected ']'"),
        ("a[0]b", "expected '.' or '['"),
        ("a.[0]", "empty key before '['"),
        (#"a\"#, "escapes nothing"),
    ])
    func rejects(_ text: String, _ reason: String) {
        #expect {
            try ModelKeyPath(text)
        } throws: { error in
            (error as? ModelKeyPath.SyntaxError)?.description.contains(reason) == true
        }
    }
}

@Suite("Decoding at a key path")
struct KeyPathDecodingTests {
    struct Track: Decodable, Sendable, Equatable { let title: String }

    private func decode<M: Decodable & Sendable>(_ json: String, _ type: M.Type, at keyPath: String) throws -> M {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(M.self, at: keyPath))
        return try serializer.serialize(.json(json), for: response(), as: M.self)
    }

    @Test("finds objects, arrays and scalars")
    func finds() throws {
        let json = #"{"results":[{"tracks":[{"title":"a"}]},{"tracks":[{"title":"b"}],"count":2,"name":"x","ok":true}],"links":{"self.href":"/me"}}"#
        #expect(try decode(json, [Track].self, at: "results[0].tracks") == [Track(title: "a")])
        #expect(try decode(json, Track.self, at: "results[1].tracks[0]") == Track(title: "b"))
        #expect(try decode(json, Int.self, at: "results[1].count") == 2)
        #expect(try decode(json, String.self, at: "results[1].name") == "x")
        #expect(try decode(json, Bool.self, at: "results[1].ok") == true)
        #expect(try decode(json, String.self, at: #"links.self\.href"#) == "/me")
        #expect(try decode(#"[[1,2],[3,4]]"#, Int.self, at: "[1][0]") == 3)
    }

    @Test("elements before an index are skipped, whatever they are")
    func skipsElements() throws {
        let json = #"{"a":[{"deep":{"x":[1,2,{"y":null}]}},"text",null,[1,[2]],3.5,{"target":true}]}"#
        #expect(try decode(json, Bool.self, at: "a[5].target"))
    }

    @Test("null at the path is nil for an optional model and an error otherwise")
    func nullAtPath() throws {
        #expect(try decode(#"{"data":{"user":null}}"#, User?.self, at: "data.user") == nil)
        let error = try #require(throws: SculptError.self) { try decode(#"{"data":{"user":null}}"#, User.self, at: "data.user") }
        #expect(error.reason.name == "decodingFailed")
        if case .decodingFailed(let modelType, let underlying) = error.reason {
            #expect(modelType == ModelType(User.self, at: "data.user"))
            guard case .valueNotFound? = underlying as? DecodingError else {
                Issue.record("expected DecodingError.valueNotFound, got \(underlying)")
                return
            }
        }
    }

    @Test("misses name the path, where it failed and what was there", arguments: [
        (#"{"data":{"count":1,"next":null}}"#, "data.items", "data.items", ["count", "next"], nil as String?),
        (#"{"meta":{}}"#, "data.items", "data", ["meta"], nil),
        (#"{"data":{}}"#, "data.items", "data.items", [], nil),
        (#"{"data":[1,2,3]}"#, "data[3]", "data[3]", ["[0]...[2]"], nil),
        (#"{"data":[]}"#, "data[0]", "data[0]", [], nil),
        (#"{"data":null}"#, "data.items", "data.items", [], "null"),
        (#"{"data":"text"}"#, "data.items", "data.items", [], "found"),
        (#"{"data":{"a":1}}"#, "data[0]", "data[0]", [], "found"),
        (#"[1,2]"#, "data", "data", [], "found"),
        (#"{"a":1}"#, "[0]", "[0]", [], "found"),
    ])
    func misses(_ json: String, _ keyPath: String, _ failedAt: String, _ available: [String], _ found: String?) throws {
        let error = try #require(throws: SculptError.self) { try decode(json, [Int].self, at: keyPath) }
        #expect(error.reason.name == "keyPathNotFound")
        guard case .keyPathNotFound(let miss) = error.reason else { return }
        #expect(miss.keyPath == keyPath)
        #expect(miss.failedAt == failedAt)
        #expect(miss.availableKeys == available)
        if let found {
            #expect(miss.found?.localizedCaseInsensitiveContains(found) == true, "\(String(describing: miss.found))")
        } else {
            #expect(miss.found == nil)
        }
        #expect(error.body == .json(json))
        #expect(error.description.hasPrefix("Key path \(keyPath) not found in the body of GET https://api.example.com/users/octocat -> 200 OK.\n"))
    }

    @Test("an invalid key path is reported when decoding, not trapped")
    func invalidKeyPath() throws {
        let error = try #require(throws: SculptError.self) { try decode("{}", Int.self, at: "a..b") }
        #expect(error.reason.name == "invalidKeyPath")
        if case .invalidKeyPath(let syntax) = error.reason {
            #expect(syntax == ModelKeyPath.SyntaxError(keyPath: "a..b", offset: 2, reason: "empty key"))
        }
        #expect(error.description == """
            Cannot decode GET https://api.example.com/users/octocat -> 200 OK: invalid key path "a..b" at offset 2: empty key.
            Body (2 bytes): {}
            """)
    }

    @Test("the untyped path decodes at the key path too")
    func untyped() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Track].self, at: "data.items"))
        let model = try serializer.serialize(.json(#"{"data":{"items":[{"title":"t"}]}}"#), for: response())
        #expect(model as? [Track] == [Track(title: "t")])
    }
}

@Suite("Decoding outside a task")
struct PlainThreadDecodingTests {
    @Test("key paths and envelopes decode on a plain thread, nested and concurrently")
    func plainThreads() async throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Label].self, at: "data.items"))
        let body = Data.json(#"{"data":{"items":[{"name":"a","color":"1"}]}}"#)
        let results = await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
            DispatchQueue.global().async {
                let counts = LockedCounts(8)
                DispatchQueue.concurrentPerform(iterations: 8) { index in
                    let labels = try? serializer.serialize(body, for: response(), as: [Label].self)
                    counts.set(index, labels?.count ?? -1)
                }
                continuation.resume(returning: counts.values)
            }
        }
        #expect(results == Array(repeating: 1, count: 8))
    }
}

/// Results written from several threads.
private final class LockedCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int]

    init(_ count: Int) { stored = Array(repeating: 0, count: count) }

    func set(_ index: Int, _ value: Int) { lock.withLock { stored[index] = value } }

    var values: [Int] { lock.withLock { stored } }
}
