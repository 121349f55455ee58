import Sculpt
import SculptShared
public import Observation

/// A list loaded page by page for UI code, on Observation: the
/// items so far, whether more pages follow, `loadNextPage()` for a list's end, and `reload()`.
///
/// ```swift
/// let issues = PagedSource {
///     session.pages(for: request, serializer: serializer, as: [Issue].self)
/// }
/// await issues.loadNextPage().value     // the first page
/// // SwiftUI: List(issues.items) { ... }.onAppear of the last row: issues.loadNextPage()
/// ```
///
/// A page is requested only when `loadNextPage()` asks for it; asking while a page is loading
/// does nothing. `reload()` cancels the page in flight, forgets the items and loads the first
/// page again; a failed page keeps the items before it and can be asked for again, and so does a
/// page whose load was cancelled (the task `loadNextPage()` returned).
///
/// Observation, which it is built on, needs macOS 14, iOS 17, tvOS 17 and watchOS 10.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class PagedSource<Element: Sendable> {
    /// What the source is doing.
    public enum State: Sendable {
        /// No page asked for yet, or the last page ended the list.
        case idle
        /// A page is loading.
        case loading
        /// The last page asked for failed; the items before it are kept.
        case failed(any Error)
    }

    /// The items of every page loaded, in order.
    public private(set) var items: [Element] = []
    /// What the source is doing.
    public private(set) var state: State = .idle
    /// Whether another page may follow: `false` once a load ended without one.
    public private(set) var hasMore = true
    /// The pages loaded so far.
    public private(set) var pageCount = 0

    @ObservationIgnored private let pages: @Sendable () -> PageSequence<[Element]>
    @ObservationIgnored private var iterator: PageSequence<[Element]>.Iterator?
    @ObservationIgnored private var task: Task<Void, Never>?
    @ObservationIgnored private var generation = 0

    /// A source whose pages come from the sequence `pages` makes, such as
    /// `URLSession.pages(for:serializer:as:)`.
    /// - Parameter pages: makes the sequence of pages; called again by each `reload()`.
    public init(_ pages: @escaping @Sendable () -> PageSequence<[Element]>) {
        self.pages = pages
    }

    /// Loads the next page, unless one is loading or none follows. Await the returned task to
    /// wait for it.
    @discardableResult
    public func loadNextPage() -> Task<Void, Never> {
        if let task, case .loading = state {
            guard task.isCancelled else { return task }
            // The page in flight was cancelled: its end is no longer this source's to record, and
            // the page is asked for again from where the source stands.
            generation += 1
        }
        guard hasMore else { return Task {} }
        var iterator = self.iterator ?? pages().makeAsyncIterator()
        let current = generation
        state = .loading
        let task = Task { [weak self] in
            do {
                let page = try await iterator.next()
                guard let self, self.generation == current else { return }
                guard page != nil || !Task.isCancelled else {
                    // Cancelled in flight: the page was not loaded, and can be asked for again.
                    self.state = .idle
                    return
                }
                self.iterator = iterator
                if let page {
                    self.items += page.value
                    self.pageCount += 1
                }
                // Known now, not at a call that finds nothing (the sequence's guard aside).
                self.hasMore = page != nil && iterator.hasNextPage
                self.state = .idle
            } catch {
                guard let self, self.generation == current else { return }
                // A page that failed to load is asked for again from the iterator before it; a
                // failure of the `next` closure, handed over by the iterator, is kept as handed
                // over, so that asking again runs the closure again.
                if self.iterator?.pendingFailure != nil { self.iterator = iterator }
                self.state = .failed(error)
            }
        }
        self.task = task
        return task
    }

    /// Cancels the page in flight, forgets every item and loads the first page again.
    @discardableResult
    public func reload() -> Task<Void, Never> {
        task?.cancel()
        generation += 1
        iterator = nil
        items = []
        pageCount = 0
        hasMore = true
        state = .idle
        return loadNextPage()
    }
}
