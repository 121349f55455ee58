import Foundation
import HTTPTypes
import Sculpt

/// How a request differs from a recorded one, in the terms ``FixtureReplay`` matches on.
///
/// A recorded ``Redaction/marker`` matches any value wherever a redaction can put it: a query
/// value (`access_token=REDACTED`, `ACCESS_TOKEN=REDACTED`, `access_token[]=REDACTED`,
/// `a=1;token=REDACTED`, repeats), part of one (`next=/cb?token=REDACTED`), a matched header's
/// value, and a JSON body member when bodies are matched. The user name and password are never
/// compared. The difference lines show no secret: values are redacted by ``Secrets``' rules plus
/// the names the recording itself redacted, and each is cut to a bounded length.
struct RequestComparison {
    /// One line per difference: `method: POST, recorded GET`; empty when the requests match.
    let differences: [String]

    /// The most one shown value (a path, a header value, a query difference) takes, in bytes.
    static let shownLimit = 512

    init(_ request: Fixture.Request, _ recorded: Fixture.Request, _ options: FixtureReplay.Options) {
        var differences: [String] = []
        if request.method != recorded.method {
            differences.append("method: \(Self.shown(request.method.rawValue)), recorded \(Self.shown(recorded.method.rawValue))")
        }
        let (path, recordedPath) = (Self.path(of: request.url), Self.path(of: recorded.url))
        if path != recordedPath {
            differences.append("path: \(Self.shown(path)), recorded \(Self.shown(recordedPath))")
        }
        let recordedItems = Self.queryItems(of: recorded.url)
        let items = Self.queryItems(of: request.url)
        let (extra, missing) = Self.unmatched(items, recordedItems)
        // Made only for a difference to show: matching itself never needs it.
        var madePolicy: SecretPolicy?
        func policy() -> SecretPolicy {
            if let madePolicy { return madePolicy }
            let policy = Self.policy([recorded])
            madePolicy = policy
            return policy
        }
        if !extra.isEmpty || !missing.isEmpty {
            let policy = policy()
            let has = Self.shown(extra, policy, besideOAuth: Self.besideOAuth(items, policy))
            let lacks = Self.shown(missing, policy, besideOAuth: Self.besideOAuth(recordedItems, policy))
            differences.append("query: \(has.map { "has \($0)" } ?? "")\(has == nil || lacks == nil ? "" : ", ")\(lacks.map { "lacks \($0)" } ?? "")")
        }
        for name in options.matchedHeaders {
            let (values, recordedValues) = (request.headerFields[values: name], recorded.headerFields[values: name])
            guard !Self.headerMatches(values, recordedValues) else { continue }
            let policy = policy()
            // Each value redacted whole (a cut could split a URL's user information), then cut;
            // a long value is never copied into a joined one.
            let shown = { (values: [String]) in
                values.isEmpty ? "(none)" : ClippedText.list(values.lazy.map { policy.redacting(value: $0, of: name) }, limit: Self.shownLimit)
            }
            differences.append("\(Self.shown(name.rawName)): \(shown(values)), recorded \(shown(recordedValues))")
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

    /// Query items, percent-decoded, in order: `&` and `;` both separate them.
    static func queryItems(of url: URL) -> [String] {
        Array((url.query(percentEncoded: true) ?? "").utf8)
            .split { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";") }
            .map { item in
                let text = String(decoding: item, as: UTF8.self)
                return item.contains(UInt8(ascii: "%")) ? (text.removingPercentEncoding ?? text) : text
            }
    }

    /// The request's items no recorded item accounts for, and the recorded items no request item
    /// does; compared as multisets (order does not matter, repeats do). A recorded item holding
    /// the marker matches any request item that fits it, the marker standing for any text.
    static func unmatched(_ items: [String], _ recorded: [String]) -> (extra: [String], missing: [String]) {
        var counts: [String: Int] = [:]
        for item in items { counts[item, default: 0] += 1 }
        var missing: [String] = []
        var patterns: [String] = []
        for item in recorded {
            if let count = counts[item], count > 0 {
                counts[item] = count - 1
            } else if item.contains(Redaction.marker) {
                patterns.append(item)
            } else {
                missing.append(item)
            }
        }
        var extra = counts.flatMap { item, count in Array(repeating: item, count: count) }.sorted()
        for pattern in patterns {
            let parts = Self.parts(pattern)
            if let index = extra.firstIndex(where: { Self.fits($0, parts) }) {
                extra.remove(at: index)
            } else {
                missing.append(pattern)
            }
        }
        return (extra, missing.sorted())
    }

    /// The literal parts of a recorded value around its markers: `a=` and `` for `a=REDACTED`.
    static func parts(_ pattern: String) -> [[UInt8]] {
        let bytes = Array(pattern.utf8)
        let marker = Array(Redaction.marker.utf8)
        var parts: [[UInt8]] = []
        var start = 0
        var index = 0
        while index + marker.count <= bytes.count {
            if bytes[index..<(index + marker.count)].elementsEqual(marker) {
                parts.append(Array(bytes[start..<index]))
                index += marker.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(Array(bytes[start...]))
        return parts
    }

    /// Whether `text` fits a pattern's `parts`, each marker between them standing for any text
    /// (bytes, not Characters, so a combining mark cannot join a literal part to what follows it).
    static func fits(_ text: String, _ parts: [[UInt8]]) -> Bool {
        guard parts.count > 1, let first = parts.first, let last = parts.last else { return parts.first?.elementsEqual(text.utf8) ?? text.isEmpty }
        let bytes = Array(text.utf8)
        guard bytes.count >= first.count + last.count, bytes.starts(with: first), bytes.suffix(last.count).elementsEqual(last) else { return false }
        var position = first.count
        let end = bytes.count - last.count
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = Self.end(of: part, in: bytes[position..<end]) else { return false }
            position = found
        }
        return true
    }

    /// Where the first occurrence of `part` in `bytes` ends.
    private static func end(of part: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        var start = bytes.startIndex
        while start + part.count <= bytes.endIndex {
            if bytes[start..<(start + part.count)].elementsEqual(part) { return start + part.count }
            start += 1
        }
        return nil
    }

    /// A matched header's values against the recorded ones: equal, or every recorded value is the
    /// marker and the request has the field, or the recorded values, joined, fit the request's.
    static func headerMatches(_ values: [String], _ recorded: [String]) -> Bool {
        if values == recorded { return true }
        guard !values.isEmpty, !recorded.isEmpty else { return false }
        if recorded.allSatisfy({ $0 == Redaction.marker }) { return true }
        return fits(values.joined(separator: ", "), parts(recorded.joined(separator: ", ")))
    }

    /// JSON bodies by meaning, a recorded `"REDACTED"` matching any value; form bodies parameter
    /// by parameter, a recorded `REDACTED` value matching any value; anything else byte for byte.
    private static func bodiesMatch(_ body: Data, _ recorded: Data) -> Bool {
        if body == recorded || FormBody.matches(body, recorded: recorded) { return true }
        guard let value = try? JSONValue(parsing: body), let recordedValue = try? JSONValue(parsing: recorded) else { return false }
        return matches(value, recordedValue)
    }

    /// `value` against `recorded` as ``JSONValue/isEquivalent(to:)`` compares them, except that a
    /// recorded marker string matches anything. Depth is bounded by the parser's limit.
    private static func matches(_ value: JSONValue, _ recorded: JSONValue) -> Bool {
        switch (value, recorded) {
        case (_, .string(Redaction.marker)):
            return true
        case (.array(let elements), .array(let recordedElements)):
            return elements.count == recordedElements.count && zip(elements, recordedElements).allSatisfy { matches($0, $1) }
        case (.object(let members), .object(let recordedMembers)):
            let keys = Set(members.map(\.key))
            return keys == Set(recordedMembers.map(\.key)) && keys.allSatisfy { key in
                guard let left = value[key], let right = recorded[key] else { return false }
                return matches(left, right)
            }
        default:
            return value.isEquivalent(to: recorded)
        }
    }

    /// The rules a difference line is shown with: ``Secrets``' defaults, plus every query
    /// parameter and header the recordings themselves redacted (the names of a user's `Redaction`).
    static func policy(_ recorded: some Sequence<Fixture.Request>) -> SecretPolicy {
        var parameters: [String] = []
        var headers: [HTTPField.Name] = []
        for request in recorded {
            parameters += queryItems(of: request.url).compactMap { item -> String? in
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return parts.count == 2 && parts[1] == Redaction.marker ? String(parts[0]) : nil
            }
            headers += request.headerFields.filter { $0.value == Redaction.marker }.map(\.name)
        }
        return Redaction(headers: headers, queryParameters: parameters).policy
    }

    /// Whether a query's items hold an OAuth parameter that makes a `code` beside it secret.
    private static func besideOAuth(_ items: [String], _ policy: SecretPolicy) -> Bool {
        policy.hasOAuthCompanion(items.lazy.map { item in String(decoding: item.utf8.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self) })
    }

    /// Query items shown redacted and bounded, joined with `&`; `nil` for none.
    private static func shown(_ items: [String], _ policy: SecretPolicy, besideOAuth: Bool) -> String? {
        guard !items.isEmpty else { return nil }
        return ClippedText.list(
            items.lazy.map { policy.redacting(parameters: $0, besideOAuth: besideOAuth) }, separator: "&", limit: shownLimit)
    }

    /// A value cut to ``shownLimit`` bytes with its size stated.
    private static func shown(_ text: String) -> String {
        ClippedText.value(text, limit: shownLimit)
    }
}
