import Foundation
import SculptShared
import HTTPTypes

/// One client connection of a ``FixtureServer``: requests read and answered in order (pipelined
/// ones too) until the client closes, asks to close, goes idle, or sends something refused.
///
/// Every wait has a deadline and every buffer a bound: a head is at most
/// ``FixtureServer/Limits/maximumHeadSize`` bytes and must arrive within
/// ``FixtureServer/Limits/headTimeout``; a body is at most
/// ``FixtureServer/Limits/maximumBodySize``, must arrive within
/// ``FixtureServer/Limits/bodyTimeout`` and is kept only when the replay matches bodies; a
/// response must be taken within ``FixtureServer/Limits/responseTimeout``.
struct HTTPConnection {
    let socket: Socket
    let limits: FixtureServer.Limits
    let responder: any HTTPResponder
    /// Whether bodies are kept for matching; otherwise they are read and dropped.
    let keepsBodies: Bool
    /// The bytes of kept bodies the whole server may hold.
    let budget: BodyBudget
    /// Told when the connection starts waiting for a request, starts receiving a head, or has
    /// one to answer: the listener makes room for a new client from the waiting ones.
    let activity: @Sendable (Activity) -> Void

    /// What a connection is doing, as the listener sees it when every connection is taken.
    enum Activity: Equatable {
        /// Connected, nothing received yet: the first to close when room is needed.
        case awaitingFirstRequest
        /// Part of a head received, the rest awaited (a real client sends its head at once).
        case readingHead
        /// A head received and the rest of its body awaited: the listener may close it to make
        /// room, after the connections above.
        case readingBody
        /// Answered for the last time, and reading what the client still sends before the close.
        case closing
        /// Waiting for the next request after answering one: a keep-alive client, closed last.
        case awaitingRequest
        /// A request being read or answered.
        case busy
    }

    /// Bytes received and not yet consumed start at `start`.
    private var buffer: [UInt8] = []
    private var start = 0
    /// The method of the request being read, once its head is parsed: a refusal answers it.
    private var method: HTTPRequest.Method?
    /// The activity last told to ``activity``.
    private var reported: Activity?
    /// The bytes of the current request's body taken from ``budget``.
    private var held = 0
    /// How many requests this connection has answered.
    private var answered = 0

    init(
        socket: Socket, limits: FixtureServer.Limits, responder: any HTTPResponder, keepsBodies: Bool, budget: BodyBudget,
        activity: @escaping @Sendable (Activity) -> Void = { _ in }
    ) {
        self.socket = socket
        self.limits = limits
        self.responder = responder
        self.keepsBodies = keepsBodies
        self.budget = budget
        self.activity = activity
    }

    /// Tells ``activity`` of a change.
    private mutating func report(_ now: Activity) {
        guard now != reported else { return }
        reported = now
        activity(now)
    }

    /// Serves requests until the connection ends; the caller closes the socket.
    mutating func serve(isStopping: () -> Bool) {
        defer { releaseBody() }
        while !isStopping() {
            do throws(HTTPRequestHead.Rejection) {
                method = nil
                releaseBody()
                guard let head = try nextHead() else { return }
                method = head.method
                guard let body = try self.body(of: head) else { return }
                report(.busy)
                let response = responder.respond(to: head, body: body)
                let closing = !head.keepsAlive || isStopping()
                guard send(response, answering: head.method, closing: closing), !closing else { break }
                answered += 1
            } catch {
                refuse(error)
                return
            }
        }
        closeGracefully()
    }

    // MARK: - Reading

