/// Which members of a JSON document the decode never read, for a test that asks (a mapping
/// report): set for one synchronous call with ``track(_:)``, a `SculptJSONDecoder` decoding on the
/// same thread marks each member a keyed container looks up, then adds the paths of the others.
///
/// Outside ``track(_:)`` a decode reads one thread-local value, once, and marks nothing.
package final class ReadTracking {
    /// The paths of the members no decode read, in document order: `owner.site_admin`,
    /// `items[].node_id` (array positions are `[]`: a member unread in several elements is listed once).
    package private(set) var unreadMembers: [String] = []
    /// How many decodes were tracked.
    package private(set) var decodes = 0
    private var seen: Set<String> = []

    package init() {}

    /// The tracking of the running call, if any.
    package static let current = ThreadLocal<ReadTracking>()

    /// Runs `body` with this tracking visible to decodes on this thread.
    package func track<T>(_ body: () throws -> T) rethrows -> T {
        try Self.current.withValue(self, body)
    }

    /// Adds the unread members of a decoded tape: `read[key]` is whether the member whose key
    /// entry is `key` was looked up. Members under an unread one are not listed.
    package func record(_ entries: JSONTape.Entries, text: UnsafeBufferPointer<UInt8>, read: UnsafeBufferPointer<Bool>) {
        decodes += 1
        var path: [String] = []
        walk(0, entries, text, read, &path)
    }

    private func walk(_ index: Int, _ entries: JSONTape.Entries, _ text: UnsafeBufferPointer<UInt8>, _ read: UnsafeBufferPointer<Bool>, _ path: inout [String]) {
        let entry = entries[index]
        switch entry.kind {
        case .object:
            var position = JSONTape.firstChild(of: index)
            while position < entry.end {
                let name = Self.name(of: entries[position], in: text)
                path.append(path.isEmpty ? name : "." + name)
                if read[position] {
                    walk(JSONTape.value(ofKey: position), entries, text, read, &path)
                } else {
                    let member = path.joined()
                    if seen.insert(member).inserted { unreadMembers.append(member) }
                }
                path.removeLast()
                position = entries.next(afterMember: position)
            }
        case .array:
            var position = JSONTape.firstChild(of: index)
            path.append("[]")
            while position < entry.end {
                walk(position, entries, text, read, &path)
                position = entries.next(after: position)
            }
            path.removeLast()
        default:
            break
        }
    }

    /// A key's text as written (escapes left as they are), for a path a person reads.
    private static func name(of key: JSONTape.Entry, in text: UnsafeBufferPointer<UInt8>) -> String {
        let range = key.offset..<min(text.count, key.offset + key.length)
        return String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
    }
}
