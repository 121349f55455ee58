import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The octokit recordings replayed through a real URLSession with the replay protocol.
@Suite("octokit replay")
struct OctokitReplayTests {
    static let recordings: [String] = Dictionary(grouping: (try? OctokitInteraction.all()) ?? [], by: \.recording).keys.sorted()

    private static func fixture(_ interaction: OctokitInteraction) -> Fixture {
        var fields = HTTPFields()
        if let contentType = interaction.contentType { fields[.contentType] = contentType }
        if let location = interaction.location { fields[.location] = location }
        return Fixture(
            request: .init(method: interaction.method, url: interaction.url),
            response: .init(status: interaction.status, headerFields: fields, body: interaction.body),
            source: interaction.testDescription)
    }

    @Test("every interaction behaves per its status through URLSession", arguments: recordings)
    func replay(_ recording: String) async throws {
        let interactions = try OctokitInteraction.all().filter { $0.recording == recording }
        let replay = FixtureReplay(interactions.map(Self.fixture))
        let session = replay.makeSession()
        let (routes, _) = try #require(OctokitCorpusTests.table)
        let serializer = ModelResponseSerializer(matcher: try routes.anyJSONMatcher(), errorMatcher: StaticModelMatcher(APIError.self))

        var previous: OctokitInteraction?
        for interaction in interactions {
            defer { previous = interaction }
            // A redirect's target is requested by URLSession itself, following the 3xx before it.
            if let previous, (300..<400).contains(previous.status.code), Self.location(previous.location, leadsTo: interaction.url) { continue }
            var request = URLRequest(url: interaction.url)
            request.httpMethod = interaction.method.rawValue
            let final = Self.final(of: interaction, in: interactions)
            let result: Result<any Decodable & Sendable, any Error>
            do {
                result = .success(try await session.model(for: request, serializer: serializer))
            } catch {
                result = .failure(error)
            }
            switch final.status.code {
            case 204, 205:
                #expect(try result.get() is NoContent, "\(interaction.testDescription)")
            case 200..<300 where final.contentType?.contains("json") == true:
                #expect(try result.get() is AnyJSON, "\(interaction.testDescription)")
            case 200..<300:
                guard case .failure(let error as SculptError) = result, case .unacceptableContentType = error.reason else {
                    Issue.record("\(interaction.testDescription): expected unacceptableContentType, got \(result)")
                    continue
                }
                #expect(error.body == final.body)
            default:
                guard case .failure(let error as SculptError) = result, case .errorResponse(let model) = error.reason else {
                    Issue.record("\(interaction.testDescription): expected errorResponse, got \(result)")
                    continue
                }
                #expect(model is APIError)
                #expect(error.response.status == final.status)
            }
        }
        try replay.verifyAllUsed()
    }

    /// The interaction a request ends at, following recorded redirects.
    private static func final(of interaction: OctokitInteraction, in all: [OctokitInteraction]) -> OctokitInteraction {
        var current = interaction
        while (300..<400).contains(current.status.code), let location = current.location,
            let next = all.first(where: { Self.location(location, leadsTo: $0.url) && $0.method == (current.status.code == 303 ? .get : current.method) })
        {
            current = next
        }
        return current
    }

    /// Whether a `Location` names `url` (a recording's URL carries its default port; a Location does not).
    private static func location(_ location: String?, leadsTo url: URL) -> Bool {
        guard let target = location.flatMap(URL.init(string:)) else { return false }
        return target.host() == url.host() && target.path() == url.path() && target.query() == url.query()
    }
}

extension GitHubRoutes {
    /// Every route of the table resolving to `AnyJSON`, and anything else to `AnyJSON` too: the
    /// replay test is about statuses and bodies, the route table is tested on its own.
    func anyJSONMatcher() throws -> FirstMatchModelMatcher {
        FirstMatchModelMatcher([try matcher(), StaticModelMatcher(AnyJSON.self)])
    }
}
