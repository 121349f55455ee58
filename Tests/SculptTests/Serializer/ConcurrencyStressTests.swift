import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import Testing

/// One serializer and one matcher shared by a thousand concurrent tasks, every matcher kind in the
/// mix: each task must get its own right answer. Run under `swift test --sanitize=thread` (CI does)
/// this is also the data-race check.
@Suite("Concurrency stress")
struct ConcurrencyStressTests {
    /// A response and what it must become.
    struct Exchange: Sendable {
        var response: ResponseContext
        var body: Data
        /// The login of the user (or of the first user of a list), or the error case expected.
        var expected: String
    }

    static let serializer: ModelResponseSerializer<FirstMatchModelMatcher> = {
        var types = TypeFieldModelMatcher(field: "kind")
        types.unknownValuesMatchNothing = true
        var routes = URLModelMatcher(pathPrefix: "/v3")
        do {
            try types.add("user", User.self)
            try types.add("page", [User].self, at: "data.items")
            try routes.add("/users/*", User.self)
            try routes.add("/orgs/*/members", LossyArray<User>.self)
            try routes.add("/search/**", [User].self, at: "items")
        } catch {
            Issue.record("the matchers do not compile: \(error)")
        }
        let byHeader = ClosureModelMatcher { response, _ in
            response.headerFields[HTTPField.Name("X-Model")!] == "user" ? ModelType(User.self) : nil
        }
        let matcher = FirstMatchModelMatcher([types, routes, byHeader, StaticModelMatcher([User].self)])
        return ModelResponseSerializer(matcher: matcher, errorMatcher: StaticModelMatcher(APIError.self))
    }()

    /// The exchange for task `index`: seven kinds, each with the index in its data.
    static func exchange(_ index: Int) -> Exchange {
        let login = "user\(index)"
        let user = #"{"login":"\#(login)","id":\#(index)}"#
        func response(_ path: String, status: HTTPResponse.Status = .ok, fields: HTTPFields = [:]) -> ResponseContext {
            var fields = fields
            fields[.contentType] = "application/json"
            return ResponseContext(url: URL(string: "https://api.example.com\(path)"), method: .get, status: status, headerFields: fields)
        }
        switch index % 7 {
        case 0: return Exchange(response: response("/v3/users/\(login)"), body: Data(user.utf8), expected: login)
        case 1: return Exchange(response: response("/other"), body: Data(#"{"kind":"user","login":"\#(login)","id":\#(index)}"#.utf8), expected: login)
        case 2: return Exchange(response: response("/other"), body: Data(#"{"kind":"page","data":{"items":[\#(user)]}}"#.utf8), expected: login)
        case 3: return Exchange(response: response("/v3/orgs/o/members"), body: Data("[\(user),7]".utf8), expected: login)
        case 4: return Exchange(response: response("/v3/search/a/b"), body: Data(#"{"items":[\#(user)]}"#.utf8), expected: login)
        case 5: return Exchange(response: response("/other", fields: [HTTPField.Name("X-Model")!: "user"]), body: Data(user.utf8), expected: login)
        default: return Exchange(response: response("/v3/users/\(login)", status: .notFound), body: Data(#"{"message":"\#(login)"}"#.utf8), expected: "error \(login)")
        }
    }

    /// What the serializer made of an exchange, in the terms of `Exchange.expected`.
    static func outcome(_ exchange: Exchange) -> String {
        do {
            switch try serializer.serialize(exchange.body, for: exchange.response) {
            case let user as User: return user.login
            case let users as [User]: return users.first?.login ?? "empty list"
            case let users as LossyArray<User>: return users.elements.first?.login ?? "empty list"
            case let other: return "unexpected \(type(of: other))"
            }
        } catch {
            guard let model = error.errorModel(as: APIError.self) else { return "failed: \(error)" }
            return "error \(model.message)"
        }
    }

    @Test("1,000 concurrent tasks share one serializer and get their own answers")
    func thousandTasks() async {
        let results = await withTaskGroup(of: (Int, String).self) { group in
            for index in 0..<1_000 {
                group.addTask { (index, Self.outcome(Self.exchange(index))) }
            }
            var results: [Int: String] = [:]
            for await (index, outcome) in group { results[index] = outcome }
            return results
        }
        #expect(results.count == 1_000)
        let wrong = (0..<1_000).filter { results[$0] != Self.exchange($0).expected }
        #expect(wrong.isEmpty, "wrong answers for tasks \(wrong.prefix(10)): \(wrong.prefix(3).map { results[$0] ?? "none" })")
    }
}
