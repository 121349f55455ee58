import Foundation
import HTTPTypes
import SculptTesting

extension Cases {
    /// Replay against replay: what a request costs in a large cassette beside a small one.
    static func replay() -> [Case] {
        [
            Case(name: "replay, 4,000 recorded interactions with queries", baselineName: "replay of 10", target: 1.5) {
                let small = cassette(10), large = cassette(4_000)
                // Ten recorded paths, found in both cassettes, each with its query in another
                // order (queries compare as multisets).
                let requests = (0..<10).compactMap { index in
                    URL(string: "https://api.example.com/repos/o/r\(index)/issues?state=open&page=\(index)&per_page=100").map { Fixture.Request(url: $0) }
                }
                return Sides(
                    sculpt: { for request in requests { consume(try large.response(for: request)) } },
                    baseline: { for request in requests { consume(try small.response(for: request)) } })
            },
            Case(name: "replay, 4,000 recorded interactions on one path, queries varying", baselineName: "replay of 10 on one path", target: 1.5) {
                let small = pages(10), large = pages(4_000)
                // Ten pages found in both cassettes, each asked with its query in another order.
                let requests = (0..<10).compactMap { page in
                    URL(string: "https://api.example.com/repos/o/r/issues?state=open&page=\(page)&per_page=100").map { Fixture.Request(url: $0) }
                }
                return Sides(
                    sculpt: { for request in requests { consume(try large.response(for: request)) } },
                    baseline: { for request in requests { consume(try small.response(for: request)) } })
            },
            Case(name: "replay miss, 4,000 recorded interactions on one path", baselineName: "miss among 64 on one path", target: 1.5) {
                // A query no recording has: the miss compares it with at most 64 recordings and
                // describes the closest, so 4,000 cost what 64 do.
                let small = pages(64), large = pages(4_000)
                let miss = try URL(string: "https://api.example.com/repos/o/r/issues?state=closed&page=3&per_page=100").map { Fixture.Request(url: $0) }
                    .orThrow()
                func describe(_ replay: FixtureReplay) {
                    do { _ = try replay.response(for: miss) } catch { consume(error.description) }
                }
                return Sides(sculpt: { describe(large) }, baseline: { describe(small) })
            },
        ]
    }

    /// A replay of `count` pages of one path (`page=0` ... `page=count-1`), as a pagination
    /// cassette records them, that serves its last response again.
    private static func pages(_ count: Int) -> FixtureReplay {
        let fixtures = (0..<count).compactMap { page in
            URL(string: "https://api.example.com/repos/o/r/issues?per_page=100&page=\(page)&state=open").map { url in
                Fixture(request: .init(url: url), response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data("[]".utf8)))
            }
        }
        return FixtureReplay(fixtures, options: .init(repeatsLastResponse: true))
    }

    /// A replay of `count` GET interactions on distinct paths, each with a query string, that
    /// serves its last response again (so timing never uses it up).
    private static func cassette(_ count: Int) -> FixtureReplay {
        let fixtures = (0..<count).compactMap { index in
            URL(string: "https://api.example.com/repos/o/r\(index)/issues?per_page=100&page=\(index % 10)&state=open").map { url in
                Fixture(request: .init(url: url), response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data("[]".utf8)))
            }
        }
        return FixtureReplay(fixtures, options: .init(repeatsLastResponse: true))
    }
}

extension Optional {
    /// The value, or an error for a benchmark whose input could not be made.
    fileprivate func orThrow() throws -> Wrapped {
        guard let self else { throw URLError(.badURL) }
        return self
    }
}
