#if AsyncHTTPClientAdapter
public import Sculpt
public import AsyncHTTPClient
import Foundation
public import NIOCore

extension HTTPClient {
    /// Executes a request and serializes its response, matched on the final URL (after the
    /// redirects the client followed), never the URL asked for.
    ///
    /// ```swift
    /// let client = HTTPClient(eventLoopGroupProvider: .singleton)
    /// let model = try await client.model(for: HTTPClientRequest(url: "https://api.github.com/users/octocat"), serializer: serializer)
    /// ```
    ///
    /// The body is read up to `maximumBodySize` bytes, or the serializer's own
    /// `ResponseSerializer.maximumBodySize` when that is lower; a longer one ends the read and is
    /// `SculptError.Reason.bodyTooLarge(maximum:)` with the bytes read so far. `timeout` is a
    /// deadline for the whole exchange, the body included. A `HEAD` request and `204`, `205` and
    /// `304` answers are bodiless: the serializer's empty-body rules apply.
    /// - Parameters:
    ///   - request: the request to execute.
    ///   - serializer: turns the response into the serializer's output; its own
    ///     `maximumBodySize`, when lower, bounds the read.
    ///   - timeout: a deadline for the whole exchange, the body included.
    ///   - maximumBodySize: the most bytes of body read.
    /// - Returns: the serializer's output.
    /// - Throws: AsyncHTTPClient's error when the request fails (`HTTPClientError`;
    ///   `HTTPClientError.deadlineExceeded` when the exchange outlasts `timeout`), the
    ///   serializer's error (a `SculptError`, with the response and body) otherwise.
    public func model<S: ResponseSerializer>(
        for request: HTTPClientRequest, serializer: S, timeout: TimeAmount = .seconds(30), maximumBodySize: Int = 16 << 20
    ) async throws -> S.Output {
        let (context, body) = try await exchange(request, timeout: timeout, maximumBodySize: Self.limit(maximumBodySize, serializer))
        return try serializer.serialize(body, for: context)
    }

    /// Executes a request and serializes its response as a model of type `M`, checking that the
    /// matcher agrees; see the form for any `ResponseSerializer`.
    ///
    /// ```swift
    /// let user = try await client.model(for: request, serializer: serializer, as: User.self)
    /// ```
    /// - Parameters:
    ///   - request: the request to execute.
    ///   - serializer: the serializer whose matcher must resolve `type`; its `maximumBodySize`,
    ///     when lower, bounds the read.
    ///   - type: the model to return.
    ///   - timeout: a deadline for the whole exchange, the body included.
    ///   - maximumBodySize: the most bytes of body read.
    /// - Returns: the model.
    /// - Throws: AsyncHTTPClient's error, or a `SculptError`.
    public func model<Matcher, M: Decodable & Sendable>(
        for request: HTTPClientRequest, serializer: ModelResponseSerializer<Matcher>, as type: M.Type,
        timeout: TimeAmount = .seconds(30), maximumBodySize: Int = 16 << 20
    ) async throws -> M {
        let (context, body) = try await exchange(request, timeout: timeout, maximumBodySize: Self.limit(maximumBodySize, serializer))
        return try serializer.serialize(body, for: context, as: M.self)
    }

    /// Executes a request and serializes its response as metadata and a model of type `M`; see
    /// the form for any `ResponseSerializer`.
    ///
    /// ```swift
    /// let page = try await client.model(for: request, serializer: enveloped, as: [Question].self)
    /// ```
    /// - Parameters:
    ///   - request: the request to execute.
    ///   - serializer: an envelope serializer; its `maximumBodySize`, when lower, bounds the read.
    ///   - type: the model the matcher must resolve.
    ///   - timeout: a deadline for the whole exchange, the body included.
    ///   - maximumBodySize: the most bytes of body read.
    /// - Returns: the metadata and the model.
    /// - Throws: AsyncHTTPClient's error, or a `SculptError`.
    public func model<Meta, Matcher, M: Decodable & Sendable>(
        for request: HTTPClientRequest, serializer: EnvelopeResponseSerializer<Meta, Matcher>, as type: M.Type,
        timeout: TimeAmount = .seconds(30), maximumBodySize: Int = 16 << 20
    ) async throws -> Envelope<Meta, M> {
        let (context, body) = try await exchange(request, timeout: timeout, maximumBodySize: Self.limit(maximumBodySize, serializer))
        return try serializer.serialize(body, for: context, as: M.self)
    }

    /// The bytes of body to read: the caller's limit, or the serializer's when that is lower.
    private static func limit(_ maximumBodySize: Int, _ serializer: some ResponseSerializer) -> Int {
        serializer.maximumBodySize.map { Swift.min($0, maximumBodySize) } ?? maximumBodySize
    }

    /// The response's context and its body, read up to `maximumBodySize` bytes, all of it within
    /// `timeout`: the deadline covers the body as well as the head, so a server that sends its
    /// body slowly cannot hold the call past it.
    ///
    /// - Throws: `HTTPClientError.deadlineExceeded` when the exchange is not over by the deadline.
    private func exchange(_ request: HTTPClientRequest, timeout: TimeAmount, maximumBodySize: Int) async throws -> (ResponseContext, Data) {
        let deadline = ContinuousClock.now + .nanoseconds(timeout.nanoseconds)
        return try await withThrowingTaskGroup(of: (ResponseContext, Data).self) { group in
            group.addTask { try await self.read(request, deadline: .now() + timeout, maximumBodySize: maximumBodySize) }
            group.addTask {
                try await _Concurrency.Task.sleep(until: deadline, clock: .continuous)
                throw HTTPClientError.deadlineExceeded
            }
            defer { group.cancelAll() }  // the read, when the deadline came first: its request is cancelled
            guard let first = try await group.next() else { throw HTTPClientError.deadlineExceeded }
            return first
        }
    }

    /// Executes `request` and reads its body up to `maximumBodySize` bytes.
    private func read(_ request: HTTPClientRequest, deadline: NIODeadline, maximumBodySize: Int) async throws -> (ResponseContext, Data) {
        let maximumBodySize = Swift.max(0, maximumBodySize)  // a negative limit reads nothing
        let response = try await execute(request, deadline: deadline)
        let context = ResponseContext(response, request: request)
        var body = Data()
        for try await chunk in response.body {
            guard body.count + chunk.readableBytes <= maximumBodySize else {
                body.append(contentsOf: chunk.readableBytesView.prefix(maximumBodySize - body.count))
                throw SculptError(.bodyTooLarge(maximum: maximumBodySize), response: context, body: body)
            }
            body.append(contentsOf: chunk.readableBytesView)
        }
        return (context, body)
    }
}
#endif
