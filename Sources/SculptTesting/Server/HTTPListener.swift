import Foundation

/// Accepts connections on 127.0.0.1 and serves each on a thread of its own, so a slow or hostile
/// client holds one thread, never the others: every wait on a connection has a deadline, and
/// past ``FixtureServer/Limits/maximumConnections`` a new client is answered `503` and closed.
///
/// Blocking threads rather than Swift concurrency: a connection waits in `poll` most of its
/// life, and a waiting task would hold one of the cooperative pool's few threads.
final class HTTPListener: @unchecked Sendable {
    private let limits: FixtureServer.Limits
    private let keepsBodies: Bool

    /// Guards everything below; signalled when a thread ends.
    private let state = NSCondition()
    private var open: Set<Int32> = []
    private var threads = 0
    private var stopping = false
    private var wake: WakePipe?

    init(limits: FixtureServer.Limits, keepsBodies: Bool) {
        self.limits = limits
        self.keepsBodies = keepsBodies
    }

    /// Starts listening on `port` (0: any free port) and serving with the responder made for the
    /// base URL (`http://127.0.0.1:<port>`); returns the base URL.
    func start(port: UInt16, responder: (String) -> FixtureResponder) throws -> String {
        let (socket, bound) = try Socket.listen(port: port, backlog: Int32(clamping: Swift.min(limits.maximumConnections, 4096)))
        let wake: WakePipe
        do {
            wake = try WakePipe.make()
        } catch {
            socket.close()
            throw error
        }
        let baseURL = "http://127.0.0.1:\(bound)"
        let responder = responder(baseURL)
        state.withLock {
            self.wake = wake
            threads = 1
        }
        let accepting = Thread { [self] in acceptLoop(socket, wake: wake, responder: responder) }
        accepting.name = "FixtureServer \(bound)"
        accepting.start()
        return baseURL
    }

    /// Stops accepting, ends every connection, and waits (up to two seconds) for their threads.
    func stop() {
        state.withLock {
            guard !stopping else { return }
            stopping = true
            for descriptor in open { Socket(descriptor: descriptor).shutdown() }
            // Under the lock: the accept loop sees `stopping` only after this byte is written,
            // so it cannot have closed the pipe's read end yet.
            wake?.signal()
            let deadline = Date(timeIntervalSinceNow: 2)
            while threads > 0, state.wait(until: deadline) {}
        }
    }

    private func acceptLoop(_ socket: Socket, wake: WakePipe, responder: FixtureResponder) {
        defer {
            state.withLock {
                socket.close()
                wake.closeReadEnd()
                wake.closeWriteEnd()
                self.wake = nil
            }
            finished(nil)
        }
        while true {
            let connection: Socket?
            do {
                connection = try socket.accept(wakingOn: wake.readEnd)
            } catch {
                return  // the listening socket itself failed
            }
            let admitted: Bool? = state.withLock {
                if stopping { return nil }
                guard let connection else { return false }
                guard open.count < limits.maximumConnections else { return false }
                open.insert(connection.descriptor)
                threads += 1
                return true
            }
            guard let admitted else {
                connection?.close()
                return
            }
            guard let connection else { continue }
            guard admitted else {
                turnAway(connection)
                continue
            }
            let thread = Thread { [self] in
                var served = HTTPConnection(socket: connection, limits: limits, responder: responder, keepsBodies: keepsBodies)
                served.serve { state.withLock { stopping } }
                finished(connection)
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// A client over the connection limit: `503`, then closed.
    private func turnAway(_ connection: Socket) {
        let busy = ServerResponse.text(503, "Service Unavailable", "The server has \(limits.maximumConnections) connections open, its limit.")
        _ = connection.write(busy.head(answering: .get, closing: true), busy.body, idle: .milliseconds(100), until: .now + .milliseconds(200))
        connection.close()
    }

    /// A thread is done; a connection's socket is closed under the lock, so ``stop()`` never
    /// shuts down a descriptor number that has been reused.
    private func finished(_ connection: Socket?) {
        state.withLock {
            if let connection {
                open.remove(connection.descriptor)
                connection.close()
            }
            threads -= 1
            state.broadcast()
        }
    }
}
