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

    /// The kinds seen at each path, and the paths in the order first seen.
    private(set) var kinds: [String: Kinds] = [:]
    private(set) var order: [String] = []

    /// Adds a body's shape.
    mutating func add(_ body: Data) {
        guard !body.isEmpty else { return note("", .empty) }
        let added: Bool = body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let text = UnsafeBufferPointer(rebasing: bytes[start...])
            guard let entries = try? JSONTape.scan(text) else { return false }
            defer { entries.deallocate() }
            var path = ""
            walk(0, entries, text, &path)
            return true
        }
        if !added { note("", .notJSON) }
    }

    private mutating func note(_ path: String, _ kind: Kinds) {
        if let known = kinds[path] {
            kinds[path] = known.union(kind)
        } else {
            kinds[path] = kind
            order.append(path)
        }
    }

    private mutating func walk(_ index: Int, _ entries: JSONTape.Entries, _ text: UnsafeBufferPointer<UInt8>, _ path: inout String) {
        let entry = entries[index]
        switch entry.kind {
        case .null: note(path, .null)
        case .true, .false: note(path, .boolean)
        case .number: note(path, .number)
        case .string: note(path, .string)
        case .array:
            note(path, .array)
            let parent = path.endIndex
            path += "[]"
            var position = JSONTape.firstChild(of: index)
            while position < entry.end {
                walk(position, entries, text, &path)
                position = entries.next(after: position)
            }
            path.removeSubrange(parent...)
        case .object:
            note(path, .object)
            let parent = path.endIndex
            var position = JSONTape.firstChild(of: index)
            while position < entry.end {
                let key = entries[position]
                let range = key.offset..<min(text.count, key.offset + key.length)
                if !path.isEmpty { path += "." }
                path += String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
                walk(JSONTape.value(ofKey: position), entries, text, &path)
                path.removeSubrange(parent...)
                position = entries.next(afterMember: position)
            }
        }
    }

    /// The path that holds `path`: `user` for `user.login`, `labels` for `labels[]`, `""` for a
    /// top-level member.
    static func parent(of path: String) -> String? {
        guard !path.isEmpty else { return nil }
        if path.hasSuffix("[]") { return String(path.dropLast(2)) }
        guard let dot = path.lastIndex(of: ".") else {
            // `[].id` under `[]`, `id` under the body.
            return ""
        }
        return String(path[..<dot])
    }
}
