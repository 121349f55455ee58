import Foundation
import SculptShared
import HTTPTypes

/// A request as ``FixtureReplay`` compares it, parsed once: its path, its query items (decoded,
/// and counted as a multiset) and the values of the matched header fields. Comparing it with many
/// recorded requests then reads the request only where they differ, never parses it again.
///
/// ```swift
/// let asked = AskedRequest(request, options)
/// let matches = candidates.filter { RequestComparison(asked, interactions[$0].request, options).matches }
/// ```
struct AskedRequest {
    /// The request as it was asked.
    let request: Fixture.Request
    /// The method compared: the request's, or `GET` when a `HEAD` is tried as one.
    var method: HTTPRequest.Method
    /// The raw path, `/` for none.
    let path: String
    /// The query items, percent-decoded, in order.
    let items: [String]
    /// How many times each query item occurs.
    let counts: [String: Int]
    /// The values of each matched header field, and the same joined with `, `, as bytes.
    let headers: [HTTPField.Name: (values: [String], joined: [UInt8])]
    /// The body, JSON-parsed on first use.
    let body: Body

    /// Parses `request` for comparisons under `options`.
    init(_ request: Fixture.Request, _ options: FixtureReplay.Options) {
        self.request = request
        method = request.method
        path = RequestComparison.path(of: request.url)
        items = RequestComparison.queryItems(of: request.url)
        var counts: [String: Int] = [:]
        for item in items { counts[item, default: 0] += 1 }
        self.counts = counts
        var headers: [HTTPField.Name: (values: [String], joined: [UInt8])] = [:]
        for name in options.matchedHeaders {
            let values = request.headerFields[values: name]
            headers[name] = (values, Array(values.joined(separator: ", ").utf8))
        }
        self.headers = headers
        body = Body(request.body ?? Data())
    }

    /// The values of a matched field, and the same joined, as bytes.
    func header(_ name: HTTPField.Name) -> (values: [String], joined: [UInt8]) {
        headers[name] ?? ([], [])
    }

    /// A request body, parsed as JSON at most once however many recordings it is compared with.
    final class Body {
        /// The body's bytes (empty when there were none).
        let data: Data
        /// The body as JSON, `nil` when it is not JSON.
        private(set) lazy var json: OrderedJSON? = try? OrderedJSON(parsing: data)

        /// A body of `data`, not parsed yet.
        init(_ data: Data) {
            self.data = data
        }
    }
}
