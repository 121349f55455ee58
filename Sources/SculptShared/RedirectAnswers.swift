import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Gives a session delegate's answers to redirects, and takes the cancellations of the session's
/// tasks, one at a time, so that no answer reaches a task a cancellation has already stopped.
///
/// FoundationNetworking (Linux) asks the delegate about a redirect on the delegate's queue and
/// waits for its answer. A task cancelled meanwhile is completed at once, and an answer that
/// arrives after that stops the process ("Received callback for HTTP redirection, but we're not
/// waiting for it"). So there an answer is given only to a task that is neither cancelling nor
/// complete, and a cancellation made through ``cancel(_:)`` never falls between that look and the
/// answer. Apple platforms take every answer, as their documentation asks.
///
/// ```swift
/// func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
///                 newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
///     answers.answer(task, with: request, completionHandler)
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
    ///   - request: the request to follow, or `nil` not to follow.
    ///   - completionHandler: the delegate callback's completion handler.
    package func answer(_ task: URLSessionTask, with request: URLRequest?, _ completionHandler: (URLRequest?) -> Void) {
        #if canImport(FoundationNetworking)
        lock.withLock {
            guard task.state != .canceling, task.state != .completed else { return }
            completionHandler(request)
        }
        #else
        completionHandler(request)
        #endif
    }

    /// Runs `cancellation` (a task's `cancel()`, a session's `invalidateAndCancel()`) while no
    /// answer is being given.
    /// - Parameter cancellation: what cancels the tasks.
    package func cancel(_ cancellation: () -> Void) {
        lock.withLock(cancellation)
    }
}
