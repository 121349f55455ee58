import Foundation
import SculptShared
import HTTPTypes
import Sculpt
#if canImport(FoundationNetworking)
public import FoundationNetworking
#else
public import Foundation
#endif

/// Sends requests through a real `URLSession` and records each interaction as a fixture, secrets
/// redacted, ready to write as a cassette.
///
/// ```swift
/// let recorder = FixtureRecorder(configuration: .ephemeral)
/// let (data, response) = try await recorder.data(for: request)   // a real request, recorded
/// try recorder.cassette.encoded().write(to: fixtures.appending(path: "create-issue.json"))
/// ```
///
/// The recorder makes its own session from the configuration given (headers, timeouts, protocol
/// classes and all), because only a session's delegate sees redirects: they are recorded hop by
/// hop (each 3xx, then the final response), so a replay follows them as the server did. Everything
/// ``Redaction`` names is replaced before anything is kept: credentials in headers, in the URL (user,
/// password, query and fragment), in redirect `Location`s and `Link`s, and in JSON request and
/// response bodies (an OAuth token endpoint's `access_token` and `refresh_token` among them).
/// Foundation joins repeated response headers with commas; that is how they are recorded.
public final class FixtureRecorder: @unchecked Sendable {
    /// The session that sends the requests.
    public let session: URLSession
    /// What is redacted.
    public let redaction: Redaction

    private let lock = NSLock()
    private var recorded: [Fixture] = []
    private let redirects: RedirectLog

    /// Creates a recorder sending through a session made from `configuration`, with no URL cache:
    /// a recording holds what the server answered, never a stored copy. (Without a cache,
    /// FoundationNetworking can cancel a request that is given up, too.)
    ///
    /// ```swift
    /// let recorder = FixtureRecorder(configuration: .default, redaction: Redaction(headers: [HTTPField.Name("X-Api-Key")!]))
    /// ```
    /// - Parameters:
    ///   - configuration: the configuration of the session that sends the requests.
    ///   - redaction: what to redact from each recorded interaction; the defaults by default.
    public init(configuration: URLSessionConfiguration = .ephemeral, redaction: Redaction = Redaction()) {
        let redirects = RedirectLog()
        self.redirects = redirects
        self.session = URLSession(configuration: configuration.uncachedCopy, delegate: redirects, delegateQueue: nil)
        self.redaction = redaction
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// The interactions recorded so far, in order.
    public var interactions: [Fixture] {
        lock.withLock { recorded }
    }

    /// The interactions recorded so far, as a cassette.
    public var cassette: Cassette { Cassette(interactions) }

    /// Sends `request`, records the interaction (and any redirects on the way), and returns what
    /// the session returned.
    ///
    /// ```swift
    /// let (data, response) = try await recorder.data(for: request)
    /// let model = try serializer.serialize(data, for: response, request: request)
    /// ```
    /// - Parameter request: the request to send.
    /// - Throws: the session's error, the URLs it carries redacted; nothing is recorded for a
    ///   request that fails in transport. Cancelling the calling task ends the call at once with
    ///   `URLError(.cancelled)`, cancels the request and records nothing.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        let (data, response, hops) = try await send(request)
        var asked = request
        var fixtures: [Fixture] = []
        for hop in hops {
            fixtures.append(fixture(asked, hop.response, body: Data()))
            asked = hop.next
        }
        if let http = response as? HTTPURLResponse {
            fixtures.append(fixture(asked, http, body: data))
        }
        lock.withLock { recorded += fixtures }
        return (data, response)
    }

    /// Runs one data task, collecting its redirects by task identifier; cancelling the calling task
    /// cancels it.
    private func send(_ request: URLRequest) async throws -> (Data, URLResponse, [RedirectLog.Hop]) {
        let logging = redirects.logging()
        do {
            let (data, response) = try await session.cancellableData(for: request, started: logging.begin)
            return (data, response, logging.finish())
        } catch {
            _ = logging.finish()
            throw redaction.policy.redactingURLs(in: error)
        }
    }

    private func fixture(_ request: URLRequest, _ response: HTTPURLResponse, body: Data) -> Fixture {
        let status = (0...999).contains(response.statusCode) ? response.statusCode : 0
        // One place redacts: the URL (user, password, query, fragment), both sides' headers (URLs
        // in Location, Content-Location, Link and Referer too) and both bodies' JSON members.
        return redaction.redacting(Fixture(
            request: .init(
                method: HTTPRequest.Method(request.httpMethod ?? "GET") ?? .get,
                url: request.url ?? URL(filePath: "/"), headerFields: FoundationFields.fields(of: request), body: request.httpBody),
            response: .init(status: .standard(status), headerFields: RecordedBody.describingSessionBody(FoundationFields.fields(of: response)), body: body)))
    }

    /// Collects each task's redirects, in order, as the session's delegate.
    private final class RedirectLog: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        private let answers = RedirectAnswers()

        struct Hop {
            var response: HTTPURLResponse
            var next: URLRequest
        }

        private let lock = NSLock()
        /// Guarded by `lock`: the hops of each call in progress, by task identifier.
        private var hops: [Int: [Hop]] = [:]

        /// A new entry, for one call's data task.
        func logging() -> Logging {
            Logging(log: self)
        }

        private func begin(_ task: Int) {
            lock.withLock { hops[task] = [] }
        }

        private func finish(_ task: Int) -> [Hop] {
            lock.withLock { hops.removeValue(forKey: task) ?? [] }
        }

        /// One call's entry: begun with its data task, which may be made after the call has ended
        /// (a cancelled call ends at once), and finished when the call ends. A task begun after its
        /// call ended keeps nothing.
        final class Logging: @unchecked Sendable {
            private let log: RedirectLog
            private let lock = NSLock()
            /// Guarded by `lock`.
            private var task: Int?
            /// Guarded by `lock`.
            private var finished = false

            init(log: RedirectLog) {
                self.log = log
            }

            /// Starts keeping `task`'s hops, unless the call has ended.
            func begin(_ task: URLSessionTask) {
                lock.withLock {
                    guard !finished else { return }
                    self.task = task.taskIdentifier
                    log.begin(task.taskIdentifier)
                }
            }

            /// The task's hops, which are kept no longer.
            func finish() -> [Hop] {
                lock.withLock {
                    finished = true
                    return task.map(log.finish) ?? []
                }
            }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            // Only a recording in progress keeps hops: a redirect of one that has ended (cancelled
            // while the session followed it) is not kept.
            lock.withLock { hops[task.taskIdentifier]?.append(Hop(response: response, next: request)) }
            answers.answer(task, redirectedBy: response, with: request, completionHandler)
        }
    }
}
