import Foundation
import SculptShared
import HTTPTypes
import Sculpt

/// How a request differs from a recorded one, in the terms ``FixtureReplay`` matches on.
///
/// ```swift
/// let comparison = RequestComparison(asked, recorded, options)
/// if !comparison.matches { print(comparison.differences()) }
/// ```
///
/// Making one only finds which parts differ (method, path, query, each matched header, body): no
/// text is made, and the asked request was parsed once beforehand (``AskedRequest``), so a replay
/// can compare one request with many recordings cheaply. ``differences()`` writes the lines, for
/// the few comparisons a miss shows.
///
/// A recorded ``Redaction/marker`` matches any value wherever a redaction can put it: a query
/// value (`access_token=REDACTED`, `ACCESS_TOKEN=REDACTED`, `access_token[]=REDACTED`,
/// `a=1;token=REDACTED`, repeats), part of one (`next=/cb?token=REDACTED`), a matched header's
/// value, and a JSON body member when bodies are matched. The user name and password are never
/// compared.
struct RequestComparison {
    /// The request compared.
    let asked: AskedRequest
    /// The recorded request it is compared with.
    let recorded: Fixture.Request
    /// The recorded request's path.
    let recordedPath: String
    /// The recorded request's query items, decoded.
    let recordedItems: [String]
    /// Whether the methods differ.
    let methodDiffers: Bool
    /// Whether the raw paths differ.
    let pathDiffers: Bool
    /// Whether the query items differ (as multisets, a recorded marker matching any value).
    let queryDiffers: Bool
    /// The matched header fields whose values differ, in the order of ``FixtureReplay/Options/matchedHeaders``.
    let differingHeaders: [HTTPField.Name]
    /// Whether bodies are matched and differ.
    let bodyDiffers: Bool
    /// The names of the custom rules that refused the recorded request, in order.
    let refusingRules: [String]

    /// Compares `asked` with `recorded` under `options`. Bodies larger than `bodyParseLimit` bytes
    /// are compared byte for byte, not parsed: a miss ranks its candidates so, at a bounded cost.
    init(_ asked: AskedRequest, _ recorded: Fixture.Request, _ options: FixtureReplay.Options, bodyParseLimit: Int = .max) {
        self.init(asked, Recorded(recorded), options, bodyParseLimit: bodyParseLimit)
    }

    /// Compares `asked` with a recorded request parsed beforehand.
    init(_ asked: AskedRequest, _ parsed: Recorded, _ options: FixtureReplay.Options, bodyParseLimit: Int = .max) {
        let recorded = parsed.request
        self.asked = asked
        self.recorded = recorded
        recordedPath = parsed.path
        recordedItems = parsed.items
        methodDiffers = asked.method != recorded.method
        pathDiffers = asked.path != recordedPath
        // Each recorded item accounts for exactly one asked item, so different counts never match.
        queryDiffers = options.matchesQuery && (asked.items.count != recordedItems.count || !Self.itemsMatch(asked.counts, recordedItems))
        differingHeaders = options.matchedHeaders.filter { name in
            !Self.headerMatches(asked.header(name), recorded.headerFields[values: name])
        }
        bodyDiffers = options.matchesBody && !Self.bodiesMatch(asked.body, recorded.body ?? Data(), parseLimit: bodyParseLimit)
        refusingRules = options.customRules.filter { !$0.matches(asked.request, recorded) }.map(\.name)
    }

    /// A recorded request with its path and query items read once, for a replay that compares it
    /// with many requests.
    struct Recorded {
        let request: Fixture.Request
        /// The path as compared (``RequestComparison/path(of:)``).
        let path: String
        /// The query items, decoded (``RequestComparison/queryItems(of:)``).
        let items: [String]

        init(_ request: Fixture.Request) {
            self.request = request
            path = RequestComparison.path(of: request.url)
            items = RequestComparison.queryItems(of: request.url)
        }
    }

    /// How many lines ``differences()`` writes: one per part that differs.
    var count: Int {
        [methodDiffers, pathDiffers, queryDiffers, bodyDiffers].filter { $0 }.count + differingHeaders.count + refusingRules.count
    }

    /// Whether the requests match.
    var matches: Bool { count == 0 }

    /// The path as compared, `/` for none: as written, except that percent-encodings equal by
    /// RFC 3986 (section 6.2.2) are made one: hex digits in capitals (`%7c` is `%7C`) and
    /// unreserved characters decoded (`%41` is `A`, `%7E` is `~`). `%2F` stays: it is not `/`.
    static func path(of url: URL) -> String {
        PercentEncoding.normalized(shownPath(of: url))
    }

    /// The path as sent, `/` for none: what a description shows.
    static func shownPath(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }

    /// Query items, percent-decoded, in order: `&` and `;` both separate them.
    static func queryItems(of url: URL) -> [String] {
        Array((url.query(percentEncoded: true) ?? "").utf8)
            .split { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";") }
            .map { item in
                let text = String(decoding: item, as: UTF8.self)
                return item.contains(UInt8(ascii: "%")) ? (text.removingPercentEncoding ?? text) : text
            }
    }

    /// The rules a difference line is shown with: ``Redaction``'s defaults and `names`', plus
    /// every query parameter, header and body member the recordings themselves redacted (the
    /// names of a user's `Redaction`); a body member's name counts as a parameter's too (`pin` in
    /// a body, `?pin=` in a query).
    static func policy(_ recorded: some Sequence<Fixture.Request>, naming names: Redaction? = nil) -> SecretPolicy {
        var parameters: [String] = []
        var headers: [HTTPField.Name] = []
        var members: [String] = []
        for request in recorded {
            parameters += queryItems(of: request.url).compactMap { item -> String? in
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return parts.count == 2 && parts[1] == Redaction.marker ? String(parts[0]) : nil
            }
            headers += request.headerFields.filter { $0.value == Redaction.marker }.map(\.name)
            if let body = request.body { members += redactedNames(in: body) }
        }
        if let names {
            headers += names.headers
            parameters += names.queryParameters
            members += names.bodyFields
        }
        return Redaction(headers: headers, queryParameters: parameters + members, bodyFields: members).policy
    }

    /// The names whose values a redaction replaced in a body: JSON members holding the marker,
    /// or form parameters.
    private static func redactedNames(in body: Data) -> [String] {
        guard body.range(of: Data(Redaction.marker.utf8)) != nil else { return [] }
        if let json = try? OrderedJSON(parsing: body) {
            var names: [String] = []
            var pending = [json]
            while let value = pending.popLast() {
                switch value {
                case .object(let members):
                    for member in members {
                        if member.value == .string(Redaction.marker) { names.append(member.key) } else { pending.append(member.value) }
                    }
                case .array(let elements):
                    pending += elements
                default:
                    break
                }
            }
            return names
        }
        return String(decoding: body, as: UTF8.self).split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 && parts[1] == Redaction.marker ? String(parts[0]) : nil
        }
    }
}
