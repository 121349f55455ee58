/// A member's place in a JSON document as a person reads it: `owner.login`, `labels[].name`, the
/// body itself `""`. A name that would read as more than one step (holding `.`, `[`, `]` or `"`,
/// or empty) is written in quotes: `"a.b"`, `meta."x[0]"`.
package enum MemberPath {
    /// `path` with the member `name` added.
    package static func appending(_ name: String, to path: String) -> String {
        let shown = needsQuotes(name) ? quoted(name) : name
        return path.isEmpty ? shown : path + "." + shown
    }

    /// `path` with an array's elements added: `labels[]`.
    package static func elements(of path: String) -> String {
        path + "[]"
    }

    /// The decoded name of a JSON key whose text (between its quotes) is `range` of `text`.
    package static func name(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, escaped: Bool) -> String {
        let range = range.clamped(to: 0..<text.count)
        if escaped, let decoded = JSONEscape.decodedContent(text, in: range) {
            return String(decoding: decoded, as: UTF8.self)
        }
        return String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
    }

    private static func needsQuotes(_ name: String) -> Bool {
        name.isEmpty || name.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") || $0 == UInt8(ascii: "\"") }
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
