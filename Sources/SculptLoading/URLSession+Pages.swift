import Sculpt
import SculptShared
#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

extension URLSession {
    /// Loads a request and the pages after it, serializing each: by default the pages that
    /// `Link: <...>; rel="next"` names (RFC 8288, GitHub's way); with `next`, the request your
    /// closure makes from a page (a cursor or page number in the body).
    ///
    /// ```swift
    /// for try await page in URLSession.shared.pages(for: request, serializer: serializer) {
    ///     issues += page.value
    /// }
    /// // Slack: a cursor in the body.
    /// let pages = session.pages(for: request, serializer: serializer) { page in
    ///     page.value.nextCursor.isEmpty ? nil : page.request(setting: "cursor", to: page.value.nextCursor)
    /// }
    /// ```
    ///
    /// The sequence ends when there is no next request, after `maximumPages` pages, or when a next
    /// request repeats a URL already loaded (a server's loop). Each page is requested only when the
    /// iteration asks for it (``PageSequence``); cancelling the task that iterates ends the
    /// iteration at once and cancels the request in flight (on Linux, only on a session without a
    /// `URLCache`). Credentials are not sent to a `Link` on another origin.
    ///
    /// - Parameters:
    ///   - request: the request for the first page.
    ///   - serializer: what turns each page's response into its value.
    ///   - maximumPages: the most pages loaded.
    ///   - next: the request for the page after a page, or `nil` after the last; by default the
    ///     page's `Link: rel="next"`.
    /// - Throws (from the iteration): ``PageError``, naming the page and its URL, around the
    ///   transport or serializer error (or the error `next` threw).
    public func pages<S: ResponseSerializer>(
        for request: URLRequest, serializer: S, maximumPages: Int = 100,
        next: @escaping @Sendable (Page<S.Output>) throws -> URLRequest? = { $0.nextLinkRequest }
    ) -> PageSequence<S.Output> {
        PageSequence(session: self, request: request, maximumPages: maximumPages, nextRequest: next) { data, response in
            try serializer.serialize(data, for: response)
        }
    }

    /// Loads a request and the pages after it, serializing each as a model of type `M`.
    ///
    /// ```swift
    /// for try await page in session.pages(for: request, serializer: serializer, as: [Issue].self) {
    ///     issues += page.value
    /// }
    /// ```
    /// - Parameters:
    ///   - request: the request for the first page.
    ///   - serializer: the serializer whose matcher must resolve `type` for every page.
    ///   - type: the model each page holds.
    ///   - maximumPages: the most pages loaded.
    ///   - next: the request for the page after a page, or `nil` after the last; by default the
    ///     page's `Link: rel="next"`.
    /// - Throws (from the iteration): ``PageError``, as ``pages(for:serializer:maximumPages:next:)``.
    public func pages<Matcher, M: Decodable & Sendable>(
        for request: URLRequest, serializer: ModelResponseSerializer<Matcher>, as type: M.Type, maximumPages: Int = 100,
        next: @escaping @Sendable (Page<M>) throws -> URLRequest? = { $0.nextLinkRequest }
    ) -> PageSequence<M> {
        PageSequence(session: self, request: request, maximumPages: maximumPages, nextRequest: next) { data, response in
            try serializer.serialize(data, for: response, as: M.self)
        }
    }

    /// Loads a request and the pages after it, serializing each as metadata and a model of type `M`.
    ///
    /// ```swift
    /// let pages = session.pages(for: request, serializer: enveloped, as: [Question].self) { page in
    ///     page.value.meta.hasMore ? page.request(setting: "page", to: String(page.number + 1)) : nil
    /// }
    /// ```
    /// - Parameters:
    ///   - request: the request for the first page.
    ///   - serializer: an envelope serializer whose matcher must resolve `type` for every page.
    ///   - type: the model each page holds beside the metadata.
    ///   - maximumPages: the most pages loaded.
    ///   - next: the request for the page after a page, or `nil` after the last; by default the
    ///     page's `Link: rel="next"`.
    /// - Throws (from the iteration): ``PageError``, as ``pages(for:serializer:maximumPages:next:)``.
    public func pages<Meta, Matcher, M: Decodable & Sendable>(
        for request: URLRequest, serializer: EnvelopeResponseSerializer<Meta, Matcher>, as type: M.Type, maximumPages: Int = 100,
        next: @escaping @Sendable (Page<Envelope<Meta, M>>) throws -> URLRequest? = { $0.nextLinkRequest }
    ) -> PageSequence<Envelope<Meta, M>> {
        PageSequence(session: self, request: request, maximumPages: maximumPages, nextRequest: next) { data, response in
            try serializer.serialize(data, for: response, as: M.self)
        }
    }
}
