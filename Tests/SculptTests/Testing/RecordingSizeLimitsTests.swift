import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

/// Hostile recordings and route tables: what a fixture file, a HAR archive or a pathological
/// table can hold.
@Suite("Recordings and route tables at sizes no one should send")
struct RecordingSizeLimitsTests {
    @Test("a HAR body of 11 MB in base64 imports byte for byte")
    func hugeBase64() throws {
        let body = Data((0..<(8 << 20)).lazy.map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let har = #"{"log":{"entries":[{"request":{"method":"GET","url":"https://x/a"},"response":{"status":200,"headers":[],"content":{"mimeType":"application/octet-stream","encoding":"base64","text":"\#(body.base64EncodedString())"}}}]}}"#
        let archive = try HARArchive(json: Data(har.utf8))
        #expect(archive.fixtures.first?.data == body)
    }

    @Test("a fixture with duplicate headers keeps both, in order, through a round trip")
    func duplicateHeaders() throws {
        let text = #"{"request":{"url":"https://x/a"},"response":{"status":200,"headers":[["Set-Cookie","a=1"],["Link","<x>"],["Set-Cookie","b=2"]],"body":{}}}"#
        let fixture = try Fixture(json: Data(text.utf8))
        #expect(fixture.response.headerFields[values: .setCookie] == ["a=1", "b=2"])
        let again = try Fixture(json: fixture.encoded(byteExact: true))
        #expect(again.response.headerFields == fixture.response.headerFields)
    }

    @Test("a fixture with a status outside 0...999 is a format error, not a crash", arguments: ["-1", "1000", "99999999999999999999", "\"200\""])
    func oddStatus(_ status: String) {
        let text = #"{"request":{"url":"https://x/a"},"response":{"status":\#(status)}}"#
        #expect(throws: Fixture.FormatError.self) { try Fixture(json: Data(text.utf8)) }
    }

    @Test("fixture bodies nested to the 512-level limit parse on a task's stack; deeper ones are format errors", arguments: [500, 512, 100_000])
    func deepFixture(_ depth: Int) {
        let body = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let text = #"{"request":{"url":"https://x/a"},"response":{"status":200,"body":\#(body)}}"#
        let result = Result { try Fixture(json: Data(text.utf8)) }
        // The fixture object and its response add two levels to the body's.
        #expect((try? result.get()) != nil || depth + 2 > 512)
        if case .failure(let error) = result { #expect(error is Fixture.FormatError) }
    }

    /// 40 patterns of one to forty `*` segments, each ending in a literal the path never has, and a
    /// 40-segment path: a matcher that backtracks through every combination would not finish.
    @Test("many wildcards and remainders: no exponential backtracking", .timeLimit(.minutes(10)))
    func manyWildcards() throws {
        var matcher = URLModelMatcher()
        for count in 1...40 {
            try matcher.add(String(repeating: "/*", count: count) + "/end", User.self)
            try matcher.add(String(repeating: "/*", count: count) + "/#/**", [User].self)
        }
        let path = String(repeating: "/a", count: 40)
        #expect(matcher.route(for: try #require(URL(string: "https://x\(path)")))?.modelType == nil)
        #expect(matcher.route(for: try #require(URL(string: "https://x\(path)/end")))?.modelType == ModelType(User.self))
        #expect(matcher.route(for: try #require(URL(string: "https://x\(path)/a/end")))?.modelType == nil)  // 41 stars: no such pattern
        #expect(matcher.route(for: try #require(URL(string: "https://x\(path.dropLast(4))/7/x/y")))?.modelType == ModelType([User].self))
    }
}
