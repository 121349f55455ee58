import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import Testing

private let userJSON = Data.json(#"{"login":"octocat","id":1}"#)

private func githubSerializer() throws -> ModelResponseSerializer<URLModelMatcher> {
    var routes = URLModelMatcher()
    try routes.add("/users/*", User.self)
    try routes.add("/users/*/labels", [Label].self)
    try routes.add("/envelope/*", [Label].self, at: "data.items")
    return ModelResponseSerializer(matcher: routes, errorMatcher: StaticModelMatcher(APIError.self))
}

@Suite("ModelResponseSerializer")
struct ModelResponseSerializerTests {
    @Test("decodes the type the matcher picks")
    func decodes() throws {
        let serializer = try githubSerializer()
        let model = try serializer.serialize(userJSON, for: response())
        #expect(model as? User == User(login: "octocat", id: 1))
        #expect(try serializer.serialize(userJSON, for: response(), as: User.self) == User(login: "octocat", id: 1))
    }

    @Test("decodes at the model type's key path")
    func keyPath() throws {
        let body = Data.json(#"{"status":"ok","data":{"items":[{"name":"bug","color":"f00"}]}}"#)
        let labels = try githubSerializer().serialize(body, for: response("https://x/envelope/1"), as: [Label].self)
        #expect(labels == [Label(name: "bug", color: "f00")])
    }

    @Test("the typed API checks the matcher agrees")
    func typeMismatch() throws {
        let error = thrownError { try githubSerializer().serialize(userJSON, for: response(), as: [User].self) }
        guard case .typeMismatch(let expected, let matched, _) = error as? SculptError else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(expected is [User].Type)
        #expect(matched == ModelType(User.self))
        #expect("\(error!)".contains("Expected Array<User>; the matcher resolved User."))
    }

    @Test("no match lists method, URL, status and the nearest patterns")
    func noMatch() throws {
        let error = thrownError { try githubSerializer().serialize(userJSON, for: response("https://x/user/octocat/labels")) }
        guard case .noModelMatched(let candidates, let context) = error as? SculptError else {
            Issue.record("expected noModelMatched, got \(String(describing: error))")
            return
        }
        #expect(candidates == ["/users/*/labels"])  // shares 'labels' with the path; /users/* and /envelope/* share nothing
        #expect(context.body == userJSON)
        let text = "\(error!)"
        #expect(text.contains("No model type matched GET https://x/user/octocat/labels -> 200 OK."))
        #expect(text.contains("Nearest registered: /users/*/labels."))
        #expect(text.contains(#"Body (26 bytes): {"login":"octocat","id":1}"#))
    }

    @Test("a decoding failure names the coding path, what was expected, and the body")
    func decodingFailed() throws {
        let body = Data.json(#"[{"name":"a","color":"1"},{"name":"b","color":2}]"#)
        let error = thrownError { try githubSerializer().serialize(body, for: response("https://x/users/me/labels")) }
        guard case .decodingFailed(let modelType, let underlying, let context) = error as? SculptError else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(modelType == ModelType([Label].self))
        #expect(underlying is DecodingError)
        #expect(context.body == body)
        let text = "\(error!)"
        #expect(text.contains("Could not decode Array<Label> from GET https://x/users/me/labels -> 200 OK."))
        #expect(text.contains("At [1].color: expected String."))
    }

    @Test("coding paths read as key paths", arguments: [
        (#"{"items":[{"user":{"login":"a"}},{"user":{"login":"b"}},{"user":{"login":"c"}},{"user":{"login":7}}]}"#, "items[3].user.login"),
        (#"{"items":[{"user":{}}]}"#, "items[0].user.login"),
        (#"{"items":[{"user":null}]}"#, "items[0].user"),
        (#"[]"#, "(top level)"),
    ])
    func codingPaths(_ json: String, _ path: String) throws {
        struct Owner: Decodable, Sendable { let login: String }
        struct Item: Decodable, Sendable { let user: Owner }
        struct Page: Decodable, Sendable { let items: [Item] }
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Page.self))
        let error = thrownError { try serializer.serialize(.json(json), for: response()) }
        #expect("\(String(describing: error))".contains("At \(path):"), "\(String(describing: error))")
    }

    @Test("the body excerpt is bounded")
    func boundedExcerpt() throws {
        let long = Data.json("[" + String(repeating: "1,", count: 5_000) + "\"x\"]")
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Int].self))
        let text = "\(String(describing: thrownError { try serializer.serialize(long, for: response()) }))"
        #expect(text.contains("Body (\(long.count) bytes): [1,1,"))
        #expect(text.contains("… (\(long.count - 512) more bytes)"))
        #expect(text.count < 2_000)
    }

    @Test("an unacceptable status without an error matcher keeps the body")
    func unacceptableStatus() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))
        let body = Data.json(#"{"message":"Not Found"}"#)
        let error = thrownError { try serializer.serialize(body, for: response(status: .notFound)) }
        guard case .unacceptableStatusCode(let underlying, let context) = error as? SculptError else {
            Issue.record("expected unacceptableStatusCode, got \(String(describing: error))")
            return
        }
        #expect(underlying == nil)
        #expect(context.body == body)
        #expect(context.response.status == .notFound)
    }

    @Test("an error status decodes the error model")
    func errorResponse() throws {
        let body = Data.json(#"{"message":"Branch not protected","documentation_url":"https://docs"}"#)
        let error = thrownError { try githubSerializer().serialize(body, for: response(status: .notFound)) }
        guard case .errorResponse(let model, let context) = error as? SculptError else {
            Issue.record("expected errorResponse, got \(String(describing: error))")
            return
        }
        #expect(model as? APIError == APIError(message: "Branch not protected"))
        #expect(context.body == body)
        #expect("\(error!)".contains("Error response for GET https://api.example.com/users/octocat -> 404 Not Found"))
    }

    @Test("an error body that does not decode becomes unacceptableStatusCode with the failure attached")
    func errorBodyDoesNotDecode() throws {
        let body = Data.json(#"{"error":"boom"}"#)
        let error = thrownError { try githubSerializer().serialize(body, for: response(status: .internalServerError)) }
        guard case .unacceptableStatusCode(let underlying, let context) = error as? SculptError else {
            Issue.record("expected unacceptableStatusCode, got \(String(describing: error))")
            return
        }
        guard case .decodingFailed(let modelType, _, _) = underlying as? SculptError else {
            Issue.record("expected the decoding failure attached, got \(String(describing: underlying))")
            return
        }
        #expect(modelType == ModelType(APIError.self))
        #expect(context.body == body)
        #expect("\(error!)".contains(#"missing key "message""#))
    }

    @Test("an HTML error page is not fed to the error model")
    func htmlErrorPage() throws {
        let body = Data.json("<html>Bad gateway</html>")
        let error = thrownError { try githubSerializer().serialize(body, for: response(status: .badGateway, contentType: "text/html")) }
        guard case .unacceptableStatusCode(let underlying, let context) = error as? SculptError else {
            Issue.record("expected unacceptableStatusCode, got \(String(describing: error))")
            return
        }
        #expect(underlying == nil)
        #expect(context.body == body)
    }

    @Test("acceptable status codes are settable: a run, a set with gaps, the edges of each", arguments: [
        (Set([200, 404]), [200, 404], [201, 403, 405]),
        (Set(200...204), [200, 204], [199, 205]),
        (Set([200, 202]), [200, 202], [201]),
        (Set([304]), [304], [303, 305]),
        (Set(0...999), [100, 599, 999], []),
    ])
    func settableStatusCodes(_ codes: Set<Int>, accepted: [Int], refused: [Int]) throws {
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))
        serializer.acceptableStatusCodes = codes
        for code in accepted {
            #expect(try serializer.serialize(userJSON, for: response(status: .init(code: code)), as: User.self).login == "octocat")
        }
        for code in refused {
            #expect(thrownError { try serializer.serialize(userJSON, for: response(status: .init(code: code))) } != nil, "\(code)")
        }
    }

    @Test("bodiless responses", arguments: [
        (HTTPResponse.Status.noContent, HTTPRequest.Method.delete, ""),
        (.resetContent, .put, ""),
        (.ok, .head, ""),
        (.noContent, .delete, " \n\t"),
    ])
    func bodiless(_ status: HTTPResponse.Status, _ method: HTTPRequest.Method, _ body: String) throws {
        let serializer = try githubSerializer()
        let context = response(method: method, status: status, contentType: nil)
        #expect(try serializer.serialize(.json(body), for: context) is NoContent)
        #expect(try serializer.serialize(.json(body), for: context, as: NoContent.self) == NoContent())
        #expect(try serializer.serialize(.json(body), for: context, as: User?.self) == nil)
        let error = thrownError { try serializer.serialize(.json(body), for: context, as: User.self) }
        guard case .emptyBody(let expected, _) = error as? SculptError else {
            Issue.record("expected emptyBody, got \(String(describing: error))")
            return
        }
        #expect(expected == "User")
    }

    @Test("an optional model type yields nil for a bodiless response")
    func optionalModel() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User?.self))
        let model = try serializer.serialize(Data(), for: response(status: .noContent))
        let user = try #require(model as? User?)
        #expect(user == nil)
    }

    @Test("an empty body is an error unless the response may be bodiless", arguments: ["", "  ", "\r\n"])
    func emptyBody(_ body: String) throws {
        let error = thrownError { try githubSerializer().serialize(.json(body), for: response()) }
        guard case .emptyBody(let expected, let context) = error as? SculptError else {
            Issue.record("expected emptyBody, got \(String(describing: error))")
            return
        }
        #expect(expected == "User")
        #expect(context.body == .json(body))
        #expect("\(error!)".contains("only 204, 205 and HEAD responses may be empty"))
    }

    /// A step after the empty-body check that fails on a body of only white space.
    enum BlankBodyStep: String, CaseIterable, Sendable {
        case contentType, noRoute, typeMismatch, keyPath, typeField, envelope, headRequest
    }

    /// Found when a later step fails on it, a body of only white space is the empty body it is,
    /// whichever step noticed: the serializer does not read every body's bytes to check first.
    @Test("a body of only white space is an empty body, whichever later step fails on it", arguments: BlankBodyStep.allCases)
    func whiteSpaceBody(_ step: BlankBodyStep) throws {
        struct Meta: Decodable, Sendable { let page: Int }
        let body = Data(" \r\n\t ".utf8)
        let serializer = try githubSerializer()
        let error: SculptError?
        let expected: String?
        switch step {
        case .contentType:
            error = #expect(throws: SculptError.self) { try serializer.serialize(body, for: response(contentType: "text/html")) }
            expected = "User"
        case .noRoute:
            error = #expect(throws: SculptError.self) { try serializer.serialize(body, for: response("https://api.example.com/elsewhere")) }
            expected = nil
        case .typeMismatch:
            error = #expect(throws: SculptError.self) { try serializer.serialize(body, for: response(), as: [Label].self) }
            expected = "Array<Label>"
        case .keyPath:
            error = #expect(throws: SculptError.self) { try serializer.serialize(body, for: response("https://api.example.com/envelope/1")) }
            expected = "Array<Label> at data.items"
        case .typeField:
            var matcher = TypeFieldModelMatcher()
            try matcher.add("user", User.self)
            error = #expect(throws: SculptError.self) { try ModelResponseSerializer(matcher: matcher).serialize(body, for: response()) }
            expected = nil
        case .envelope:
            error = #expect(throws: SculptError.self) { try serializer.enveloped(in: Meta.self).serialize(body, for: response()) }
            expected = "User"
        case .headRequest:
            // A response to HEAD has no body (RFC 9110, 9.3.2): an empty one is bodiless; one of
            // white space is found, as for any request, when it does not decode.
            error = #expect(throws: SculptError.self) { try serializer.serialize(body, for: response(method: .head), as: User.self) }
            expected = "User"
        }
        guard case .emptyBody(let named, let context) = error else {
            Issue.record("expected emptyBody, got \(String(describing: error))")
            return
        }
        #expect(named == expected)
        #expect(context.body == body)
    }

    @Test("Sculpt never invents a model from {}")
    func emptyObject() throws {
        let error = thrownError { try githubSerializer().serialize(.json("{}"), for: response()) }
        guard case .decodingFailed = error as? SculptError else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
    }

    @Test("content types", arguments: [
        ("application/json", true), ("Application/JSON; charset=UTF-8", true), ("text/json", true),
        ("text/javascript", true), ("application/vnd.github+json", true), ("application/problem+json; v=1", true),
        ("text/html", false), ("text/html; charset=utf-8", false), ("text/plain", false), ("application/xml", false),
        ("application/jsonx", false), ("application/+json", false), ("json", false), ("", false),
    ])
    func contentTypes(_ contentType: String, _ accepted: Bool) throws {
        let error = thrownError { try githubSerializer().serialize(userJSON, for: response(contentType: contentType)) }
        if accepted {
            #expect(error == nil)
        } else {
            guard case .unacceptableContentType(let acceptable, let context) = error as? SculptError else {
                Issue.record("expected unacceptableContentType, got \(String(describing: error))")
                return
            }
            #expect(acceptable == ["*/*+json", "application/json", "text/javascript", "text/json"])
            #expect(context.body == userJSON)
        }
    }

    @Test("an HTML page with status 200 fails on its content type, not deep inside a model")
    func htmlWithOK() throws {
        let html = Data.json("<!DOCTYPE html><html><body>Login</body></html>")
        let error = thrownError { try githubSerializer().serialize(html, for: response(contentType: "text/html; charset=utf-8")) }
        #expect("\(String(describing: error))".contains("Expected one of */*+json, application/json, text/javascript, text/json; found text/html; charset=utf-8."))
    }

    @Test("a missing content type is accepted, and nil accepts any")
    func anyContentType() throws {
        var serializer = try githubSerializer()
        #expect(try serializer.serialize(userJSON, for: response(contentType: nil), as: User.self).id == 1)
        serializer.acceptableContentTypes = nil
        #expect(try serializer.serialize(userJSON, for: response(contentType: "text/html"), as: User.self).id == 1)
        serializer.acceptableContentTypes = ["text/*"]
        #expect(try serializer.serialize(userJSON, for: response(contentType: "text/plain"), as: User.self).id == 1)
        #expect(thrownError { try serializer.serialize(userJSON, for: response()) } != nil)
    }

    @Test("a matcher's own error is wrapped with the context")
    func matcherFailed() throws {
        struct Unreadable: Error {}
        let serializer = ModelResponseSerializer(matcher: ClosureModelMatcher { _, _ in throw Unreadable() })
        let error = thrownError { try serializer.serialize(userJSON, for: response()) }
        guard case .matcherFailed(let underlying, let context) = error as? SculptError else {
            Issue.record("expected matcherFailed, got \(String(describing: error))")
            return
        }
        #expect(underlying is Unreadable)
        #expect(context.body == userJSON)
    }

    @Test("property lists decode through the same pipeline")
    func propertyList() throws {
        let plist = try PropertyListSerialization.data(fromPropertyList: ["login": "octocat", "id": 1], format: .xml, options: 0)
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), decoder: PropertyListDecoder())
        serializer.acceptableContentTypes = ["application/x-plist"]
        let user = try serializer.serialize(plist, for: response(contentType: "application/x-plist"), as: User.self)
        #expect(user == User(login: "octocat", id: 1))
    }

    @Test("every error carries its context, and its code names its case")
    func everyErrorHasContext() throws {
        let context = SculptError.Context(response: response(), body: userJSON)
        let errors: [(SculptError, SculptError.Code)] = [
            (.noModelMatched(candidates: [], context), .noModelMatched),
            (.unacceptableStatusCode(underlying: nil, context), .unacceptableStatusCode),
            (.unacceptableContentType(acceptable: [], context), .unacceptableContentType),
            (.emptyBody(expected: nil, context), .emptyBody),
            (.keyPathNotFound(.init(keyPath: "a", failedAt: "a", availableKeys: []), context), .keyPathNotFound),
            (.invalidKeyPath(.init(keyPath: "", offset: 0, reason: "r"), context), .invalidKeyPath),
            (.decodingFailed(ModelType(User.self), underlying: CancellationError(), context), .decodingFailed),
            (.typeMismatch(expected: User.self, matched: ModelType(Label.self), context), .typeMismatch),
            (.errorResponse(model: APIError(message: "m"), context), .errorResponse),
            (.matcherFailed(underlying: CancellationError(), context), .matcherFailed),
            (.unknownDiscriminator(field: "type", found: nil, registered: ["a"], context), .unknownDiscriminator),
            (.invalidJSON(reason: "r", offset: 0, context), .invalidJSON),
            (.bodyTooLarge(maximum: 1, context), .bodyTooLarge),
            (.nestingTooDeep(maximum: 1, offset: 1, context), .nestingTooDeep),
        ]
        #expect(Set(errors.map(\.1)) == Set(SculptError.Code.allCases), "every case is here")
        for (error, code) in errors {
            #expect(error.code == code)
            #expect(error.body == userJSON)
            #expect(error.response.url == context.response.url)
            #expect(error.description.contains("GET https://api.example.com/users/octocat -> 200 OK"))
        }
    }
}
