import Foundation
import SculptShared

/// The shape of the JSON bodies recorded for one request: for each member path (`user.login`,
/// `labels[].name`; the body itself is `""`), the kinds of value seen there, merged over every
/// body and every array element. What two recordings are compared by.
struct BodyShape {
    /// The kinds of value seen at one place.
    struct Kinds: OptionSet, Hashable {
        let rawValue: UInt8
        static let null = Kinds(rawValue: 1)
        static let boolean = Kinds(rawValue: 2)
        static let number = Kinds(rawValue: 4)
        static let string = Kinds(rawValue: 8)
        static let array = Kinds(rawValue: 16)
        static let object = Kinds(rawValue: 32)
        /// A body that is not JSON (only ever the body's own kind).
        static let notJSON = Kinds(rawValue: 64)
        /// No body at all (only ever the body's own kind).
        static let empty = Kinds(rawValue: 128)

        /// `string`, `number or null`.
        var name: String {
            let names: [(Kinds, String)] = [
                (.object, "object"), (.array, "array"), (.string, "string"), (.number, "number"), (.boolean, "boolean"),
                (.null, "null"), (.notJSON, "a body that is not JSON"), (.empty, "no body"),
            ]
            return names.filter { contains($0.0) }.map(\.1).joined(separator: " or ")
        }
    }

    /// The kinds seen at each path, each path's parent, and the paths in the order first seen.
    private(set) var kinds: [String: Kinds] = [:]
    private(set) var parents: [String: String] = [:]
    private(set) var order: [String] = []

    /// Adds a body's shape.
    mutating func add(_ body: Data) {
        guard !body.isEmpty else { return note("", .empty, parent: nil) }
        let added: Bool = body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let text = UnsafeBufferPointer(rebasing: bytes[start...])
            guard let entries = try? JSONTape.scan(text) else { return false }
            defer { entries.deallocate() }
            walk(0, entries, text, path: "", parent: nil)
            return true
        }
        if !added { note("", .notJSON, parent: nil) }
    }

    private mutating func note(_ path: String, _ kind: Kinds, parent: String?) {
        if let known = kinds[path] {
            kinds[path] = known.union(kind)
        } else {
            kinds[path] = kind
            parents[path] = parent
            order.append(path)
        }
    }

    private mutating func walk(_ index: Int, _ entries: JSONTape.Entries, _ text: UnsafeBufferPointer<UInt8>, path: String, parent: String?) {
        let entry = entries[index]
        switch entry.kind {
        case .null: note(path, .null, parent: parent)
        case .true, .false: note(path, .boolean, parent: parent)
        case .number: note(path, .number, parent: parent)
        case .string: note(path, .string, parent: parent)
        case .array:
            note(path, .array, parent: parent)
            let elements = MemberPath.elements(of: path)
            var position = JSONTape.firstChild(of: index)
            while position < entry.end {
                walk(position, entries, text, path: elements, parent: path)
                position = entries.next(after: position)
            }
        case .object:
            note(path, .object, parent: parent)
            var position = JSONTape.firstChild(of: index)
            while position < entry.end {
                let key = entries[position]
                let name = MemberPath.name(text, key.offset..<(key.offset + key.length), escaped: !key.isSimpleString)
                walk(JSONTape.value(ofKey: position), entries, text, path: MemberPath.appending(name, to: path), parent: path)
                position = entries.next(afterMember: position)
            }
        }
    }
}
