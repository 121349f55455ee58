import SculptShared
/// A JSON array whose elements carry their own discriminator, each decoded as the type its tag
/// names: GitHub's events (`"type": "PushEvent"`), Stripe's lists (`"object": "charge"`).
///
/// ```swift
/// let events = try serializer.serialize(data, for: context, as: PolymorphicArray<GitHubEvents>.self)
/// for case let push as PushEvent in events.elements { print(push.payload.commits.count) }
/// ```
///
/// Every element must decode: a missing or unknown tag (without the family's fallback) or a
/// failing element fails the whole array, with the element's coding path. Use
/// ``LossyPolymorphicArray`` to keep going.
public struct PolymorphicArray<Family: TypeFieldFamily>: Decodable, Sendable {
    /// The decoded elements, in order, each of the type its tag names.
    public var elements: [any Decodable & Sendable]

    /// Creates an array from decoded elements.
    /// - Parameter elements: the elements, each of its own type.
    public init(elements: [any Decodable & Sendable]) {
        self.elements = elements
    }

    /// Decodes each element as the type its tag names.
    ///
    /// - Parameter decoder: the decoder to read the array from.
    /// - Throws: `DecodingError` for a value that is not an array, an element with a missing or
    ///   unknown tag, or an element that does not decode.
    public init(from decoder: any Decoder) throws {
        let table = TypeFieldTable(Family.self)
        var container = try decoder.unkeyedContainer()
        var elements: [any Decodable & Sendable] = []
        elements.reserveCapacity(container.count ?? 0)
        var fallback: DecodingObservation.UnknownTag?
        while !container.isAtEnd {
            elements.append(try table.decode(try container.superDecoder(), fallingBack: &fallback).value)
        }
        self.elements = elements
    }
}

/// A ``PolymorphicArray`` that keeps going: elements with an unknown tag or that fail to decode
/// are skipped and reported, not thrown.
///
/// ```swift
/// let list = try serializer.serialize(data, for: context, as: LossyPolymorphicArray<StripeObjects>.self)
/// list.elements   // what decoded
/// list.skipped    // index, tag and error of each element left out
/// ```
public struct LossyPolymorphicArray<Family: TypeFieldFamily>: Decodable, Sendable {
    /// The elements that decoded, in order.
    public var elements: [any Decodable & Sendable]
    /// The elements left out, in order, each with its tag and error: a bounded record each (see
    /// ``ElementFailure``).
    public var skipped: [ElementFailure]

    /// Creates an array from its parts.
    /// - Parameters:
    ///   - elements: the elements that decoded, each of its own type.
    ///   - skipped: why each skipped element did not decode.
    public init(elements: [any Decodable & Sendable], skipped: [ElementFailure]) {
        self.elements = elements
        self.skipped = skipped
    }

    /// Decodes each element it can.
    ///
    /// - Parameter decoder: the decoder to read the array from.
    /// - Throws: `DecodingError` when the value is not an array.
    public init(from decoder: any Decoder) throws {
        let table = TypeFieldTable(Family.self)
        var container = try decoder.unkeyedContainer()
        var elements: [any Decodable & Sendable] = []
        var log = FailureLog()
        var path: String?
        while !container.isAtEnd {
            let index = container.currentIndex
            let element = try container.superDecoder()
            let mark = DecodingObservation.mark()
            var fallback: DecodingObservation.UnknownTag?
            do {
                elements.append(try table.decode(element, fallingBack: &fallback).value)
            } catch {
                let read = try? table.read(element)
                // A tag the family does not know, with no fallback: the error is the family's own.
                let unknown = table.fallback == nil && read?.text.flatMap { table.types[$0] } == nil
                let failure = log.record(index: index, tag: read?.text, error: error, element: element, isSculpts: unknown)
                // What the element's own decode reported is not in the result: its skip says it all,
                // with the unknown tag whose fallback failed.
                DecodingObservation.discard(from: mark)
                let tag: DecodingObservation.Tag = switch read {
                case .scalar(_, isString: true): .string(failure.tag ?? "")
                case .scalar(_, isString: false): .bare(failure.tag ?? "")
                case .other(let what): .placeholder(what)
                case .missing, nil: .none
                }
                DecodingObservation.skipped(
                    index: index, tag: tag, reason: failure.reason, fallback: fallback, arrayPath: &path, codingPath: decoder.codingPath)
            }
        }
        self.elements = elements
        self.skipped = log.failures
    }
}
