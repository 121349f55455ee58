import Foundation
import SculptLoading
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A task whose redirect is being asked about when it stops. The session's delegate queue is held,
/// so the question waits in it while the task is cancelled or times out; the answer is given after.
@Suite("A redirect's answer after its task stopped")
struct RedirectCancellationTests {
    /// `/old` redirects to `/new`.
    let server: ScriptedServer
    /// The delegate's queue, suspended until the test lets the question through.
    let questions = OperationQueue()
    let session: URLSession
    /// The error the task ended with (`.some(nil)`: none), once it has ended.
    let ended = Locked<(any Error)??>(nil)

    init() throws {
        server = try ScriptedServer { head in
            head.hasPrefix("GET /old ")
                ? "HTTP/1.1 302 Found\r\nLocation: /new\r\nContent-Length: 0\r\n\r\n"
                : "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        }
        questions.maxConcurrentOperationCount = 1
        questions.isSuspended = true
        session = URLSession(configuration: .unhurried, delegate: CrossOriginRedirects(), delegateQueue: questions)
    }

    /// Starts `request` and returns its task once the question about its redirect waits, or `nil`
    /// when the task failed before it was asked (a request that timed out first).
    func startAsked(_ request: URLRequest) async throws -> URLSessionDataTask? {
        let ended = self.ended
        ended.withLock { $0 = nil }
        let task = session.dataTask(with: request) { _, _, error in ended.withLock { $0 = .some(error) } }
        task.resume()
        while questions.operationCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
        // A task's error is set before its completion is queued; a question leaves it unset.
        guard task.error == nil else {
            _ = try await answerAndEnd()
            questions.isSuspended = true
            return nil
        }
        return task
    }

    /// Lets the question through and returns the error the task ends with.
    func answerAndEnd() async throws -> (any Error)? {
        questions.isSuspended = false
        while ended.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(5)) }
        return ended.withLock { $0 } ?? nil
    }

    func stop() {
        session.invalidateAndCancel()
        server.stop()
    }

    @Test("a task cancelled while CrossOriginRedirects is asked about its redirect ends cancelled, the redirect not followed")
    func cancelledWhileAsked() async throws {
        defer { stop() }
        let task = try #require(try await startAsked(URLRequest(url: server.url("/old"))))
        task.cancel()
        let error = try #require(try await answerAndEnd())
        #expect((error as? URLError)?.code == .cancelled)
        #expect(server.heads.allSatisfy { $0.hasPrefix("GET /old ") }, "\(server.heads)")
    }

    #if canImport(FoundationNetworking)
    // FoundationNetworking's timeout while the delegate is asked ends the transfer but not the
    // task; Apple platforms end the task themselves.
    @Test("a request that times out while CrossOriginRedirects is asked about its redirect ends cancelled, the redirect not followed")
    func timedOutWhileAsked() async throws {
        defer { stop() }
        // A loaded machine may take longer than the timeout to reach the redirect: then a longer one.
        var asked: URLSessionDataTask?
        for seconds in [1, 2, 4, 8, 16, 32, 64] where asked == nil {
            var request = URLRequest(url: server.url("/old"))
            request.timeoutInterval = TimeInterval(seconds)
            asked = try await startAsked(request)
        }
        let task = try #require(asked)
        // The timeout has fired once it makes the redirect the task's response.
        while task.response == nil { try await Task.sleep(for: .milliseconds(20)) }
        let error = try #require(try await answerAndEnd())
        #expect((error as? URLError)?.code == .cancelled)
        #expect(server.heads.allSatisfy { $0.hasPrefix("GET /old ") }, "\(server.heads)")
    }
    #endif
}
