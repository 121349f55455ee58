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
/// `\u{061C}` and the like), which would reorder the text a terminal shows, and the characters
/// that show nothing (zero-width and invisible formatting characters, the soft hyphen, the
/// combining grapheme joiner, Hangul fillers, Khmer's invisible vowels, Mongolian and Unicode
/// variation selectors (an emoji's `\u{FE0F}` included), shorthand and musical format controls,
/// interlinear annotation marks, the byte order mark and the tag characters
/// `\u{E0000}`...`\u{E007F}`). A backslash is left as it is.
package enum PrintableText {
    /// `text` escaped and cut to `limit` UTF-8 bytes as ``ClippedText/value(_:limit:)`` cuts (its
    /// start, then `… (N bytes)` with the size of `text` itself); reads only as much of `text` as it
    /// shows.
    ///
    /// ```swift
    /// PrintableText.value("a\u{1B}[2J", limit: 64)   // a\u{1B}[2J
    /// ```
    package static func value(_ text: some StringProtocol, limit: Int) -> String {
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
    package static func value(joining parts: [String], limit: Int) -> String {
        let size = parts.reduce(0) { $0 + $1.utf8.count }
        return escaping(parts.lazy.flatMap(\.unicodeScalars), size: size, limit: limit)
    }

    /// How `scalar` is written: its escape, or `nil` when it is written as it is.
    package static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x00: return "\\0"
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x01...0x1F, 0x7F...0x9F, 0xAD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F, 0x200B...0x200F, 0x2028,
            0x2029, 0x202A...0x202E, 0x2060...0x206F, 0x3164, 0xFE00...0xFE0F, 0xFEFF, 0xFFA0, 0xFFF9...0xFFFB, 0x1BCA0...0x1BCA3,
            0x1D173...0x1D17A, 0xE0000...0xE007F, 0xE0100...0xE01EF:
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
    /// C0 and DEL themselves, or the first byte of the two-, three- and four-byte sequences that
    /// hold the escaped scalars (`0xC2` for C1 controls and the soft hyphen, `0xCD`, `0xD8`,
    /// `0xE1`, `0xE2`, `0xE3`, `0xEF`; `0xF0` for the shorthand and musical format controls,
    /// `0xF3` for the tag characters and variation selectors).
    private static func mayStartEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00..<0x20, 0x7F, 0xC2, 0xCD, 0xD8, 0xE1, 0xE2, 0xE3, 0xEF, 0xF0, 0xF3: true
        default: false
        }
    }
}
