/// An array element that a lossy array could not decode, kept with its position and its error.
///
/// ```swift
/// for failure in page.failures { print(failure) }  // "element [3] (type "Deleted"): ..."
/// ```
public struct ElementFailure: Sendable, CustomStringConvertible {
    /// The element's position in the array.
    public var index: Int
    /// The element's discriminator value, for a polymorphic array; `nil` when it had none.
    public var tag: String?
    /// Why the element was not decoded: a `DecodingError` with the element's coding path, or an
    /// unknown tag.
    public var error: any Error

    /// Creates a failure record.
    ///
    /// ```swift
    /// let failure = ElementFailure(index: 3, tag: nil, error: error)
    /// ```
    public init(index: Int, tag: String? = nil, error: any Error) {
        self.index = index
        self.tag = tag
        self.error = error
    }

    /// E.g. `element [3]: At [3].id: expected Int. ...`.
    public var description: String {
        let tag = self.tag.map { " (tag \"\($0)\")" } ?? ""
        return "element [\(index)]\(tag): \(SculptError.describe(error))"
    }
}
