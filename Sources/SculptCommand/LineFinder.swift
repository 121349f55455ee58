import Foundation
import SculptShared

/// The lines of a file where values first appear, found in about one pass over the file when
/// the values are asked for in the order the file holds them (as a document's findings are).
///
/// Every search together reads at most a few times the file: a value asked for out of order, or
/// written otherwise than it is looked for (`\u0067hp_...`, a JSON escape), costs a pass, and a
/// file of many would otherwise cost a pass each. Past that budget a value has no line.
struct LineFinder {
    private let bytes: [UInt8]
    /// The offset of each line's first byte.
    private let lineStarts: [Int]
    /// Where the last value was found: the next search starts here, then wraps around.
    private var cursor = 0
    /// How many more bytes the searches may read or compare.
    private var budget: Int

    init(_ data: Data) {
        bytes = Array(data)
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        lineStarts = starts
        budget = 4 * bytes.count + (64 << 10)
    }

    /// The line (the first is 1) of the first place `needle` is written, as it is or with its
    /// `/` escaped as JSON may write it; `nil` when it is in neither form (a value JSON escapes
    /// otherwise) or the searches' budget is spent.
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

    /// The first offset at or after `start` (and starting before `end`) where `pattern` is,
    /// within the budget.
    private mutating func find(_ pattern: [UInt8], from start: Int, before end: Int = .max) -> Int? {
        guard let first = pattern.first, !pattern.isEmpty else { return nil }
        let last = min(bytes.count - pattern.count, end - 1)
        guard start <= last else { return nil }
        var budget = self.budget
        defer { self.budget = budget }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            var index = start
            while index <= last, budget > 0 {
                // Read no further than the budget allows.
                let reach = min(last - index + 1, budget)
                guard let base = buffer.baseAddress, let hit = memchr(base + index, Int32(first), reach) else {
                    budget -= reach
                    return nil
                }
                let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                budget -= offset - index + 1 + pattern.count
                if memcmp(base + offset, pattern, pattern.count) == 0 { return offset }
                index = offset + 1
            }
            return nil
        }
    }
}
