import Sculpt
import SculptShared
/// The keys of one object of a ``JSONTape``, by a seeded hash of their bytes: as written, or as
/// they convert from snake case. A key is looked up in a step or two without making a string,
/// whatever order a type asks for keys in; of two equal keys only the first goes in, so the first
/// is the one found, as `JSONDecoder` finds it.
///
/// Only objects whose keys are all plain ASCII (no escapes) have a table: their keys are equal
/// exactly when their bytes are. Filling gives up when its probes run past four per key (keys
/// made to collide); the object is then looked up through a `Dictionary`, whose hashing is
/// Swift's, so no object costs more than linear time.
struct KeyTable {
    /// The object's entry; -1 when the table holds none.
    private(set) var object = -1
    /// Key entries, -1 for an empty slot; a power of two of them, of which the first `mask + 1`
    /// are in use.
    private var slots = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
    private var mask = 0
    /// Whether keys are compared as they convert from snake case.
    private var snakeCase = false

    /// Frees the slots.
    func deallocate() {
        slots.deallocate()
    }

    /// Fills the table with the keys of `object`; `false`, leaving it empty, when the keys
    /// collide past four probes per key.
    ///
    /// With `kept`, each key's hash as written (`KeyBytes.hash`) is also kept at its entry, for a
    /// mapping report's walk, which would otherwise hash every name again; under snake case the
    /// table hashes converted keys, and keeps none.
    mutating func fill(object: Int, entries: JSONTape.Entries, text: UnsafeRawBufferPointer, snakeCase: Bool, keepingHashes kept: KeptHashes?) -> Bool {
        if let kept, !snakeCase {
            return fill(object: object, entries: entries, text: text, snakeCase: false, keeper: kept)
        }
        return fill(object: object, entries: entries, text: text, snakeCase: snakeCase, keeper: NoHashesKept())
    }

    /// ``fill(object:entries:text:snakeCase:keepingHashes:)``, specialized for whether hashes
    /// are kept: a decode that keeps none runs the loop it would run without them.
    @inline(__always)
    private mutating func fill(object: Int, entries: JSONTape.Entries, text: UnsafeRawBufferPointer, snakeCase: Bool, keeper: some KeyHashKeeper) -> Bool {
        let count = entries[object].count
        let capacity = 1 << (Int.bitWidth - (2 * Swift.max(count, 1) - 1).leadingZeroBitCount)  // a power of two >= 2 * count
        if slots.count < capacity {
            slots.deallocate()
            slots = .allocate(capacity: capacity)
        }
        // A table for a smaller object uses the first slots only.
        let mask = capacity - 1
        slots.baseAddress?.update(repeating: -1, count: capacity)
        self.object = -1
        self.snakeCase = snakeCase
        var probes = 0
        var hasDuplicates = false
        var position = JSONTape.firstChild(of: object)
        let end = entries[object].end
        while position < end {
            let key = Self.bytes(entries[position], in: text)
            let hash = snakeCase ? KeyBytes.hash(SnakeCase.CamelCaseBytes(key)) : KeyBytes.hash(key)
            keeper.keep(hash, at: position)
            var slot = Int(truncatingIfNeeded: hash) & mask
            var isDuplicate = false
            while slots[slot] >= 0 {
                let other = Self.bytes(entries[slots[slot]], in: text)
                if snakeCase ? SnakeCase.convertsAlike(key, other) : other.count == key.count && KeyBytes.equal(key, other) {
                    isDuplicate = true
                    break
                }
                slot = (slot + 1) & mask
                probes += 1
                if probes > 4 * count { return false }
            }
            if isDuplicate { hasDuplicates = true } else { slots[slot] = position }
            position = entries.next(afterMember: position)
        }
        if !hasDuplicates { keeper.keptAll(of: object) }
        self.object = object
        self.mask = mask
        return true
    }

    /// The entry of the first key equal to the ASCII `name` (as converted, under snake case).
    @inline(__always)
    func find(_ name: UnsafeRawBufferPointer, entries: JSONTape.Entries, text: UnsafeRawBufferPointer) -> Int? {
        var slot = Int(truncatingIfNeeded: KeyBytes.hash(name)) & mask
        while true {
            let position = slots[slot]
            guard position >= 0 else { return nil }
            let key = Self.bytes(entries[position], in: text)
            if snakeCase ? SnakeCase.converts(ascii: key, to: name) : key.count == name.count && KeyBytes.equal(key, name) { return position }
            slot = (slot + 1) & mask
        }
    }

    /// A key's bytes in the text, as written.
    @inline(__always)
    static func bytes(_ key: JSONTape.Entry, in text: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: text[key.offset..<(key.offset + key.length)])
    }
}

/// Where a key table's fill keeps the hashes of the keys it hashes, if anywhere.
protocol KeyHashKeeper {
    /// Keeps `hash`, the hash of the key whose entry is `key`.
    func keep(_ hash: UInt64, at key: Int)
    /// Notes that every key of `object` was kept, and that no two are equal.
    func keptAll(of object: Int)
}

/// Keeps no hash.
struct NoHashesKept: KeyHashKeeper {
    @inline(__always)
    func keep(_ hash: UInt64, at key: Int) {}

    @inline(__always)
    func keptAll(of object: Int) {}
}

/// Keeps each hash at its key's entry, and marks the objects whose keys were all kept and are
/// all distinct.
struct KeptHashes: KeyHashKeeper {
    let hashes: UnsafeMutablePointer<UInt64>
    let objects: UnsafeMutablePointer<Bool>

    @inline(__always)
    func keep(_ hash: UInt64, at key: Int) {
        hashes[key] = hash
    }

    @inline(__always)
    func keptAll(of object: Int) {
        objects[object] = true
    }
}

/// Keys' bytes compared and hashed a word at a time.
enum KeyBytes {
    /// Whether two byte strings of one length are equal.
    @inline(__always)
    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 8 <= a.count {
            guard a.loadUnaligned(fromByteOffset: index, as: UInt64.self) == b.loadUnaligned(fromByteOffset: index, as: UInt64.self) else { return false }
            index += 8
        }
        while index < a.count {
            guard a[index] == b[index] else { return false }
            index += 1
        }
        return true
    }

    /// Whether bytes are all ASCII.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 8 <= bytes.count {
            guard bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 else { return false }
            index += 8
        }
        while index < bytes.count {
            guard bytes[index] < 0x80 else { return false }
            index += 1
        }
        return true
    }

    /// A per-process random seed, so that no fixed set of keys collides on every machine.
    static let seed = UInt64.random(in: .min ... .max)

    /// A key's hash, under this process's seed.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        ByteHash.hash(bytes, seed: seed)
    }

    /// The same hash of the bytes an iterator gives.
    static func hash(_ bytes: some IteratorProtocol<UInt8>) -> UInt64 {
        ByteHash.hash(bytes, seed: seed)
    }
}
