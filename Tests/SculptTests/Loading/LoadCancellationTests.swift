import Foundation
import HTTPTypes
import Sculpt
import SculptLoading
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads cancelled at any moment, many at once: each ends, and the process goes on. (Through
/// FoundationNetworking's own `data(for:)`, such cancellations sooner or later hang every request
/// of the process.)
@Suite("Loads cancelled at any moment", .timeLimit(.minutes(10)))
struct LoadCancellationTests {
    struct Item: Decodable, Sendable {
        let version: Int
    }

    @Test("loads, page loads and typed loads cancelled at random moments, eight at a time, all end")
    func randomCancellations() async throws {
        let item = try Fixture.stub(.get, "/items", json: #"[{"version":1}]"#)
        try await FixtureServer.running(FixtureReplay([item], options: .init(repeatsLastResponse: true))) { _, base in
            let session = URLSession(configuration: .unhurried)
            let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Item].self))
            let request = URLRequest(url: base.appending(path: "items"))
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        for round in 0..<75 {
                            let load = Task {
                                switch (worker + round) % 3 {
                                case 0:
                                    for try await _ in session.models(for: request, serializer: serializer, policy: .networkOnly) {}
                                case 1:
                                    for try await _ in session.pages(for: request, serializer: serializer) {}
                                default:
                                    _ = try await session.model(for: request, serializer: serializer, as: [Item].self)
                                }
                            }
                            try? await Task.sleep(for: .microseconds(Int.random(in: 0...20_000)))
                            load.cancel()
                            _ = await load.result
                        }
                    }
                }
            }
        }
    }
}
