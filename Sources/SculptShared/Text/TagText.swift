/// A type tag (a discriminator's value) as every message writes it, so that a type-field matcher,
/// a family and the events they report say one thing the same way: a string quoted as JSON writes
/// it (`"a\"b"`), a number or boolean bare (`3`, `true`), and a value that is no scalar by what it
/// is (`null`, `an object`, `an array`).
package enum TagText {
    /// A string tag, quoted and escaped as JSON writes it.
    ///
    /// ```swift
    /// TagText.quoted(#"a"b"#)   // "a\"b"
    /// ```
    package static func quoted(_ tag: String) -> String {
        var text = ""
        JSONEscape.appendQuoted(tag, to: &text)
        return text
    }

    /// What stands in a tag's place when it is not a string, number or boolean.
    package static let null = "null"
    package static let object = "an object"
    package static let array = "an array"

    /// The sentence that says a tag is unknown: `"type" is "Poll", not registered`, or `no
    /// "type"` for a missing one.
    ///
    /// ```swift
    /// TagText.sentence(field: "type", found: TagText.quoted("Poll"))   // "type" is "Poll", not registered
    /// ```
    /// - Parameters:
    ///   - field: the tag's field.
    ///   - found: the tag as ``quoted(_:)`` and the constants write it; `nil` when it is missing.
    package static func sentence(field: String, found: String?) -> String {
        found.map { "\(quoted(field)) is \($0), not registered" } ?? "no \(quoted(field))"
    }
}
