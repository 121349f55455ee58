import Foundation

/// Splits a raw (percent-encoded) URL path into its segments: on `/`, empty segments dropped, each
/// segment then percent-decoded on its own, so an encoded slash (`%2F`) stays inside its segment.
enum PathSegments {
    /// The decoded segments of `rawPath`. A segment whose escapes do not decode to UTF-8
    /// (`%zz`, `%E9`) is kept as written.
    static func split(_ rawPath: Substring) -> [Substring] {
        splitRaw(rawPath).map { decodeStrictly($0) ?? $0 }
    }

    /// The raw segments of `rawPath`, not decoded. Splits UTF-8 bytes, not characters: in a
    /// percent-encoded path every `/` byte is a separator, and no grapheme breaking is needed.
    static func splitRaw(_ rawPath: Substring) -> [Substring] {
        rawPath.utf8.split(separator: UInt8(ascii: "/")).map { Substring($0) }
    }

    /// `segment` with its percent escapes decoded, or `nil` if they do not decode to UTF-8.
    static func decodeStrictly(_ segment: Substring) -> Substring? {
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return segment }
        return segment.removingPercentEncoding.map { $0[...] }
    }

    /// Whether a decoded segment is `.` or `..`, which a server resolves away (RFC 3986, 5.2.4).
    static func isDotSegment(_ segment: some Collection<UInt8>) -> Bool {
        (1...2).contains(segment.count) && segment.allSatisfy { $0 == UInt8(ascii: ".") }
    }
}
