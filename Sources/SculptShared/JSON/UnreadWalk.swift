import Foundation

/// One walk of a decode's scan for the members no decode read: each object a decode read is
/// walked member by member, and a member that was not read is listed unless a member with its path
/// already was (a member's path is told from others by a 64-bit hash of its names), its name
/// repeats one that was read, or its path was read by name (a type field a matcher found). A
/// member under one never read is not walked: only a container can hold an unread member.
///
/// So an array of a thousand elements with the same unread member costs a hash per element, not a
/// string, and with the hashes of names the decoder kept (``ReadMarks``) not even that: a
/// multiply and a look in a set.
struct UnreadWalk {
    /// What walks work in, kept from one walk to the next so that a report over many bodies
    /// allocates it once.
    struct Scratch {
        /// The hashes of the paths listed.
        var listed = PathHashSet()
        /// The steps of the paths listed, and of the steps on their way.
        var steps: [UnreadPaths.Step] = []
        /// Room for the way to a value: one place for each level a scan may nest.
        var way = [WayStep](repeating: WayStep(key: -1, step: -1), count: JSONTape.maximumDepth + 1)
    }

    /// A member or an array's elements on the way to the value being walked.
    struct WayStep {
        /// The member's key entry; `-1` for an array's elements.
        var key: Int
        /// Its position in ``UnreadWalk/steps`` once a path through it is listed; `-1` before.
        var step: Int32
    }

    /// What a walk reads: a decode's scan of the body, and what the decode left.
    struct Scan {
        let entries: JSONTape.Entries
        /// The body's bytes, as the decode read them.
        let text: UnsafeBufferPointer<UInt8>
        /// Whether each member, by its key entry, was read.
        let read: UnsafePointer<Bool>
        /// The hashes of names the decoder made under ``seed``, by key entry, for the keys of
        /// each object ``hashedObjects`` marks.
        let hashes: UnsafePointer<UInt64>
        /// Whether each object, by its entry, had every name hashed, with no two equal.
        let hashedObjects: UnsafePointer<Bool>
        /// The seed names are hashed under.
        let seed: UInt64
        /// The hashes of the paths read by name, not through the scan (a type field a matcher
        /// found), and of every path on the way to one.
        let namedReads: PathHashSet

        /// The scan `entries` of `text`, with what decodes left in `marks`: the marks must live
        /// as long as the scan is read.
        ///
        /// - Parameter namedReads: the paths read by name, each as its members' names.
        init(entries: JSONTape.Entries, text: UnsafeBufferPointer<UInt8>, marks: ReadMarks, seed: UInt64, namedReads: [[String]] = []) {
            self.entries = entries
            self.text = text
            read = UnsafePointer(marks.read)
            hashes = UnsafePointer(marks.hashes)
            hashedObjects = UnsafePointer(marks.hashedObjects)
            self.seed = seed
            var paths = PathHashSet()
            for names in namedReads {
                var hash = UnreadWalk.bodyHash
                for name in names {
                    hash = UnreadWalk.combine(hash, Self.nameHash(decoded: Array(name.utf8), seed: seed))
                    paths.insert(hash)
                }
            }
            self.namedReads = paths
        }
    }

    /// What the walk reads, apart from what it changes, so that reading it copies nothing.
    private let scan: Scan
    /// The hashes of the paths listed.
    private var listed: PathHashSet
    /// The steps of the paths listed, and of the steps on their way.
    private var steps: [UnreadPaths.Step]
    /// How many paths are listed.
    private var listedCount = 0
    /// The way to the value being walked: its first `depth` places.
    private let way: UnsafeMutableBufferPointer<WayStep>
    private var depth = 0

