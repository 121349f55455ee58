import Foundation
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The README's quick start, as written there, against a replayed session.
@Suite("README")
struct ReadmeTests {
    struct User: Decodable, Sendable { let login: String }
    struct Issue: Decodable, Sendable { let number: Int; let title: String }
    struct APIError: Decodable, Sendable { let message: String }

    @Test("the quick start maps an issue and an error")
    func quickStart() async throws {
        var routes = URLModelMatcher(pathPrefix: "/v3")        // "/v3" is stripped, segment by segment
        try routes.add("/users/*", User.self)                  // * = one segment
        try routes.add("/repos/*/*/issues", [Issue].self)
        try routes.add("/repos/*/*/issues/#", Issue.self)      // # = digits only
        try routes.add("/repos/*/*/issues", Issue.self, method: .post, status: .created)

        let serializer = ModelResponseSerializer(matcher: routes, errorMatcher: StaticModelMatcher(APIError.self))

        let issueURL = try #require(URL(string: "https://api.example.com/v3/repos/apple/swift/issues/1"))
        let missingIssueURL = try #require(URL(string: "https://api.example.com/v3/repos/apple/swift/issues/2"))
        let session = FixtureReplay([
            Fixture(request: .init(url: issueURL), response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data(#"{"number":1,"title":"Crash"}"#.utf8))),
            Fixture(request: .init(url: missingIssueURL), response: .init(status: .notFound, headerFields: [.contentType: "application/json"], body: Data(#"{"message":"Not Found"}"#.utf8))),
        ]).makeSession()

        let issue = try await session.model(from: issueURL, serializer: serializer, as: Issue.self)
        #expect(issue.number == 1)

        var printed: String?
        do {
            _ = try await session.model(from: missingIssueURL, serializer: serializer, as: Issue.self)
        } catch let error as SculptError {
            printed = error.errorModel(as: APIError.self)?.message ?? "\(error)"   // Not Found
        }
        #expect(printed == "Not Found")

        let context = ResponseContext(url: missingIssueURL, method: .get, status: .notFound, headerFields: [.contentType: "application/json"])
        let result: Result<Issue, SculptError> = serializer.result(Data(#"{"message":"Not Found"}"#.utf8), for: context, as: Issue.self)
        #expect((try? result.get()) == nil)
    }
}
