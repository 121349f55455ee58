import Foundation
import SculptShared
import HTTPTypes
import Sculpt

/// The lines a miss shows for a comparison.
///
/// They show no secret: values are redacted by ``Redaction``'s rules plus the names the recording
/// itself redacted (and the secret values of either URL wherever they stand), then their control characters escaped (``PrintableText``), then cut to a
/// bounded length, so a line is one line whatever the request held.
extension RequestComparison {
    /// The most one shown value (a path, a header value, a query difference) takes, in bytes.
    static let shownLimit = 512
    /// The most one item of a shown list (a query item, one of a header's values) takes, in bytes.
    static let itemLimit = 256

    /// One line per difference, `method: POST, recorded GET`, values redacted by `policy` (the
    /// replay's: the names any of its recordings redacted); empty when the requests match.
    ///
    /// ```swift
    /// RequestComparison(asked, recorded, options).differences(policy: replay.redaction)
    /// // ["query: has state=open, lacks state=closed"]
    /// ```
    func differences(policy: SecretPolicy) -> [String] {
        var lines: [String] = []
        if methodDiffers {
            lines.append("method: \(Self.shown(asked.method.rawValue)), recorded \(Self.shown(recorded.method.rawValue))")
        }
        if pathDiffers {
            lines.append("path: \(Self.shown(Self.shownPath(of: asked.request.url))), recorded \(Self.shown(Self.shownPath(of: recorded.url)))")
        }
        guard queryDiffers || !differingHeaders.isEmpty || bodyDiffers || !refusingRules.isEmpty else { return lines }
        if queryDiffers {
            let (extra, missing) = Self.unmatched(asked.counts, recordedItems)
            let has = Self.shown(extra, policy, besideOAuth: Self.besideOAuth(asked.items, policy))
            let lacks = Self.shown(missing, policy, besideOAuth: Self.besideOAuth(recordedItems, policy))
            // Two values that show the same once hidden differ in what is hidden.
            let hiddenDiffer = has != nil && has == lacks ? " (hidden values that differ)" : ""
            lines.append("query: \(has.map { "has \($0)" } ?? "")\(has == nil || lacks == nil ? "" : ", ")\(lacks.map { "lacks \($0)" } ?? "")\(hiddenDiffer)")
        }
        for name in differingHeaders {
            // Each value redacted whole (a cut could split a URL's user information), then escaped
            // and cut; a long value is never copied into a joined one.
            let shown = { (values: [String]) in
                values.isEmpty
                    ? "(none)"
                    : ClippedText.list(
                        values.lazy.map { PrintableText.value(policy.redacting(value: $0, of: name), limit: Self.itemLimit) },
                        limit: Self.shownLimit, itemLimit: Self.itemLimit)
            }
            lines.append("\(Self.shown(name.rawName)): \(shown(asked.header(name).values)), recorded \(shown(recorded.headerFields[values: name]))")
        }
        if bodyDiffers {
            lines.append("body: \(asked.body.data.count) bytes differ from the recorded \(recorded.body?.count ?? 0)")
        }
        for name in refusingRules {
            lines.append("rule \(Self.shown(name)): refused the recorded request")
        }
        // A secret value either URL or either request's secret headers hold is hidden where the
        // other holds it under an ordinary name (`token=abc123` asked, `state=abc123` recorded).
        let hidden = policy.secretValues(in: asked.request.url) + policy.secretValues(in: recorded.url)
            + policy.secretValues(in: asked.request.headerFields) + policy.secretValues(in: recorded.headerFields)
        return lines.map { ShownText.line($0, limit: Self.shownLimit * 3, hiding: hidden, policy: policy) }
    }

    /// Whether a query's items hold an OAuth parameter that makes a `code` beside it secret.
    private static func besideOAuth(_ items: [String], _ policy: SecretPolicy) -> Bool {
        policy.hasOAuthCompanion(items.lazy.map { item in String(decoding: item.utf8.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self) })
    }

    /// Query items shown redacted, escaped and bounded, joined with `&`; `nil` for none.
    private static func shown(_ items: [String], _ policy: SecretPolicy, besideOAuth: Bool) -> String? {
        guard !items.isEmpty else { return nil }
        return ClippedText.list(
            items.lazy.map { PrintableText.value(policy.redacting(parameters: $0, besideOAuth: besideOAuth), limit: itemLimit) },
            separator: "&", limit: shownLimit, itemLimit: itemLimit)
    }

    /// A value escaped and cut to ``shownLimit`` bytes with its size stated.
    private static func shown(_ text: String) -> String {
        PrintableText.value(text, limit: shownLimit)
    }
}