    /// The paths of the members of `body` that no decode read.
    ///
    /// - Parameters:
    ///   - scan: a decode's scan of the body, and what the decode read.
    ///   - body: the body: the paths keep it to write their names from when it is the text the
    ///     decoder read, else a copy of that text.
    ///   - scratch: what the walk works in.
    static func paths(unreadIn scan: Scan, body: Data, scratch: inout Scratch) -> UnreadPaths {
        var listed = scratch.listed
        var steps = scratch.steps
        // The walk's own copies are the only ones, so that adding to them copies nothing.
        scratch.listed = PathHashSet()
        scratch.steps = []
        // Room for 64 paths before the set grows, which clears only 128 slots: a body has far
        // fewer distinct unread paths than members, since an array's elements repeat theirs.
        listed.removeAll(reservingCapacity: 64)
        steps.removeAll(keepingCapacity: true)
        let paths = scratch.way.withUnsafeMutableBufferPointer { way in
            var walk = UnreadWalk(scan: scan, listed: listed, steps: steps, way: way)
            walk.visit(0, hash: Self.bodyHash)
            let paths = walk.steps.isEmpty ? UnreadPaths() : UnreadPaths(Array(walk.steps), count: walk.listedCount, namesIn: scan.names(of: body))
            listed = walk.listed
            steps = walk.steps
            return paths
        }
        scratch.listed = listed
        scratch.steps = steps
        return paths
    }

    private init(scan: Scan, listed: PathHashSet, steps: [UnreadPaths.Step], way: UnsafeMutableBufferPointer<WayStep>) {
        self.scan = scan
        self.listed = listed
        self.steps = steps
        self.way = way
    }

    private mutating func visit(_ index: Int, hash: UInt64) {
        let entries = scan.entries
        let entry = entries[index]
        switch entry.kind {
        case .object:
            // An object the decoder hashed has distinct names: none repeats a read one.
            let hashed = scan.hashedObjects[index]
            var readNames: Scan.ReadNames?
            var position = JSONTape.firstChild(of: index)
            while position < entry.end {
                var isRead = scan.read[position]
                if !isRead {
                    let name = hashed ? scan.hashes[position] : scan.nameHash(position)
                    let member = Self.combine(hash, name)
                    if scan.namedReads.contains(member) {
                        // Read by name (a type field a matcher found), or on the way to one.
                        isRead = true
                    } else if !listed.contains(member), hashed || !scan.repeatsReadName(position, hash: name, in: index, &readNames) {
                        // The names read are gathered only when a member is about to be listed.
                        listed.insert(member)
                        listedCount += 1
                        list(position)
                    }
                }
                if isRead {
                    // Only a container can hold an unread member.
                    let value = JSONTape.value(ofKey: position)
                    let kind = entries[value].kind
                    if kind == .object || kind == .array, depth < way.count {
                        way[depth] = WayStep(key: position, step: -1)
                        depth += 1
                        visit(value, hash: Self.combine(hash, hashed ? scan.hashes[position] : scan.nameHash(position)))
                        depth -= 1
                    }
                }
                position = entries.next(afterMember: position)
            }
        case .array:
            guard depth < way.count else { return }
            let elements = Self.combine(hash, Self.elementsHash)
            way[depth] = WayStep(key: -1, step: -1)
            depth += 1
            var position = JSONTape.firstChild(of: index)
            while position < entry.end {
                visit(position, hash: elements)
                position = entries.next(after: position)
            }
            depth -= 1
        default:
            break
        }
    }

    /// Lists the path to the member whose key entry is `member`, adding the steps on the way
    /// that no listed path has added yet.
    private mutating func list(_ member: Int) {
        var parent: Int32 = -1
        for index in 0..<depth {
            if way[index].step < 0 {
                let key = way[index].key
                steps.append(key < 0 ? UnreadPaths.Step(elementsAfter: parent) : UnreadPaths.Step(key: key, in: scan.entries, after: parent))
                way[index].step = Int32(truncatingIfNeeded: steps.count - 1)
            }
            parent = way[index].step
        }
        var step = UnreadPaths.Step(key: member, in: scan.entries, after: parent)
        step.isListed = true
        steps.append(step)
    }

