/// Which members of a JSON document the decode never read, for a test that asks (a mapping
/// report): set for one synchronous call with ``track(_:)``, a `SculptJSONDecoder` decoding on the
/// same thread marks each member a keyed container looks up, then adds the paths of the others.
///
/// Outside ``track(_:)`` a decode reads one thread-local value, once, and marks nothing.
package final class ReadTracking {
    /// The paths of the members no decode read, in document order (see ``MemberPath``):
    /// `owner.site_admin`, `items[].node_id` (array positions are `[]`: a member unread in several
    /// elements is listed once). A member under one never read is not listed, nor a repeat of a
    /// name whose first member was read.
    package private(set) var unreadMembers: [String] = []
    private var seen: Set<String> = []

    /// Whether a decode is being tracked: a decode that a type's `init(from:)` starts inside it
    /// (a JSON string decoded on its own) reads another document, and is not tracked.
    private var decoding = false

    package init() {}

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

    /// The tracking of the running call, if any.
    package static let current = ThreadLocal<ReadTracking>()

    /// Runs `body` with this tracking visible to decodes on this thread.
    package func track<T>(_ body: () throws -> T) rethrows -> T {
        try Self.current.withValue(self, body)
    }

    /// Adds the unread members of a decoded tape: `read[key]` is whether the member whose key
    /// entry is `key` was looked up.
    package func record(_ entries: JSONTape.Entries, text: UnsafeBufferPointer<UInt8>, read: UnsafeBufferPointer<Bool>) {
        walk(0, path: "", entries, text, read)
    }

    private func walk(_ index: Int, path: String, _ entries: JSONTape.Entries, _ text: UnsafeBufferPointer<UInt8>, _ read: UnsafeBufferPointer<Bool>) {
        let entry = entries[index]
        switch entry.kind {
        case .object:
            // Names are made only for an object with a member left unread.
            var anyUnread = false
            var position = JSONTape.firstChild(of: index)
            while position < entry.end, !anyUnread {
                anyUnread = !read[position]
                position = entries.next(afterMember: position)
            }
            var readNames: Set<String> = []
            if anyUnread {
                position = JSONTape.firstChild(of: index)
                while position < entry.end {
                    if read[position] { readNames.insert(Self.name(entries[position], text)) }
                    position = entries.next(afterMember: position)
                }
            }
            position = JSONTape.firstChild(of: index)
            while position < entry.end {
                if read[position] {
                    // Only a container can hold an unread member: a path is made for nothing else.
                    let value = JSONTape.value(ofKey: position)
                    if entries[value].kind == .object || entries[value].kind == .array {
                        walk(value, path: MemberPath.appending(Self.name(entries[position], text), to: path), entries, text, read)
                    }
                } else {
                    let name = Self.name(entries[position], text)
                    let member = MemberPath.appending(name, to: path)
                    if !readNames.contains(name), seen.insert(member).inserted { unreadMembers.append(member) }
                }
                position = entries.next(afterMember: position)
            }
        case .array:
            let elements = MemberPath.elements(of: path)
            var position = JSONTape.firstChild(of: index)
            while position < entry.end {
                walk(position, path: elements, entries, text, read)
                position = entries.next(after: position)
            }
        default:
            break
        }
    }

    /// A key's decoded name.
    private static func name(_ key: JSONTape.Entry, _ text: UnsafeBufferPointer<UInt8>) -> String {
        MemberPath.name(text, key.offset..<(key.offset + key.length), escaped: !key.isSimpleString)
    }
}
