/// The paths of the members a decode never read, kept as the bytes of their names and written as
/// text (``MemberPath``) only when asked for: a mapping report that is only checked for failures
/// makes no string for them.
package struct UnreadPaths: Sendable, Equatable {
    /// What one step of a path is.
    private enum Kind: UInt8, Sendable {
        /// A name as written, without escapes.
        case name
        /// A name with escapes, decoded when written.
        case escapedName
        /// An array's elements: `[]`.
        case elements
    }

    /// One step: its kind and, for a name, where its bytes are in ``bytes``.
    private struct Step: Sendable, Equatable {
        var kind: Kind
        var start: Int32
        var length: Int32
    }

    /// The names' bytes, one after another.
    private var bytes: [UInt8] = []
    /// Every path's steps, one path after another.
    private var steps: [Step] = []
    /// Where each path's steps end in ``steps``.
    private var ends: [Int32] = []

    package init() {}

    /// How many paths there are.
    package var count: Int { ends.count }

    /// Whether there are none.
    package var isEmpty: Bool { ends.isEmpty }

    /// Adds a path: `keys` are the key entries on the way (`-1` for an array's elements), their
    /// names read from `text`.
    mutating func append(_ keys: [Int], _ entries: JSONTape.Entries, _ text: UnsafeBufferPointer<UInt8>) {
        for key in keys {
            guard key >= 0 else {
                steps.append(Step(kind: .elements, start: 0, length: 0))
                continue
            }
            let entry = entries[key]
            let range = entry.offset..<min(text.count, entry.offset + entry.length)
            steps.append(Step(kind: entry.isSimpleString ? .name : .escapedName, start: Int32(truncatingIfNeeded: bytes.count), length: Int32(truncatingIfNeeded: range.count)))
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[range]))
        }
        ends.append(Int32(truncatingIfNeeded: steps.count))
    }

    /// The paths as text, in the order they were added.
    package var strings: [String] {
        bytes.withUnsafeBufferPointer { bytes in
            var strings: [String] = []
            strings.reserveCapacity(ends.count)
            var start = 0
            for end in ends {
                var path = ""
                for step in steps[start..<Int(end)] {
                    switch step.kind {
                    case .elements:
                        path = MemberPath.elements(of: path)
                    case .name, .escapedName:
                        let range = Int(step.start)..<(Int(step.start) + Int(step.length))
                        MemberPath.append(MemberPath.name(bytes, range, escaped: step.kind == .escapedName), to: &path)
                    }
                }
                strings.append(path)
                start = Int(end)
            }
            return strings
        }
    }
}
