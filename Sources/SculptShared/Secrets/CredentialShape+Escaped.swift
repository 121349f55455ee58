/// Credentials written with escapes: `%67hp_…` in a URL, `ghp_\u0041…` in JSON text. What shows
/// or keeps text as it was written finds them as a reader of the text would decode them.
extension CredentialShape {
    /// A credential found in the decoded reading of a text: where it is written, and its bytes as
    /// a reader decodes them.
    package struct Escaped: Sendable {
        package var range: Range<Int>
        package var decoded: [UInt8]
    }

    /// Every credential of a known shape that `bytes` hold written with an escape
    /// (``EscapedText``), found inside words (``find(in:insideWords:)``), each given where its
    /// written form lies. Empty, at the cost of one scan, when the text has no `%` and no `\`.
    /// Linear in the length of `bytes`.
    ///
    /// ```swift
    /// CredentialShape.escaped(in: Array("/users/%67hp_…".utf8)).map(\.range)   // [7..<49]
    /// ```
    package static func escaped(in bytes: [UInt8]) -> [Escaped] {
        guard let view = EscapedText(bytes) else { return [] }
        // One written without an escape is found in the text as written.
        return find(in: view.decoded, insideWords: true).filter { view.isEscaped($0.range) }.map { found in
            Escaped(range: view.written(found.range), decoded: Array(view.decoded[found.range]))
        }
    }
}
