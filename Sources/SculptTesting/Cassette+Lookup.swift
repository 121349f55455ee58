import Foundation
public import HTTPTypes
import SculptShared

/// Finding a cassette's interactions by method and path, as a test that checks one of them reads.
extension Cassette {
    /// The interactions recorded for `method` on `path`, in recorded order.
    ///
    /// ```swift
    /// let cassette = try Cassette(contentsOf: file)
    /// let issues = cassette.interactions(.get, path: "/repos/apple/swift/issues")
    /// ```
    ///
    /// Paths compare as a replay compares them: the query is not part of the path (a query given
    /// is left aside, and a whole URL is taken by its path), and
    /// percent-encodings that mean the same character are equal (`/a%7e` is `/a~`). A path written
    /// without any `%` is taken as decoded (`/users/ada lovelace` finds `/users/ada%20lovelace`).
    /// - Parameters:
    ///   - method: the request's method; `nil` for any.
    ///   - path: the request's path, such as `/users/octocat`, or its whole URL.
    /// - Returns: the matching interactions; empty when there are none.
    public func interactions(_ method: HTTPRequest.Method? = nil, path: String) -> [Fixture] {
        // A whole URL is taken by its path, and a query is left aside.
        var written = path.isEmpty ? "/" : path
        if let url = WrittenURL.parse(written), url.scheme != nil {
            written = RequestComparison.shownPath(of: url)
        } else if let query = written.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            written = String(written[..<query])
        }
        // A path without `%` is taken as decoded: what a URL's path cannot hold is encoded.
        let encoded = written.utf8.contains(UInt8(ascii: "%")) ? written : written.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? written
        let wanted = PercentEncoding.normalized(encoded)
        return interactions.filter { fixture in
            (method == nil || fixture.request.method == method) && RequestComparison.path(of: fixture.request.url) == wanted
        }
    }

    /// The first interaction recorded for `method` on `path`.
    ///
    /// ```swift
    /// let label = try #require(cassette[.get, "/repos/octocat/hello-world/labels/bug"])
    /// ```
    /// - Parameters:
    ///   - method: the request's method.
    ///   - path: the request's path, compared as ``interactions(_:path:)`` compares it.
    /// - Returns: the first such interaction, or `nil`.
    public subscript(method: HTTPRequest.Method, path: String) -> Fixture? {
        interactions(method, path: path).first
    }
}