    /// The hash of the body's own path, which every other path starts from.
    static let bodyHash: UInt64 = 0xCBF2_9CE4_8422_2325
    private static let prime: UInt64 = 0x100_0000_01B3
    /// What an array's elements add to their path's hash.
    private static let elementsHash: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// A path's hash and one more step's, mixed (a multiply and two shifts: the low bits of the
    /// result, which a set's slot is found by, depend on every bit of both).
    static func combine(_ path: UInt64, _ step: UInt64) -> UInt64 {
        var hash = (path ^ (step &* 0x9E37_79B9_7F4A_7C15)) &* prime
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        return hash ^ (hash >> 32)
    }
}

extension UnreadWalk.Scan {
    /// What the names are in: `body`, when the decoder read its bytes as they are, else a copy
    /// of the text it read (after a byte order mark, or converted from UTF-16 or UTF-32).
    func names(of body: Data) -> Data {
        let isBody = body.withUnsafeBytes { raw in raw.baseAddress == UnsafeRawPointer(text.baseAddress) && raw.count == text.count }
        return isBody ? body : Data(buffer: text)
    }

    /// The hashes of the names of the members of an object that were read.
    typealias ReadNames = PathHashSet

    /// Whether the unread member whose key entry is `key` (its name's hash `hash`) repeats the
    /// name of a member read in `object`; `names` holds the hashes of the names read, once
    /// gathered.
    func repeatsReadName(_ key: Int, hash: UInt64, in object: Int, _ names: inout ReadNames?) -> Bool {
        let readNames = names ?? self.names(readIn: object)
        names = readNames
        return readNames.contains(UnreadWalk.combine(0, hash))
    }

    /// The hashes of the names of the members of `object` that were read.
    func names(readIn object: Int) -> ReadNames {
        var readCount = 0
        var position = JSONTape.firstChild(of: object)
        while position < entries[object].end {
            if read[position] { readCount += 1 }
            position = entries.next(afterMember: position)
        }
        var names = PathHashSet(minimumCapacity: readCount)
        position = JSONTape.firstChild(of: object)
        while position < entries[object].end {
            if read[position] { names.insert(UnreadWalk.combine(0, nameHash(position))) }
            position = entries.next(afterMember: position)
        }
        return names
    }

    /// The hash of a key's decoded name, made here: the walk reads the decoder's own from
    /// ``hashes`` in an object the decoder marked (``hashedObjects``), and asks for this elsewhere.
    ///
    /// Names are hashed as decoders compare them, as strings: a name beyond ASCII in its
    /// canonical composed form (`"e\u0301"` as `"é"`, `"\u212A"` as `"K"`), so that names equal
    /// as strings hash alike whatever their bytes. A name whose escapes do not decode is hashed
    /// apart from every name that does.
    func nameHash(_ key: Int) -> UInt64 {
        let entry = entries[key]
        let range = min(entry.offset, text.count)..<min(text.count, entry.offset + entry.length)
        if entry.isSimpleString, entry.isASCII {
            return ByteHash.hash(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(text)[range]), seed: seed)
        }
        guard let decoded = entry.isSimpleString ? Array(text[range]) : JSONEscape.decodedContent(text, in: range) else {
            return ByteHash.hash(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(text)[range]), seed: ~seed)
        }
        return Self.nameHash(decoded: decoded, seed: seed)
    }

    /// The hash of a decoded name, `decoded` its UTF-8: as it is when ASCII, else in its
    /// canonical composed form.
    static func nameHash(decoded: [UInt8], seed: UInt64) -> UInt64 {
        if decoded.allSatisfy({ $0 < 0x80 }) { return decoded.withUnsafeBytes { ByteHash.hash($0, seed: seed) } }
        var canonical = String(decoding: decoded, as: UTF8.self).precomposedStringWithCanonicalMapping
        return canonical.withUTF8 { ByteHash.hash(UnsafeRawBufferPointer($0), seed: seed) }
    }
}
