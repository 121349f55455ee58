import Foundation

/// Searches for what closes a markup (`]]>`, `-->`, `?>`) that remember their last answer: a
/// search from a later offset that the last answer still covers costs nothing, so markup opened
/// many times and closed once (or never) is searched once.
package struct CloseFinder {
    private let bytes: UnsafeRawBufferPointer
    /// For each pattern searched: where the last search started and what it found.
    private var last: [[UInt8]: (from: Int, found: Int?)] = [:]

    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The offset of the first `pattern` at or after `start`.
    package mutating func first(_ pattern: [UInt8], from start: Int) -> Int? {
        if let (from, found) = last[pattern], from <= start, found.map({ $0 >= start }) ?? true {
            return found
        }
        let found = bytes.offset(of: pattern, from: start)
        last[pattern] = (start, found)
        return found
    }
}
