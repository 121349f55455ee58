import SculptShared
/// An array that decodes every element it can and keeps, rather than throws, the errors of the
/// others.
///
/// ```swift
/// try routes.add("/repos/*/*/issues", LossyArray<Issue>.self)
/// let issues = try serializer.serialize(data, for: context, as: LossyArray<Issue>.self)
/// issues.elements   // the issues that decoded
/// issues.values     // one entry per element, nil where it failed
/// issues.failures   // each failed element's index and DecodingError, with its coding path
/// ```
///
/// The array itself must still be an array: a body that is not one fails as a whole.
public struct LossyArray<Element: Decodable & Sendable>: Decodable, Sendable {
    /// One entry per element of the JSON array: the decoded element, or `nil` where it failed.
    public var values: [Element?]
    /// Why each failed element failed, in order: a bounded record each (see ``ElementFailure``).
    public var failures: [ElementFailure]

    /// The elements that decoded, in order.
    public var elements: [Element] { values.compactMap { $0 } }

    /// Creates a lossy array from its parts.
    /// - Parameters:
    ///   - values: the elements, `nil` where one did not decode.
    ///   - failures: why each missing element did not decode.
    public init(values: [Element?], failures: [ElementFailure]) {
        self.values = values
        self.failures = failures
    }

    /// Decodes each element on its own; an element that fails leaves `nil` and a failure behind.
    ///
    /// - Parameter decoder: the decoder to read the array from.
    /// - Throws: `DecodingError` when the value is not an array.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var values: [Element?] = []
        var log = FailureLog()
        var path: String?
        values.reserveCapacity(container.count ?? 0)
        while !container.isAtEnd {
            let index = container.currentIndex
            let element = try container.superDecoder()
            let mark = DecodingObservation.mark()
            do {
                values.append(try Element(from: element))
            } catch {
                values.append(nil)
                let failure = log.record(index: index, tag: nil, error: error, element: element)
                // What the element's own decode reported is not in the result: its skip says it all.
                DecodingObservation.discard(from: mark)
                DecodingObservation.skipped(index: index, tag: .none, reason: failure.reason, arrayPath: &path, codingPath: decoder.codingPath)
            }
        }
        self.values = values
        self.failures = log.failures
    }
}
