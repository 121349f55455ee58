import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The body of GitHub's 301: decoding it would mean the matcher saw the URL before the redirect.
private struct MovedPermanently: Decodable, Sendable { let message: String }

/// A real URLSession against a real server on 127.0.0.1, serving the package's GitHub fixtures
/// plus an HTML page with status 200.
@Suite("URLSession drop-in")
struct URLSessionTests {
    let session = URLSession(configuration: .unhurried)

    private func serializer() throws -> ModelResponseSerializer<URLModelMatcher> {
        var routes = URLModelMatcher()
        try routes.add("/repos/*/*", MovedPermanently.self)
        try routes.add("/repositories/#", Repository.self)
        try routes.add("/repos/*/*/labels", [Label].self)
        try routes.add("/repos/*/*/labels/*", Label.self)
        try routes.add("/repos/*/*/labels/*", NoContent.self, method: .delete)
        try routes.add("/login", User.self)
        return ModelResponseSerializer(matcher: routes, errorMatcher: StaticModelMatcher(APIError.self))
    }

    private func withServer(_ body: (FixtureServer) async throws -> Void) async throws {
        let html = Fixture(
            request: .init(url: try #require(URL(string: "https://api.github.com/login"))),
            response: .init(status: .ok, headerFields: [.contentType: "text/html; charset=utf-8"], body: Data("<html>Sign in</html>".utf8)))
        try await FixtureServer.running(FixtureReplay(try GitHubFixtures.all() + [html], options: .init(repeatsLastResponse: true))) { server, _ in
            try await body(server)
        }
    }

    @Test("a 200 maps to its route's model, typed or not")
    func success() async throws {
        try await withServer { server in
            let url = try await server.url(for: "/repos/octokit-fixture-org/labels/labels/test-label")
            let label = try await session.model(from: url, serializer: serializer(), as: Label.self)
            #expect(label == Label(name: "test-label", color: "663399"))
            let labels = try await session.model(from: try await server.url(for: "/repos/octokit-fixture-org/labels/labels"), serializer: serializer())
            #expect((labels as? [Label])?.count == 9)
        }
    }

    @Test("a redirect is matched on the final URL")
    func redirect() async throws {
        try await withServer { server in
            let url = try await server.url(for: "/repos/octokit-fixture-org/rename-repository")
            let model = try await session.model(from: url, serializer: serializer())
            let repository = try #require(model as? Repository, "got \(type(of: model))")
            #expect(repository.fullName == "octokit-fixture-org/rename-repository-newname")
        }
    }

    @Test("a 404 with a JSON body becomes the error model")
    func notFound() async throws {
        try await withServer { server in
            let url = try await server.url(for: "/repos/octokit-fixture-org/branch-protection/branches/main/protection")
            let error = await #expect(throws: SculptError.self) { try await session.model(from: url, serializer: serializer()) }
            #expect(error?.reason.name == "errorResponse")
            #expect(error?.errorModel(as: APIError.self) == APIError(message: "Branch not protected"))
            #expect(error?.response.status == .notFound)
            #expect(error?.response.url?.path() == "/repos/octokit-fixture-org/branch-protection/branches/main/protection")
            #expect(error?.body.isEmpty == false)
        }
    }

    @Test("an empty 204 is NoContent, and the method reaches the matcher")
    func noContent() async throws {
        try await withServer { server in
            var request = URLRequest(url: try await server.url(for: "/repos/octokit-fixture-org/labels/labels/test-label-updated"))
            request.httpMethod = "DELETE"
            let model = try await session.model(for: request, serializer: serializer())
            #expect(model is NoContent)
            #expect(try await session.model(for: request, serializer: serializer(), as: NoContent.self) == NoContent())
        }
    }

    @Test("an HTML page with status 200 is an unacceptable content type")
    func htmlWithOK() async throws {
        try await withServer { server in
            let url = try await server.url(for: "/login")
            let error = await #expect(throws: SculptError.self) { try await session.model(from: url, serializer: serializer()) }
            #expect(error?.reason.name == "unacceptableContentType")
            #expect(error.map { String(decoding: $0.body, as: UTF8.self) } == "<html>Sign in</html>")
            #expect(error?.response.headerFields[.contentType] == "text/html; charset=utf-8")
        }
    }

    @Test("HEAD gets an empty body and yields NoContent")
    func head() async throws {
        try await withServer { server in
            var request = URLRequest(url: try await server.url(for: "/repos/octokit-fixture-org/labels/labels/test-label"))
            request.httpMethod = "HEAD"
            let model = try await session.model(for: request, serializer: serializer())
            #expect(model is NoContent)
        }
    }

    @Test("completion-handler code gets a Result")
    func completionHandler() async throws {
        try await withServer { server in
            let request = URLRequest(url: try await server.url(for: "/repos/octokit-fixture-org/labels/labels/test-label"))
            let serializer = try serializer()
            let result = await withCheckedContinuation { continuation in
                session.dataTask(with: request) { data, response, error in
                    continuation.resume(returning: serializer.result(data: data, response: response, error: error, request: request))
                }.resume()
            }
            #expect(try (result.get() as? Label)?.name == "test-label")
        }
    }

    @Test("result(data:response:error:) passes transport errors through and needs a response")
    func resultEdges() throws {
        let serializer = try serializer()
        let transport = URLError(.timedOut)
        #expect(throws: URLError.self) { try serializer.result(data: nil, response: nil, error: transport).get() }
        let missing = serializer.result(data: Data(), response: nil, error: nil)
        #expect((missing.failure as? URLError)?.code == .badServerResponse)
    }

    @Test("a refused connection is the session's URLError")
    func transportError() async throws {
        // Port 1 (tcpmux) on loopback: no test server takes it, and a stopped server's port may
        // be taken by another test's at once.
        let url = try #require(URL(string: "http://127.0.0.1:1/nothing"))
        await #expect(throws: URLError.self) { try await session.model(from: url, serializer: serializer()) }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
