import Foundation
import HTTPTypes
import RoutingKit
import SculptMatchers

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Cases {
    /// Named parameters: matching with named patterns against matching with `*`, reading the
    /// values they captured (beside RoutingKit, which captures too), and a request built from an
    /// endpoint against one built with `URLComponents`.
    static func endpoints() throws -> [Case] {
        let github = try RouteTable.github()
        let requests = github.requests()
        let api = URL(string: "https://api.github.com")
        let issue = Endpoint<Int>(.get, "/repos/{owner}/{repo}/issues/{issue_number:#}")
        return [
            // A lookup returns the route; the values of its parameters are read from the URL when
            // asked, so matching with named patterns is timed apart from reading what they captured.
            Case(name: "URL matching, named patterns, \(requests.count) GitHub routes", baselineName: "Sculpt with * patterns", target: 1.1) {
                let named = try github.sculpt(named: true), plain = try github.sculpt()
                return Sides(
                    sculpt: { for request in requests { consume(named.route(for: request.url, method: request.method)) } },
                    baseline: { for request in requests { consume(plain.route(for: request.url, method: request.method)) } })
            },
            Case(name: "URL matching + reading the captures", baselineName: "Sculpt, no captures", target: nil) {
                let named = try github.sculpt(named: true), plain = try github.sculpt()
                return Sides(
                    sculpt: { for request in requests { consume(named.route(for: request.url, method: request.method)?.parameters) } },
                    baseline: { for request in requests { consume(plain.route(for: request.url, method: request.method)?.parameters) } })
            },
            Case(name: "URL matching + reading the captures, against RoutingKit", baselineName: "RoutingKit TrieRouter", target: 1.0) {
                let named = try github.sculpt(named: true), routingKit = github.routingKit()
                return Sides(
                    sculpt: { for request in requests { consume(named.route(for: request.url, method: request.method)?.parameters) } },
                    baseline: {
                        for request in requests {
                            var parameters = Parameters()
                            let path = [request.method.rawValue] + request.url.path(percentEncoded: false).split(separator: "/").map(String.init)
                            consume(routingKit.route(path: path, parameters: &parameters))
                            consume(parameters)
                        }
                    })
            },
            Case(name: "endpoint request, /repos/{owner}/{repo}/issues/{n}", baselineName: "URLComponents + URLRequest", target: 1.5) {
                guard let api else { throw URLError(.badURL) }
                return Sides(
                    sculpt: {
                        consume(try issue(["owner": "apple", "repo": "swift", "issue_number": 42]).urlRequest(baseURL: api))
                    },
                    baseline: {
                        var components = URLComponents()
                        components.scheme = "https"
                        components.host = "api.github.com"
                        components.path = "/repos/\("apple")/\("swift")/issues/\(42)"
                        guard let url = components.url else { throw URLError(.badURL) }
                        var request = URLRequest(url: url)
                        request.httpMethod = "GET"
                        consume(request)
                    })
            },
        ]
    }
}
