import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers

extension Cases {
    /// The type-mismatch diagnosis over routes that all match one path, at two sizes, each against
    /// the diagnosis of a tenth of the routes made ten times: time per route must not grow.
    static func diagnosing() throws -> [Case] {
        struct Winner: Decodable, Sendable {}
        struct Asked: Decodable, Sendable {}
        /// `count` routes of `/users/*` that give `Asked`, each for a method of its own, and one
        /// for GET that gives `Winner`.
        func matcher(_ count: Int) throws -> URLModelMatcher {
            var routes = URLModelMatcher()
            try routes.add("/users/*", Winner.self, method: .get)
            for index in 0..<count {
                try routes.add("/users/*", Asked.self, method: HTTPRequest.Method("M\(index)"))
            }
            return routes
        }
        let context = ResponseContext(url: URL(string: "https://api.example.com/users/octocat"), method: .get, status: .ok)
        func diagnose(_ routes: URLModelMatcher) -> [String] {
            routes.diagnosis(for: context, data: Data(), resolved: ModelType(Winner.self), expected: Asked.self)
        }
        return [(100, 1_000), (1_000, 10_000)].map { small, large in
            Case(name: "type-mismatch diagnosis, \(large.formatted()) routes on one path", baselineName: "\(small.formatted()) routes, 10 times", target: 1.5) {
                let big = try matcher(large), tenth = try matcher(small)
                return Sides(sculpt: { consume(diagnose(big)) }, baseline: { for _ in 0..<10 { consume(diagnose(tenth)) } })
            }
        }
    }
}
