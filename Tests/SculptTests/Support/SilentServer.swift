import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listener on 127.0.0.1 that takes one connection, reads what the client sends and never
/// answers: for requests that must be cancelled while in flight. ``requestReceived()`` says when
/// the request has arrived, ``clientClosed()`` when the client then gave up the connection.
///
/// Each wait is for the event itself, however long a loaded machine takes; the test's time limit
/// bounds it.
final class SilentServer: @unchecked Sendable {
    let port: UInt16
    private let descriptor: Int32
    private let state = NSCondition()
    private var received = false
    private var closed = false

    init() throws {
        (descriptor, port) = try LoopbackListener.open(backlog: 4)
        Thread { [self] in serve() }.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/items/1")! }

    /// Returns once the client's first bytes have arrived.
    func requestReceived() async {
        await wait { $0.received }
    }

    /// Returns once the client has closed the connection, after its request.
    func clientClosed() async {
        await wait { $0.closed }
    }

    private func wait(until condition: @escaping @Sendable (SilentServer) -> Bool) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread { [self] in
                state.withLock {
                    while !condition(self) { state.wait() }
                }
                done.resume()
            }.start()
        }
    }

    /// Accepts one connection and reads it to its end.
    private func serve() {
        let connection = accept(descriptor, nil, nil)
        guard connection >= 0 else { return }
        defer { _ = closeSilent(connection) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ recv(connection, $0.baseAddress, $0.count, 0) }) > 0 {
            state.withLock {
                received = true
                state.broadcast()
            }
        }
        state.withLock {
            closed = true
            state.broadcast()
        }
    }

    deinit {
        _ = closeSilent(descriptor)
    }

}

private func closeSilent(_ descriptor: Int32) -> Int32 { close(descriptor) }
