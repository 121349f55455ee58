import Foundation
import Sculpt
import SculptMatchers
import Testing

@Suite("Static, first-match and closure matchers")
struct CompositionTests {
    @Test("a static matcher always answers its type")
    func staticMatcher() throws {
        let matcher = StaticModelMatcher([User].self, at: "items")
        #expect(try matcher.modelType(for: response(), data: Data()) == ModelType([User].self, at: "items"))
        #expect(try matcher.modelType(for: ResponseContext(url: nil, status: .notFound), data: Data("x".utf8)) == matcher.modelType)
    }

    @Test("the first non-nil answer wins, in order")
    func firstMatch() throws {
        var users = URLModelMatcher()
        try users.add("/users/*", ModelA.self)
        let fallback = StaticModelMatcher(ModelB.self)
        let matcher = FirstMatchModelMatcher([users, fallback])
        #expect(try matcher.modelType(for: response("https://x/users/a"), data: Data())?.type == ModelA.self)
        #expect(try matcher.modelType(for: response("https://x/orgs/a"), data: Data())?.type == ModelB.self)
        #expect(try FirstMatchModelMatcher([fallback, users]).modelType(for: response("https://x/users/a"), data: Data())?.type == ModelB.self)
        #expect(try FirstMatchModelMatcher([]).modelType(for: response(), data: Data()) == nil)
    }

    @Test("a throwing matcher stops the search")
    func firstMatchThrows() {
        struct Unreadable: Error {}
        let matcher = FirstMatchModelMatcher([ClosureModelMatcher { _, _ in throw Unreadable() }, StaticModelMatcher(ModelA.self)])
        #expect(throws: Unreadable.self) { try matcher.modelType(for: response(), data: Data()) }
    }

    @Test("first-match gathers every matcher's candidates")
    func candidates() throws {
        var a = URLModelMatcher()
        try a.add("/users/*", ModelA.self)
        var b = URLModelMatcher()
        try b.add("/users/*/repos", ModelB.self)
        try b.add("/orgs/*", ModelB.self)  // shares no segment with the path: not near
        let matcher = FirstMatchModelMatcher([a, b])
        #expect(matcher.nearestCandidates(for: response("https://x/users/1/starred")) == ["/users/*", "/users/*/repos"])
    }

    @Test("a closure matcher sees the response and the body")
    func closure() throws {
        let matcher = ClosureModelMatcher { response, data in
            response.status == .created && data.first == UInt8(ascii: "[") ? ModelType([ModelA].self) : nil
        }
        #expect(try matcher.modelType(for: response(status: .created), data: Data("[]".utf8)) == ModelType([ModelA].self))
        #expect(try matcher.modelType(for: response(status: .ok), data: Data("[]".utf8)) == nil)
    }
}
