import Foundation
import SculptTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FixtureServer {
    /// Starts a server answering from `replay`, runs `body` with it and its base URL, and stops it
    /// whatever `body` does. Unless a test sets its own limits, the server waits an hour for
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
    /// The default limits with an hour for every wait on a client. Swift Testing starts every
    /// test at once, so a test's client runs at the pace of the whole suite: with six CPU-bound
    /// processes beside it on two cores, a client was measured waiting more than ten minutes
    /// between two steps.
    static let unhurried = FixtureServer.Limits(
        headTimeout: .seconds(3_600), bodyTimeout: .seconds(3_600), responseTimeout: .seconds(3_600), idleTimeout: .seconds(3_600))

    /// ``unhurried`` with `change` made: a test sets the limits it is about, and no other limit
    /// waits on how fast the machine is.
    static func unhurried(_ change: (inout Self) -> Void) -> Self {
        var limits = unhurried
        change(&limits)
        return limits
    }
}

extension URLSessionConfiguration {
    /// An ephemeral configuration whose requests wait an hour, not a minute: on a loaded machine
    /// a loopback server, run at the pace of the whole suite, can take more than ten minutes to
    /// answer (see ``FixtureServer/Limits/unhurried``). It has no URL cache, as Sculpt advises on
    /// Linux: FoundationNetworking cancels a given-up request only on a session without one.
    static var unhurried: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 3_600
        configuration.timeoutIntervalForResource = 7_200
        configuration.urlCache = nil
        return configuration
    }
}
