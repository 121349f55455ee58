import Foundation
import SculptShared

/// The shape of the JSON bodies recorded for one request: for each member path (`user.login`,
/// `labels[].name`; the body itself is `""`), the kinds of value seen there, merged over every
/// body and every array element. What two recordings are compared by.
struct BodyShape {
    /// The kinds of value seen at one place.
    struct Kinds: OptionSet, Hashable {
        let rawValue: UInt16
        static let null = Kinds(rawValue: 1)
        static let boolean = Kinds(rawValue: 2)
        /// A number written without a fraction or an exponent: what an `Int` reads.
        static let number = Kinds(rawValue: 4)
        /// A number written with a fraction or an exponent (`1.5`, `1.0`, `2e3`): a whole number
        /// becoming one breaks a model that reads an `Int`.
        static let fractional = Kinds(rawValue: 256)
        static let string = Kinds(rawValue: 8)
        static let array = Kinds(rawValue: 16)
        static let object = Kinds(rawValue: 32)
        /// A body that is not JSON (only ever the body's own kind).
        static let notJSON = Kinds(rawValue: 64)
        /// No body at all (only ever the body's own kind).
        static let empty = Kinds(rawValue: 128)

        /// What a model that reads these kinds reads: a number with a fraction, whole ones too.
        var readable: Kinds {
            contains(.fractional) ? union(.number) : self
        }

        /// `string`, `number or null`.
        var name: String {
            let names: [(Kinds, String)] = [
                (.object, "object"), (.array, "array"), (.string, "string"), (.number, "number"),
                (.fractional, "number with a fraction or exponent"), (.boolean, "boolean"),
                (.null, "null"), (.notJSON, "a body that is not JSON"), (.empty, "no body"),
            ]
            return names.filter { contains($0.0) }.map(\.1).joined(separator: " or ")
        }
    }

    /// The kinds seen at each path, each path's parent, and the paths in the order first seen.
    private(set) var kinds: [String: Kinds] = [:]
    private(set) var parents: [String: String] = [:]
    private(set) var order: [String] = []

    /// Members named by one of these (a secret value a body holds: a session keyed by its
    /// token) are at a path that names ``Secrets/marker`` instead.
    var hiding = SecretIndex([])

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
        case .number:
            let digits = UnsafeBufferPointer(rebasing: text[entry.offset..<min(text.count, entry.offset + entry.length)])
            let isFractional = digits.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
            note(path, isFractional ? .fractional : .number, parent: parent)
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
            // A decoder reads the first of two members whose names are equal (as strings are:
            // "é" and "e\u0301" too); a repeat is not part of what an app sees.
            var names: Set<String> = []
            var position = JSONTape.firstChild(of: index)
            while position < entry.end {
                let key = entries[position]
                var name = MemberPath.name(text, key.offset..<(key.offset + key.length), escaped: !key.isSimpleString)
                // A secret value as the name, or in it (`x=abc…`, `a abc… b`), in any spelling.
                if name.utf8.count >= SecretPolicy.shortestSecretValue { name = hiding.hiding(in: name) }
                if names.insert(name).inserted {
                    walk(JSONTape.value(ofKey: position), entries, text, path: MemberPath.appending(name, to: path), parent: path)
                }
                position = entries.next(afterMember: position)
            }
        }
    }
}
