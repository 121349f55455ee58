import Foundation
import HTTPTypes
import Sculpt
import SculptLoading
import SculptMatchers
import SculptTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Cases {
    /// Loads over a real URLSession against the loopback fixture server: what a policy adds to a
    /// plain `session.model(for:)` of the same response (a 1.2 KB GitHub user with the two dozen
    /// headers GitHub sends).
    static func loading() -> [Case] {
        [
            Case(name: "load, cachedThenFetch with a warm cache (two values)", baselineName: "session.model(for:)", target: 1.6) {
                let setup = try LoadingSetup()
                return Sides(
                    sculpt: { try setup.load(.cachedThenFetch) },
                    baseline: { try setup.plain() })
            },
            Case(name: "load, cacheOnly (no request)", baselineName: "serializer, same bytes and task", target: 2.0) {
                let setup = try LoadingSetup()
                return Sides(
                    sculpt: { try setup.load(.cacheOnly) },
                    baseline: { try setup.serializeInTask() })
            },
        ]
    }
}

/// A started server with one recorded user, a session, a warm cache, and a way to run a load to
/// its end from the benchmark's synchronous loop.
final class LoadingSetup: Sendable {
    let server: FixtureServer
    let request: URLRequest
    let session = URLSession(configuration: .ephemeral)
    let cache = HTTPResponseCache(URLCache(memoryCapacity: 16 << 20, diskCapacity: 0, diskPath: nil))
    let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(GitHubUser.self))
    let body: Data
    let context: ResponseContext

    init() throws {
        body = Payloads.userJSON
        let fields = Payloads.githubHeaders
        guard let url = URL(string: "https://api.github.com/users/octocat") else { throw URLError(.badURL) }
        let fixture = Fixture(request: .init(url: url), response: .init(status: .ok, headerFields: fields, body: body))
        let server = FixtureServer(replay: FixtureReplay([fixture], options: .init(repeatsLastResponse: true)))
        let baseURL = try Self.wait { try await server.start() }
        self.server = server
        request = URLRequest(url: baseURL.appending(path: "users/octocat"))
        context = ResponseContext(url: request.url, method: .get, status: .ok, headerFields: fields)
        try load(.networkOnly)
    }

    func load(_ policy: LoadPolicy, store: (any ResponseStore)? = nil) throws {
        try Self.wait { [self] in
            for try await loaded in session.models(for: request, serializer: serializer, as: GitHubUser.self, policy: policy, cache: cache, store: store) {
                consume(loaded.value)
            }
        }
    }

    /// The serializer alone on the stored bytes, run through the same task and wait as a load.
    func serializeInTask() throws {
        try Self.wait { [self] in consume(try serializer.serialize(body, for: context, as: GitHubUser.self)) }
    }

    func plain() throws {
        try Self.wait { [self] in consume(try await session.model(for: request, serializer: serializer, as: GitHubUser.self)) }
    }

    /// Runs `body` on a detached task and blocks this thread until it ends (the loop is
    /// synchronous; the main actor is not needed by `body`).
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome<T>()
        Task.detached {
            do { outcome.set(.success(try await body())) } catch { outcome.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return try outcome.get()
    }

    deinit {
        let server = self.server
        _ = try? Self.wait { await server.stop() }
    }
}

/// A result handed from a task to the thread waiting for it.
private final class Outcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    func set(_ result: Result<T, any Error>) {
        lock.withLock { self.result = result }
    }

    func get() throws -> T {
        guard let result = lock.withLock({ self.result }) else { throw CancellationError() }
        return try result.get()
    }
}
