import Foundation
import SculptShared

/// A copy of some bytes with ranges replaced, made only when the first range is.
struct ByteRewrite {
    private let original: Data
    private var rewritten = Data()
    private var copied: Int
    private var changed = false

    init(_ original: Data) {
        self.original = original
        copied = original.startIndex
    }

    /// Replaces `range` (after every range replaced so far) with what `replacement` appends.
    mutating func replace(_ range: Range<Int>, with replacement: (inout Data) -> Void) {
        if !changed { rewritten.reserveCapacity(original.count + original.count / 8) }
        changed = true
        rewritten.append(original[copied..<range.lowerBound])
        replacement(&rewritten)
        copied = range.upperBound
    }

    /// The bytes with every replacement made; the original when there was none.
    var result: Data {
        guard changed else { return original }
        return rewritten + original[copied...]
    }
}