    /// The next request's head; `nil` when the client closed or stayed idle past
    /// ``FixtureServer/Limits/idleTimeout`` before starting one.
    private mutating func nextHead() throws(HTTPRequestHead.Rejection) -> HTTPRequestHead? {
        let idleDeadline = ContinuousClock.now + limits.idleTimeout
        var headDeadline: ContinuousClock.Instant?
        var scanned = 0
        while true {
            // Empty lines before a request line are ignored (RFC 9112, section 2.2).
            while start < buffer.count, buffer[start] == HTTPRequestHead.lineFeed || buffer[start] == HTTPRequestHead.carriageReturn {
                start += 1
            }
            scanned = Swift.max(scanned, start)
            if let (lines, next) = headEnd(scanning: &scanned) {
                report(.busy)
                let head = try HTTPRequestHead(parsing: buffer[start..<lines], maximumBodySize: limits.maximumBodySize)
                start = next
                return head
            }
            let pending = buffer.count - start
            guard pending < limits.maximumHeadSize else {
                let lineEnded = buffer[start..<(start + limits.maximumHeadSize)].contains(HTTPRequestHead.lineFeed)
                throw lineEnded
                    ? .init(status: 431, reason: "the request's header fields are over \(limits.maximumHeadSize) bytes")
                    : .init(status: 414, reason: "the request line is over \(limits.maximumHeadSize) bytes")
            }
            if pending > 0, headDeadline == nil { headDeadline = .now + limits.headTimeout }
            scanned -= start
            compact()
            report(pending > 0 ? .readingHead : answered > 0 ? .awaitingRequest : .awaitingFirstRequest)
            switch socket.read(into: &buffer, limit: limits.maximumHeadSize - pending, until: headDeadline ?? idleDeadline) {
            case .bytes: continue
            case .closed: return nil
            case .timedOut:
                guard headDeadline == nil else {
                    throw .init(status: 408, reason: "the request's head did not arrive within \(limits.headTimeout)")
                }
                return nil
            }
        }
    }

    /// Where the head ends: the end of its last line (the lines to parse) and the index after the
    /// blank line, searching from `scanned`, which moves past what was searched.
    private func headEnd(scanning scanned: inout Int) -> (Int, Int)? {
        var index = scanned
        defer { scanned = buffer.count }
        while let feed = buffer[index...].firstIndex(of: HTTPRequestHead.lineFeed) {
            if feed - 1 > start, buffer[feed - 1] == HTTPRequestHead.lineFeed {
                return (feed - 1, feed + 1)
            }
            if feed - 2 > start, buffer[feed - 1] == HTTPRequestHead.carriageReturn, buffer[feed - 2] == HTTPRequestHead.lineFeed {
                return (feed - 2, feed + 1)
            }
            index = feed + 1
        }
        return nil
    }

    /// The request's body: its bytes when kept (else `.some(nil)`), `nil` when the client went
    /// away.
    ///
    /// - Throws: `408` when the body stops for ``FixtureServer/Limits/idleTimeout`` or is not
    ///   all there after ``FixtureServer/Limits/bodyTimeout``; `400` or `413` for chunked framing.
    private mutating func body(of head: HTTPRequestHead) throws(HTTPRequestHead.Rejection) -> Data?? {
        var kept: Data? = keepsBodies ? Data() : nil
        let deadline = ContinuousClock.now + limits.bodyTimeout
        switch head.framing {
        case .none:
            return .some(kept)
        case .length(var remaining):
            kept?.reserveCapacity(Swift.min(remaining, 1 << 20))  // what is announced is not yet sent
            // Said before `100 Continue`: once the client can send, it is a body arriving.
            if buffer.count - start < remaining { report(.readingBody) }
            if head.expectsContinue, start == buffer.count, !sendContinue() { return nil }
            while true {
                let available = buffer[start..<Swift.min(buffer.count, start + remaining)]
                if kept != nil { try hold(available.count) }
                kept?.append(contentsOf: available)
                start = available.endIndex
                remaining -= available.count
                if remaining == 0 { return .some(kept) }
                guard try readMore(limit: remaining, until: deadline) else { return nil }
            }
        case .chunked:
            report(.readingBody)
            if head.expectsContinue, start == buffer.count, !sendContinue() { return nil }
            var chunked = ChunkedBody(maximumSize: limits.maximumBodySize)
            while true {
                var arrived = 0
                try chunked.consume(buffer, from: &start) {
                    arrived += $0.count
                    kept?.append(contentsOf: $0)
                }
                if kept != nil { try hold(arrived) }
                if chunked.isComplete { return .some(kept) }
                guard try readMore(limit: 64 << 10, until: deadline) else { return nil }
            }
        }
    }

