import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// The body and response for `request`, as `data(for:delegate:)` gives them, from a data task
    /// with a completion handler. Cancelling the calling task ends the call at once with
    /// `URLError(.cancelled)`; a task cancelled before it calls makes no request.
    ///
    /// On Apple platforms the cancellation cancels the data task. FoundationNetworking (Linux)
    /// cannot be trusted with that: cancelling a data task as it completes can stop the process
    /// ("Trying to access a behaviour for a task that in not in the registry"), and cancelling
    /// `data(for:)` can hang every request of the process (swift-corelibs-foundation issue 5412).
    /// There the call ends at once and the data task is left to finish, its answer dropped; until
    /// it does, it holds its connection.
    ///
    /// ```swift
    /// let (data, response) = try await session.cancellableData(for: request, delegate: CrossOriginRedirects())
    /// ```
    /// - Parameters:
    ///   - request: the request.
    ///   - delegate: the task's delegate; Apple platforms ask it, FoundationNetworking asks only
    ///     the session's delegate.
    ///   - started: called with the data task before it is resumed.
    /// - Returns: the body and the response.
    /// - Throws: the session's error; `URLError(.cancelled)` when the calling task is cancelled.
    package func cancellableData(
        for request: URLRequest, delegate: (any URLSessionTaskDelegate & Sendable)? = nil, started: (URLSessionTask) -> Void = { _ in }
    ) async throws -> (Data, URLResponse) {
        guard !Task.isCancelled else { throw URLError(.cancelled) }
        let call = DataTaskCall()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard call.await(continuation) else { return }
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
        } onCancel: {
            call.cancel()
        }
    }
}

/// One ``URLSession/cancellableData(for:delegate:started:)`` call: its continuation, resumed once,
/// by the data task's answer or by a cancellation; its data task, once it exists; and whether the
/// calling task was cancelled, which may happen before either exists.
private final class DataTaskCall: @unchecked Sendable {
    typealias Answer = Result<(Data, URLResponse), any Error>

    private let lock = NSLock()
    /// Guarded by `lock`; `nil` once resumed.
    private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
    /// Guarded by `lock`.
    private var task: URLSessionTask?
    /// Guarded by `lock`.
    private var cancelled = false

    /// Keeps `continuation` for the answer; returns `false`, having resumed it with
    /// `URLError(.cancelled)`, when the caller was cancelled already, so that no task is made.
    func await(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>) -> Bool {
        lock.withLock {
            guard !cancelled else {
                continuation.resume(throwing: URLError(.cancelled))
                return false
            }
            self.continuation = continuation
            return true
        }
    }

    /// Resumes `task`, outside the lock: resuming waits for the session's work queue, which may be
    /// running a cancellation that waits for the lock. A task whose caller was cancelled meanwhile
    /// is resumed too, and cancelled on Apple platforms: a task made and never resumed would stay
    /// in its session for good.
    func start(_ task: URLSessionTask) {
        let cancelled = lock.withLock {
            self.task = task
            return self.cancelled
        }
        task.resume()
        #if !canImport(FoundationNetworking)
        if cancelled { task.cancel() }
        #endif
    }

    /// Ends the call with the data task's answer, unless a cancellation ended it first.
    func end(_ answer: Answer) {
        lock.withLock {
            continuation?.resume(with: answer)
            continuation = nil
        }
    }

    /// Ends the call with `URLError(.cancelled)`; on Apple platforms, cancels the data task too.
    func cancel() {
        let task = lock.withLock {
            cancelled = true
            continuation?.resume(throwing: URLError(.cancelled))
            continuation = nil
            return self.task
        }
        #if !canImport(FoundationNetworking)
        task?.cancel()
        #else
        _ = task
        #endif
    }
}
