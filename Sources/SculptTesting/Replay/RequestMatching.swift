import SculptShared
public import HTTPTypes

/// One thing a request must share with a recorded one to be answered by it; a list of them says
/// how a replay matches.
///
/// ```swift
/// let replay = FixtureReplay(interactions, options: .init(matching: [.methodAndPath, .headers(.accept), .body]))
/// ```
///
/// The method and path are always compared: they are how a replay finds its candidates. List
/// ``methodAndPath`` alone to ignore the query. The default, ``default``, is the method, the path
/// and the query.
public struct RequestMatching: Sendable, CustomStringConvertible {
    /// What one rule compares.
    enum Rule: Sendable {
        case methodAndPath
        case query
        case body
        case headers([HTTPField.Name])
        case custom(name: String, matches: @Sendable (_ asked: Fixture.Request, _ recorded: Fixture.Request) -> Bool)
    }

    /// The rule.
    let rule: Rule

    /// The method and the path (always compared, listed or not).
    public static let methodAndPath = RequestMatching(rule: .methodAndPath)

    /// The query items, as a multiset: their order does not matter, a recorded redaction marker
    /// matches any value.
    public static let query = RequestMatching(rule: .query)

    /// The body: JSON by meaning (member order, white space and number spelling do not matter),
    /// anything else byte for byte.
    public static let body = RequestMatching(rule: .body)

    /// The values of chosen header fields; a recorded interaction without a field does not match a
    /// request with it, and a recorded value that redaction replaced (`REDACTED`) matches any value.
    ///
    /// ```swift
    /// let matching: [RequestMatching] = [.methodAndPath, .query, .headers(.accept, .acceptLanguage)]
    /// ```
    /// - Parameter names: the header fields compared.
    /// - Returns: the rule.
    public static func headers(_ names: HTTPField.Name...) -> RequestMatching {
        RequestMatching(rule: .headers(names))
    }

    /// A rule of your own, beside the others: `matches` gets the request and a recorded request,
    /// and answers whether the recorded one may answer it.
    ///
    /// ```swift
    /// let sameTenant = RequestMatching.custom("tenant") { asked, recorded in
    ///     asked.headerFields[HTTPField.Name("X-Tenant")!] == recorded.headerFields[HTTPField.Name("X-Tenant")!]
    /// }
    /// ```
    /// - Parameters:
    ///   - name: the rule's name, shown in a miss's difference lines.
    ///   - matches: whether the request (first) may be answered by the recorded one (second).
    /// - Returns: the rule.
    public static func custom(
        _ name: String, _ matches: @escaping @Sendable (_ asked: Fixture.Request, _ recorded: Fixture.Request) -> Bool
    ) -> RequestMatching {
        RequestMatching(rule: .custom(name: name, matches: matches))
    }

    /// The rules a replay uses unless told otherwise: method, path and query.
    public static let `default`: [RequestMatching] = [.methodAndPath, .query]

    /// The rule's name: `method and path`, `query`, `body`, `headers Accept, ETag`, or a custom
    /// rule's name.
    public var description: String {
        let text = switch rule {
        case .methodAndPath: "method and path"
        case .query: "query"
        case .body: "body"
        case .headers(let names): "headers \(names.map(\.rawName).joined(separator: ", "))"
        case .custom(let name, _): name
        }
        return ShownText.line(text, limit: 1_024)
    }
}
