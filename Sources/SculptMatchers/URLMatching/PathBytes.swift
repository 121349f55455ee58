import Foundation
import SculptShared

/// A URL path's segments as byte ranges over its UTF-8, for matching without allocating: the ranges
/// live on the stack, and only a path with a `%` is copied (to decode its segments).
enum PathBytes {
    /// The decoded segments of `url`'s path, each copied out: for the messages that explain a
    /// match, where the segments outlive one lookup.
    static func segments(of url: URL) -> [[UInt8]] {
        withSegments(of: url) { bytes, ranges in ranges.map { Array(bytes[$0]) } }
    }

    /// The segments of `url`'s path as sent, percent-encoded as the URL writes them, one for each
    /// of ``segments(of:)`` (`.` and `..` resolved alike): what messages show, so that paths that
    /// differ only in how they are encoded (`a/b` sent as `a%2Fb`, and `a%2Fb` sent as
    /// `a%252Fb`) read apart, and a path or prefix copied from a message is the one sent.
    static func segmentsAsSent(of url: URL) -> [String] {
        let raw: Substring
        if url.baseURL != nil {
            raw = url.path(percentEncoded: true)[...]
        } else {
            var text = url.relativeString
            let range = text.withUTF8 { URIPathRange.of($0) }
            raw = Substring(text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: range.lowerBound)..<text.utf8.index(text.utf8.startIndex, offsetBy: range.upperBound)])
        }
        return PathSegments.asSent(raw)
    }

    /// Calls `body` with the bytes of the URL's path (each segment percent-decoded on its own; a
    /// segment whose escapes are not UTF-8 is kept as written) and the ranges of its non-empty
    /// segments, with `.` and `..` segments resolved.
    static func withSegments<T>(
        of url: URL, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<Range<Int>>) throws -> T
    ) rethrows -> T {
        // A URL relative to a base has the path Foundation resolves; any other URL is its own
        // text, and its path a slice of it, read in place.
        if url.baseURL != nil {
            var path = url.path(percentEncoded: true)
            return try path.withUTF8 { try withSegments(ofRawPath: $0, body) }
        }
        var text = url.relativeString
        return try text.withUTF8 { text in
            try withSegments(ofRawPath: UnsafeBufferPointer(rebasing: text[URIPathRange.of(text)]), body)
        }
    }

    /// The same, for the bytes of a raw (percent-encoded) path.
    private static func withSegments<T>(
        ofRawPath raw: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<Range<Int>>) throws -> T
    ) rethrows -> T {
        if raw.contains(UInt8(ascii: "%")) {
            var (bytes, ranges) = decoded(raw)
            return try bytes.withUnsafeBufferPointer { bytes in
                try ranges.withUnsafeMutableBufferPointer { ranges in
                    let count = removeDotSegments(ranges, count: ranges.count, of: bytes)
                    return try body(bytes, UnsafeBufferPointer(rebasing: ranges[..<count]))
                }
            }
        }
        return try withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: raw.count / 2 + 1) { ranges in
            let count = removeDotSegments(ranges, count: split(raw, into: ranges), of: raw)
            return try body(raw, UnsafeBufferPointer(rebasing: ranges[..<count]))
        }
    }

    /// Whether the segment at `range` of `bytes` is `expected`.
    static func segment(_ range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>, equals expected: [UInt8]) -> Bool {
        guard range.count == expected.count else { return false }
        return expected.withUnsafeBufferPointer { expected in
            guard let left = expected.baseAddress, let right = bytes.baseAddress else { return true }
            return memcmp(left, right + range.lowerBound, range.count) == 0
        }
    }

    /// Writes the ranges of `bytes`' non-empty `/`-separated segments; returns how many.
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>, into ranges: UnsafeMutableBufferPointer<Range<Int>>) -> Int {
        var count = 0
        var start: Int?
        for index in bytes.indices {
            if bytes[index] == UInt8(ascii: "/") {
                if let segmentStart = start {
                    ranges[count] = segmentStart..<index
                    count += 1
                    start = nil
                }
            } else if start == nil {
                start = index
            }
        }
        if let segmentStart = start {
            ranges[count] = segmentStart..<bytes.count
            count += 1
        }
        return count
    }

    /// Resolves `.` and `..` segments the way a server does (RFC 3986, section 5.2.4): `.` is
    /// dropped and `..` drops the segment before it (none above the root). Works in place on the
    /// first `count` ranges; returns how many remain.
    private static func removeDotSegments(_ ranges: UnsafeMutableBufferPointer<Range<Int>>, count: Int, of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var kept = 0
        for index in 0..<count {
            let range = ranges[index]
            if PathSegments.isDotSegment(bytes[range]) {
                if range.count == 2 { kept = max(kept - 1, 0) }
                continue
            }
            ranges[kept] = range
            kept += 1
        }
        return kept
    }

    /// The segments percent-decoded one by one (a segment that does not decode kept as written),
    /// joined, with their new ranges.
    private static func decoded(_ raw: UnsafeBufferPointer<UInt8>) -> (bytes: [UInt8], ranges: [Range<Int>]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var ranges: [Range<Int>] = []
        for segment in raw.split(separator: UInt8(ascii: "/")) {
            let start = bytes.count
            if !PathSegments.appendDecoded(segment, to: &bytes) {
                bytes.append(contentsOf: segment)
            }
            ranges.append(start..<bytes.count)
        }
        return (bytes, ranges)
    }
}
