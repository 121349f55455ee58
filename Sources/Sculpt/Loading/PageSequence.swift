import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pages of a paginated load, each requested when the iteration asks for it: a page is never
/// loaded ahead of its consumer, and the consumer's task is the one that waits for it, so
/// cancelling that task cancels the request in flight.
///
/// ```swift
/// var pages = session.pages(for: request, serializer: serializer, as: [Issue].self).makeAsyncIterator()
/// let first = try await pages.next()     // one request
/// let second = try await pages.next()    // the next one, only now
/// ```
public struct PageSequence<Value: Sendable>: AsyncSequence, Sendable {
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
        var loaded: Set<String> = []
        var number = 1

        init(sequence: PageSequence, request: URLRequest) {
            self.sequence = sequence
            self.request = request
        }

        /// The next page; `nil` when there is no next request, after `maximumPages`, when a next
        /// request repeats a URL already loaded, or when the task is cancelled.
        ///
        /// - Throws: ``PageFailure`` around the transport, serializer or `next` closure's error.
        public mutating func next() async throws -> Page<Value>? {
            guard let current = request, number <= sequence.maximumPages, loaded.insert(current.url?.absoluteString ?? "").inserted else {
                request = nil
                return nil
            }
            request = nil
            do {
                let (data, urlResponse) = try await sequence.session.data(for: current)
                let response = ResponseContext(urlResponse, request: current)
                let page = Page(value: try sequence.serialize(data, response), response: response, request: current, number: number)
                request = try sequence.nextRequest(page)
                number += 1
                return page
            } catch let error as URLError where error.code == .cancelled && Task.isCancelled {
                return nil
            } catch is CancellationError {
                return nil
            } catch {
                throw PageFailure(page: number, url: current.url, underlying: error)
            }
        }
    }
}