    /// Takes `bytes` of a kept body from the server's budget.
    ///
    /// - Throws: `503` when the server already holds ``FixtureServer/Limits/maximumBufferedBodies``.
    private mutating func hold(_ bytes: Int) throws(HTTPRequestHead.Rejection) {
        guard bytes > 0 else { return }
        guard budget.take(bytes) else {
            throw .init(status: 503, reason: "the server holds \(limits.maximumBufferedBodies) bytes of request bodies, its limit")
        }
        held += bytes
    }

    /// Gives the current body's bytes back to the budget.
    private mutating func releaseBody() {
        budget.give(held)
        held = 0
    }

    /// Reads more of a body; `false` when the client closed. A client that sends nothing for
    /// ``FixtureServer/Limits/idleTimeout``, or is still sending at `deadline`, is answered 408.
    private mutating func readMore(limit: Int, until deadline: ContinuousClock.Instant) throws(HTTPRequestHead.Rejection) -> Bool {
        compact()
        let idleDeadline = ContinuousClock.now + limits.idleTimeout
        switch socket.read(into: &buffer, limit: limit, until: Swift.min(idleDeadline, deadline)) {
        case .bytes: return true
        case .closed: return false
        case .timedOut:
            throw idleDeadline <= deadline
                ? .init(status: 408, reason: "the request's body stopped arriving for \(limits.idleTimeout)")
                : .init(status: 408, reason: "the request's body did not arrive within \(limits.bodyTimeout)")
        }
    }

    /// Drops consumed bytes, so the buffer holds only what is still to be read.
    private mutating func compact() {
        guard start > 0 else { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 256 << 10)
        } else {
            buffer.removeFirst(start)
        }
        start = 0
    }

    // MARK: - Writing

    private func sendContinue() -> Bool {
        socket.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), idle: limits.idleTimeout, until: .now + limits.responseTimeout)
    }

    private func send(_ response: ServerResponse, answering method: HTTPRequest.Method, closing: Bool) -> Bool {
        let head = response.head(answering: method, closing: closing)
        let deadline = ContinuousClock.now + limits.responseTimeout
        return response.hasBody(answering: method)
            ? socket.write(head, response.body, idle: limits.idleTimeout, until: deadline)
            : socket.write(head, idle: limits.idleTimeout, until: deadline)
    }

    /// Answers a refused request and closes.
    private mutating func refuse(_ rejection: HTTPRequestHead.Rejection) {
        // The answer is released before the close's wait: nothing of it outlives its sending.
        do {
            let response = ServerResponse.text(rejection.status, Self.reason(rejection.status), "Refused: \(rejection.reason).")
            // A head refused before it parsed is still answered as HEAD when it began as one.
            let answering = method ?? (buffer[start...].starts(with: Self.headPrefix) ? .head : .get)
            _ = send(response, answering: answering, closing: true)
        }
        closeGracefully()
    }

    /// Ends the connection so that the client reads the last response before it sees the close:
    /// this side stops sending, then what the client still sends (the rest of a refused body) is
    /// read and dropped until it closes too, pauses for ``lingerIdle``, has sent 4 MiB, or
    /// ``lingerLimit`` has passed. The listener may close it sooner to make room.
    private mutating func closeGracefully() {
        report(.closing)
        socket.shutdownWriting()
        socket.drain(idle: Self.lingerIdle, limit: 4 << 20, until: .now + Self.lingerLimit)
    }

    /// How long a closing connection waits for more of what the client is still sending: long
    /// enough for a client slowed by a loaded machine to finish a write it began.
    static let lingerIdle = Duration.seconds(2)
    /// The longest a closing connection reads what the client still sends.
    static let lingerLimit = Duration.seconds(10)

    private static let headPrefix = Array("HEAD ".utf8)

    private static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 417: "Expectation Failed"
        case 431: "Request Header Fields Too Large"
        case 501: "Not Implemented"
        case 505: "HTTP Version Not Supported"
        default: "Error"
        }
    }
}
