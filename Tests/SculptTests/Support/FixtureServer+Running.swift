import Foundation
import SculptTesting

extension FixtureServer {
    /// Starts a server answering from `replay`, runs `body` with it and its base URL, and stops it
    /// whatever `body` does.
    static func running<T>(
        _ replay: FixtureReplay, limits: Limits = Limits(), isolation: isolated (any Actor)? = #isolation,
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
