import Foundation
import HTTPTypes
import RoutingKit
import Sculpt
import SculptMatchers

/// The cases of the suite, with the targets issue #5 sets.
enum Cases {
    static func all() throws -> [Case] {
        let decoder = JSONDecoder()
        let github = try RouteTable.github()
        var routes = try github.sculpt()
        try routes.add("/users/*", GitHubUser.self, method: .get)  // replaces the table's GET /users/{username}
        try routes.add("/repos/*/*/issues", [Issue].self, method: .get)
        try routes.add("/repos/*/*/items", [Item].self)
        let serializer = ModelResponseSerializer(matcher: routes, decoder: decoder)
        let json: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        func context(_ path: String) -> ResponseContext {
            ResponseContext(url: URL(string: "https://api.github.com" + path), method: .get, status: .ok, headerFields: json)
        }

        var types = TypeFieldModelMatcher(field: "type")
        try types.add("User", GitHubUser.self)
        try types.add("blob", Blob.self)
        try types.add("question", [Question].self, at: "items")
        let typeSerializer = ModelResponseSerializer(matcher: types, decoder: decoder)
        let envelopeSerializer = ModelResponseSerializer(matcher: StaticModelMatcher([Issue].self, at: "data.items"), decoder: decoder)

        let user = Payloads.userJSON, issues = Payloads.issuesJSON, large = Payloads.largeArrayJSON
        let envelope = Payloads.envelopeJSON, wrapper = Payloads.wrapperJSON, blob = Payloads.discriminatorLastJSON
        let userContext = context("/users/octocat"), issuesContext = context("/repos/apple/swift/issues"), largeContext = context("/repos/apple/swift/items")

        let staticSerializer = ModelResponseSerializer(matcher: StaticModelMatcher(GitHubUser.self), decoder: decoder)
        return [
            // Reference points without targets: the harness's own noise (the same work on both
            // sides), and the pipeline alone (a matcher that does nothing).
            Case(name: "A/A: JSONDecoder against itself, 1.2 KB", baselineName: "JSONDecoder.decode", target: nil,
                 sculpt: { consume(try decoder.decode(GitHubUser.self, from: user)) },
                 baseline: { consume(try decoder.decode(GitHubUser.self, from: user)) }),
            Case(name: "static matcher + serializer, 1.2 KB user", baselineName: "JSONDecoder.decode", target: nil,
                 sculpt: { consume(try staticSerializer.serialize(user, for: userContext, as: GitHubUser.self)) },
                 baseline: { consume(try decoder.decode(GitHubUser.self, from: user)) }),
            Case(name: "URL matcher + serializer, 1.2 KB user", baselineName: "JSONDecoder.decode", target: 1.03,
                 sculpt: { consume(try serializer.serialize(user, for: userContext, as: GitHubUser.self)) },
                 baseline: { consume(try decoder.decode(GitHubUser.self, from: user)) }),
            Case(name: "URL matcher + serializer, 220 KB issues", baselineName: "JSONDecoder.decode", target: 1.03,
                 sculpt: { consume(try serializer.serialize(issues, for: issuesContext, as: [Issue].self)) },
                 baseline: { consume(try decoder.decode([Issue].self, from: issues)) }),
            Case(name: "URL matcher + serializer, 5 MB array", baselineName: "JSONDecoder.decode", target: 1.03,
                 sculpt: { consume(try serializer.serialize(large, for: largeContext, as: [Item].self)) },
                 baseline: { consume(try decoder.decode([Item].self, from: large)) }),
            Case(name: "type field + decode, 1.2 KB user", baselineName: "JSONDecoder.decode", target: 1.05,
                 sculpt: { consume(try typeSerializer.serialize(user, for: userContext, as: GitHubUser.self)) },
                 baseline: { consume(try decoder.decode(GitHubUser.self, from: user)) }),
            Case(name: "type field last, after a 200 KB string", baselineName: "JSONDecoder.decode", target: 1.10,
                 sculpt: { consume(try typeSerializer.serialize(blob, for: userContext, as: Blob.self)) },
                 baseline: { consume(try decoder.decode(Blob.self, from: blob)) }),
            Case(name: "key path data.items, 220 KB envelope", baselineName: "hand-written envelope", target: 1.05,
                 sculpt: { consume(try envelopeSerializer.serialize(envelope, for: issuesContext, as: [Issue].self)) },
                 baseline: { consume(try decoder.decode(IssueEnvelope.self, from: envelope).data.items) }),
            Case(name: "Stack Exchange wrapper tag + items", baselineName: "hand-written wrapper", target: 1.05,
                 sculpt: { consume(try typeSerializer.serialize(wrapper, for: userContext, as: [Question].self)) },
                 baseline: { consume(try decoder.decode(QuestionWrapper.self, from: wrapper).items) }),
        ] + (try routingCases(github))
    }

    /// URL matching: Sculpt against RoutingKit on GitHub's table, and Sculpt against itself at
    /// 10 and 10,000 routes.
    static func routingCases(_ github: RouteTable) throws -> [Case] {
        let sculpt = try github.sculpt()
        let routingKit = github.routingKit()
        let requests = github.requests()
        let small = try RouteTable.synthetic(10).sculpt()
        let large = try RouteTable.synthetic(10_000).sculpt()
        let scaled = (0..<10).flatMap { index in
            ["/scope\(index)/a/items/\(index)/detail", "/scope\(index)/a", "/scope\(index)/a/items", "/scope\(index)/a/missing"]
                .compactMap { URL(string: "https://x\($0)") }
        }
        return [
            Case(name: "URL matching, \(requests.count) GitHub routes", baselineName: "RoutingKit TrieRouter", target: 1.0,
                 sculpt: {
                     for request in requests { consume(sculpt.match(request.url, method: request.method)) }
                 },
                 baseline: {
                     for request in requests {
                         var parameters = Parameters()
                         let path = [request.method.rawValue] + request.url.path(percentEncoded: false).split(separator: "/").map(String.init)
                         consume(routingKit.route(path: path, parameters: &parameters))
                     }
                 }),
            Case(name: "URL matching, 10,000 routes", baselineName: "Sculpt with 10 routes", target: 1.5,
                 sculpt: { for url in scaled { consume(large.match(url, method: .get)) } },
                 baseline: { for url in scaled { consume(small.match(url, method: .get)) } }),
        ]
    }
}
