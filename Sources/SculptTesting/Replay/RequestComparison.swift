import Foundation
import HTTPTypes

/// How a request differs from a recorded one, in the terms ``FixtureReplay`` matches on.
struct RequestComparison {
    /// One line per difference: `method: POST, recorded GET`; empty when the requests match.
    let differences: [String]

    init(_ request: Fixture.Request, _ recorded: Fixture.Request, _ options: FixtureReplay.Options) {
        var differences: [String] = []
        if request.method != recorded.method {
            differences.append("method: \(request.method.rawValue), recorded \(recorded.method.rawValue)")
        }
        let (path, recordedPath) = (Self.path(of: request.url), Self.path(of: recorded.url))
        if path != recordedPath {
            differences.append("path: \(path), recorded \(recordedPath)")
        }
        let recordedQuery = Self.queryItems(of: recorded.url)
        let query = Self.queryItems(of: request.url, redacted: recordedQuery.redactedNames)
        if query != recordedQuery {
            let extra = query.subtracting(recordedQuery).sorted().joined(separator: "&")
            let missing = recordedQuery.subtracting(query).sorted().joined(separator: "&")
            differences.append("query: \(extra.isEmpty ? "" : "has \(extra)")\(extra.isEmpty || missing.isEmpty ? "" : ", ")\(missing.isEmpty ? "" : "lacks \(missing)")")
        }
        for name in options.matchedHeaders
        where request.headerFields[name] != recorded.headerFields[name] && !(recorded.headerFields[name] == Redaction.marker && request.headerFields[name] != nil) {
            differences.append("\(name): \(request.headerFields[name] ?? "(none)"), recorded \(recorded.headerFields[name] ?? "(none)")")
        }
        if options.matchesBody, !Self.bodiesMatch(request.body ?? Data(), recorded.body ?? Data()) {
            differences.append("body: \(request.body?.count ?? 0) bytes differ from the recorded \(recorded.body?.count ?? 0)")
        }
        self.differences = differences
    }

    /// The raw path, `/` for none.
    static func path(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }

    /// Query items as a multiset (`a=1` twice counts twice), compared percent-decoded. The values
    /// of `redacted` names count as the redaction marker, so a recorded `token=REDACTED` matches
    /// any token.
    static func queryItems(of url: URL, redacted: Set<Substring> = []) -> Multiset {
        Multiset((url.query(percentEncoded: true) ?? "").split(separator: "&").map { item in
            let decoded = item.removingPercentEncoding ?? String(item)
            guard let name = decoded.split(separator: "=", maxSplits: 1).first, redacted.contains(name) else { return decoded }
            return "\(name)=\(Redaction.marker)"
        })
    }

    /// JSON bodies by meaning, anything else byte for byte.
    private static func bodiesMatch(_ body: Data, _ recorded: Data) -> Bool {
        if body == recorded { return true }
        guard let value = try? JSONValue(parsing: body), let recordedValue = try? JSONValue(parsing: recorded) else { return false }
        return value.isEquivalent(to: recordedValue)
    }

    /// Strings with counts.
    struct Multiset: Equatable {
        private var counts: [String: Int] = [:]

        init(_ items: [String]) {
            for item in items { counts[item, default: 0] += 1 }
        }

        /// The names whose value is the redaction marker.
        var redactedNames: Set<Substring> {
            Set(counts.keys.compactMap { item in
                let parts = item.split(separator: "=", maxSplits: 1)
                return parts.count == 2 && parts[1] == Redaction.marker ? parts[0] : nil
            })
        }

        /// The items of `self` not matched by one in `other`, each repeat listed.
        func subtracting(_ other: Multiset) -> [String] {
            counts.flatMap { item, count in Array(repeating: item, count: max(0, count - other.counts[item, default: 0])) }
        }
    }
}
