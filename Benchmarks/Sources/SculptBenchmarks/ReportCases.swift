import Foundation
import Sculpt
import SculptJSON
import SculptMatchers
import SculptTesting

extension Cases {
    /// A mapping report over the package's recorded GitHub responses (`Tests/Fixtures/github`
    /// and the paginated-issues cassette), beside serializing the same recordings with the same
    /// serializer alone: what tracking unread members, finding each route and keeping the
    /// results cost on top of the decodes.
    static func reporting() throws -> [Case] {
        let fixtures = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Tests/Fixtures")
        let recordings = try [fixtures.appending(path: "github"), fixtures.appending(path: "cassettes/github-paginate-issues.json")]
            .flatMap { folder -> [Fixture] in
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder)
                let files = isFolder.boolValue
                    ? try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).sorted { $0.path < $1.path }
                    : [folder]
                return try files.flatMap { try Cassette(contentsOf: $0).interactions }
            }
        var routes = URLModelMatcher()
        try routes.add("/", [String: String].self)
        try routes.add("/orgs/*", ReportedOrganization.self)
        try routes.add("/repos/*/*", ReportedRepository.self)
        try routes.add("/repositories/#", ReportedRepository.self)
        try routes.add("/repos/*/*/labels", [IssueLabel].self)
        try routes.add("/repos/*/*/labels/*", IssueLabel.self)
        try routes.add("/repos/*/*/issues", [Issue].self)
        try routes.add("/repositories/#/issues", [Issue].self)
        try routes.add("/users/*", GitHubUser.self)
        var serializer = ModelResponseSerializer(matcher: routes, decoder: SculptJSONDecoder())
        serializer.errorMatcher = StaticModelMatcher(ReportedError.self)
        return [
            Case(name: "MappingReport, \(recordings.count) GitHub recordings", baselineName: "the serializer alone", target: 1.3) {
                Sides(
                    sculpt: { consume(MappingReport(fixtures: recordings, serializer: serializer)) },
                    baseline: {
                        for fixture in recordings { consume(try? serializer.serialize(fixture.data, for: fixture.context)) }
                    })
            }
        ]
    }
}

/// What a GitHub client reads of an organization.
struct ReportedOrganization: Decodable, Sendable {
    let login: String
    let id: Int
    let description: String?
    let publicRepos: Int

    enum CodingKeys: String, CodingKey {
        case login, id, description
        case publicRepos = "public_repos"
    }
}

/// What a GitHub client reads of a repository.
struct ReportedRepository: Decodable, Sendable {
    let id: Int
    let fullName: String
    let owner: SimpleUser

    enum CodingKeys: String, CodingKey {
        case id, owner
        case fullName = "full_name"
    }
}

/// GitHub's error body.
struct ReportedError: Decodable, Sendable {
    let message: String
}
