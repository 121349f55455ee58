public import Foundation
public import Sculpt
import SculptShared

extension URLModelMatcher {
    /// The route that resolves the response, as ``Route``'s description writes it:
    /// `GET /repos/{owner}/{repo}/issues -> LossyArray<Issue>`; for a route that delegates, its
    /// matcher's own line after the route's: `/feed/* -> type: "question" -> Question`.
    ///
    /// - Parameters:
    ///   - response: the response the matcher resolved.
    ///   - data: its body, read only by a route's own matcher.
    /// - Returns: the line, or `nil` when no route resolves the response.
    public func matchedRoute(for response: ResponseContext, data: Data) -> String? {
        guard let url = response.url else { return nil }
        return lookUp(url, method: response.method, status: response.status) { index -> String? in
            let route = routes[index]
            guard case .matcher(let matcher) = route.target else { return route.description }
            // A delegate that answers nil (or throws) passes the response on, as it does when matching.
            guard let resolved = try? matcher.modelType(for: response, data: data) else { return nil }
            return ShownText.line("\(route.signature) -> \(matcher.matchedRoute(for: response, data: data) ?? resolved.description)", limit: 2_048)
        }
    }
}
