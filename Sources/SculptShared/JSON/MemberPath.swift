/// A member's place in a JSON document as a person reads it: `owner.login`, `labels[].name`, the
/// body itself `""`. A name that would read as more than one step or not as itself (empty, or
/// holding `.`, `[`, `]`, `"`, `\`, or a character that shows as nothing or moves text: a control
/// or format character, a line or paragraph separator) is written as a JSON string, those
/// characters escaped: `"a.b"`, `meta."x[0]"`, `"line\nbreak"`, `"\u007f"`.
package enum MemberPath {
    /// `path` with the member `name` added.
    package static func appending(_ name: String, to path: String) -> String {
        let shown = needsQuotes(name) ? quoted(name) : name
        return path.isEmpty ? shown : path + "." + shown
    }

    /// Adds the member `name` to `path` in place.
    package static func append(_ name: String, to path: inout String) {
        if !path.isEmpty { path += "." }
        path += needsQuotes(name) ? quoted(name) : name
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
        name.isEmpty || name.unicodeScalars.contains { scalar in
            scalar == "." || scalar == "[" || scalar == "]" || scalar == "\"" || scalar == "\\" || JSONEscape.isInvisible(scalar)
        }
    }

    private static func quoted(_ name: String) -> String {
        var text = ""
        JSONEscape.appendQuoted(name, to: &text, escapingInvisible: true)
        return text
    }
}
