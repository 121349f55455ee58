/// The paths of the members a decode never read, kept as the bytes of their names and written as
/// text (``MemberPath``) only when asked for: a mapping report that is only checked for failures
/// makes no string for them.
///
/// Paths are kept as a tree of steps: each step holds one name (or an array's elements) and the
/// step it follows, so a path costs one step and one name's bytes, however deep it is, and the
/// steps on the way to a thousand unread members are kept once.
package struct UnreadPaths: Sendable {
    /// One step of a path: a member's name or an array's elements, after the step `parent`
    /// (`-1` for the body itself).
    struct Step: Sendable {
        /// What a step is.
        enum Kind: UInt8, Sendable {
            /// A name as written, without escapes.
            case name
            /// A name with escapes, decoded when written.
            case escapedName
            /// An array's elements: `[]`.
            case elements
        }

        var kind: Kind
        /// Whether a listed path ends here.
        var isListed = false
        var parent: Int32
        /// Where the name's bytes are: in the text while a decode's steps are gathered, in
        /// ``UnreadPaths/bytes`` once added.
        var start: Int32 = 0
        var length: Int32 = 0

        /// The step for the member whose key entry is `key` in `entries`, its name in the text.
        init(key: Int, in entries: JSONTape.Entries, after parent: Int32) {
            let entry = entries[key]
            kind = entry.isSimpleString ? .name : .escapedName
            self.parent = parent
            start = Int32(truncatingIfNeeded: entry.offset)
            length = Int32(truncatingIfNeeded: entry.length)
        }

        /// The step for an array's elements.
        init(elementsAfter parent: Int32) {
            kind = .elements
            self.parent = parent
        }
    }

    /// The names' bytes, one after another.
    private var bytes: [UInt8] = []
    /// Every step added.
    private var steps: [Step] = []
    /// Where each listed path's last step is in ``steps``, in the order listed.
    private var ends: [Int32] = []

    package init() {}

    /// How many paths there are.
    package var count: Int { ends.count }

    /// Whether there are none.
    package var isEmpty: Bool { ends.isEmpty }

    /// The paths of one walk: `steps`, whose names are still in `text` and whose parents are
    /// positions in `steps`, with the names' bytes copied in one pass.
    init(_ steps: [Step], names text: UnsafeBufferPointer<UInt8>) {
        var total = 0
        for step in steps where step.kind != .elements {
            total += Self.clamped(step, to: text).count
        }
        bytes = Array(repeating: 0, count: total)
        self.steps.reserveCapacity(steps.count)
        bytes.withUnsafeMutableBufferPointer { bytes in
            var next = 0
            for var step in steps {
                if step.kind != .elements {
                    let name = UnsafeBufferPointer(rebasing: text[Self.clamped(step, to: text)])
                    _ = UnsafeMutableBufferPointer(rebasing: bytes[next..<(next + name.count)]).update(fromContentsOf: name)
                    step.start = Int32(truncatingIfNeeded: next)
                    step.length = Int32(truncatingIfNeeded: name.count)
                    next += name.count
                }
                if step.isListed { ends.append(Int32(truncatingIfNeeded: self.steps.count)) }
                self.steps.append(step)
            }
        }
    }

    /// Where a step's name is in `text`, within it.
    private static func clamped(_ step: Step, to text: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = min(max(Int(step.start), 0), text.count)
        return start..<min(text.count, start + max(Int(step.length), 0))
    }

    /// The paths as text, in the order they were listed, each written when it is read: a
    /// description that shows the first few writes only those.
    package var paths: LazyMapCollection<[Int32], String> {
        ends.lazy.map { self.path(endingAt: Int($0)) }
    }

    /// The paths as text, in the order they were listed.
    package var strings: [String] { Array(paths) }

    /// The path whose last step is `steps[last]`.
    private func path(endingAt last: Int) -> String {
        var way: [Step] = []
        var index = last
        while index >= 0 {
            way.append(steps[index])
            index = Int(steps[index].parent)
        }
        return bytes.withUnsafeBufferPointer { bytes in
            var path = ""
            for step in way.reversed() {
                switch step.kind {
                case .elements:
                    path = MemberPath.elements(of: path)
                case .name, .escapedName:
                    let range = Int(step.start)..<(Int(step.start) + Int(step.length))
                    MemberPath.append(MemberPath.name(bytes, range, escaped: step.kind == .escapedName), to: &path)
                }
            }
            return path
        }
    }
}
