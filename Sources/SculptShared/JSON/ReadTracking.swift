import Foundation

/// Which members of a response body no decode read, for a test that asks (a mapping report):
/// set for one synchronous call with ``track(_:)``, a `SculptJSONDecoder` decoding the body on
/// the same thread marks each member a keyed container looks up; ``unread`` then lists the
/// others.
///
/// Only decodes of the body itself count: a JSON string a type decodes inside its own
/// `init(from:)` is another document, and is not tracked. Every decode of the body counts (a
/// matcher's look at a type field, then the model's decode): a member is unread when none of them
/// read it. Outside ``track(_:)`` a decode reads one thread-local value, once, and marks nothing.
///
/// Finding the unread members costs one walk of each tracked decode's scan: a member's path is
/// told from others by a 64-bit hash of its names and kept (as its last name's bytes) only the
/// first time it is listed, so an array of a thousand elements with the same unread member costs
/// a hash per element, not a string.
package final class ReadTracking {
    /// The body whose decodes are tracked.
    private let body: Data
    /// Whether each member (by its key entry) was read by a tracked decode so far: every decode
    /// is of the same text, so its scan is the same.
    private var reads: [Bool]?
    /// The paths of the members no tracked decode read, in document order (see
    /// ``MemberPath``): `owner.site_admin`, `items[].node_id` (array positions are `[]`: a member
    /// unread in several elements is listed once). A member under one never read is not listed,
    /// nor a repeat of a name whose first member was read. Empty when no decode of the body was
    /// tracked.
    package private(set) var unread = UnreadPaths()
    /// Whether a decode is being tracked: a decode that a type's `init(from:)` starts inside it
    /// reads another document, and is not tracked.
    private var decoding = false

    /// A tracking of the decodes of `body`.
    package init(body: Data) {
        self.body = body
    }

    /// The tracking of the running call, if any.
    package static let current = ThreadLocal<ReadTracking>()

    /// Runs `body` with this tracking visible to decodes on this thread.
    package func track<T>(_ body: () throws -> T) rethrows -> T {
        try Self.current.withValue(self, body)
    }

    /// The tracking for a decode of `data` starting on this thread: this thread's, when `data` is
    /// its body and no decode it tracks is already running; end it with ``endDecode()``.
    package static func beginDecode(of data: Data) -> ReadTracking? {
        guard let tracking = current.value, !tracking.decoding, tracking.body == data else { return nil }
        tracking.decoding = true
        return tracking
    }

    /// Ends the decode ``beginDecode(of:)`` started.
    package func endDecode() {
        decoding = false
    }

    /// Adds what a decode of the body read, `read[key]` for the member whose key entry is `key`,
    /// and walks its scan (while the decode's text is at hand) for the members no decode so far
    /// read: the reads of the decodes before are added to `read` first.
    package func record(_ entries: JSONTape.Entries, text: UnsafeBufferPointer<UInt8>, read: UnsafeMutableBufferPointer<Bool>) {
        if let reads, reads.count == read.count {
            for key in reads.indices where reads[key] { read[key] = true }
        }
        reads = Array(read)
        var walk = Walk(entries: entries, text: text, read: UnsafeBufferPointer(read), seed: Self.seed)
        // Room for a member in eight of the tape's words (up to 4,096) before the set grows.
        walk.listed.reserve(min(entries.count / 8, 1 << 12))
        walk.visit(0, hash: Self.bodyHash)
        unread = UnreadPaths(walk.steps, names: text)
    }

    /// One walk of a tape.
    private struct Walk {
        let entries: JSONTape.Entries
        let text: UnsafeBufferPointer<UInt8>
        let read: UnsafeBufferPointer<Bool>
        /// The seed names are hashed under.
        let seed: UInt64
        /// The hashes of the paths listed.
        var listed = HashSet()
        /// The steps of the paths listed, and of the steps on their way.
        var steps: [UnreadPaths.Step] = []
        /// The key entries on the way to the current value (`-1` for an array's elements), each
        /// with its position in ``steps`` once a path through it is listed (`-1` before).
        var way: [(key: Int, step: Int32)] = []

        mutating func visit(_ index: Int, hash: UInt64) {
            let entry = entries[index]
            switch entry.kind {
            case .object:
                var readNames = ReadNames()
                var position = JSONTape.firstChild(of: index)
                while position < entry.end {
                    if !read[position] {
                        let name = nameHash(position)
                        let member = ReadTracking.combine(hash, name)
                        // The names read are hashed only when a member is about to be listed.
                        if !listed.contains(member) {
                            if !readNames.isMade { readNames = self.names(readIn: index) }
                            let repeatsReadName = readNames.hashes.contains(ReadTracking.combine(0, name)) || repeatsReadString(position, in: index, &readNames)
                            if !repeatsReadName {
                                listed.insert(member)
                                list(position)
                            }
                        }
                    } else {
                        // Only a container can hold an unread member.
                        let value = JSONTape.value(ofKey: position)
                        if entries[value].kind == .object || entries[value].kind == .array {
                            way.append((position, -1))
                            visit(value, hash: ReadTracking.combine(hash, nameHash(position)))
                            way.removeLast()
                        }
                    }
                    position = entries.next(afterMember: position)
                }
            case .array:
                let elements = ReadTracking.combine(hash, ReadTracking.elementsHash)
                way.append((-1, -1))
                var position = JSONTape.firstChild(of: index)
                while position < entry.end {
                    visit(position, hash: elements)
                    position = entries.next(after: position)
                }
                way.removeLast()
            default:
                break
            }
        }

        /// Lists the path to the member whose key entry is `member`, adding the steps on the way
        /// that no listed path has added yet.
        private mutating func list(_ member: Int) {
            var parent: Int32 = -1
            for index in way.indices {
                if way[index].step < 0 {
                    let key = way[index].key
                    steps.append(key < 0 ? UnreadPaths.Step(elementsAfter: parent) : UnreadPaths.Step(key: key, in: entries, after: parent))
                    way[index].step = Int32(truncatingIfNeeded: steps.count - 1)
                }
                parent = way[index].step
            }
            var step = UnreadPaths.Step(key: member, in: entries, after: parent)
            step.isListed = true
            steps.append(step)
        }

        /// The names of the members of an object that were read.
        private struct ReadNames {
            /// Whether the names were gathered: they are only when a member is about to be listed.
            var isMade = false
            /// Their bytes' hashes.
            var hashes = HashSet()
            /// Whether one may be beyond ASCII: such names can be equal as strings (as a decoder
            /// compares them) with different bytes, `"é"` and `"e\u0301"`.
            var beyondASCII = false
            /// The names as strings, made when first needed.
            var strings: Set<String>?
        }

        /// The names of the members of `object` that were read.
        private func names(readIn object: Int) -> ReadNames {
            var readCount = 0
            var beyondASCII = false
            var position = JSONTape.firstChild(of: object)
            while position < entries[object].end {
                if read[position] {
                    readCount += 1
                    beyondASCII = beyondASCII || Self.mayBeBeyondASCII(entries[position])
                }
                position = entries.next(afterMember: position)
            }
            var names = ReadNames(isMade: true, hashes: HashSet(minimumCapacity: readCount), beyondASCII: beyondASCII)
            position = JSONTape.firstChild(of: object)
            while position < entries[object].end {
                if read[position] { names.hashes.insert(ReadTracking.combine(0, nameHash(position))) }
                position = entries.next(afterMember: position)
            }
            return names
        }

        /// Whether the name of the unread member whose key entry is `key` equals, as a string, a
        /// name read in `object` whose bytes differ: only names beyond ASCII can.
        private func repeatsReadString(_ key: Int, in object: Int, _ names: inout ReadNames) -> Bool {
            guard names.beyondASCII || Self.mayBeBeyondASCII(entries[key]) else { return false }
            let strings = names.strings ?? {
                var strings: Set<String> = []
                var position = JSONTape.firstChild(of: object)
                while position < entries[object].end {
                    if read[position] { strings.insert(name(position)) }
                    position = entries.next(afterMember: position)
                }
                return strings
            }()
            names.strings = strings
            return strings.contains(name(key))
        }

        /// A key's decoded name.
        private func name(_ key: Int) -> String {
            let entry = entries[key]
            return MemberPath.name(text, entry.offset..<(entry.offset + entry.length), escaped: !entry.isSimpleString)
        }

        /// Whether a key's decoded name may hold a character beyond ASCII: its bytes do, or an
        /// escape may.
        private static func mayBeBeyondASCII(_ key: JSONTape.Entry) -> Bool {
            !(key.isSimpleString && key.isASCII)
        }

        /// The hash of a key's decoded name.
        private func nameHash(_ key: Int) -> UInt64 {
            let entry = entries[key]
            if entry.isSimpleString, let base = text.baseAddress, entry.length <= text.count - entry.offset {
                return ByteHash.hash(UnsafeRawBufferPointer(start: base + entry.offset, count: entry.length), seed: seed)
            }
            let range = entry.offset..<min(text.count, entry.offset + entry.length)
            let decoded = JSONEscape.decodedContent(text, in: range) ?? Array(text[range])
            return decoded.withUnsafeBytes { ByteHash.hash($0, seed: seed) }
        }
    }

    /// A set of 64-bit hashes, already well mixed: open addressing, no second hashing.
    struct HashSet {
        private var slots: [UInt64]
        private var count = 0
        /// Whether 0, the empty slot's value, is in the set.
        private var hasZero = false

        /// An empty set with room for `minimumCapacity` values before it grows (none allocated
        /// for 0).
        init(minimumCapacity: Int = 0) {
            slots = minimumCapacity > 0 ? Array(repeating: 0, count: Self.slotCount(for: minimumCapacity)) : []
        }

        /// A power of two at least twice `capacity`: at most half the slots are used.
        private static func slotCount(for capacity: Int) -> Int {
            1 << (Int.bitWidth - (2 * max(capacity, 8) - 1).leadingZeroBitCount)
        }

        func contains(_ value: UInt64) -> Bool {
            if value == 0 { return hasZero }
            if slots.isEmpty { return false }
            var slot = Int(truncatingIfNeeded: value) & (slots.count - 1)
            while slots[slot] != 0 {
                if slots[slot] == value { return true }
                slot = (slot + 1) & (slots.count - 1)
            }
            return false
        }

        /// Makes room for `capacity` values in all before the set grows.
        mutating func reserve(_ capacity: Int) {
            let slotCount = Self.slotCount(for: capacity)
            guard slotCount > slots.count else { return }
            let old = slots
            slots = Array(repeating: 0, count: slotCount)
            count = 0
            for value in old where value != 0 { insert(value) }
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
            reserve(slots.count)
        }
    }

    /// A per-process random seed for names' hashes, so that no fixed set of names collides on
    /// every machine.
    private static let seed = UInt64.random(in: .min ... .max)
    /// The hash of the body's own path, which every other path starts from.
    private static let bodyHash: UInt64 = 0xCBF2_9CE4_8422_2325
    private static let prime: UInt64 = 0x100_0000_01B3
    /// What an array's elements add to their path's hash.
    private static let elementsHash: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// A path's hash and one more step's, mixed (a multiply and two shifts: the low bits of the
    /// result, which a set's slot is found by, depend on every bit of both).
    private static func combine(_ path: UInt64, _ step: UInt64) -> UInt64 {
        var hash = (path ^ (step &* 0x9E37_79B9_7F4A_7C15)) &* prime
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        return hash ^ (hash >> 32)
    }
}

/// A decoder that marks the members it reads while a ``ReadTracking`` tracks the body it decodes:
/// a mapping report lists unread members only for a body such a decoder decodes, since a look
/// another decoder's body decode never marked would say every member it read was unread.
package protocol TracksReads {}
