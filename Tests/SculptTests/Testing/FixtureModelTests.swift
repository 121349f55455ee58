import Foundation
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

@Suite("Mapping a fixture in one line")
struct FixtureModelTests {
    private func serializer() throws -> ModelResponseSerializer<URLModelMatcher> {
        var routes = URLModelMatcher()
        try routes.add("/repos/*/*/labels/*", Label.self)
        try routes.add("/repos/*/*/labels", [Label].self)
        try routes.add("/orgs/*", [Label].self)
        return ModelResponseSerializer(matcher: routes, errorMatcher: StaticModelMatcher(APIError.self))
    }

    @Test("the typed model of a package fixture")
    func model() throws {
        #expect(try GitHubFixtures.load("get-label").model(serializer: serializer(), as: Label.self) == Label(name: "test-label", color: "663399"))
        #expect(try GitHubFixtures.load("list-labels").model(serializer: serializer()) is [Label])
    }

    @Test("a failure shows the fixture, the matcher's decision and the coding path")
    func failure() throws {
        let failure = try #require(throws: Fixture.MappingError.self) {
            try GitHubFixtures.load("get-organization").model(serializer: serializer(), as: [Label].self)
        }
        let text = failure.description
        #expect(text.hasPrefix("Fixture get-organization.json: GET https://api.github.com/orgs/octokit-fixture-org -> 200"), "\(text)")
        #expect(text.contains("Matcher decision: Array<Label>"))
        #expect(text.contains("Could not decode Array<Label>"))
        #expect(text.contains("At (top level): expected Array<"), "\(text)")
    }

    @Test("no match and a wrong type are told apart")
    func decisions() throws {
        let noRoute = try #require(throws: Fixture.MappingError.self) { try GitHubFixtures.load("get-root").model(serializer: serializer(), as: Label.self) }
        #expect(noRoute.description.contains("\nMatcher decision: no model type\nNo model type matched GET https://api.github.com/ -> 200 OK."), "\(noRoute)")
        let wrongType = try #require(throws: Fixture.MappingError.self) { try GitHubFixtures.load("get-label").model(serializer: serializer(), as: [Label].self) }
        #expect(wrongType.description.contains("\nMatcher decision: Label\nType mismatch for GET "), "\(wrongType)")
        #expect(wrongType.description.contains("\nExpected Array<Label>; the matcher resolved Label.\n"), "\(wrongType)")
    }
}
