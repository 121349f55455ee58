/// Which members of a JSON document the decode never read, for a test that asks (a mapping
/// report): set for one synchronous call with ``track(_:)``, a `SculptJSONDecoder` decoding on the
/// same thread marks each member a keyed container looks up, then adds the paths of the others.
///
/// Outside ``track(_:)`` a decode reads one thread-local value, once, and marks nothing.
///
/// Finding the unread members costs one walk of the scan: a member's path is told from others by
/// a 64-bit hash of its names, and made into text only the first time it is listed, so an array
/// of a thousand elements with the same unread member costs a hash per element, not a string.
package final class ReadTracking {
    /// The paths of the members no decode read, in document order (see ``MemberPath``):
    /// `owner.site_admin`, `items[].node_id` (array positions are `[]`: a member unread in several
    /// elements is listed once). A member under one never read is not listed, nor a repeat of a
    /// name whose first member was read.
    package private(set) var unread = UnreadPaths()

    /// ``unread`` as text.
    package var unreadMembers: [String] { unread.strings }
    /// The hashes of the paths listed.
    private var listed = HashSet()
    /// Whether a decode is being tracked: a decode that a type's `init(from:)` starts inside it
    /// (a JSON string decoded on its own) reads another document, and is not tracked.
    private var decoding = false

    package init() {}

    /// The tracking of the running call, if any.
    package static let current = ThreadLocal<ReadTracking>()

    /// Runs `body` with this tracking visible to decodes on this thread.
    package func track<T>(_ body: () throws -> T) rethrows -> T {
        try Self.current.withValue(self, body)
    }

    /// The tracking for a decode starting on this thread: this thread's, unless a decode it tracks
    /// is already running; end it with ``endDecode()``.
    package static func beginDecode() -> ReadTracking? {
        guard let tracking = current.value, !tracking.decoding else { return nil }
        tracking.decoding = true
        return tracking
    }

    /// Ends the decode ``beginDecode()`` started.
    package func endDecode() {
        decoding = false
    }

    /// Adds the unread members of a decoded tape: `read[key]` is whether the member whose key
    /// entry is `key` was looked up.
    package func record(_ entries: JSONTape.Entries, text: UnsafeBufferPointer<UInt8>, read: UnsafeBufferPointer<Bool>) {
        var walk = Walk(entries: entries, text: text, read: read, tracking: self)
        walk.visit(0, hash: Self.offsetBasis)
    }

    /// One walk of a tape: the key entries on the way to the current value (`-1` for an array's
    /// elements), from which a path is written when one is listed.
    private struct Walk {
        let entries: JSONTape.Entries
        let text: UnsafeBufferPointer<UInt8>
        let read: UnsafeBufferPointer<Bool>
        let tracking: ReadTracking
        var steps: [Int] = []

        mutating func visit(_ index: Int, hash: UInt64) {
            let entry = entries[index]
            switch entry.kind {
            case .object:
                var readNames: HashSet?
                var position = JSONTape.firstChild(of: index)
                while position < entry.end {
                    if !read[position] {
                        let name = nameHash(position)
                        let member = ReadTracking.combine(hash, name)
                        // The names read are hashed only when a member is about to be listed.
                        if !tracking.listed.contains(member) {
                            let names = readNames ?? self.names(readIn: index)
                            readNames = names
                            if !names.contains(ReadTracking.combine(0, name)) {
                                tracking.listed.insert(member)
                                steps.append(position)
                                tracking.unread.append(steps, entries, text)
                                steps.removeLast()
                            }
                        }
                    } else {
                        // Only a container can hold an unread member.
                        let value = JSONTape.value(ofKey: position)
                        if entries[value].kind == .object || entries[value].kind == .array {
                            steps.append(position)
                            visit(value, hash: ReadTracking.combine(hash, nameHash(position)))
                            steps.removeLast()
                        }
                    }
                    position = entries.next(afterMember: position)
                }
            case .array:
                let elements = ReadTracking.combine(hash, ReadTracking.elementsHash)
                steps.append(-1)
                var position = JSONTape.firstChild(of: index)
                while position < entry.end {
                    visit(position, hash: elements)
                    position = entries.next(after: position)
                }
                steps.removeLast()
            default:
                break
            }
        }

        /// The hashes of the names of the members of `object` that were read.
        private func names(readIn object: Int) -> HashSet {
            var names = HashSet()
            var position = JSONTape.firstChild(of: object)
            while position < entries[object].end {
                if read[position] { names.insert(ReadTracking.combine(0, nameHash(position))) }
                position = entries.next(afterMember: position)
            }
            return names
        }

        /// The hash of a key's decoded name.
        private func nameHash(_ key: Int) -> UInt64 {
            let entry = entries[key]
            let range = entry.offset..<min(text.count, entry.offset + entry.length)
            if entry.isSimpleString {
                return ReadTracking.hash(UnsafeBufferPointer(rebasing: text[range]))
            }
            let decoded = JSONEscape.decodedContent(text, in: range) ?? Array(text[range])
            return decoded.withUnsafeBufferPointer { ReadTracking.hash($0) }
        }
    }

    /// A set of 64-bit hashes, already well mixed: open addressing, no second hashing.
    struct HashSet {
        private var slots: [UInt64] = Array(repeating: 0, count: 16)
        private var count = 0
        /// Whether 0, the empty slot's value, is in the set.
        private var hasZero = false

        func contains(_ value: UInt64) -> Bool {
            if value == 0 { return hasZero }
            var slot = Int(truncatingIfNeeded: value) & (slots.count - 1)
            while slots[slot] != 0 {
                if slots[slot] == value { return true }
                slot = (slot + 1) & (slots.count - 1)
            }
            return false
        }

        mutating func insert(_ value: UInt64) {
            if value == 0 {
                hasZero = true
                return
            }
            if (count + 1) * 2 > slots.count { grow() }
            var slot = Int(truncatingIfNeeded: value) & (slots.count - 1)
            while slots[slot] != 0 {
                if slots[slot] == value { return }
                slot = (slot + 1) & (slots.count - 1)
            }
            slots[slot] = value
            count += 1
        }

        private mutating func grow() {
            let old = slots
            slots = Array(repeating: 0, count: old.count * 2)
            count = 0
            for value in old where value != 0 { insert(value) }
        }
    }

    private static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    private static let prime: UInt64 = 0x100_0000_01B3
    /// What an array's elements add to their path's hash.
    private static let elementsHash: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// A name's FNV-1a hash.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = offsetBasis
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    /// A path's hash and one more step's, mixed (a multiply and two shifts: the low bits of the
    /// result, which a set's slot is found by, depend on every bit of both).
    private static func combine(_ path: UInt64, _ step: UInt64) -> UInt64 {
        var hash = (path ^ (step &* 0x9E37_79B9_7F4A_7C15)) &* prime
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        return hash ^ (hash >> 32)
    }
}
