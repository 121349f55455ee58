import Foundation
import HTTPTypes
import Sculpt
import SculptLoading
import SculptMatchers
import Testing

private let userJSON = Data.json(#"{"login":"octocat","id":1}"#)

/// A value handed to another thread that the test alone uses there.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

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
        let error = try #require(throws: SculptError.self) { try githubSerializer().serialize(userJSON, for: response(), as: [User].self) }
        #expect(error.reason.name == "typeMismatch")
        if case .typeMismatch(let expected, let matched) = error.reason {
            #expect(expected is [User].Type)
            #expect(matched == ModelType(User.self))
        }
        #expect(error.description == """
            Type mismatch for GET https://api.example.com/users/octocat -> 200 OK.
            Expected Array<User>; the matcher resolved User.
            The route that won: /users/* -> User.
            No route gives Array<User>.
            Body (26 bytes): {"login":"octocat","id":1}
            """)
    }

    @Test("no match lists method, URL, status and the nearest patterns")
    func noMatch() throws {
        let error = try #require(throws: SculptError.self) {
            try githubSerializer().serialize(userJSON, for: response("https://x/user/octocat/labels"))
        }
        #expect(error.reason.name == "noModelMatched")
        if case .noModelMatched(let candidates) = error.reason {
            #expect(candidates == ["/users/*/labels"])  // shares 'labels' with the path; /users/* and /envelope/* share nothing
        }
        #expect(error.body == userJSON)
        #expect(error.description == """
            No model type matched GET https://x/user/octocat/labels -> 200 OK.
            Nearest registered: /users/*/labels.
            Body (26 bytes): {"login":"octocat","id":1}
            """)
    }

    @Test("a decoding failure names the coding path, what was expected, and the body")
    func decodingFailed() throws {
        let body = Data.json(#"[{"name":"a","color":"1"},{"name":"b","color":2}]"#)
        let error = try #require(throws: SculptError.self) { try githubSerializer().serialize(body, for: response("https://x/users/me/labels")) }
        #expect(error.reason.name == "decodingFailed")
        if case .decodingFailed(let modelType, let underlying) = error.reason {
            #expect(modelType == ModelType([Label].self))
            #expect(underlying is DecodingError)
        }
        #expect(error.body == body)
        let lines = error.description.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.first == "Could not decode Array<Label> from GET https://x/users/me/labels -> 200 OK.")
        // The second line ends with the decoder's own words, which are Foundation's to change.
        #expect(lines.dropFirst().first?.hasPrefix("At [1].color: expected String.") == true)
        #expect(lines.last == #"Body (49 bytes): [{"name":"a","color":"1"},{"name":"b","color":2}]"#)
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
        let error = try #require(throws: SculptError.self) { try serializer.serialize(.json(json), for: response()) }
        #expect(error.reason.name == "decodingFailed")
        #expect(error.description.split(separator: "\n").dropFirst().first?.hasPrefix("At \(path): ") == true, "\(error)")
    }

    @Test("the body excerpt is bounded")
    func boundedExcerpt() throws {
        let long = Data.json("[" + String(repeating: "1,", count: 5_000) + "\"x\"]")
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Int].self))
        let error = try #require(throws: SculptError.self) { try serializer.serialize(long, for: response()) }
        let excerpt = "[" + String(repeating: "1,", count: 255) + "1"  // the first 512 bytes
        #expect(error.description.split(separator: "\n").last == "Body (\(long.count) bytes): \(excerpt)… (\(long.count - 512) more bytes)")
        #expect(error.description.utf8.count < 2_000)
    }

    @Test("an unacceptable status without an error matcher keeps the body")
    func unacceptableStatus() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))
        let body = Data.json(#"{"message":"Not Found"}"#)
        let error = try #require(throws: SculptError.self) { try serializer.serialize(body, for: response(status: .notFound)) }
        #expect(error.reason.name == "unacceptableStatusCode")
        if case .unacceptableStatusCode(let underlying) = error.reason { #expect(underlying == nil) }
        #expect(error.body == body)
        #expect(error.response.status == .notFound)
        #expect(error.description == """
            Unacceptable status code for GET https://api.example.com/users/octocat -> 404 Not Found.
            Body (23 bytes): {"message":"Not Found"}
            """)
    }

    @Test("an error status decodes the error model")
    func errorResponse() throws {
        let body = Data.json(#"{"message":"Branch not protected","documentation_url":"https://docs"}"#)
        let error = try #require(throws: SculptError.self) { try githubSerializer().serialize(body, for: response(status: .notFound)) }
        #expect(error.reason.name == "errorResponse")
        #expect(error.errorModel(as: APIError.self) == APIError(message: "Branch not protected"))
        #expect(error.body == body)
        #expect(error.description == """
            Error response for GET https://api.example.com/users/octocat -> 404 Not Found: APIError(message: "Branch not protected")
            Body (69 bytes): {"message":"Branch not protected","documentation_url":"https://docs"}
            """)
    }

    @Test("an error body that does not decode becomes unacceptableStatusCode with the failure attached")
    func errorBodyDoesNotDecode() throws {
        let body = Data.json(#"{"error":"boom"}"#)
        let error = try #require(throws: SculptError.self) { try githubSerializer().serialize(body, for: response(status: .internalServerError)) }
        #expect(error.reason.name == "unacceptableStatusCode")
        guard case .unacceptableStatusCode(let underlying?) = error.reason else { return }
        let failure = try #require(underlying as? SculptError)
        #expect(failure.reason.name == "decodingFailed")
        if case .decodingFailed(let modelType, _) = failure.reason { #expect(modelType == ModelType(APIError.self)) }
        #expect(error.body == body)
        #expect(error.description == """
            Unacceptable status code for GET https://api.example.com/users/octocat -> 500 Internal Server Error.
            The error body did not decode as the error model: At message: missing key "message".
            Body (16 bytes): {"error":"boom"}
            """)
    }

    @Test("an HTML error page is not fed to the error model")
    func htmlErrorPage() throws {
        let body = Data.json("<html>Bad gateway</html>")
        let error = try #require(throws: SculptError.self) {
            try githubSerializer().serialize(body, for: response(status: .badGateway, contentType: "text/html"))
        }
        #expect(error.reason.name == "unacceptableStatusCode")
        if case .unacceptableStatusCode(let underlying) = error.reason { #expect(underlying == nil) }
        #expect(error.body == body)
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
            let error = #expect(throws: SculptError.self, "\(code)") { try serializer.serialize(userJSON, for: response(status: .init(code: code))) }
            #expect(error?.reason.name == "unacceptableStatusCode", "\(code)")
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
        let error = try #require(throws: SculptError.self) { try serializer.serialize(.json(body), for: context, as: User.self) }
        #expect(error.reason.name == "emptyBody")
        if case .emptyBody(let expected) = error.reason { #expect(expected == "User") }
    }

    @Test("an optional model type yields nil for a bodiless response")
    func optionalModel() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User?.self))
        let model = try serializer.serialize(Data(), for: response(status: .noContent))
        let user = try #require(model as? User?)
        #expect(user == nil)
    }

    @Test("an empty body is an error unless the response may be bodiless", arguments: [
        ("", "Body: empty."), ("  ", "Body (2 bytes):   "), ("\r\n", #"Body (2 bytes): \r\n"#),
    ])
    func emptyBody(_ body: String, _ excerpt: String) throws {
        let error = try #require(throws: SculptError.self) { try githubSerializer().serialize(.json(body), for: response()) }
        #expect(error.reason.name == "emptyBody")
        if case .emptyBody(let expected) = error.reason { #expect(expected == "User") }
        #expect(error.body == .json(body))
        #expect(error.description == """
            Empty body for GET https://api.example.com/users/octocat -> 200 OK.
            Expected a body to decode as User; only 204, 205 and HEAD responses may be empty.
            \(excerpt)
            """)
    }

    /// `JSONDecoder` skips a UTF-8 byte order mark, so a body of one and white space holds nothing
    /// (as JSONTestSuite's `n_structure_UTF8_BOM_no_data.json` is): an empty body, not "no model
    /// matched".
    @Test("a body of only a byte order mark and white space is empty, and bodiless for a 204", arguments: ["\u{FEFF}", "\u{FEFF} \n"])
    func byteOrderMarkOnly(_ body: String) throws {
        var types = TypeFieldModelMatcher()
        try types.add("user", User.self)
        for serializer in [try githubSerializer().serialize(_:for:), ModelResponseSerializer(matcher: types).serialize(_:for:)] {
            let error = try #require(throws: SculptError.self) { try serializer(.json(body), response()) }
            #expect(error.reason.name == "emptyBody")
            #expect(try serializer(.json(body), response(method: .delete, status: .noContent)) is NoContent)
        }
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
        #expect(error?.reason.name == "emptyBody")
        if case .emptyBody(let named)? = error?.reason { #expect(named == expected) }
        #expect(error?.body == body)
    }

    @Test("Sculpt never invents a model from {}")
    func emptyObject() throws {
        let error = try #require(throws: SculptError.self) { try githubSerializer().serialize(.json("{}"), for: response()) }
        #expect(error.reason.name == "decodingFailed")
        #expect(error.description.contains(#"At login: missing key "login"."#))
    }

    @Test("content types", arguments: [
        ("application/json", true), ("Application/JSON; charset=UTF-8", true), ("text/json", true),
        ("text/javascript", true), ("application/vnd.github+json", true), ("application/problem+json; v=1", true),
        ("text/html", false), ("text/html; charset=utf-8", false), ("text/plain", false), ("application/xml", false),
        ("application/jsonx", false), ("application/+json", false), ("json", false), ("", true), ("text", false),
    ])
    func contentTypes(_ contentType: String, _ accepted: Bool) throws {
        let serializer = try githubSerializer()
        if accepted {
            #expect(try serializer.serialize(userJSON, for: response(contentType: contentType), as: User.self) == User(login: "octocat", id: 1))
        } else {
            let error = try #require(throws: SculptError.self) { try serializer.serialize(userJSON, for: response(contentType: contentType)) }
            #expect(error.reason.name == "unacceptableContentType")
            if case .unacceptableContentType(let acceptable) = error.reason {
                #expect(acceptable == ["*/*+json", "application/json", "text/javascript", "text/json"])
            }
            #expect(error.body == userJSON)
        }
    }

    @Test("an HTML page with status 200 fails on its content type, not deep inside a model")
    func htmlWithOK() throws {
        let html = Data.json("<!DOCTYPE html><html><body>Login</body></html>")
        let error = try #require(throws: SculptError.self) {
            try githubSerializer().serialize(html, for: response(contentType: "text/html; charset=utf-8"))
        }
        #expect(error.description == """
            Unacceptable content type for GET https://api.example.com/users/octocat -> 200 OK.
            Expected one of */*+json, application/json, text/javascript, text/json; found text/html; charset=utf-8.
            Body (46 bytes): <!DOCTYPE html><html><body>Login</body></html>
            """)
    }

    @Test("a missing content type is accepted, and nil accepts any")
    func anyContentType() throws {
        var serializer = try githubSerializer()
        #expect(try serializer.serialize(userJSON, for: response(contentType: nil), as: User.self).id == 1)
        serializer.acceptableContentTypes = nil
        #expect(try serializer.serialize(userJSON, for: response(contentType: "text/html"), as: User.self).id == 1)
        serializer.acceptableContentTypes = ["text/*"]
        #expect(try serializer.serialize(userJSON, for: response(contentType: "text/plain"), as: User.self).id == 1)
        let error = #expect(throws: SculptError.self) { try serializer.serialize(userJSON, for: response()) }
        #expect(error?.reason.name == "unacceptableContentType")
        // `text` is no media type, so in no range of text/*.
        let bare = #expect(throws: SculptError.self) { try serializer.serialize(userJSON, for: response(contentType: "text")) }
        #expect(bare?.reason.name == "unacceptableContentType")
        serializer.acceptableContentTypes = ["text"]
        let noRange = #expect(throws: SculptError.self) { try serializer.serialize(userJSON, for: response(contentType: "text/plain")) }
        #expect(noRange?.reason.name == "unacceptableContentType")
    }

    @Test("a matcher's own error is wrapped with the context")
    func matcherFailed() throws {
        struct Unreadable: Error {}
        let serializer = ModelResponseSerializer(matcher: ClosureModelMatcher { _, _ in throw Unreadable() })
        let error = try #require(throws: SculptError.self) { try serializer.serialize(userJSON, for: response()) }
        #expect(error.reason.name == "matcherFailed")
        if case .matcherFailed(let underlying) = error.reason { #expect(underlying is Unreadable) }
        #expect(error.body == userJSON)
    }

    @Test("property lists decode through the same pipeline")
    func propertyList() throws {
        let plist = try PropertyListSerialization.data(fromPropertyList: ["login": "octocat", "id": 1], format: .xml, options: 0)
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), decoder: PropertyListDecoder())
        serializer.acceptableContentTypes = ["application/x-plist"]
        let user = try serializer.serialize(plist, for: response(contentType: "application/x-plist"), as: User.self)
        #expect(user == User(login: "octocat", id: 1))
    }

    @Test("every reason carries the response and body, and names its case", arguments: [
        (SculptError.Reason.noModelMatched(candidates: []), "noModelMatched"),
        (.unacceptableStatusCode(underlying: nil), "unacceptableStatusCode"),
        (.unacceptableContentType(acceptable: []), "unacceptableContentType"),
        (.emptyBody(expected: nil), "emptyBody"),
        (.keyPathNotFound(.init(keyPath: "a", failedAt: "a", availableKeys: [])), "keyPathNotFound"),
        (.invalidKeyPath(.init(keyPath: "", offset: 0, reason: "r")), "invalidKeyPath"),
        (.decodingFailed(ModelType(User.self), underlying: CancellationError()), "decodingFailed"),
        (.typeMismatch(expected: User.self, matched: ModelType(Label.self)), "typeMismatch"),
        (.errorResponse(model: APIError(message: "m")), "errorResponse"),
        (.matcherFailed(underlying: CancellationError()), "matcherFailed"),
        (.unknownDiscriminator(field: "type", found: nil, registered: ["a"]), "unknownDiscriminator"),
        (.invalidJSON(reason: "r", offset: 0), "invalidJSON"),
        (.bodyTooLarge(maximum: 1), "bodyTooLarge"),
        (.nestingTooDeep(maximum: 1, offset: 1), "nestingTooDeep"),
    ])
    func everyReason(_ reason: SculptError.Reason, _ name: String) throws {
        let error = SculptError(reason, response: response(), body: userJSON)
        #expect(error.reason.name == name)
        #expect(error.body == userJSON)
        #expect(error.response.url == response().url)
        #expect(error.description.contains("GET https://api.example.com/users/octocat -> 200 OK"))
    }

    @Test("a matcher's error about another response is wrapped; a reason only a matcher gives is kept, about this response", arguments: [
        (SculptError.Reason.unacceptableStatusCode(underlying: nil), "matcherFailed"),
        (.errorResponse(model: APIError(message: "forged")), "matcherFailed"),
        (.bodyTooLarge(maximum: 1), "matcherFailed"),
        (.noModelMatched(candidates: ["/a"]), "noModelMatched"),
        (.unknownDiscriminator(field: "type", found: "\"x\"", registered: []), "unknownDiscriminator"),
        (.invalidJSON(reason: "r", offset: 0), "invalidJSON"),
    ])
    func matcherErrors(_ thrown: SculptError.Reason, _ reported: String) throws {
        let elsewhere = ResponseContext(url: URL(string: "https://elsewhere.example.com/x"), status: .notFound)
        let matcher = ClosureModelMatcher { _, _ in throw SculptError(thrown, response: elsewhere, body: Data("other".utf8)) }
        let error = try #require(throws: SculptError.self) { try ModelResponseSerializer(matcher: matcher).serialize(userJSON, for: response()) }
        #expect(error.reason.name == reported)
        #expect(error.response.status == .ok)
        #expect(error.body == userJSON)
    }

    @Test("a serializer without decoders reads JSON, and accepts what JSON is sent as")
    func noDecoders() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), decoders: [])
        #expect(serializer.acceptableContentTypes == ContentDecoder.jsonContentTypes)
        #expect(try serializer.serialize(userJSON, for: response(), as: User.self) == User(login: "octocat", id: 1))
    }

    @Test("a decoder that reads on another thread fails at a key path with an error that says so")
    func decoderOnAnotherThread() throws {
        struct ElsewhereDecoder: ModelDecoder {
            func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
                let result = Locked<Result<T, any Error>>(.failure(CancellationError()))
                let done = DispatchSemaphore(value: 0)
                let work = UncheckedSendable { result.withLock { $0 = Result { try JSONDecoder().decode(T.self, from: data) } } }
                Thread {
                    work.value()
                    done.signal()
                }.start()
                done.wait()
                return try result.withLock { $0 }.get()
            }
        }
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self, at: "user"), decoder: ElsewhereDecoder())
        let error = try #require(throws: SculptError.self) { try serializer.serialize(.json(#"{"user":{"login":"octocat","id":1}}"#), for: response(), as: User.self) }
        #expect(error.description.contains("on another thread than the serializer's"), "\(error)")
    }
}
