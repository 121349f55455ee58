/// Text cut to a budget of UTF-8 bytes, for descriptions that must stay short whatever a server
/// sends: a long value keeps its start and states its size (`"abc… (1,048,576 bytes)"`), a long
/// list keeps its first items and counts the rest (`a, b, c and 99,990 more`).
///
/// Shared by every description in Sculpt and SculptTesting. Each function reads only what it
/// shows (a string's UTF-8 count is constant time, a cut walks back at most three bytes to a
/// scalar boundary), so a 100 MB value is described in the time a short one is. Nothing here
/// works on `Character`s, whose boundaries can depend on everything after them.
package enum ClippedText {
    /// `text` when it has at most `limit` UTF-8 bytes, else its start and its size, the whole
    /// result at most `limit` bytes (or the size alone when `limit` leaves no room for more).
    ///
    /// ```swift
    /// ClippedText.value(String(repeating: "x", count: 1 << 20), limit: 40)
    /// // "xxxxxxxxxxxxxxxxxx… (1,048,576 bytes)"
    /// ```
    package static func value(_ text: String, limit: Int) -> String {
        let size = text.utf8.count
        guard size > limit else { return text }
        let suffix = "… (\(count(size)) bytes)"
        let room = max(0, limit - suffix.utf8.count)
        return prefix(text, bytes: room) + suffix
    }

    /// The longest start of `text` with at most `bytes` UTF-8 bytes that ends on a scalar boundary.
    ///
    /// ```swift
    /// ClippedText.prefix("héllo", bytes: 2)   // "h"
    /// ```
    package static func prefix(_ text: String, bytes: Int) -> String {
        let utf8 = text.utf8
        guard utf8.count > bytes else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: max(0, bytes))
        // Walk back off continuation bytes (10xxxxxx) to the first byte of a scalar.
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 {
            end = utf8.index(before: end)
        }
        return String(decoding: utf8[utf8.startIndex..<end], as: UTF8.self)
    }

    /// The start of a byte sequence as text (invalid UTF-8 repaired), cut to `bytes` on a scalar
    /// boundary, and how many bytes were left out.
    ///
    /// ```swift
    /// let (shown, more) = ClippedText.prefix(ofBytes: body, bytes: 512)
    /// ```
    package static func prefix(ofBytes data: some Collection<UInt8>, bytes: Int) -> (text: String, remaining: Int) {
        let total = data.count
        guard total > bytes else { return (String(decoding: data, as: UTF8.self), 0) }
        let cut = data.index(data.startIndex, offsetBy: max(0, bytes))
        var end = cut
        // Back off at most three continuation bytes to a scalar's first byte; invalid UTF-8 is cut
        // where it stands.
        for _ in 0..<3 where end > data.startIndex && data[end] & 0xC0 == 0x80 {
            end = data.index(end, offsetBy: -1)
        }
        if data[end] & 0xC0 == 0x80 { end = cut }
        let shown = data[data.startIndex..<end]
        return (String(decoding: shown, as: UTF8.self), total - data.distance(from: data.startIndex, to: end))
    }

    /// Items joined by `separator`, each cut to `itemLimit` bytes, as many as fit in `limit` bytes;
    /// the rest counted: `a, b and 99,998 more`. Reads only the items it shows.
    ///
    /// ```swift
    /// ClippedText.list(keys, limit: 1_024)   // "id, login, name and 99,997 more"
    /// ```
    package static func list(
        _ items: some Collection<String>, separator: String = ", ", limit: Int, itemLimit: Int = 256
    ) -> String {
        var text = ""
        var shown = 0
        let total = items.count
        for item in items {
            let piece = value(item, limit: min(itemLimit, limit / 2))
            let rest = total - shown - 1
            // Room for this piece and, when more follow, for the count that closes the list.
            let closing = rest > 0 ? " and \(count(rest)) more".utf8.count : 0
            let needed = (shown > 0 ? separator.utf8.count : 0) + piece.utf8.count
            guard text.utf8.count + needed + closing <= limit else { break }
            if shown > 0 { text += separator }
            text += piece
            shown += 1
        }
        let rest = total - shown
        guard rest > 0 else { return text }
        return text + (shown > 0 ? " and \(count(rest)) more" : "\(count(rest)) items")
    }

    /// Lines joined by line feeds, each cut to `lineLimit` bytes, as many as fit in `limit` bytes
    /// with `last` after them; the rest counted on a line of their own (`… and 9,990 more lines`).
    /// Reads only the lines it shows.
    ///
    /// ```swift
    /// ClippedText.lines(changes.lazy.map(\.description), limit: 65_536, last: "3 changes")
    /// ```
    package static func lines(_ lines: some Collection<String>, limit: Int, lineLimit: Int = 4_096, last: String) -> String {
        var text = ""
        var shown = 0
        let total = lines.count
        for line in lines {
            let piece = value(line, limit: lineLimit)
            let rest = total - shown - 1
            let closing = (rest > 0 ? "… and \(count(rest)) more lines\n".utf8.count : 0) + last.utf8.count
            guard text.utf8.count + piece.utf8.count + 1 + closing <= limit else { break }
            text += piece + "\n"
            shown += 1
        }
        let rest = total - shown
        return text + (rest > 0 ? "… and \(count(rest)) more line\(rest == 1 ? "" : "s")\n" : "") + last
    }

    /// `n` with thousands separators: `1,048,576`.
    ///
    /// ```swift
    /// ClippedText.count(99_990)   // "99,990"
    /// ```
    package static func count(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var text = n < 0 ? "-" : ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}
