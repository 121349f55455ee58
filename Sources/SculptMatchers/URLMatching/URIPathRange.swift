import SculptShared
/// Where the path sits in the text of a URI reference, found the way RFC 3986 (appendix B) splits
/// one: after a `scheme:`, and after an `//authority` when one follows, up to the first `?` or `#`.
///
/// Matching reads the path straight from a URL's text instead of asking Foundation for it, which
/// builds a new string for every response (and so does `URL.scheme`).
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

    /// The index after `scheme:` when the text starts with one: a letter, then letters, digits, `+`,
    /// `-` or `.` (RFC 3986, section 3.1), or, as `URL` also accepts, nothing at all (`:a/b`). Text
    /// before a `:` that is not a scheme (`a@:b`, which `URL` accepts) is the start of the path.
    private static func schemeEnd(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        for index in text.indices {
            let byte = text[index]
            if byte == UInt8(ascii: ":") { return index + 1 }
            let isSchemeByte = isLetter(byte) || (index > 0 && (isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")))
            guard isSchemeByte else { return nil }
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `?` starts the query and `#` the fragment: either ends the path.
    private static func isPathDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }
}
