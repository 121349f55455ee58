import SculptMatchers
import Testing

@Suite("URLPattern")
struct URLPatternTests {
    @Test("compiles tokens", arguments: [
        ("/repos/*/*/issues/#", [URLPattern.Token.literal("repos"), .segment, .segment, .literal("issues"), .digits]),
        ("/search/**", [.literal("search"), .remainder]),
        ("", []),
        ("/", []),
        ("//", []),
        ("id#/a*b/***", [.literal("id#"), .literal("a*b"), .literal("***")]),
        ("/%2A/%23/a%2Fb", [.literal("*"), .literal("#"), .literal("a/b")]),
        ("**", [.remainder]),
    ])
    func tokens(_ text: String, _ tokens: [URLPattern.Token]) throws {
        #expect(try URLPattern(text).tokens == tokens)
    }

    @Test("writes itself in normal form", arguments: [
        ("repos//*/*/issues/#/", "/repos/*/*/issues/#"),
        ("", "/"),
        ("/%2A/a%2Fb/100%25", "/%2A/a%2Fb/100%25"),
        ("/search/**", "/search/**"),
        // A combining mark after an encoded `/` or `%` joins it into one Character; the escaping
        // must still see the `/` and the `%`.
        ("/a%2F\u{359}b", "/a%2F\u{359}b"),
        ("/%25\u{301}", "/%25\u{301}"),
    ])
    func normalForm(_ text: String, _ normal: String) throws {
        let pattern = try URLPattern(text)
        #expect(pattern.description == normal)
        #expect(try URLPattern(pattern.description) == pattern)
    }
}
