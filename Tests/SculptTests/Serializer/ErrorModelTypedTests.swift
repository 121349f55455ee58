import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import Testing

/// Error models as the caller's own type, and serializers' typed throws.
@Suite("Error models as the caller's type")
struct ErrorModelTypedTests {
    struct OtherError: Decodable, Sendable, Equatable { let code: Int }

    let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), errorMatcher: StaticModelMatcher(APIError.self))

    func context(_ status: HTTPResponse.Status, contentType: String = "application/json") -> ResponseContext {
        ResponseContext(url: URL(string: "https://api.example.com/users/x"), method: .get, status: status, headerFields: [.contentType: contentType])
    }

    @Test("a 4xx whose body is the API's error gives it back as the caller's type, with no cast")
    func errorModelAsType() throws {
        let body = Data(#"{"message":"Not Found","documentation_url":"https://docs"}"#.utf8)
        do {
            _ = try serializer.serialize(body, for: context(.notFound), as: User.self)
            Issue.record("a 404 serialized")
        } catch {
            // `error` is a SculptError here: the serializer's throws are typed.
            #expect(error.errorModel(as: APIError.self)?.message == "Not Found")
            #expect(error.errorModel(as: OtherError.self) == nil)
            #expect(error.response.status == .notFound)
            #expect(error.body == body)
        }
    }

    @Test("errors that carry no error model give nil", arguments: [
        (HTTPResponse.Status.internalServerError, "text/html", "<html>down</html>"),  // not fed to the error model
        (.badRequest, "application/json", #"{"unexpected":true}"#),  // did not decode as APIError
        (.ok, "application/json", #"{"login":1}"#),  // a 200 that does not decode
        (.ok, "text/html", "<p>hi</p>"),
    ])
    func noErrorModel(status: HTTPResponse.Status, contentType: String, body: String) {
        let result = serializer.result(Data(body.utf8), for: context(status, contentType: contentType), as: User.self)
        guard case .failure(let error) = result else {
            Issue.record("\(status) \(body) serialized")
            return
        }
        #expect(error.errorModel(as: APIError.self) == nil, "\(error)")
    }

    @Test("result(_:for:as:) is a Result<Model, SculptError>")
    func typedResult() {
        let ok = serializer.result(Data(#"{"login":"x","id":1}"#.utf8), for: context(.ok), as: User.self)
        let failed = serializer.result(Data(#"{"message":"gone"}"#.utf8), for: context(.gone), as: User.self)
        let typed: [Result<User, SculptError>] = [ok, failed]
        #expect((try? typed[0].get()) == User(login: "x", id: 1))
        if case .failure(let error) = typed[1] {
            #expect(error.errorModel(as: APIError.self)?.message == "gone")
        } else {
            Issue.record("a 410 serialized")
        }
    }

    @Test("a matched ErrorResponseModel in a 200 is carried the same way")
    func errorModelInOK() throws {
        struct Failure: ErrorResponseModel, Equatable { let error: String }
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Failure.self))
        do {
            _ = try serializer.serialize(Data(#"{"error":"quota"}"#.utf8), for: context(.ok))
            Issue.record("an error model in a 200 was returned as a value")
        } catch {
            #expect(error.errorModel(as: Failure.self) == Failure(error: "quota"))
        }
    }
}
