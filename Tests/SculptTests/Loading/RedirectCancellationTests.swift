import Foundation
import SculptLoading
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("A redirect's answer after its task was cancelled")
struct RedirectCancellationTests {
    @Test("a task cancelled while CrossOriginRedirects is asked about its redirect ends cancelled, the redirect not followed")
    func cancelledWhileAsked() async throws {
        let server = try ScriptedServer { head in
            head.hasPrefix("GET /old ")
                ? "HTTP/1.1 302 Found\r\nLocation: /new\r\nContent-Length: 0\r\n\r\n"
                : "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        }
        defer { server.stop() }
        // The delegate's queue is held, so the question about the redirect waits in it while the
        // task is cancelled; the answer is given after that.
        let questions = OperationQueue()
        questions.maxConcurrentOperationCount = 1
        questions.isSuspended = true
        let session = URLSession(configuration: .unhurried, delegate: CrossOriginRedirects(), delegateQueue: questions)
        defer { session.invalidateAndCancel() }
        let ended = Locked<(any Error)??>(nil)
        let task = session.dataTask(with: server.url("/old")) { _, _, error in ended.withLock { $0 = .some(error) } }
        task.resume()
        while server.heads.isEmpty || questions.operationCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        questions.isSuspended = false
        while ended.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(5)) }
        let error = try #require(ended.withLock { $0 } ?? nil)
        #expect((error as? URLError)?.code == .cancelled)
        #expect(server.heads.allSatisfy { $0.hasPrefix("GET /old ") }, "\(server.heads)")
    }
}
