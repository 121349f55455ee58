import Foundation
import SculptMatchers
import Testing

/// A route table whose patterns are `depth` segments deep, and a path that makes a lookup walk
/// to the bottom of it and back before one route matches.
struct DeepTable: Sendable, CustomTestStringConvertible {
    var name: String
    /// The patterns for a depth, and the path (without a leading `/`) to match.
    var build: @Sendable (_ depth: Int) -> (patterns: [String], path: String)
    /// The pattern that wins, for a depth.
    var winner: @Sendable (_ depth: Int) -> String

    var testDescription: String { name }
}

/// A pattern over the limit, named briefly so the test log does not print it.
struct OversizedPattern: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    /// Its segment count.
    var count: Int

    var testDescription: String { name }
}

/// `/` and `count` copies of `segment`, joined by `/`.
private func path(_ segment: String, _ count: Int) -> String {
    "/" + Array(repeating: segment, count: count).joined(separator: "/")
}

private let deepTables: [DeepTable] = [
    DeepTable(
        name: "literal, # and * chains that end in a dead end, caught by /**",
        build: { depth in
            let patterns = ["1", "#", "*"].map { path($0, depth - 1) + "/end" } + ["/**"]
            return (patterns, path("1", depth - 1) + "/other")
        },
        winner: { _ in "/**" }),
    DeepTable(
        name: "a ** at every depth under a * chain",
        build: { depth in
            let patterns = (0..<depth).map { level in path("*", level) + "/**" } + [path("*", depth - 1) + "/end"]
            return (patterns, path("x", depth * 4))
        },
        winner: { depth in path("*", depth - 1) + "/**" }),
    DeepTable(
        name: "# then * at every depth, each dead end tried once",
        build: { depth in
            let patterns = (0..<depth).map { level in
                path("#", level) + path("*", depth - 1 - level) + "/end"
            } + ["/**"]
            return (patterns, path("1", depth - 1) + "/other")
        },
        winner: { _ in "/**" }),
]

@Suite("URLPattern limits")
struct URLPatternLimitTests {
    @Test("a pattern over the segment limit is refused, saying the limit and the count", arguments: [
        OversizedPattern(name: "100,000 segments", text: path("a", 100_000), count: 100_000),
        OversizedPattern(name: "257 * segments", text: path("*", 257), count: 257),
        OversizedPattern(name: "256 * segments and **", text: path("*", 256) + "/**", count: 257),
        OversizedPattern(name: "300 segments, doubled slashes", text: String(repeating: "a//", count: 300), count: 300),
    ])
    func overLimit(_ oversized: OversizedPattern) throws {
        let (pattern, count) = (oversized.text, oversized.count)
        let error = #expect(throws: URLPattern.SyntaxError.self) { try URLPattern(pattern) }
        let reason = "a pattern may have at most 256 segments; this one has \(count)"
        #expect(error?.pattern == pattern)
        #expect(error?.reason == reason)
        let shown = "invalid URL pattern \"\(pattern.prefix(56))…\(pattern.suffix(16))\" (\(pattern.utf8.count) bytes): \(reason)"
        #expect(error?.description == shown)
        var matcher = URLModelMatcher()
        let added = #expect(throws: URLPattern.SyntaxError.self) { try matcher.add(pattern, ModelA.self) }
        #expect(added == error)
        #expect(matcher.routes.isEmpty)
    }

    @Test("the longest allowed pattern registers and matches inside a task; one more segment is refused")
    func longestAllowed() async throws {
        let longest = (0..<URLPattern.maximumSegmentCount - 1).map { ["users", "#", "*"][$0 % 3] }.joined(separator: "/") + "/**"
        #expect(URLPattern.maximumSegmentCount == 256)
        let error = #expect(throws: URLPattern.SyntaxError.self) { try URLPattern("x/" + longest) }
        #expect(error?.reason == "a pattern may have at most 256 segments; this one has 257")
        var matcher = URLModelMatcher(pathPrefix: "/v3")
        try matcher.add(longest, ModelA.self)
        let segments = (0..<URLPattern.maximumSegmentCount - 1).map { ["users", "42", "x"][$0 % 3] }
        let url = try #require(URL(string: "https://x/v3/" + (segments + ["a", "b"]).joined(separator: "/")))
        // The last `#` refuses its segment: the lookup goes 250 levels deep before it fails.
        var missing = segments
        missing[try #require(segments.lastIndex(of: "42"))] = "x"
        let miss = try #require(URL(string: "https://x/v3/" + missing.joined(separator: "/")))
        // A task's stack is small (about 512 KB): the lookup's recursion must fit in it.
        let table = matcher
        let (matched, missed) = await Task { (table.route(for: url)?.pattern, table.route(for: miss)?.modelType) }.value
        #expect(matched == (try URLPattern(longest)))
        #expect(missed == nil)
    }

    @Test("the deepest tables backtrack through every level inside a task; one level deeper is refused", arguments: deepTables)
    func deepTable(_ table: DeepTable) async throws {
        let depth = URLPattern.maximumSegmentCount
        let (patterns, path) = table.build(depth)
        var matcher = URLModelMatcher()
        for pattern in patterns {
            try matcher.add(pattern, ModelA.self)
        }
        let url = try #require(URL(string: "https://x" + path))
        let built = matcher
        let matched = await Task { built.route(for: url)?.pattern.description }.value
        #expect(matched == table.winner(depth))

        let deeper = table.build(depth + 1).patterns.filter { $0.split(separator: "/").count > depth }
        #expect(!deeper.isEmpty)
        for pattern in deeper {
            #expect(throws: URLPattern.SyntaxError.self) { try matcher.add(pattern, ModelA.self) }
        }
    }

    @Test("a long pattern's error shows no part of a credential in it: the pattern is redacted before its middle is left out")
    func longPatternWithCredential() throws {
        let key = "sk_live_" + String(repeating: "a1B2c3D4", count: 12)
        var matcher = URLModelMatcher()
        let error = try #require(throws: URLPattern.SyntaxError.self) { try matcher.add("/x/\(key)/{", User.self) }
        #expect(!error.description.contains("a1B2c3D4"), "\(error.description)")
    }
}
