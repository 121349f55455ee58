// Serves recorded GitHub responses on 127.0.0.1, fetches them through a real URLSession, and maps
// each one to its model with a URLModelMatcher; then loads through the HTTP cache (online and
// offline) and page by page. Run it with `swift run sculpt-example`.
import Foundation
import Sculpt
import SculptJSON
import SculptMatchers
import SculptTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let fixturesFolder = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "Tests/Fixtures/github")
let fixtureNames = [
    "get-root", "get-organization", "get-repository", "get-renamed-repository-redirect", "list-labels",
    "get-label", "delete-label", "list-issues", "get-branch-protection-not-found",
]
let fixtures = try fixtureNames.map { try Fixture(contentsOf: fixturesFolder.appending(path: "\($0).json")) }

// Each recorded response may answer more than once: the redirect below leads to a repository
// that is also fetched directly.
let server = FixtureServer(replay: FixtureReplay(fixtures, options: .init(repeatsLastResponse: true)))
let baseURL = try await server.start()
print("Serving \(fixtures.count) recorded GitHub responses at \(baseURL)\n")

// The whole mapping: GitHub's endpoints (GitHubEndpoints.swift), each a pattern and the model its
// responses decode as, and one model for GitHub's error bodies.
var routes = URLModelMatcher()
try routes.add(GitHub.root)
try routes.add(GitHub.organization)
try routes.add(GitHub.repository)
try routes.add(GitHub.repositoryByID)
try routes.add(GitHub.labels)
try routes.add(GitHub.label)
try routes.add(GitHub.issues)
try routes.add(GitHub.issuesByRepositoryID)
let serializer = ModelResponseSerializer(matcher: routes, decoder: SculptJSONDecoder(), errorMatcher: StaticModelMatcher(GitHubError.self))

let session = URLSession(configuration: .ephemeral)
var failures = 0
for fixture in fixtures {
    var request = URLRequest(url: try await server.url(for: fixture))
    request.httpMethod = fixture.request.method.rawValue
    let requested = "\(fixture.request.method.rawValue) \(request.url?.path(percentEncoded: true) ?? "")"
    do {
        let model = try await session.model(for: request, serializer: serializer)
        let field = (model as? any Summarized)?.summary ?? "\(model)"
        print("\(requested) -> \(type(of: model)) -> \(field)")
    } catch let error as SculptError {
        guard case .errorResponse(let model) = error.reason else {
            failures += 1
            print("\(requested) -> unexpected error:\n\(error)")
            continue
        }
        let field = (model as? any Summarized)?.summary ?? "\(model)"
        print("\(requested) -> \(error.response.status.code) \(type(of: model)) -> \(field)")
    } catch {
        failures += 1
        print("\(requested) -> unexpected error:\n\(error)")
    }
}
// An endpoint builds its request from its parameters, and the call gives the endpoint's model type.
let organization = try await session.model(GitHub.organization(["org": "octokit-fixture-org"]), baseURL: baseURL, serializer: serializer)
print("\nGitHub.organization(org: octokit-fixture-org) -> \(type(of: organization)) -> \(organization.summary)")
let repository = try await session.model(GitHub.repositoryByID(["id": 1000]), baseURL: baseURL, serializer: serializer)
print("GitHub.repositoryByID(id: 1000) -> \(type(of: repository)) -> \(repository.summary)")

// The same mapping checked against every recording at once, as a test checks it: what maps, what
// fails, which routes no recording covers, and the members each model leaves unread.
let pagesCassette = fixturesFolder.appending(path: "../cassettes/github-paginate-issues.json").standardizedFileURL
let report = try MappingReport(contentsOf: [fixturesFolder, pagesCassette], serializer: serializer)
print("\nMapping report: \(report.description.split(separator: "\n").last ?? "")")
// A route is covered by a recording its model decoded: the renamed repository's recording is its
// redirect, which the error model takes.
for route in report.uncoveredRoutes { print("No recording decodes \(route)") }
for mapping in report.mappings where mapping.fixture.source == "get-label.json" {
    print("\(mapping.fixture) leaves unread: \(mapping.unreadMembers.joined(separator: ", "))")
}
failures += report.failures.count

do {
    let labels = URLRequest(url: try await server.url(for: "/repos/octokit-fixture-org/labels/labels"))
    try await demonstrateCaching(labels, serializer: serializer, stoppingBeforeOffline: server)
    try await demonstratePages(cassette: pagesCassette, serializer: serializer)
} catch {
    failures += 1
    print("unexpected error:\n\(error)")
}
await server.stop()
if failures > 0 { exit(1) }
