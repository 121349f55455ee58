import SculptShared
/// An array element that a lossy array could not decode, kept with its position and its error.
///
/// ```swift
/// for failure in page.failures { print(failure) }  // "element [3] (type "Deleted"): ..."
/// ```
///
/// The record is bounded, whatever the element held: the error is kept as its case, type or key,
/// coding path (32 keys at most) and description (512 bytes at most, an underlying error's folded
/// in), not as the decoder's whole error, and the tag is cut at 256 bytes. Elements that failed the
/// same way share one record of the reason, so a million failures cost a few dozen bytes each.
public struct ElementFailure: Sendable, CustomStringConvertible {
    /// The most UTF-8 bytes of a tag that a failure keeps.
    public static let tagLimit = 256

    /// The element's position in the array.
    public var index: Int
    /// The element's discriminator value, for a polymorphic array; `nil` when it had none.
    public var tag: String?
    /// The bounded record of the error.
    var reason: Reason

    /// Why the element was not decoded: a `DecodingError` with the element's coding path, or an
    /// unknown tag (a `DecodingError.dataCorrupted`).
    ///
    /// The error is rebuilt from the bounded record: same case, type, key and coding path; its
    /// description holds the original's (and any underlying error's), cut at 512 bytes. An error
    /// of another type comes back as one that prints as the original did.
    public var error: any Error {
        get { reason.error(at: index) }
        set { reason = Reason(newValue, index: index, elementDepth: nil) }
    }

    /// Creates a failure record.
    /// - Parameters:
    ///   - index: the element's position in the array.
    ///   - tag: the element's type tag, when it had one.
    ///   - error: why the element did not decode.
    public init(index: Int, tag: String? = nil, error: any Error) {
        self.init(index: index, tag: tag, reason: Reason(error, index: index, elementDepth: nil))
    }

    /// A failure with an already bounded reason.
    init(index: Int, tag: String?, reason: Reason) {
        self.index = index
        self.tag = tag.map { ClippedText.value($0, limit: Self.tagLimit) }
        self.reason = reason
    }

    /// E.g. `element [3]: At [3].id: expected Int. (the value is not shown)`: read apart from the
    /// body, it quotes no value from it, nor what a model's own error says; an unknown tag is
    /// told as Sculpt tells it.
    public var description: String {
        let tag = self.tag.map { " (tag \(TagText.quoted($0)))" } ?? ""
        let why = SculptError.describe(error, withholding: reason.isSculpts ? nil : .apartFromBody)
        return ShownText.line("element [\(index)]\(tag): \(why)", limit: 2_048)
    }
}
