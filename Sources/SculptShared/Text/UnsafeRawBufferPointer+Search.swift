import Foundation

/// Searches over a document's bytes that read each byte at most once: each ends at the first
/// match or at the end of the range it is given.
extension UnsafeRawBufferPointer {
    /// The offset of the first `byte` at or after `start`.
    package func offset(of byte: UInt8, from start: Int) -> Int? {
        offset(of: byte, in: start..<count)
    }

    /// The offset of the first `byte` in `range`.
    package func offset(of byte: UInt8, in range: Range<Int>) -> Int? {
        let range = range.clamped(to: 0..<count)
        guard !range.isEmpty, let base = baseAddress, let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// The offset of the first `pattern` at or after `start`.
    package func offset(of pattern: [UInt8], from start: Int) -> Int? {
        offset(of: pattern, in: start..<count)
    }

    /// The offset of the first `pattern` that lies wholly in `range`.
    package func offset(of pattern: [UInt8], in range: Range<Int>) -> Int? {
        guard let first = pattern.first else { return range.lowerBound }
        var index = range.lowerBound
        let last = range.upperBound - pattern.count
        while index <= last, let candidate = offset(of: first, in: index..<(last + 1)) {
            if has(pattern, at: candidate) { return candidate }
            index = candidate + 1
        }
        return nil
    }

    /// Whether `pattern` is at `offset`.
    package func has(_ pattern: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + pattern.count <= count, let base = baseAddress else { return false }
        return pattern.withUnsafeBytes { pattern in
            guard let start = pattern.baseAddress else { return true }
            return memcmp(base + offset, start, pattern.count) == 0
        }
    }

    /// The offset of the first `first` or `second` in `range`.
    package func firstOffset(ofEither first: UInt8, _ second: UInt8, in range: Range<Int>) -> Int? {
        range.clamped(to: 0..<count).first { self[$0] == first || self[$0] == second }
    }
}
