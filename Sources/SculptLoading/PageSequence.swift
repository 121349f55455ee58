import Foundation
import Sculpt
import SculptShared
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pages of a paginated load, each requested when the iteration asks for it: a page is never
/// loaded ahead of its consumer, and the consumer's task is the one that waits for it, so
/// cancelling that task ends the load at once, and the request in flight with it (on Linux, only
/// on a session without a `URLCache`).
///
/// ```swift
/// var pages = session.pages(for: request, serializer: serializer, as: [Issue].self).makeAsyncIterator()
/// let first = try await pages.next()     // one request
/// let second = try await pages.next()    // the next one, only now
/// ```
public struct PageSequence<Value: Sendable>: AsyncSequence, Sendable {
    /// Each page, with the value decoded from it.
    public typealias Element = Page<Value>

    let session: URLSession
    let request: URLRequest
    let maximumPages: Int
    let nextRequest: @Sendable (Page<Value>) throws -> URLRequest?
    let serialize: @Sendable (Data, ResponseContext) throws -> Value

    /// An iterator that loads the first page on its first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self, request: request)
    }

    /// Loads one page per `next()`.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let sequence: PageSequence
        var request: URLRequest?
        /// The URLs loaded, normalized (``NormalizedURL``).
        var loaded: Set<String> = []
        var number = 1
        /// An error of the `next` closure, thrown at the `next()` after the page it was given.
        var pendingFailure: PageError?
        /// The page the `next` closure failed on: the call after the failure asks it again.
        var failedAfter: Page<Value>?

        init(sequence: PageSequence, request: URLRequest) {
            self.sequence = sequence
            self.request = request
        }

        /// Whether the next `next()` has something to give: a failure to throw, or a next request
        /// within `maximumPages` for a URL not loaded yet.
        var hasNextPage: Bool {
            if pendingFailure != nil || failedAfter != nil { return true }
            guard let request, number <= sequence.maximumPages else { return false }
            return !loaded.contains(NormalizedURL.text(request.url))
        }

        /// The next page; `nil` when there is no next request, after `maximumPages`, when a next
        /// request repeats a URL already loaded (fragments aside, equal percent-encodings and
        /// host case taken as equal), or when the task is cancelled.
        ///
        /// - Throws: ``PageError`` around the transport, serializer or `next` closure's error;
        ///   the closure's error comes at the call after the page it was given, which is returned.
        public mutating func next() async throws -> Page<Value>? {
            if let pendingFailure {
                self.pendingFailure = nil
                throw pendingFailure
            }
            if request == nil, let failedAfter {
                // The `next` closure failed on this page: asked again, its cause may be gone.
                self.failedAfter = nil
                do {
                    request = try sequence.nextRequest(failedAfter)
                } catch {
                    self.failedAfter = failedAfter
                    throw PageError(page: number, url: nil, underlying: error)
                }
            }
            guard let current = request, number <= sequence.maximumPages, loaded.insert(NormalizedURL.text(current.url)).inserted else {
                request = nil
                return nil
            }
            request = nil
            let page: Page<Value>
            do {
                try Task.checkCancellation()
                let (data, urlResponse): (Data, URLResponse)
                do {
                    (data, urlResponse) = try await sequence.session.cancellableData(for: current, delegate: CrossOriginRedirects())
                } catch {
                    throw SecretPolicy.default.redactingURLs(in: error)
                }
                let response = ResponseContext(urlResponse, request: current).materialized  // kept in the page
                page = Page(value: try sequence.serialize(data, response), response: response, request: current, number: number)
            } catch where Task.isCancelled {
                // Cancelled: whatever the request ended with, the iteration ends without an error.
                return nil
            } catch {
                throw PageError(page: number, url: current.url, underlying: error)
            }
            number += 1
            do {
                request = try sequence.nextRequest(page)
            } catch {
                pendingFailure = PageError(page: number, url: nil, underlying: error)
                failedAfter = page
            }
            return page
        }
    }
}
