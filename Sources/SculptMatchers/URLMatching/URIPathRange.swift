/// Where the path sits in the text of a URI reference, found the way RFC 3986 (appendix B) splits
/// one: after an optional `scheme:` and an optional `//authority`, up to the first `?` or `#`.
///
/// Matching reads the path straight from a URL's text instead of asking Foundation for it, which
/// builds a new string for every response.
enum URIPathRange {
    /// The range of the (still percent-encoded) path in `text`, a URI reference as `URL` keeps it.
    static func of(_ text: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = schemeEnd(text) ?? 0
        if text.count - start >= 2, text[start] == UInt8(ascii: "/"), text[start + 1] == UInt8(ascii: "/") {
            start += 2
            while start < text.count, !isPathDelimiter(text[start]), text[start] != UInt8(ascii: "/") { start += 1 }
        }
        var end = start
        while end < text.count, !isPathDelimiter(text[end]) { end += 1 }
        return start..<end
    }

    /// The index after `scheme:`, when the text starts with one: a `:` before any `/`, `?` or `#`
    /// (`URL` has checked the scheme's characters; like it, an empty scheme counts).
    private static func schemeEnd(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        for index in text.indices {
            switch text[index] {
            case UInt8(ascii: ":"): return index + 1
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return nil
            default: continue
            }
        }
        return nil
    }

    /// `?` starts the query and `#` the fragment: either ends the path.
    private static func isPathDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }
}
