import Foundation
import SculptShared
import HTTPTypes
import Sculpt
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` through which a ``FixtureReplay`` answers a `URLSession`'s requests.
///
/// A protocol class is all a session's configuration hands to the loading system, and on Linux a
/// protocol sees neither the configuration nor its extra headers, so each replay gets a class of
/// its own: a distinct generic specialization, ``Slot``, made at run time. The class's identity
/// finds its replay; nothing else is shared between replays.
class ReplayURLProtocol: URLProtocol {
    /// The replay this class answers for; `nil` for the base class.
    class var replay: FixtureReplay? { nil }

    /// Every request of a session with a replay is the replay's: none reaches the network.
    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// The most redirects followed for one request, as `URLSession` allows.
    static let maximumRedirects = 16

    /// A request being sent through the replay's recorder, cancelled when loading stops.
    private let forwarding = Forwarding()

    override func startLoading() {
        guard let replay = Self.replay else {
            client?.urlProtocol(self, didFailWithError: URLError(.cancelled))
            return
        }
        var current = request
        var fixture: Fixture
        var redirects = 0
        do {
            fixture = try replay.response(for: Self.asked(current))
            // Recorded redirects are followed here, hop by hop through the replay, because
            // FoundationNetworking cannot take a redirect from a custom protocol; the client sees
            // the final response, at the final URL, as it would from a server.
            while let next = Self.redirect(from: current, by: fixture) {
                redirects += 1
                guard redirects <= Self.maximumRedirects else { throw URLError(.httpTooManyRedirects) }
                current = next
                fixture = try replay.response(for: Self.asked(current))
            }
        } catch {
            // A request the replay lacks goes to the network only when a recording records.
            if error is FixtureReplay.MissError, let recorder = replay.recorder {
                record(current, through: recorder)
            } else {
                if let miss = error as? FixtureReplay.MissError { replay.noteFailed(miss) }
                client?.urlProtocol(self, didFailWithError: error)
            }
            return
        }
        // The body a client sees, as every reader of recordings reads it.
        let (body, fields) = RecordedBody.decodedIfPossible(fixture.response.body, fields: fixture.response.headerFields)
        guard let url = current.url, let response = Self.response(status: fixture.response.status, fields: fields, url: url) else {
            client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        deliver(response, body: current.httpMethod == "HEAD" ? Data() : body)
    }

    override func stopLoading() {
        forwarding.cancel()
    }

    /// Hands a whole response to the client.
    private func deliver(_ response: URLResponse, body: Data) {
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        if !body.isEmpty {
            client?.urlProtocol(self, didLoad: body)
        }
        client?.urlProtocolDidFinishLoading(self)
    }

    /// Sends a request the replay lacks to the network through `recorder`, which records it, and
    /// hands its response to the client.
    private func record(_ request: URLRequest, through recorder: FixtureRecorder) {
        // The request as the session sends it: a streamed body read into the request.
        var request = request
        if request.httpBody == nil, let stream = request.httpBodyStream {
            request.httpBody = Self.read(stream)
            request.httpBodyStream = nil
        }
        let loading = UncheckedLoading(protocol: self)
        let forwarding = self.forwarding
        forwarding.start { [request] in
            do {
                let (data, response) = try await recorder.data(for: request)
                forwarding.unlessStopped { loading.protocol.deliver(response, body: data) }
            } catch {
                forwarding.unlessStopped { loading.protocol.client?.urlProtocol(loading.protocol, didFailWithError: error) }
            }
        }
    }

    /// This protocol handed to the task that records: the loading system calls a protocol's
    /// client from any thread, and the protocol is not touched by anything else meanwhile.
    private struct UncheckedLoading: @unchecked Sendable {
        let `protocol`: ReplayURLProtocol
    }

    /// The task sending a request through the recorder, cancelled if loading stops first. Once
    /// loading has stopped, the client is told nothing more: FoundationNetworking stops the
    /// process when a protocol speaks for a task it has completed.
    private final class Forwarding: @unchecked Sendable {
        private let lock = NSLock()
        /// Guarded by `lock`.
        private var task: Task<Void, Never>?
        /// Guarded by `lock`.
        private var cancelled = false

        func start(_ work: @escaping @Sendable () async -> Void) {
            lock.withLock {
                guard !cancelled else { return }
                task = Task(operation: work)
            }
        }

        /// Cancels the task, on another thread: this runs on FoundationNetworking's work queue
        /// (`stopLoading()`), and cancelling the recorder's request waits for that queue.
        func cancel() {
            lock.withLock {
                cancelled = true
                if let task { DispatchQueue.global().async { task.cancel() } }
            }
        }

        /// Runs `tell`, which speaks to the client, unless loading has stopped.
        func unlessStopped(_ tell: () -> Void) {
            lock.withLock {
                guard !cancelled else { return }
                tell()
            }
        }
    }

    /// A `URLRequest` as the replay matches it.
    private static func asked(_ request: URLRequest) -> Fixture.Request {
        Fixture.Request(
            method: HTTPRequest.Method(request.httpMethod ?? "GET") ?? .get, url: request.url ?? URL(filePath: "/"),
            headerFields: FoundationFields.fields(of: request), body: request.httpBody ?? read(request.httpBodyStream))
    }

    /// The request a recorded 3xx with a `Location` leads to, as a client follows it: 303 (and
    /// 301/302 after a POST) become a bodiless `GET`; 307 and 308 keep the method and body.
    private static func redirect(from request: URLRequest, by fixture: Fixture) -> URLRequest? {
        let status = fixture.response.status.code
        guard [301, 302, 303, 307, 308].contains(status), let location = fixture.response.headerFields[.location],
            let target = URL(string: location, relativeTo: request.url)?.absoluteURL
        else { return nil }
        var next = request
        next.url = target
        if status == 303 || ((status == 301 || status == 302) && request.httpMethod == "POST") {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
        }
        return next
    }

    /// A Foundation response for a recorded one. Framing fields (`Content-Length`,
    /// `Transfer-Encoding`) describe the recorded wire and are left out.
    private static func response(status: HTTPResponse.Status, fields: HTTPFields, url: URL) -> HTTPURLResponse? {
        var fields = fields
        fields.removeAll { $0.name == .contentLength || $0.name == .transferEncoding }
        return FoundationFields.response(status: status.code, fields: fields, url: url)
    }

    /// A request body that arrives as a stream (`httpBody` is then `nil`).
    private static func read(_ stream: InputStream?) -> Data? {
        guard let stream else { return nil }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }

    // MARK: - One class per replay

    /// The specialization that answers for one replay.
    private final class Slot<Tag>: ReplayURLProtocol {
        override class var replay: FixtureReplay? { Registry.shared.replay(for: ObjectIdentifier(self)) }
    }

    private enum End {}
    private enum Bit<Value, Rest> {}
    private enum Zero {}
    private enum One {}

    /// A class of its own for `replay`. The replay is kept for the life of the process: a session
    /// may outlive every other reference to it, and must still never reach the network.
    static func register(_ replay: FixtureReplay) -> ReplayURLProtocol.Type {
        Registry.shared.add(replay) { number in slot(number, End.self) }
    }

    /// `Slot<T>` for a type `T` that spells `number` in binary, so every number has its own class.
    private static func slot<T>(_ number: Int, _ spelled: T.Type) -> ReplayURLProtocol.Type {
        guard number > 0 else { return Slot<T>.self }
        return number & 1 == 0 ? slot(number >> 1, Bit<Zero, T>.self) : slot(number >> 1, Bit<One, T>.self)
    }

    /// Which replay each slot class answers for.
    private final class Registry: @unchecked Sendable {
        static let shared = Registry()

        private let lock = NSLock()
        private var entries: [ObjectIdentifier: FixtureReplay] = [:]
        private var count = 0

        func add(_ replay: FixtureReplay, slot: (Int) -> ReplayURLProtocol.Type) -> ReplayURLProtocol.Type {
            lock.withLock {
                count += 1
                let type = slot(count)
                entries[ObjectIdentifier(type)] = replay
                return type
            }
        }

        func replay(for slot: ObjectIdentifier) -> FixtureReplay? {
            lock.withLock { entries[slot] }
        }
    }
}
