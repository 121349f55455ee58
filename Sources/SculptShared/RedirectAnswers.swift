import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Gives a session delegate's answers to redirects, and takes the cancellations of the session's
/// tasks, one at a time, so that no answer reaches a task FoundationNetworking has stopped.
///
/// FoundationNetworking (Linux) asks the delegate about a redirect on the delegate's queue and
/// waits for its answer. Two things end that wait early, and an answer that arrives after either
/// stops the process ("Received callback for HTTP redirection, but we're not waiting for it"):
/// - a cancellation, which completes the task at once; there no answer is given to a task that is
///   cancelling or complete, and a cancellation made through ``withoutAnswering(_:)`` never falls between
///   that look and the answer;
/// - the request's timeout, which ends the transfer but not the task: it only makes the redirect
///   the task's `response`, and the task would never complete. That task is cancelled instead of
///   answered, so it ends, with `URLError(.cancelled)`.
///
/// Apple platforms take every answer, as their documentation asks.
///
/// ```swift
/// func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
///                 newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
///     answers.answer(task, redirectedBy: response, with: request, completionHandler)
/// }
/// ```
package final class RedirectAnswers: @unchecked Sendable {
    /// Held while an answer or a cancellation is given.
    private let lock = NSLock()

    package init() {}

    /// Hands `request` (`nil`: the redirect itself is the response) to `completionHandler`, unless
    /// FoundationNetworking has already stopped `task`.
    /// - Parameters:
    ///   - task: the task being redirected.
    ///   - response: the redirect the delegate is asked about.
    ///   - request: the request to follow, or `nil` not to follow.
    ///   - completionHandler: the delegate callback's completion handler.
    package func answer(
        _ task: URLSessionTask, redirectedBy response: HTTPURLResponse, with request: URLRequest?,
        _ completionHandler: (URLRequest?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        lock.withLock {
            guard task.state != .canceling, task.state != .completed else { return }
            // Only the timeout makes the redirect being asked about the task's response.
            guard task.response !== response else { return task.cancel() }
            completionHandler(request)
        }
        #else
        completionHandler(request)
        #endif
    }

    /// Runs `body` while no answer is being given: a cancellation (a task's `cancel()`, a session's
    /// `invalidateAndCancel()`), or what must not overlap one.
    /// - Parameter body: what to run.
    /// - Returns: what `body` returns.
    package func withoutAnswering<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock(body)
    }
}
