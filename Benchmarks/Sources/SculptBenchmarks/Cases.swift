import Foundation
import HTTPTypes
import RoutingKit
import Sculpt
import SculptMatchers

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cases of the suite, with the targets issue #5 sets.
enum Cases {
    static func all() throws -> [Case] {
        let decoding: [Case] = decoding() + (try decoders()) + shapes()
        let around: [Case] = (try negotiation()) + (try routing()) + (try endpoints()) + (try observing()) + replay() + serving()
        return decoding + around + (try checking()) + (try reporting()) + loading() + storing() + (try descriptions()) + (try diagnosing())
    }

    /// Serializers against `JSONDecoder` decoding the same type from the same bytes.
    static func decoding() -> [Case] {
        let decoder = JSONDecoder()
        let json: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        func context(_ path: String) -> ResponseContext {
            ResponseContext(url: URL(string: "https://api.github.com" + path), method: .get, status: .ok, headerFields: json)
        }
        let userContext = context("/users/octocat"), issuesContext = context("/repos/apple/swift/issues")
        let largeContext = context("/repos/apple/swift/items")
        /// GitHub's route table with the benchmark's models added.
        func urlSerializer() throws -> ModelResponseSerializer<URLModelMatcher> {
            var routes = try RouteTable.github().sculpt()
            try routes.add("/users/*", GitHubUser.self, method: .get)  // replaces the table's GET /users/{username}
            try routes.add("/repos/*/*/issues", [Issue].self, method: .get)
            try routes.add("/repos/*/*/items", [Item].self)
            return ModelResponseSerializer(matcher: routes, decoder: decoder)
        }
        func typeSerializer() throws -> ModelResponseSerializer<TypeFieldModelMatcher> {
            var types = TypeFieldModelMatcher(field: "type")
            try types.add("User", GitHubUser.self)
            try types.add("blob", Blob.self)
            try types.add("question", [Question].self, at: "items")
            return ModelResponseSerializer(matcher: types, decoder: decoder)
        }
        return [
            // Reference points without targets: the harness's own noise (the same work on both
            // sides), and the pipeline alone (a matcher that does nothing).
            Case(name: "A/A: JSONDecoder against itself, 1.2 KB", baselineName: "JSONDecoder.decode", target: nil) {
                let user = Payloads.userJSON
                return Sides(
                    sculpt: { consume(try decoder.decode(GitHubUser.self, from: user)) },
                    baseline: { consume(try decoder.decode(GitHubUser.self, from: user)) })
            },
            // Each side is written out with its concrete types, as a caller would write it: a
            // helper generic over the model would time unspecialized code unless inlined.
            Case(name: "static matcher + serializer, 1.2 KB user", baselineName: "JSONDecoder.decode", target: nil) {
                let user = Payloads.userJSON
                let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(GitHubUser.self), decoder: decoder)
                return Sides(
                    sculpt: { consume(try serializer.serialize(user, for: userContext, as: GitHubUser.self)) },
                    baseline: { consume(try decoder.decode(GitHubUser.self, from: user)) })
            },
            // The path URLSession users take: the response as URLSession gives it, with the 24
            // header fields GitHub sends, not a context built by hand.
            Case(name: "URLSession path: serialize(data, for: HTTPURLResponse), 1.2 KB user, 24 fields", baselineName: "JSONDecoder.decode", target: 1.03) {
                let user = Payloads.userJSON
                let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(GitHubUser.self), decoder: decoder)
                let (response, request) = try Payloads.githubURLResponse(path: "/users/octocat")
                return Sides(
                    sculpt: { consume(try serializer.serialize(user, for: response, request: request)) },
                    baseline: { consume(try decoder.decode(GitHubUser.self, from: user)) })
            },
            Case(name: "URLSession path, typed: serialize(data, for: HTTPURLResponse, as:), 1.2 KB user, 24 fields", baselineName: "JSONDecoder.decode", target: 1.03) {
                let user = Payloads.userJSON
                let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(GitHubUser.self), decoder: decoder)
                let (response, request) = try Payloads.githubURLResponse(path: "/users/octocat")
                return Sides(
                    sculpt: { consume(try serializer.serialize(user, for: response, request: request, as: GitHubUser.self)) },
                    baseline: { consume(try decoder.decode(GitHubUser.self, from: user)) })
            },
            Case(name: "URL matcher + serializer, 1.2 KB user", baselineName: "JSONDecoder.decode", target: 1.03) {
                let user = Payloads.userJSON, serializer = try urlSerializer()
                return Sides(
                    sculpt: { consume(try serializer.serialize(user, for: userContext, as: GitHubUser.self)) },
                    baseline: { consume(try decoder.decode(GitHubUser.self, from: user)) })
            },
            Case(name: "URL matcher + serializer, 220 KB issues", baselineName: "JSONDecoder.decode", target: 1.03) {
                let issues = Payloads.issuesJSON, serializer = try urlSerializer()
                return Sides(
                    sculpt: { consume(try serializer.serialize(issues, for: issuesContext, as: [Issue].self)) },
                    baseline: { consume(try decoder.decode([Issue].self, from: issues)) })
            },
            Case(name: "URL matcher + serializer, 5 MB array", baselineName: "JSONDecoder.decode", target: 1.03) {
                let large = Payloads.largeArrayJSON, serializer = try urlSerializer()
                return Sides(
                    sculpt: { consume(try serializer.serialize(large, for: largeContext, as: [Item].self)) },
                    baseline: { consume(try decoder.decode([Item].self, from: large)) })
            },
            Case(name: "type field + decode, 1.2 KB user", baselineName: "JSONDecoder.decode", target: 1.05) {
                let user = Payloads.userJSON, serializer = try typeSerializer()
                return Sides(
                    sculpt: { consume(try serializer.serialize(user, for: userContext, as: GitHubUser.self)) },
                    baseline: { consume(try decoder.decode(GitHubUser.self, from: user)) })
            },
            Case(name: "type field last, after a 200 KB string", baselineName: "JSONDecoder.decode", target: 1.05) {
                let blob = Payloads.discriminatorLastJSON, serializer = try typeSerializer()
                return Sides(
                    sculpt: { consume(try serializer.serialize(blob, for: userContext, as: Blob.self)) },
                    baseline: { consume(try decoder.decode(Blob.self, from: blob)) })
            },
            Case(name: "type field last, after a 200 KB string of one letter", baselineName: "JSONDecoder.decode", target: 1.05) {
                let blob = Payloads.discriminatorAfterLetterJSON, serializer = try typeSerializer()
                return Sides(
                    sculpt: { consume(try serializer.serialize(blob, for: userContext, as: Blob.self)) },
                    baseline: { consume(try decoder.decode(Blob.self, from: blob)) })
            },
            Case(name: "type field last, after a 200 KB string beyond ASCII", baselineName: "JSONDecoder.decode", target: 1.05) {
                let blob = Payloads.discriminatorAfterNonASCIIJSON, serializer = try typeSerializer()
                return Sides(
                    sculpt: { consume(try serializer.serialize(blob, for: userContext, as: Blob.self)) },
                    baseline: { consume(try decoder.decode(Blob.self, from: blob)) })
            },
            Case(name: "key path data.items, 220 KB envelope", baselineName: "hand-written envelope", target: 1.05) {
                let envelope = Payloads.envelopeJSON
                let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Issue].self, at: "data.items"), decoder: decoder)
                return Sides(
                    sculpt: { consume(try serializer.serialize(envelope, for: issuesContext, as: [Issue].self)) },
                    baseline: { consume(try decoder.decode(IssueEnvelope.self, from: envelope).data.items) })
            },
            Case(name: "Stack Exchange wrapper tag + items", baselineName: "hand-written wrapper", target: 1.05) {
                let wrapper = Payloads.wrapperJSON, serializer = try typeSerializer()
                return Sides(
                    sculpt: { consume(try serializer.serialize(wrapper, for: userContext, as: [Question].self)) },
                    baseline: { consume(try decoder.decode(QuestionWrapper.self, from: wrapper).items) })
            },
        ]
    }

    /// URL matching: Sculpt against RoutingKit on GitHub's table, and Sculpt against itself at
    /// 10 and 10,000 routes.
    static func routing() throws -> [Case] {
        let github = try RouteTable.github()
        let requests = github.requests()
        return [
            Case(name: "URL matching, \(requests.count) GitHub routes", baselineName: "RoutingKit TrieRouter", target: 1.0) {
                let sculpt = try github.sculpt(), routingKit = github.routingKit()
                return Sides(
                    sculpt: {
                        for request in requests { consume(sculpt.route(for: request.url, method: request.method)) }
                    },
                    baseline: {
                        for request in requests {
                            var parameters = Parameters()
                            let path = [request.method.rawValue] + request.url.path(percentEncoded: false).split(separator: "/").map(String.init)
                            consume(routingKit.route(path: path, parameters: &parameters))
                        }
                    })
            },
            Case(name: "URL matching, 10,000 routes", baselineName: "Sculpt with 10 routes", target: 1.5) {
                let small = try RouteTable.synthetic(10).sculpt(), large = try RouteTable.synthetic(10_000).sculpt()
                let scaled = (0..<10).flatMap { index in
                    ["/scope\(index)/a/items/\(index)/detail", "/scope\(index)/a", "/scope\(index)/a/items", "/scope\(index)/a/missing"]
                        .compactMap { URL(string: "https://x\($0)") }
                }
                return Sides(
                    sculpt: { for url in scaled { consume(large.route(for: url, method: .get)) } },
                    baseline: { for url in scaled { consume(small.route(for: url, method: .get)) } })
            },
        ]
    }
}
