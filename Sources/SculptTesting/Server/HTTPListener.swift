import Foundation
import SculptShared

/// Accepts connections on 127.0.0.1 and serves each on a thread of its own, so a slow or hostile
/// client holds one thread, never the others: every wait on a connection has a deadline.
///
/// When ``FixtureServer/Limits/maximumConnections`` are open, a new client takes the place of
/// another, the first found in this order:
/// 1. one answered for the last time, reading what its client still sends before the close;
/// 2. the one connected longest without sending a whole head, connected a second or more ago (a
///    real client sends its head at once, so under a flood of connections the oldest are the
///    flood's);
/// 3. the one whose body has been arriving longest;
/// 4. the keep-alive connection idle longest since its last answer;
/// 5. the one connected longest without sending a whole head, however new: a client that has
///    just connected is about to send its request.
///
/// A connection whose whole request head has arrived, and waits for its thread (which a loaded
/// machine runs late), is a client about to be answered: it is never taken.
///
/// A client that floods the server with connections, empty, with heads half-sent or with bodies
/// trickling in, so displaces its own before a client that is being answered. Only when every
/// connection has a request being read whole or answered is a newcomer answered `503`, and what
/// it sends is read before the close, so that the answer arrives.
///
/// Blocking threads rather than Swift concurrency: a connection waits in `poll` most of its
/// life, and a waiting task would hold one of the cooperative pool's few threads.
final class HTTPListener: @unchecked Sendable {
    private let limits: FixtureServer.Limits
    private let keepsBodies: Bool
    /// The bytes of request bodies held, all connections together.
    let budget: BodyBudget

    /// Guards everything below; signalled when a thread ends.
    private let state = NSCondition()
    private var open: Set<Int32> = []
    /// The open connections waiting for a request or for the rest of a head, and since when.
    private var waiting: [Int32: (activity: HTTPConnection.Activity, since: ContinuousClock.Instant)] = [:]
    /// Clients being answered `503` on threads of their own.
    private var turningAway = 0
    private var threads = 0
    private var stopping = false
    private var wake: WakePipe?

    init(limits: FixtureServer.Limits, keepsBodies: Bool) {
        self.limits = limits
        self.keepsBodies = keepsBodies
        self.budget = BodyBudget(capacity: limits.maximumBufferedBodies)
    }

    /// Starts listening on `port` (0: any free port) and serving with the responder made for the
    /// base URL (`http://127.0.0.1:<port>`, without a trailing slash); returns the base URL.
    func start(port: UInt16, responder: (String) -> any HTTPResponder) throws -> URL {
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
        guard let url = URL(string: baseURL) else {
            stop()
            throw URLError(.badURL)
        }
        return url
    }

    /// ``stop()``, its wait for the connections' threads kept off Swift's cooperative pool.
    func stopOffPool() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                self.stop()
                done.resume()
            }.start()
        }
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

    private func acceptLoop(_ socket: Socket, wake: WakePipe, responder: any HTTPResponder) {
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
                guard open.count < limits.maximumConnections || makeRoom() else { return false }
                open.insert(connection.descriptor)
                // A place it may give up from now on, before its thread first says what it does.
                waiting[connection.descriptor] = (.awaitingFirstRequest, .now)
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
                var served = HTTPConnection(socket: connection, limits: limits, responder: responder, keepsBodies: keepsBodies, budget: budget) { activity in
                    self.state.withLock {
                        guard self.open.contains(connection.descriptor) else { return }
                        let before = self.waiting[connection.descriptor]
                        // A head that begins to arrive keeps the connection's age: both count
                        // from the connection, for the order in which places are given up.
                        let since = before.map { $0.activity == .awaitingFirstRequest && activity == .readingHead } == true ? before?.since : nil
                        self.waiting[connection.descriptor] = activity == .busy ? nil : (activity, since ?? .now)
                    }
                }
                served.serve { state.withLock { stopping } }
                finished(connection)
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Closes a connection to make room, in the order the type's documentation gives; `false`
    /// when every connection is busy. Its thread sees the close and ends. Called with the lock
    /// held.
    private func makeRoom() -> Bool {
        let headless: Set<HTTPConnection.Activity> = [.awaitingFirstRequest, .readingHead]
        let settled = ContinuousClock.now - Self.newcomerGrace
        let order: [(activities: Set<HTTPConnection.Activity>, connectedBefore: ContinuousClock.Instant?)] = [
            ([.closing], nil), (headless, settled), ([.readingBody], nil), ([.awaitingRequest], nil), (headless, nil),
        ]
        for (activities, connectedBefore) in order {
            let candidates = waiting.filter { activities.contains($0.value.activity) && $0.value.since <= connectedBefore ?? .now }
                .sorted { $0.value.since < $1.value.since }
            guard let victim = candidates.first(where: { Self.mayBeTaken($0.key, $0.value.activity) })?.key else { continue }
            waiting[victim] = nil
            Socket(descriptor: victim).shutdown()
            return true
        }
        return false
    }

    /// How long a new connection is left to send its head before it may give up its place ahead
    /// of a body arriving slowly.
    static let newcomerGrace = Duration.seconds(1)

    /// Whether a connection may give up its place: not one waiting for a request whose whole head
    /// has arrived, which is about to be answered.
    private static func mayBeTaken(_ descriptor: Int32, _ activity: HTTPConnection.Activity) -> Bool {
        switch activity {
        case .awaitingFirstRequest, .awaitingRequest: !Socket(descriptor: descriptor).hasPendingHead
        case .readingHead, .readingBody, .closing, .busy: true
        }
    }

    /// The most clients answered `503` at once; past them a client is closed unanswered.
    private static let mostTurningAway = 16

    /// A client over the connection limit: `503`, then what it sent is read for a moment before
    /// the close (a close with unread bytes resets the connection and loses the answer). On a
    /// thread of its own, so the accept loop never waits on a client.
    private func turnAway(_ connection: Socket) {
        let admitted = state.withLock {
            guard turningAway < Self.mostTurningAway else { return false }
            turningAway += 1
            threads += 1
            return true
        }
        guard admitted else {
            connection.close()
            return
        }
        let thread = Thread { [self] in
            if sendBusy(connection) {
                connection.shutdownWriting()
                connection.drain(idle: HTTPConnection.lingerIdle, limit: 64 << 10, until: .now + HTTPConnection.lingerLimit)
            }
            connection.close()
            state.withLock { turningAway -= 1 }
            finished(nil)
        }
        thread.stackSize = 1 << 18
        thread.start()
    }

    /// Writes the `503`; `true` when all of it was taken. The answer is released on return, before
    /// the wait for the client's close.
    private func sendBusy(_ connection: Socket) -> Bool {
        let busy = ServerResponse.text(503, "Service Unavailable", "The server has \(limits.maximumConnections) connections open, its limit.")
        return connection.write(busy.head(answering: .get, closing: true), busy.body, idle: .milliseconds(100), until: .now + .milliseconds(200))
    }

    /// A thread is done; a connection's socket is closed under the lock, so ``stop()`` never
    /// shuts down a descriptor number that has been reused.
    private func finished(_ connection: Socket?) {
        state.withLock {
            if let connection {
                open.remove(connection.descriptor)
                waiting[connection.descriptor] = nil
                connection.close()
            }
            threads -= 1
            state.broadcast()
        }
    }
}
