import Foundation

/// The paths of the members a decode never read, kept as where their names are in the text and
/// written as text (``MemberPath``) only when asked for: a mapping report that is only checked for
/// failures makes no string for them, and copies no name.
///
/// Paths are kept as a tree of steps: each step holds one name (or an array's elements) and the
/// step it follows, so a path costs one step however deep it is, and the steps on the way to a
/// thousand unread members are kept once.
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
        /// Where the name's bytes are in the text (``UnreadPaths/names``): offsets of any size, as
        /// a body may be over 2 GiB.
        var start = 0
        var length = 0

        /// The step for the member whose key entry is `key` in `entries`.
        init(key: Int, in entries: JSONTape.Entries, after parent: Int32) {
            let entry = entries[key]
            kind = entry.isSimpleString ? .name : .escapedName
            self.parent = parent
            start = entry.offset
            length = entry.length
        }

        /// The step for an array's elements.
        init(elementsAfter parent: Int32) {
            kind = .elements
            self.parent = parent
        }
    }

    /// The text the names are in: the body itself (the storage the fixture holds, not a copy)
    /// when the decoder read it as it is, else the UTF-8 text the decoder read.
    private var names = Data()
    /// Every step, each after its parent.
    private var steps: [Step] = []

    /// How many paths there are.
    package private(set) var count = 0

    /// No paths.
    package init() {}

    /// The paths of one walk: `steps`, whose parents are positions in `steps`, `count` of them
    /// listed, their names in `names`.
    init(_ steps: [Step], count: Int, namesIn names: Data) {
        self.names = names
        self.steps = steps
        self.count = count
    }

    /// Whether there are none.
    package var isEmpty: Bool { count == 0 }

    /// The paths as text, in the order they were listed, each written when it is read: a
    /// description that shows the first few writes only those.
    package var paths: LazyMapCollection<LazyFilterCollection<Range<Int>>, String> {
        steps.indices.lazy.filter { self.steps[$0].isListed }.map { self.path(endingAt: $0) }
    }

    /// The paths as text, in the order they were listed.
    package var strings: [String] {
        var strings: [String] = []
        strings.reserveCapacity(count)
        strings.append(contentsOf: paths)
        return strings
    }

    /// The path whose last step is `steps[last]`.
    private func path(endingAt last: Int) -> String {
        var way: [Step] = []
        var index = last
        while index >= 0 {
            way.append(steps[index])
            index = Int(steps[index].parent)
        }
        return names.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var path = ""
            for step in way.reversed() {
                switch step.kind {
                case .elements:
                    path = MemberPath.elements(of: path)
                case .name, .escapedName:
                    let start = min(max(step.start, 0), bytes.count)
                    let range = start..<min(bytes.count, start + max(step.length, 0))
                    MemberPath.append(MemberPath.name(bytes, range, escaped: step.kind == .escapedName), to: &path)
                }
            }
            return path
        }
    }
}
