import Foundation
import SculptShared
import Sculpt

/// Matching against a recording in which a redaction left ``Redaction/marker``s: a marker stands
/// for any text.
extension RequestComparison {
    /// Whether the asked items (counted) and the recorded items match as multisets.
    static func itemsMatch(_ counts: [String: Int], _ recorded: [String]) -> Bool {
        let (extra, missing) = unmatched(counts, recorded)
        return extra.isEmpty && missing.isEmpty
    }

    /// The request's items no recorded item accounts for, and the recorded items no request item
    /// does, each sorted; compared as multisets (order does not matter, repeats do). A recorded
    /// item holding the marker matches any request item that fits it, the marker standing for any
    /// text.
    ///
    /// ```swift
    /// RequestComparison.unmatched(["state=open": 1], ["state=closed"])   // (["state=open"], ["state=closed"])
    /// ```
    static func unmatched(_ counts: [String: Int], _ recorded: [String]) -> (extra: [String], missing: [String]) {
        var counts = counts
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
        let extra = counts.flatMap { item, count in Array(repeating: item, count: count) }.sorted()
        guard !patterns.isEmpty else { return (extra, missing.sorted()) }
        let fitted = fitting(patterns, to: extra)
        missing += fitted.unfitted
        return (extra.indices.filter { !fitted.used[$0] }.map { extra[$0] }, missing.sorted())
    }

    /// Each pattern takes the first item it fits that no earlier pattern took. Linear in the
    /// items for each distinct pattern, however many times it repeats: an item is compared only
    /// with patterns of its own name (`name=` before the marker), and a repeated pattern resumes
    /// after the item the last one took (or fails at once, as the last one did).
    private static func fitting(_ patterns: [String], to items: [String]) -> (used: [Bool], unfitted: [String]) {
        let bytes = items.map { Array($0.utf8) }
        var byName: [ArraySlice<UInt8>: [Int]] = [:]
        for (index, item) in bytes.enumerated() {
            if let equals = item.firstIndex(of: UInt8(ascii: "=")) { byName[item[...equals], default: []].append(index) }
        }
        var used = [Bool](repeating: false, count: items.count)
        var unfitted: [String] = []
        var resume: [String: Int] = [:]  // per pattern: where in its candidates to look next
        for pattern in patterns {
            let parts = Self.parts(pattern)
            let candidates = parts[0].firstIndex(of: UInt8(ascii: "=")).map { byName[parts[0][...$0]] ?? [] } ?? Array(items.indices)
            var position = resume[pattern] ?? 0
            while position < candidates.count, used[candidates[position]] || !Self.fits(bytes[candidates[position]], parts) {
                position += 1
            }
            resume[pattern] = position + 1
            if position < candidates.count {
                used[candidates[position]] = true
            } else {
                unfitted.append(pattern)
            }
        }
        return (used, unfitted)
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

    /// Whether the UTF-8 `bytes` of a text fit a pattern's `parts`, each marker between them
    /// standing for any text (bytes, not Characters, so a combining mark cannot join a literal part
    /// to what follows it).
    static func fits(_ bytes: [UInt8], _ parts: [[UInt8]]) -> Bool {
        guard parts.count > 1, let first = parts.first, let last = parts.last else { return parts.first?.elementsEqual(bytes) ?? bytes.isEmpty }
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

    /// A matched header's values (and the same joined, as bytes) against the recorded ones: equal,
    /// or every recorded value is the marker and the request has the field, or the recorded values,
    /// joined, fit the request's.
    static func headerMatches(_ asked: (values: [String], joined: [UInt8]), _ recorded: [String]) -> Bool {
        if asked.values == recorded { return true }
        guard !asked.values.isEmpty, !recorded.isEmpty else { return false }
        if recorded.allSatisfy({ $0 == Redaction.marker }) { return true }
        return fits(asked.joined, parts(recorded.joined(separator: ", ")))
    }

    /// JSON bodies by meaning, a recorded `"REDACTED"` matching any value; form bodies parameter
    /// by parameter, a recorded `REDACTED` value matching any value; anything else byte for byte.
    static func bodiesMatch(_ body: AskedRequest.Body, _ recorded: Data, parseLimit: Int = .max) -> Bool {
        if body.data == recorded { return true }
        guard body.data.count <= parseLimit, recorded.count <= parseLimit else { return false }
        if FormBody.matches(body.data, recorded: recorded) { return true }
        // XML the recorder redacted (`<wsse:Password>REDACTED</wsse:Password>`): the request's body
        // redacted the same way must be the recording.
        if recorded.first == UInt8(ascii: "<"), recorded.range(of: Data(Redaction.marker.utf8)) != nil,
            SecretPolicy.default.redacting(body: body.data, contentTypes: ["application/xml"]) == recorded
        {
            return true
        }
        // The recording first: it is usually the smaller, and when it is not JSON the request's
        // body is never parsed.
        guard let recordedValue = try? OrderedJSON(parsing: recorded), let value = body.json else { return false }
        return matches(value, recordedValue)
    }

    /// `value` against `recorded` as ``OrderedJSON/isEquivalent(to:)`` compares them, except that a
    /// recorded marker string matches anything. Depth is bounded by the parser's limit.
    private static func matches(_ value: OrderedJSON, _ recorded: OrderedJSON) -> Bool {
        switch (value, recorded) {
        case (_, .string(Redaction.marker)):
            return true
        case (.array(let elements), .array(let recordedElements)):
            return elements.count == recordedElements.count && zip(elements, recordedElements).allSatisfy { matches($0, $1) }
        case (.object(let members), .object(let recordedMembers)):
            return OrderedJSON.membersMatch(members, recordedMembers) { matches($0, $1) }
        default:
            return value.isEquivalent(to: recorded)
        }
    }
}
