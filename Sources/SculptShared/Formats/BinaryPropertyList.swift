import Foundation

/// The object graph of a binary property list (`bplist00`), measured without decoding it: how
/// deeply its values nest, whether a container holds itself, and how many values a decoder visits.
///
/// A binary property list refers to its objects by number, so a few dozen bytes can describe a
/// container that holds itself (a decoder recurses until the stack overflows) or a chain of
/// containers each holding the next twice (the values a decoder visits double at each link).
/// One walk over the objects and their references, without recursion, finds both: its time is
/// linear in the size of the list. Levels are counted as the list's XML form counts elements:
/// `<plist>` is level 1, the top value level 2, a dictionary's keys and values one level below it.
/// A list whose trailer does not read is refused; a container
/// whose count or references do not fit the list is a finding, since a decoder may recurse through
/// the rest before it meets it.
package enum BinaryPropertyList {
    /// Why a list cannot be decoded within the limits.
    package enum Finding: Equatable, Sendable {
        /// A value at level `limit + 1` starts at byte `offset`.
        case tooDeep(offset: Int)
        /// The container at byte `offset` holds itself, directly or through others.
        case holdsItself(offset: Int)
        /// Decoding visits more than the allowed number of values (a value held in several
        /// places is visited in each).
        case tooManyValues
        /// The object at byte `offset` (or named by a reference there) does not fit the list:
        /// a count past the offset table, a reference past the last object.
        case unreadable(offset: Int)
        /// The trailer (the last 32 bytes) does not read: sizes of references or offsets other
        /// than 1 to 8 bytes, a table or object count that does not fit the list, or a version
        /// other than `bplist00`.
        case unreadableTrailer
    }

    /// The first reason `data` cannot be decoded with at most `maximumDepth` levels and
    /// `maximumValues` values visited; `nil` when it can, or when `data` is not a binary property
    /// list (it does not start with `bplist`). A value's visit counts 1, and a string's or data's
    /// 1 more for each 32 bytes it holds: decoding a long string held in many places copies it
    /// each time.
    package static func firstFinding(in data: Data, maximumDepth: Int, maximumValues: Int) -> Finding? {
        data.withUnsafeBytes { bytes in
            guard bytes.starts(with: Array("bplist".utf8)) else { return nil }
            // Foundation reads references and offsets of any size by their last eight bytes;
            // what this walk does not read, no decoder is given.
            guard bytes.starts(with: Array("bplist00".utf8)), let graph = Graph(bytes) else { return .unreadableTrailer }
            return graph.firstFinding(maximumDepth: maximumDepth, maximumValues: maximumValues)
        }
    }

    /// The trailer's layout, and the objects' references read from it.
    private struct Graph {
        package let bytes: UnsafeRawBufferPointer
        package let offsetSize: Int
        package let referenceSize: Int
        package let objectCount: Int
        package let top: Int
        package let tableOffset: Int

        package init?(_ bytes: UnsafeRawBufferPointer) {
            let trailer = bytes.count - 32
            guard trailer >= 8, bytes.starts(with: Array("bplist".utf8)) else { return nil }
            self.bytes = bytes
            offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
                let count = Self.integer(in: bytes, at: trailer + 8, size: 8),
                let top = Self.integer(in: bytes, at: trailer + 16, size: 8),
                let table = Self.integer(in: bytes, at: trailer + 24, size: 8),
                table >= 8, table <= trailer, count >= 1, count <= (trailer - table) / offsetSize, top < count
            else { return nil }
            objectCount = count
            self.top = top
            tableOffset = table
        }

        /// The big-endian unsigned integer of `size` bytes at `offset`, when it fits in an `Int`.
        package static func integer(in bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> Int? {
            guard offset >= 0, size <= bytes.count - offset else { return nil }
            var value: UInt64 = 0
            for index in offset..<offset + size { value = value << 8 | UInt64(bytes[index]) }
            return value <= UInt64(Int.max) ? Int(value) : nil
        }

        /// Where object `object` starts.
        package func offset(of object: Int) -> Int? {
            guard let offset = Self.integer(in: bytes, at: tableOffset + object * offsetSize, size: offsetSize),
                offset >= 8, offset < tableOffset
            else { return nil }
            return offset
        }

        /// Where the references of object `object` start, and how many there are: none for a
        /// scalar; `nil` when they do not fit before the offset table.
        package func references(of object: Int) -> (start: Int, count: Int)? {
            guard let offset = offset(of: object) else { return nil }
            let marker = bytes[offset]
            let perEntry: Int
            switch marker >> 4 {
            case 0xA, 0xB, 0xC: perEntry = 1  // array, ordered set, set
            case 0xD: perEntry = 2  // dictionary: its keys, then its values
            default: return (offset, 0)
            }
            var start = offset + 1
            var count = Int(marker & 0x0F)
            if count == 0x0F {
                // The count follows as an integer object: 0x1n, then 2^n bytes.
                guard start < tableOffset, bytes[start] >> 4 == 0x1, bytes[start] & 0x0F <= 3 else { return nil }
                let size = 1 << Int(bytes[start] & 0x0F)
                guard let value = Self.integer(in: bytes, at: start + 1, size: size) else { return nil }
                count = value
                start += 1 + size
            }
            guard count <= (tableOffset - start) / referenceSize / perEntry else { return nil }
            return (start, count * perEntry)
        }

        /// What a visit of `object` costs: 1, and for a string or data 1 more for each 32 bytes.
        package func weight(of object: Int) -> Int {
            guard let offset = offset(of: object) else { return 1 }
            let marker = bytes[offset]
            let unitBytes: Int
            switch marker >> 4 {
            case 0x4, 0x5: unitBytes = 1  // data, ASCII string
            case 0x6: unitBytes = 2  // UTF-16 string
            default: return 1
            }
            var count = Int(marker & 0x0F)
            if count == 0x0F {
                let start = offset + 1
                guard start < tableOffset, bytes[start] >> 4 == 0x1, bytes[start] & 0x0F <= 3,
                    let value = Self.integer(in: bytes, at: start + 1, size: 1 << Int(bytes[start] & 0x0F))
                else { return 1 }
                count = value
            }
            // A count past the list is the decoder's to refuse; it costs no more than the list.
            return 1 + min(count, tableOffset) * unitBytes / 32
        }

        /// The object that reference `index` of a list starting at `start` names.
        package func reference(_ index: Int, from start: Int) -> Int? {
            guard let object = Self.integer(in: bytes, at: start + index * referenceSize, size: referenceSize),
                object < objectCount
            else { return nil }
            return object
        }

        package func firstFinding(maximumDepth: Int, maximumValues: Int) -> Finding? {
            // For each object: 0 not reached, 1 on the path being walked, 2 done.
            var state = [UInt8](repeating: 0, count: objectCount)
            // For each done object: the levels it spans (1 for a scalar) and the values a
            // decoder visits in it, itself included (at most `valueCap`).
            var height = [Int](repeating: 0, count: objectCount)
            var values = [Int](repeating: 0, count: objectCount)
            // Counts stop one past the limit, far from overflowing when two are added.
            let valueCap = min(maximumValues, Int.max / 4) + 1
            var path: [(object: Int, references: (start: Int, count: Int), next: Int)] = []

            // The top value is level 2, inside <plist>.
            guard 2 <= maximumDepth else { return offset(of: top).map { .tooDeep(offset: $0) } ?? unreadable(top) }
            guard let topReferences = references(of: top) else { return unreadable(top) }
            state[top] = 1
            path.append((top, topReferences, 0))
            while let last = path.last {
                let level = path.count + 1
                if last.next < last.references.count {
                    path[path.count - 1].next += 1
                    guard let child = reference(last.next, from: last.references.start) else { return unreadable(last.object) }
                    switch state[child] {
                    case 1:
                        return offset(of: child).map { .holdsItself(offset: $0) } ?? unreadable(last.object)
                    case 2:
                        // Done along another path: it may reach deeper along this one.
                        if level + height[child] > maximumDepth { return deepest(from: child, at: level + 1, height: height, maximumDepth: maximumDepth) }
                    default:
                        guard level + 1 <= maximumDepth else { return offset(of: child).map { .tooDeep(offset: $0) } ?? unreadable(last.object) }
                        guard let childReferences = references(of: child) else { return unreadable(child) }
                        state[child] = 1
                        path.append((child, childReferences, 0))
                    }
                } else {
                    var levels = 0
                    var visited = min(weight(of: last.object), valueCap)
                    for index in 0..<last.references.count {
                        guard let child = reference(index, from: last.references.start) else { return unreadable(last.object) }
                        levels = max(levels, height[child])
                        visited = min(visited + values[child], valueCap)
                    }
                    guard visited <= maximumValues else { return .tooManyValues }
                    height[last.object] = levels + 1
                    values[last.object] = visited
                    state[last.object] = 2
                    path.removeLast()
                }
            }
            return nil
        }

        /// `object` as unreadable: at its offset, or at its entry in the offset table when that
        /// does not read.
        private func unreadable(_ object: Int) -> Finding {
            .unreadable(offset: offset(of: object) ?? tableOffset + object * offsetSize)
        }

        /// The value at level `maximumDepth + 1` below `object` (at `level`), following the
        /// deepest reference at each step.
        private func deepest(from object: Int, at level: Int, height: [Int], maximumDepth: Int) -> Finding? {
            var object = object
            for _ in level..<(maximumDepth + 1) {
                guard let references = references(of: object) else { return unreadable(object) }
                var deepestChild: Int?
                for index in 0..<references.count {
                    guard let child = reference(index, from: references.start) else { return unreadable(object) }
                    if deepestChild.map({ height[child] > height[$0] }) ?? true { deepestChild = child }
                }
                guard let deepestChild else { return unreadable(object) }
                object = deepestChild
            }
            return offset(of: object).map { .tooDeep(offset: $0) } ?? unreadable(object)
        }
    }
}
