/// A set of 64-bit hashes, already well mixed: open addressing, no second hashing. Emptied, it
/// keeps its storage, and a smaller set uses only the first slots of it.
struct PathHashSet {
    private var slots: [UInt64] = []
    /// The slots in use are the first `mask + 1`; `-1` when none are.
    private var mask = -1
    private var count = 0
    /// Whether 0, the empty slot's value, is in the set.
    private var hasZero = false

    /// An empty set with room for `minimumCapacity` values before it grows (none allocated
    /// for 0).
    init(minimumCapacity: Int = 0) {
        if minimumCapacity > 0 { removeAll(reservingCapacity: minimumCapacity) }
    }

    /// A power of two at least twice `capacity`: at most half the slots are used.
    private static func slotCount(for capacity: Int) -> Int {
        1 << (Int.bitWidth - (2 * max(capacity, 8) - 1).leadingZeroBitCount)
    }

    func contains(_ value: UInt64) -> Bool {
        if value == 0 { return hasZero }
        if mask < 0 { return false }
        var slot = Int(truncatingIfNeeded: value) & mask
        while slots[slot] != 0 {
            if slots[slot] == value { return true }
            slot = (slot + 1) & mask
        }
        return false
    }

    /// Empties the set, leaving room for `capacity` values before it grows: the storage is
    /// kept when it has the room, and only the slots in use are cleared.
    mutating func removeAll(reservingCapacity capacity: Int) {
        let slotCount = Self.slotCount(for: capacity)
        if slots.count < slotCount {
            slots = Array(repeating: 0, count: slotCount)
        } else {
            slots.withUnsafeMutableBufferPointer { $0.baseAddress?.update(repeating: 0, count: slotCount) }
        }
        mask = slotCount - 1
        count = 0
        hasZero = false
    }

    mutating func insert(_ value: UInt64) {
        if value == 0 {
            hasZero = true
            return
        }
        if (count + 1) * 2 > mask + 1 { grow() }
        var slot = Int(truncatingIfNeeded: value) & mask
        while slots[slot] != 0 {
            if slots[slot] == value { return }
            slot = (slot + 1) & mask
        }
        slots[slot] = value
        count += 1
    }

    /// Doubles the slots in use, placing the values again.
    private mutating func grow() {
        let old = mask < 0 ? [] : Array(slots[0...mask])
        let hadZero = hasZero
        removeAll(reservingCapacity: mask + 1)
        hasZero = hadZero
        for value in old where value != 0 { insert(value) }
    }
}
