/// What tracked decodes of a body leave for the walk that finds the members none of them read
/// (``UnreadWalk``): whether each member was read, and the hashes of the names the decoder made
/// while it looked keys up, so that the walk need not hash them again.
///
/// A ``ReadTracking`` hands the same marks to every decode of one body, so each adds its reads to
/// the others', and reuses them for the next body once no decoder a model kept holds them. Like
/// the tracking, marks are used by one thread at a time, without exclusivity checks.
package final class ReadMarks {
    /// How many entries the marks are for: the scan's.
    @exclusivity(unchecked) package private(set) var count: Int
    @exclusivity(unchecked) private var capacity: Int
    /// Whether each member, by its key entry, was read.
    @exclusivity(unchecked) package private(set) var read: UnsafeMutablePointer<Bool>
    /// Each name's hash, by its key entry: set for the keys of an object ``hashedObjects`` marks,
    /// not even initialized for the others.
    @exclusivity(unchecked) package private(set) var hashes: UnsafeMutablePointer<UInt64>
    /// Whether each object, by its entry, had every name hashed, as written, with no two equal.
    @exclusivity(unchecked) package private(set) var hashedObjects: UnsafeMutablePointer<Bool>

    /// Marks for a scan of `count` entries, none set.
    init(count: Int) {
        self.count = count
        capacity = max(1, count)
        read = .allocate(capacity: capacity)
        hashes = .allocate(capacity: capacity)
        hashedObjects = .allocate(capacity: capacity)
        clear()
    }

    deinit {
        read.deallocate()
        hashes.deallocate()
        hashedObjects.deallocate()
    }

    /// Clears the marks for a scan of `count` entries, making room for them first.
    func reset(count: Int) {
        if count > capacity {
            read.deallocate()
            hashes.deallocate()
            hashedObjects.deallocate()
            // Twice the room, so that bodies growing in size reallocate only a few times.
            capacity = max(count, 2 * capacity)
            read = .allocate(capacity: capacity)
            hashes = .allocate(capacity: capacity)
            hashedObjects = .allocate(capacity: capacity)
        }
        self.count = count
        clear()
    }

    /// Clears the read marks and the hashed objects' for ``count`` entries (a hash is read only
    /// for an object marked).
    private func clear() {
        read.initialize(repeating: false, count: max(1, count))
        hashedObjects.initialize(repeating: false, count: max(1, count))
    }
}
