import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// The body and response for `request`, as `data(for:delegate:)` gives them, from a data task
    /// with a completion handler. Cancelling the calling task ends the call at once with
    /// `URLError(.cancelled)` and cancels the data task; a task cancelled before it calls makes no
    /// request.
    ///
    /// FoundationNetworking (Linux) stops the process when a data task is cancelled while its
    /// completion is under way ("Trying to access a behaviour for a task that in not in the
    /// registry"), and cancelling `data(for:)` can hang every request of the process
    /// (swift-corelibs-foundation issue 5412). There the data task is cancelled on the session's
    /// delegate queue, the queue its completion handler runs on, and only while that handler has not
    /// begun. Two kinds of session cannot give that order: one whose delegate queue runs several
    /// operations at once, and one with a `URLCache`, which carries a cancellation out only once the task's
    /// lookup in the cache ends, on a background thread, after the task may have completed. Their
    /// data task is left to finish, its answer dropped; it holds its connection until the server
    /// has answered.
    ///
    /// FoundationNetworking makes and resumes a data task on the work queue all its sessions
    /// share, which a fast transfer (an endless body over loopback) can hold for seconds. There the
    /// data task is made and resumed on a dispatch queue, never on one of Swift's few cooperative
    /// threads, so that the rest of the process's async code goes on meanwhile.
    ///
    /// ```swift
    /// let (data, response) = try await session.cancellableData(for: request, delegate: CrossOriginRedirects())
    /// ```
    /// - Parameters:
    ///   - request: the request.
    ///   - delegate: the task's delegate; Apple platforms ask it, FoundationNetworking asks only
    ///     the session's delegate.
    ///   - started: called with the data task before it is resumed (on Linux, on a dispatch
    ///     queue's thread, as said above).
    /// - Returns: the body and the response.
    /// - Throws: the session's error; `URLError(.cancelled)` when the calling task is cancelled.
    package func cancellableData(
        for request: URLRequest, delegate: (any URLSessionTaskDelegate & Sendable)? = nil,
        started: @escaping @Sendable (URLSessionTask) -> Void = { _ in }
    ) async throws -> (Data, URLResponse) {
        guard !Task.isCancelled else { throw URLError(.cancelled) }
        let call = DataTaskCall(session: self)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard call.await(continuation) else { return }
                #if canImport(FoundationNetworking)
                DispatchQueue.global().async {
                    // A call cancelled while it waited for this thread makes no task.
                    guard !call.isCancelled else { return }
                    self.start(request, delegate: delegate, for: call, started: started)
                }
                #else
                start(request, delegate: delegate, for: call, started: started)
                #endif
            }
        } onCancel: {
            call.cancel()
        }
    }

    /// Makes and resumes `call`'s data task, whose completion ends the call.
    private func start(
        _ request: URLRequest, delegate: (any URLSessionTaskDelegate & Sendable)?, for call: DataTaskCall, started: (URLSessionTask) -> Void
    ) {
        let task = dataTask(with: request) { data, response, error in
            if let error {
                call.end(.failure(error))
            } else if let response {
                call.end(.success((data ?? Data(), response)))
            } else {
                call.end(.failure(URLError(.badServerResponse)))
            }
        }
        #if !canImport(FoundationNetworking)
        task.delegate = delegate
        #endif
        started(task)
        call.start(task)
    }
}

/// One ``URLSession/cancellableData(for:delegate:started:)`` call: its continuation, resumed once,
/// by the data task's answer or by a cancellation; its data task, once it exists; and whether the
/// calling task was cancelled, which may happen before either exists.
private final class DataTaskCall: @unchecked Sendable {
    typealias Answer = Result<(Data, URLResponse), any Error>

    private let session: URLSession
    private let lock = NSLock()
    /// Guarded by `lock`; `nil` once resumed.
    private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
    /// Guarded by `lock`.
    private var task: URLSessionTask?
    /// Guarded by `lock`.
    private var cancelled = false
    /// Guarded by `lock`: the data task's completion handler has begun.
    private var answered = false

    init(session: URLSession) {
        self.session = session
    }

    /// Whether the calling task was cancelled.
    var isCancelled: Bool {
        lock.withLock { cancelled }
    }

    /// Keeps `continuation` for the answer; returns `false`, having resumed it with
    /// `URLError(.cancelled)`, when the caller was cancelled already, so that no task is made.
    func await(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>) -> Bool {
        let kept = lock.withLock {
            guard !cancelled else { return false }
            self.continuation = continuation
            return true
        }
        if !kept { continuation.resume(throwing: URLError(.cancelled)) }
        return kept
    }

    /// Resumes `task`, outside the lock: resuming waits for the session's work queue, which may be
    /// running a cancellation that waits for the lock. A task whose caller was cancelled meanwhile
    /// is resumed and then cancelled: a task made and never resumed would stay in its session for
    /// good.
    func start(_ task: URLSessionTask) {
        let cancelled = lock.withLock {
            self.task = task
            return self.cancelled
        }
        task.resume()
        if cancelled { stop(task) }
    }

    /// Ends the call with the data task's answer, unless a cancellation ended it first.
    func end(_ answer: Answer) {
        let continuation = lock.withLock {
            answered = true
            return taken()
        }
        continuation?.resume(with: answer)
    }

    /// Ends the call with `URLError(.cancelled)` and cancels the data task, once there is one.
    func cancel() {
        let (continuation, task) = lock.withLock {
            cancelled = true
            return (taken(), self.task)
        }
        continuation?.resume(throwing: URLError(.cancelled))
        if let task { stop(task) }
    }

    /// The continuation, taken so that it is resumed once, outside the lock: resuming it waits
    /// for the calling task's cancellation, which may be running ``cancel()`` and waiting for the
    /// lock. Called with `lock` held.
    private func taken() -> CheckedContinuation<(Data, URLResponse), any Error>? {
        defer { continuation = nil }
        return continuation
    }

    /// Cancels `task`; on FoundationNetworking, on the delegate queue and only while the completion
    /// handler has not begun, so that the cancellation never overlaps the task's completion.
    private func stop(_ task: URLSessionTask) {
        #if canImport(FoundationNetworking)
        let queue = session.delegateQueue
        guard queue.maxConcurrentOperationCount == 1, session.configuration.urlCache == nil else { return }
        queue.addOperation {
            guard !self.lock.withLock({ self.answered }) else { return }
            task.cancel()
        }
        #else
        task.cancel()
        #endif
    }
}
