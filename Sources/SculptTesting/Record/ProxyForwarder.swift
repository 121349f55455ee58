import Foundation
import SculptShared
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a ``RecordingProxy``'s requests on to the target and waits for the answer on the
/// caller's thread (a connection's own, never Swift's cooperative pool). Redirects are handed
/// back, not followed: the client follows them through the proxy.
final class ProxyForwarder: @unchecked Sendable {
    private let session: URLSession
    private let answers = RedirectAnswers()
    /// Whether ``invalidate()`` has run; guarded by `answers.withoutAnswering`, which also holds
    /// every task's start, so that no task is made on an invalidated session (FoundationNetworking
    /// stops the process for that).
    private var invalidated = false

    init(configuration: URLSessionConfiguration) {
        // The client keeps its own cookies and cache; the proxy must not add or answer from them.
        let configuration = configuration.uncachedCopy
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Each client connection waits on its own request: URLSession's default of 6 per host
        // would queue the rest until they time out.
        configuration.httpMaximumConnectionsPerHost = max(configuration.httpMaximumConnectionsPerHost, 64)
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(answers: answers), delegateQueue: nil)
    }

    /// Cancels requests in flight and releases the session.
    func invalidate() {
        answers.withoutAnswering {
            invalidated = true
            session.invalidateAndCancel()
        }
    }

    /// What the target answered, or why it could not.
    enum Answer {
        case response(HTTPURLResponse, Data)
        case failure(String)
    }

    /// Sends `request` and waits for its answer.
    func send(_ request: URLRequest) -> Answer {
        let done = DispatchSemaphore(value: 0)
        let answer = AnswerBox()
        let started = answers.withoutAnswering {
            guard !invalidated else { return false }
            session.dataTask(with: request) { data, response, error in
                if let http = response as? HTTPURLResponse, error == nil {
                    answer.value = .response(http, data ?? Data())
                } else {
                    answer.value = .failure(error.map { "\($0.localizedDescription)" } ?? "the target's answer was not HTTP")
                }
                done.signal()
            }.resume()
            return true
        }
        guard started else { return .failure("the proxy has stopped") }
        done.wait()
        return answer.value
    }

    /// Answers every redirect with "do not follow", so the `3xx` itself is the task's response.
    private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
        let answers: RedirectAnswers

        init(answers: RedirectAnswers) {
            self.answers = answers
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            answers.answer(task, redirectedBy: response, with: nil, completionHandler)
        }
    }

    /// The answer, written by the task's handler before the semaphore is signalled and read after.
    private final class AnswerBox: @unchecked Sendable {
        var value = Answer.failure("no answer")
    }
}
