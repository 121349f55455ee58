import Foundation
import SculptShared

/// Splits a raw (percent-encoded) URL path into its segments: on `/`, empty segments dropped, each
/// segment then percent-decoded on its own, so an encoded slash (`%2F`) stays inside its segment.
enum PathSegments {
    /// The segments of a raw (percent-encoded) path as written, with `.` and `..` resolved as
    /// ``removingDotSegments(_:)`` resolves the decoded ones: one for each segment matched.
    static func asSent(_ rawPath: Substring) -> [String] {
        var kept: [Substring] = []
        for segment in splitRaw(rawPath) {
            guard isDotSegment((decodeStrictly(segment) ?? segment).utf8) else {
                kept.append(segment)
                continue
            }
            if (decodeStrictly(segment) ?? segment).utf8.count == 2, !kept.isEmpty { kept.removeLast() }
        }
        return kept.map(String.init)
    }

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

    /// How many segments `rawPath` has: its non-empty runs between `/` bytes.
    static func count(_ rawPath: Substring) -> Int {
        var count = 0
        var previous = UInt8(ascii: "/")
        for byte in rawPath.utf8 {
            if previous == UInt8(ascii: "/"), byte != UInt8(ascii: "/") { count += 1 }
            previous = byte
        }
        return count
    }

    /// `segments` (decoded) with `.` and `..` resolved as a server resolves them (RFC 3986,
    /// section 5.2.4): `.` is dropped and `..` drops the segment before it, never climbing above
    /// the root.
    static func removingDotSegments(_ segments: [Substring]) -> [Substring] {
        var kept: [Substring] = []
        kept.reserveCapacity(segments.count)
        for segment in segments {
            guard isDotSegment(segment.utf8) else {
                kept.append(segment)
                continue
            }
            if segment.utf8.count == 2, !kept.isEmpty { kept.removeLast() }
        }
        return kept
    }

    /// `segment` with its percent escapes decoded, or `nil` if they do not decode to UTF-8.
    static func decodeStrictly(_ segment: Substring) -> Substring? {
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return segment }
        var bytes: [UInt8] = []
        guard appendDecoded(segment.utf8, to: &bytes) else { return nil }
        return Substring(decoding: bytes, as: UTF8.self)
    }

    /// Appends `segment` with its percent escapes decoded to `bytes` and returns `true`; appends
    /// nothing and returns `false` when an escape is malformed (`%zz`, a `%` without two hex digits after it) or the
    /// decoded bytes are not UTF-8 (`%E9`), the cases in which Foundation's
    /// `removingPercentEncoding` gives `nil`. Works on bytes, with no string or bridging: this runs
    /// for every segment of every percent-encoded path matched.
    static func appendDecoded(_ segment: some Collection<UInt8>, to bytes: inout [UInt8]) -> Bool {
        let start = bytes.count
        var index = segment.startIndex
        while index != segment.endIndex {
            let byte = segment[index]
            segment.formIndex(after: &index)
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = hexDigit(in: segment, at: &index), let low = hexDigit(in: segment, at: &index) else {
                bytes.removeSubrange(start...)
                return false
            }
            bytes.append(high << 4 | low)
        }
        guard isUTF8(bytes[start...]) else {
            bytes.removeSubrange(start...)
            return false
        }
        return true
    }

    /// The value of the hex digit at `index`, moving past it; `nil` at the end or at another byte.
    private static func hexDigit<Bytes: Collection<UInt8>>(in bytes: Bytes, at index: inout Bytes.Index) -> UInt8? {
        guard index != bytes.endIndex else { return nil }
        let value: UInt8
        switch bytes[index] {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = bytes[index] - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = bytes[index] - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = bytes[index] - UInt8(ascii: "A") + 10
        default: return nil
        }
        bytes.formIndex(after: &index)
        return value
    }

    private static func isUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Whether a decoded segment is `.` or `..`, which a server resolves away (RFC 3986, 5.2.4).
    static func isDotSegment(_ segment: some Collection<UInt8>) -> Bool {
        (1...2).contains(segment.count) && segment.allSatisfy { $0 == UInt8(ascii: ".") }
    }
}
