import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import Testing

/// An error model with a status, a code and a message: `{"status":"failed","code":97,"message":"Missing signature"}`.
private struct Failure: Decodable, Sendable, Equatable {
    let status: String
    let code: Int
    let message: String
}

/// The same shape, marked as an error so that a 200 carrying it throws.
private struct EnvelopeFailure: ErrorResponseModel, Equatable {
    let status: String
    let message: String
}

private let failedBody = Data.json(#"{"status":"failed","code":97,"message":"Missing signature"}"#)

@Suite("Error models")
struct ErrorModelTests {
    private func serializer() throws -> ModelResponseSerializer<URLModelMatcher> {
        var routes = URLModelMatcher(pathPrefix: "/api/v1")
        try routes.add("/models/*", ModelA.self, status: .ok)
        try routes.add("/models/*", ModelB.self, status: .created)
        return ModelResponseSerializer(matcher: routes, errorMatcher: StaticModelMatcher(Failure.self))
    }

    @Test("a 401's body decodes as the error model for every method", arguments: [HTTPRequest.Method.get, .post, .put, .patch, .delete])
    func unauthorized(_ method: HTTPRequest.Method) throws {
        let context = response("https://x/api/v1/models/1", method: method, status: .unauthorized)
        let error = try #require(throws: SculptError.self) { try serializer().serialize(failedBody, for: context) }
        #expect(error.reason.name == "errorResponse")
        #expect(error.errorModel(as: Failure.self) == Failure(status: "failed", code: 97, message: "Missing signature"))
        #expect(error.body == failedBody)
        #expect(error.response.method == method)
    }

    @Test("201 and 200 pick their own models by status")
    func byStatus() throws {
        let ok = try serializer().serialize(.json("{}"), for: response("https://x/api/v1/models/1", status: .ok))
        let created = try serializer().serialize(.json("{}"), for: response("https://x/api/v1/models/1", method: .post, status: .created))
        #expect(ok is ModelA)
        #expect(created is ModelB)
    }

    @Test("per-path and per-status error models through a URL error matcher")
    func perPathErrors() throws {
        var errors = URLModelMatcher()
        try errors.add("/auth/**", Failure.self, status: .unauthorized)
        try errors.add("/**", APIError.self)
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(ModelA.self), errorMatcher: errors)
        let auth = try #require(throws: SculptError.self) {
            try serializer.serialize(failedBody, for: response("https://x/auth/token", status: .unauthorized))
        }
        let other = try #require(throws: SculptError.self) {
            try serializer.serialize(.json(#"{"message":"Not Found"}"#), for: response("https://x/repos", status: .notFound))
        }
        #expect(auth.errorModel(as: Failure.self) == Failure(status: "failed", code: 97, message: "Missing signature"))
        #expect(other.errorModel(as: APIError.self) == APIError(message: "Not Found"))
    }

    @Test("HEAD with an empty body")
    func head() throws {
        let model = try serializer().serialize(Data(), for: response("https://x/api/v1/models/1", method: .head, contentType: nil))
        #expect(model is NoContent)
    }

    @Test("a 200 whose body says it failed is routed to an error model and thrown")
    func failureInside200() throws {
        var failed = TypeFieldModelMatcher(field: "status", ["error": EnvelopeFailure.self])
        failed.unknownValuesMatchNothing = true
        let serializer = ModelResponseSerializer(matcher: FirstMatchModelMatcher([failed, StaticModelMatcher(User.self)]))
        let failure = Data.json(#"{"status":"error","message":"quota exceeded"}"#)
        let untyped = #expect(throws: SculptError.self) { try serializer.serialize(failure, for: response()) }
        let typed = #expect(throws: SculptError.self) { try serializer.serialize(failure, for: response(), as: User.self) }
        for error in [untyped, typed] {
            #expect(error?.reason.name == "errorResponse")
            #expect(error?.errorModel(as: EnvelopeFailure.self) == EnvelopeFailure(status: "error", message: "quota exceeded"))
            #expect(error?.response.status == .ok)
        }
        let user = try serializer.serialize(.json(#"{"status":"ok","login":"a","id":1}"#), for: response(), as: User.self)
        #expect(user.login == "a")
    }
}
