import Foundation
import SculptShared

/// The decoding observer of the serialize call running on this thread, and the response it
/// reports about: the lossy shapes and the type-field fallbacks tell it what they lose, and it
/// builds a ``DecodingEvent`` for each when the call succeeds, in order, outside the call's scope:
/// a response that fails loses nothing quietly (its error says what failed), and what the
/// observer decodes itself is not observed.
///
/// Until then a loss is kept small (``Loss``, under 100 bytes): a skipped element shares its
/// reason and tag with its array's failure log and its path with the array, and an event's text is
/// written only when it is delivered, one event at a time.
///
/// A thread-local value, like `RootDecoding`'s: decoding is synchronous, and a `Decodable`
/// type's initializer has no other channel back to the serializer that runs it. Outside an
/// observed call, reporting reads one thread-local value and does nothing else; an observed call
/// costs setting it.
@usableFromInline
package final class DecodingObservation {
    /// What a decode lost, as it is kept until the call succeeds.
    enum Loss {
        /// A lossy array left out the element at `index`; `fallback` when a family's fallback type
        /// was tried for its unknown tag and did not decode.
        case skipped(index: Int, tag: Tag, reason: ElementFailure.Reason, fallback: UnknownTag?)
        /// A ``Lossy`` model did not decode.
        case dropped(error: any Error)
        /// A tag was missing or unknown and a fallback type decoded in its place.
        case unknownTag(UnknownTag)
    }

    /// A skipped element's tag, kept as the failure log keeps its text (shared), and shown as
    /// ``TagText`` writes it when the event is written.
    enum Tag {
        /// No tag: a lossy array's element, or a tag that is missing.
        case none
        /// A string tag, quoted when shown.
        case string(String)
        /// A number's or boolean's text.
        case bare(String)
        /// What stands in a tag's place (`null`, `an object`).
        case placeholder(String)

        /// The tag as an event shows it.
        var shown: String? {
            switch self {
            case .none: nil
            case .string(let text): TagText.quoted(text)
            case .bare(let text), .placeholder(let text): text
            }
        }

        /// The tag's value: a string's, or a number's text.
        var value: String? {
            switch self {
            case .none, .placeholder: nil
            case .string(let text), .bare(let text): text
            }
        }
    }

    /// A missing or unknown tag and the fallback type it was given: shared by the losses of every
    /// element with the same tag.
    package final class UnknownTag {
        let field: String
        /// The tag as the body has it (``TagText``); `nil` when it is missing.
        let found: String?
        /// The tag's value: a string's, or a number's text; `nil` when it is missing or not a
        /// scalar.
        let raw: String?
        let fallback: String

        init(field: String, found: String?, raw: String?, fallback: String) {
            self.field = field
            self.found = found
            self.raw = raw
            self.fallback = fallback
        }
    }

    /// A loss and where: for a skipped element, the path of its array (its index is added when the
    /// event is written).
    private struct Pending {
        let path: String
        let loss: Loss
    }

    /// The observer; `nil` for a call that observes nothing inside an observed one.
    private let observer: (@Sendable (DecodingEvent) -> Void)?
    private let response: ResponseContext
    private let data: Data
    private let matcher: any ModelMatcher
    /// Whether the matcher is being asked again (``rereading(_:)``): what it reports then was
    /// reported already.
    private var isRereading = false
    /// The losses of the call so far, delivered as events when it succeeds.
    private var pending: [Pending] = []
    /// Unknown tags already kept, by field, tag and fallback, so that a million elements with the
    /// same tag keep one; at most ``sharedTagLimit``.
    private var unknownTags: [String: UnknownTag] = [:]

    /// The most distinct unknown tags kept for sharing.
    private static let sharedTagLimit = 1_000

    private init(_ observer: (@Sendable (DecodingEvent) -> Void)?, _ response: ResponseContext, _ data: Data, _ matcher: any ModelMatcher) {
        self.observer = observer
        self.response = response
        self.data = data
        self.matcher = matcher
    }

    private static let current = ThreadLocal<DecodingObservation>()

    /// Whether a call on this thread observes its decoding.
    @usableFromInline
    static var isObserving: Bool { current.value != nil }

    /// This thread's observation, when it reports to an observer and is not rereading.
    private static var reporting: DecodingObservation? {
        guard let observation = current.value, observation.observer != nil, !observation.isRereading else { return nil }
        return observation
    }

    /// Runs `body`, the serializing of `data` for `response`, with `observer` told of what its
    /// decodes lose; `nil` keeps an observed call this one runs inside from hearing of them.
    @usableFromInline
    static func observing<T>(
        _ observer: (@Sendable (DecodingEvent) -> Void)?, _ response: ResponseContext, _ data: Data, _ matcher: any ModelMatcher,
        _ body: () throws(SculptError) -> T
    ) throws(SculptError) -> T {
        let observation = DecodingObservation(observer, response, data, matcher)
        let value = try current.withValue(observation, body)
        if let observer, !observation.pending.isEmpty {
            // In a scope of its own, so that what the observer decodes is not observed.
            current.withValue(DecodingObservation(nil, response, data, matcher)) {
                observation.deliver(to: observer)
            }
        }
        return value
    }

    /// Tells this thread's observer, if any, that a lossy array left out the element at `index`:
    /// when the call succeeds.
    /// - Parameters:
    ///   - index: the element's position.
    ///   - tag: its type tag, for a polymorphic array.
    ///   - reason: why, as the array's failure log keeps it.
    ///   - fallback: the unknown tag whose fallback type failed, if that is why.
    ///   - arrayPath: the array's path as text, worked out at its first loss and kept for the others.
    ///   - codingPath: the array's coding path.
    static func skipped(
        index: Int, tag: Tag, reason: ElementFailure.Reason, fallback: UnknownTag? = nil, arrayPath: inout String?,
        codingPath: @autoclosure () -> [any CodingKey]
    ) {
        guard let observation = reporting else { return }
        let path = arrayPath ?? {
            let path = codingPath()
            let text = path.isEmpty ? "" : SculptError.codingPath(path)
            arrayPath = text
            return text
        }()
        observation.pending.append(Pending(path: path, loss: .skipped(index: index, tag: tag, reason: reason, fallback: fallback)))
    }

    /// Tells this thread's observer, if any, that a ``Lossy`` model at `codingPath` is `nil`
    /// because of `error`: when the call succeeds.
    static func dropped(at codingPath: @autoclosure () -> [any CodingKey], error: any Error) {
        guard let observation = reporting else { return }
        observation.pending.append(Pending(path: SculptError.codingPath(codingPath()), loss: .dropped(error: error)))
    }

    /// Tells this thread's observer, if any, that the tag `tag` names was missing or not
    /// registered, and its fallback was decoded in its place at `codingPath`: when the call
    /// succeeds.
    package static func unknownTag(_ tag: UnknownTag, at codingPath: @autoclosure () -> [any CodingKey]) {
        guard let observation = reporting else { return }
        observation.pending.append(Pending(path: SculptError.codingPath(codingPath()), loss: .unknownTag(tag)))
    }

    /// The unknown tag for `field`, `found` (as ``TagText`` writes it; `nil`: missing) and
    /// `fallback`, shared with the earlier losses that had it; `nil` when no call on this thread
    /// reports to an observer.
    package static func sharedUnknownTag(field: String, found: String?, raw: String?, fallback: String) -> UnknownTag? {
        reporting?.unknownTag(field: field, found: found.map { ClippedText.value($0, limit: ElementFailure.tagLimit) }, raw: raw, fallback: fallback)
    }

    private func unknownTag(field: String, found: String?, raw: String?, fallback: String) -> UnknownTag {
        let key = "\(field)\u{0}\(found ?? "\u{0}")\u{0}\(fallback)"
        if let kept = unknownTags[key] { return kept }
        let tag = UnknownTag(field: field, found: found, raw: raw, fallback: fallback)
        if unknownTags.count < Self.sharedTagLimit { unknownTags[key] = tag }
        return tag
    }

    /// How many losses this thread's observation holds, to ``discard(from:)`` those a decode then
    /// throws away; `nil` when nothing reports.
    static func mark() -> Int? {
        reporting?.pending.count
    }

    /// Forgets the losses reported since `mark`: they were inside a value that did not decode (an
    /// element a lossy array then skipped, a ``Lossy`` left `nil`), so they are not in the result;
    /// the loss of that value says what happened.
    static func discard(from mark: Int?) {
        guard let mark, let observation = reporting, mark < observation.pending.count else { return }
        observation.pending.removeSubrange(mark...)
    }

    /// Runs `body`, which asks a matcher again what it was asked already (to explain or
    /// describe its answer), with what the matcher reports then kept from this thread's observer:
    /// it was reported the first time.
    package static func rereading<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        guard let observation = current.value, !observation.isRereading else { return try body() }
        observation.isRereading = true
        defer { observation.isRereading = false }
        return try body()
    }

    /// A tag as an event shows it (`shown`), or the marker (quoted, for a string) when its value
    /// (`raw`) holds one of `secrets`, in any case or spelling.
    private static func hiding(_ shown: String?, raw: String?, _ secrets: SecretIndex) -> String? {
        guard let raw, secrets.hiding(in: raw) != raw else { return shown }
        return shown?.hasPrefix("\"") == false ? Secrets.marker : TagText.quoted(Secrets.marker)
    }

    /// What a loss's texts quote from the body: its error's coding path and missing key, and its
    /// tag.
    private static func quoted(by loss: Loss) -> [String] {
        switch loss {
        case .skipped(let index, let tag, let reason, let fallback):
            return [tag.value, fallback?.raw].compactMap { $0 } + SculptError.quotedKeys(reason.error(at: index))
        case .dropped(let thrown): return SculptError.quotedKeys(thrown)
        case .unknownTag(let tag): return [tag.raw].compactMap { $0 }
        }
    }

    /// Writes each loss as an event and hands it to `observer`, one at a time, in order.
    private func deliver(to observer: @Sendable (DecodingEvent) -> Void) {
        // A coding path names the body's keys, a model may make a key of a value it read, and a
        // tag is the body's value: one the body, the URL or a header also holds as a secret value
        // is hidden wherever an event shows it.
        var quoted = Set(pending.lazy.flatMap { Self.quoted(by: $0.loss) })
        for path in Set(pending.lazy.map(\.path)) {
            quoted.formUnion(path.split(whereSeparator: { $0 == "." || $0 == "[" || $0 == "]" }).lazy.map(String.init))
        }
        let policy = SecretPolicy.default
        // The body's secret values too, which a text hides in any case and spelling (a key
        // percent-encoded or upper-cased from a value it holds).
        let contentTypes = response.headerFields[values: .contentType]
        let hidden = policy.secretValues(among: quoted, in: data, contentTypes: contentTypes)
            + policy.secretValues(in: data, contentTypes: contentTypes, scanning: SculptError.secretScanLimit).values
            + (response.url.map { policy.secretValues(in: $0) } ?? []) + policy.secretValues(in: response.headerFields)
        // Each text is compared with the few values it may hold: linear in the events whatever
        // their number.
        let secrets = SecretIndex(hidden)
        let route = Self.rereading { matcher.matchedRoute(for: response, data: data) }.map { ShownText.line($0, limit: 1_024, hiding: secrets.candidates(in: $0)) }
        let url = response.url.map { url in
            let shown = ResponseContext.shown(url)
            return ShownText.line(shown, limit: ResponseContext.shownURLLimit + 64, hiding: secrets.candidates(in: shown))
        } ?? "(no URL)"
        let method = response.method.map { ShownText.line($0.rawValue, limit: 64) }
        let status = response.status.code
        for item in pending {
            let kind: DecodingEvent.Kind
            let path: String
            var error: (any Error)?
            var reason: String?
            switch item.loss {
            case .skipped(let index, let tag, let failure, let fallback):
                kind = .elementSkipped(index: index, tag: Self.hiding(tag.shown, raw: tag.value, secrets))
                path = "\(item.path)[\(index)]"
                let thrown = failure.error(at: index)
                error = thrown
                let why = SculptError.describe(thrown, withholding: .apartFromBody)
                reason = fallback.map { "\(TagText.sentence(field: $0.field, found: Self.hiding($0.found, raw: $0.raw, secrets))); its fallback \($0.fallback) did not decode: \(why)" } ?? why
            case .dropped(let thrown):
                kind = .valueDropped
                path = item.path
                error = thrown
                reason = SculptError.describe(thrown, withholding: .apartFromBody)
            case .unknownTag(let tag):
                kind = .unknownTag(field: tag.field, found: Self.hiding(tag.found, raw: tag.raw, secrets), fallback: tag.fallback)
                path = item.path
            }
            observer(DecodingEvent(
                kind: kind.bounded, codingPath: ShownText.line(path, limit: SculptError.listLimit, hiding: secrets.candidates(in: path)),
                reason: reason.map { ShownText.line($0, limit: SculptError.listLimit, hiding: secrets.candidates(in: $0)) }, error: error,
                route: route, method: method, status: status, url: url))
        }
        pending = []
    }
}
