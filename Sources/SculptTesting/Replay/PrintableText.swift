import Sculpt

/// Text from a request or a recording as a replay's descriptions quote it: every control
/// character written as an escape, so that the only line breaks in a description are the ones it
/// writes itself (``FixtureServer`` sends a miss's description as a response body).
///
/// ```swift
/// PrintableText.value("a\r\nX-Injected: 1", limit: 512)   // a\r\nX-Injected: 1, on one line
/// ```
///
/// Escaped: the C0 controls (`\0`, `\t`, `\n`, `\r`, the others as `\u{1B}`), DEL and the C1
/// controls (`\u{7F}`, `\u{85}`), the Unicode line and paragraph separators (`\u{2028}`,
/// `\u{2029}`), the bidirectional marks, embeddings, overrides and isolates (`\u{202E}`,
/// `\u{061C}` and the like), which would reorder the text a terminal shows, and the invisible
/// zero-width characters and byte order mark (`\u{200B}`, `\u{2060}`, `\u{FEFF}`). A backslash
/// is left as it is.
enum PrintableText {
    /// `text` escaped and cut to `limit` UTF-8 bytes as ``ClippedText/value(_:limit:)`` cuts (its
    /// start, then `… (N bytes)` with the size of `text` itself); reads only as much of `text` as it
    /// shows.
    ///
    /// ```swift
    /// PrintableText.value("a\u{1B}[2J", limit: 64)   // a\u{1B}[2J
    /// ```
    static func value(_ text: some StringProtocol, limit: Int) -> String {
        let size = text.utf8.count
        // Most values have nothing to escape: a byte scan says so without building anything.
        if size <= limit, !text.utf8.contains(where: mayStartEscape) { return String(text) }
        return escaping(text.unicodeScalars, size: size, limit: limit)
    }

    /// The texts of `parts` one after the other, escaped and cut as ``value(_:limit:)`` does,
    /// without joining them first.
    ///
    /// ```swift
    /// PrintableText.value(joining: [path, "?", query], limit: 1_024)
    /// ```
    static func value(joining parts: [String], limit: Int) -> String {
        let size = parts.reduce(0) { $0 + $1.utf8.count }
        return escaping(parts.lazy.flatMap(\.unicodeScalars), size: size, limit: limit)
    }

    /// How `scalar` is written: its escape, or `nil` when it is written as it is.
    static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x00: return "\\0"
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x01...0x1F, 0x7F...0x9F, 0x061C, 0x200B...0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069, 0xFEFF:
            return "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default: return nil
        }
    }

    /// Escapes `scalars` (`size` UTF-8 bytes in all) until the result passes `limit`, then cuts it
    /// back to the last whole scalar or escape that leaves room for the stated size.
    private static func escaping(_ scalars: some Sequence<Unicode.Scalar>, size: Int, limit: Int) -> String {
        let suffix = "… (\(ClippedText.count(size)) bytes)"
        let room = max(0, limit - suffix.utf8.count)
        var shown = ""
        var fitting = 0
        for scalar in scalars {
            if let escape = escape(scalar) {
                shown += escape
            } else {
                shown.unicodeScalars.append(scalar)
            }
            let length = shown.utf8.count
            if length <= room { fitting = length }
            if length > limit { return ClippedText.prefix(shown, bytes: fitting) + suffix }
        }
        return shown
    }

    /// Whether a UTF-8 byte is, or can begin, a scalar that ``escape(_:)`` writes differently:
    /// C0 and DEL themselves, `0xC2` before a C1 control, `0xD8` before the Arabic letter mark,
    /// `0xE2` before a separator, a zero-width or a bidirectional control, `0xEF` before the byte
    /// order mark.
    private static func mayStartEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 || byte == 0xEF
    }
}
