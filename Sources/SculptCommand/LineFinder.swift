import Foundation

/// The lines of a file where values first appear, found in about one pass over the file when
/// the values are asked for in the order the file holds them (as a document's findings are).
struct LineFinder {
    private let bytes: [UInt8]
    /// The offset of each line's first byte.
    private let lineStarts: [Int]
    /// Where the last value was found: the next search starts here, then wraps around.
    private var cursor = 0

    init(_ data: Data) {
        bytes = Array(data)
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        lineStarts = starts
    }

    /// The line (the first is 1) of the first place `needle` is written, as it is or with its
    /// `/` escaped as JSON may write it; `nil` when it is in neither form (a value JSON escapes
    /// otherwise).
    mutating func line(of needle: String) -> Int? {
        for written in [needle, needle.replacingOccurrences(of: "/", with: "\\/")] {
            let pattern = Array(written.utf8)
            guard let offset = find(pattern, from: cursor) ?? find(pattern, from: 0, before: cursor + pattern.count) else { continue }
            cursor = offset
            // The last line starting at or before the offset.
            var low = 0
            var high = lineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            return low + 1
        }
        return nil
    }

    /// The first offset at or after `start` (and starting before `end`) where `pattern` is.
    private func find(_ pattern: [UInt8], from start: Int, before end: Int = .max) -> Int? {
        guard let first = pattern.first, !pattern.isEmpty else { return nil }
        let last = min(bytes.count - pattern.count, end - 1)
        guard start <= last else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            var index = start
            while index <= last {
                guard let base = buffer.baseAddress,
                    let hit = memchr(base + index, Int32(first), last - index + 1)
                else { return nil }
                let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + offset, pattern, pattern.count) == 0 { return offset }
                index = offset + 1
            }
            return nil
        }
    }
}
