import Foundation
import SculptTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FixtureServer {
    /// Starts a server answering from `replay`, runs `body` with it and its base URL, and stops it
    /// whatever `body` does. Unless a test sets its own limits, the server waits ten minutes for
    /// a client: on a loaded machine a test's next step can come long after its last.
    static func running<T>(
        _ replay: FixtureReplay, limits: Limits = .unhurried, isolation: isolated (any Actor)? = #isolation,
        _ body: (FixtureServer, URL) async throws -> T
    ) async throws -> T {
        let server = FixtureServer(replay: replay, limits: limits)
        let baseURL = try await server.start()
        do {
            let result = try await body(server, baseURL)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}

extension FixtureServer.Limits {
    /// The default limits with ten minutes for every wait on a client.
    static let unhurried = FixtureServer.Limits(
        headTimeout: .seconds(600), bodyTimeout: .seconds(600), responseTimeout: .seconds(600), idleTimeout: .seconds(600))

    /// ``unhurried`` with `change` made: a test sets the limits it is about, and no other limit
    /// waits on how fast the machine is.
    static func unhurried(_ change: (inout Self) -> Void) -> Self {
        var limits = unhurried
        change(&limits)
        return limits
    }
}

extension URLSessionConfiguration {
    /// An ephemeral configuration whose requests wait ten minutes, not one: on a loaded machine a
    /// loopback server can take more than a minute to be scheduled.
    static var unhurried: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 600
        configuration.timeoutIntervalForResource = 3_600
        return configuration
    }
}
