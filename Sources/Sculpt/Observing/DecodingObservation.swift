import Foundation
import SculptShared

/// The decoding observer of the serialize call running on this thread, and the response it
/// reports about: the lossy shapes and the type-field fallbacks tell it what they lose
/// (``report(_:at:error:)``), and it builds a ``DecodingEvent`` for each. The events are handed to
/// the observer when the call succeeds, in order, outside the call's scope: a response that fails
/// loses nothing quietly (its error says what failed), and what the observer decodes itself is
/// not observed.
///
/// A thread-local value, like `RootDecoding`'s: decoding is synchronous, and a `Decodable`
/// type's initializer has no other channel back to the serializer that runs it. Outside an
/// observed call, reporting reads one thread-local value and does nothing else; an observed call
/// costs setting it.
@usableFromInline
package final class DecodingObservation {
    /// The observer; `nil` for a call that observes nothing inside an observed one.
    private let observer: (@Sendable (DecodingEvent) -> Void)?
    private let response: ResponseContext
    private let data: Data
    private let matcher: any ModelMatcher
    /// The route and URL as events show them, worked out for the first event.
    private var shown: (route: String?, url: String)?
    /// Whether the matcher is being asked again (``rereading(_:)``): what it reports then was
    /// reported already.
    private var isRereading = false
    /// The events of the call so far, handed over when it succeeds.
    private var events: [DecodingEvent] = []

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

    /// Runs `body`, the serializing of `data` for `response`, with `observer` told of what its
    /// decodes lose; `nil` keeps an observed call this one runs inside from hearing of them.
    @usableFromInline
    static func observing<T>(
        _ observer: (@Sendable (DecodingEvent) -> Void)?, _ response: ResponseContext, _ data: Data, _ matcher: any ModelMatcher,
        _ body: () throws(SculptError) -> T
    ) throws(SculptError) -> T {
        let observation = DecodingObservation(observer, response, data, matcher)
        let value = try current.withValue(observation, body)
        if let observer, !observation.events.isEmpty {
            // In a scope of its own, so that what the observer decodes is not observed.
            current.withValue(DecodingObservation(nil, response, data, matcher)) {
                for event in observation.events { observer(event) }
            }
        }
        return value
    }

    /// Tells this thread's observer, if any, that a decode lost what `kind` says at `codingPath`,
    /// because of `error`: when the call succeeds.
    /// - Parameters:
    ///   - kind: what was lost.
    ///   - codingPath: where in the body.
    ///   - error: why, for a skipped element or a dropped value.
    package static func report(_ kind: DecodingEvent.Kind, at codingPath: @autoclosure () -> [any CodingKey], error: (any Error)? = nil) {
        guard let observation = current.value, observation.observer != nil, !observation.isRereading else { return }
        let shown = observation.shownResponse()
        let path = codingPath()
        // One line each: a dictionary's keys on the path come from the body.
        observation.events.append(DecodingEvent(
            kind: kind.bounded,
            codingPath: PrintableText.value(SculptError.codingPath(path), limit: SculptError.listLimit),
            reason: error.map { PrintableText.value(SculptError.describe($0, withholding: .decodingEvent), limit: SculptError.listLimit) },
            error: error,
            route: shown.route,
            method: observation.response.method.map { ClippedText.value($0.rawValue, limit: 64) },
            status: observation.response.status.code,
            url: shown.url))
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

    /// The route and URL events show, worked out once per call.
    private func shownResponse() -> (route: String?, url: String) {
        if let shown { return shown }
        let route = Self.rereading { matcher.matchedRoute(for: response, data: data) }.map { ClippedText.value($0, limit: 1024) }
        let shown = (route, response.url.map(ResponseContext.shown) ?? "(no URL)")
        self.shown = shown
        return shown
    }
}
