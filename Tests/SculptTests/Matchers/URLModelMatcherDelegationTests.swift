import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import Testing

/// Routes that delegate to another matcher: `add(_:matcher:method:status:)`.
@Suite("URLModelMatcher: routes that delegate")
struct URLModelMatcherDelegationTests {
    struct Post: Decodable, Sendable, Equatable { let type: String; let text: String }
    struct Photo: Decodable, Sendable, Equatable { let type: String; let url: String }
    struct FeedItem: Decodable, Sendable, Equatable { let type: String }

    static func context(_ path: String, method: HTTPRequest.Method = .get, status: HTTPResponse.Status = .ok) -> ResponseContext {
        ResponseContext(url: URL(string: "https://api.example.com\(path)"), method: method, status: status, headerFields: [.contentType: "application/json"])
    }

    static func feed(unknownValuesMatchNothing: Bool = false) throws -> TypeFieldModelMatcher {
        var feed = TypeFieldModelMatcher(field: "type")
        try feed.add("post", Post.self)
        try feed.add("photo", Photo.self)
        feed.unknownValuesMatchNothing = unknownValuesMatchNothing
        return feed
    }

    /// A matcher that answers nil, as a delegate that does not recognize a response does.
    static let declining = ClosureModelMatcher { _, _ in nil }

    @Test("a type field decides /feed/* while other paths keep their own models, the prefix written once")
    func typeFieldUnderAPath() throws {
        var routes = URLModelMatcher(pathPrefix: "/v3")
        try routes.add("/feed/*", matcher: try Self.feed())
        try routes.add("/users/*", User.self)
        let serializer = ModelResponseSerializer(matcher: routes)
        let post = try serializer.serialize(Data(#"{"type":"post","text":"hi"}"#.utf8), for: Self.context("/v3/feed/1"))
        let photo = try serializer.serialize(Data(#"{"type":"photo","url":"u"}"#.utf8), for: Self.context("/v3/feed/2"))
        let user = try serializer.serialize(Data(#"{"login":"x","id":1}"#.utf8), for: Self.context("/v3/users/x"))
        #expect(post as? Post == Post(type: "post", text: "hi"))
        #expect(photo as? Photo == Photo(type: "photo", url: "u"))
        #expect(user as? User == User(login: "x", id: 1))
    }

    @Test("a delegate that answers nil falls through to the next route by precedence", arguments: [
        // (the routes, as: pattern, delegating?; the path; the model expected)
        ([("/feed/#", true), ("/feed/*", false)], "/feed/1", "FeedItem"),  // a more specific pattern declines
        ([("/feed/1", true), ("/feed/#", true), ("/**", false)], "/feed/1", "FeedItem"),  // two decline, then `**`
        ([("/feed/#", true)], "/feed/1", "none"),  // nothing after it
    ])
    func fallThrough(routes table: [(String, Bool)], path: String, expected: String) throws {
        var routes = URLModelMatcher()
        for (pattern, delegates) in table {
            if delegates { try routes.add(pattern, matcher: Self.declining) } else { try routes.add(pattern, FeedItem.self) }
        }
        let matched = try routes.modelType(for: Self.context(path), data: Data(#"{"type":"video"}"#.utf8))
        #expect(matched.map { "\($0.type)" } ?? "none" == expected)
    }

    @Test("among one pattern's routes, a method-specific delegate that declines gives way to the plain route")
    func samePatternFallsThrough() throws {
        var routes = URLModelMatcher()
        try routes.add("/feed/*", FeedItem.self)
        try routes.add("/feed/*", matcher: try Self.feed(unknownValuesMatchNothing: true), method: .get)
        let known = try routes.modelType(for: Self.context("/feed/1"), data: Data(#"{"type":"post","text":"t"}"#.utf8))
        let unknown = try routes.modelType(for: Self.context("/feed/1"), data: Data(#"{"type":"video"}"#.utf8))
        let posted = try routes.modelType(for: Self.context("/feed/1", method: .post), data: Data(#"{"type":"post","text":"t"}"#.utf8))
        #expect(known?.type == Post.self)
        #expect(unknown?.type == FeedItem.self)
        #expect(posted?.type == FeedItem.self)
    }

    @Test("a delegate's error ends the match: the serializer reports it with the response")
    func delegateThrows() throws {
        var routes = URLModelMatcher()
        try routes.add("/feed/*", matcher: try Self.feed())
        try routes.add("/**", FeedItem.self)
        let serializer = ModelResponseSerializer(matcher: routes)
        let body = Data(#"{"type":"video"}"#.utf8)
        let error = try #require(throws: SculptError.self) { try serializer.serialize(body, for: Self.context("/feed/9")) }
        #expect(error.reason.name == "unknownDiscriminator")
        if case .unknownDiscriminator(let field, let found, let registered) = error.reason {
            #expect(field == "type")
            #expect(found == #""video""#)  // the value as the body spells it
            #expect(registered == ["photo", "post"])
        }
        #expect(error.body == body)
    }

    @Test("URL-only lookups name a delegating route but cannot resolve it without the response")
    func urlOnlyLookups() throws {
        var routes = URLModelMatcher()
        try routes.add("/feed/*", matcher: try Self.feed(), method: .get)
        let url = try #require(URL(string: "https://api.example.com/feed/1"))
        let route = try #require(routes.route(for: url, method: .get))
        #expect(route.modelType == nil)
        #expect(route.description == "GET /feed/* -> TypeFieldModelMatcher")
        #expect(routes.route(for: url, method: .get)?.modelType == nil)
    }

    @Test("re-registering a pattern, method and status replaces a delegate with a model and back")
    func replaces() throws {
        var routes = URLModelMatcher()
        try routes.add("/feed/*", matcher: Self.declining)
        try routes.add("/feed/*", FeedItem.self)
        #expect(routes.routes.count == 1)
        #expect(try routes.modelType(for: Self.context("/feed/1"), data: Data("{}".utf8))?.type == FeedItem.self)
        try routes.add("/feed/*", matcher: Self.declining)
        #expect(routes.routes.count == 1)
        #expect(try routes.modelType(for: Self.context("/feed/1"), data: Data("{}".utf8)) == nil)
    }
}
