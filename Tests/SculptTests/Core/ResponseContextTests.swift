import Foundation
import HTTPTypes
import Sculpt
import SculptShared
import SculptMatchers
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("ResponseContext")
struct ResponseContextTests {
    @Test("defaults")
    func defaults() {
        let context = ResponseContext(url: URL(string: "https://x/a"))
        #expect(context.method == nil)
        #expect(context.status == .ok)
        #expect(context.headerFields.isEmpty)
    }

    @Test("reads an HTTPURLResponse and its request")
    func fromHTTPURLResponse() throws {
        let final = try #require(URL(string: "https://api.example.com/repositories/1"))
        let response = try #require(HTTPURLResponse(
            url: final, statusCode: 201, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json", "ETag": "\"abc\""]))
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/repos/a/b")))
        request.httpMethod = "PATCH"
        let context = ResponseContext(response, request: request)
        #expect(context.url == final)
        #expect(context.method == .patch)
        #expect(context.status == .created)
        #expect(context.headerFields[.contentType] == "application/json")
        #expect(context.headerFields[.eTag] == "\"abc\"")
    }

    @Test("a request without a method is GET; no request, no method")
    func methods() throws {
        let url = try #require(URL(string: "https://x/"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil))
        #expect(ResponseContext(response, request: URLRequest(url: url)).method == .get)
        #expect(ResponseContext(response).method == nil)
    }

    @Test("a non-HTTP response counts as 200 with its MIME type")
    func nonHTTP() throws {
        let url = try #require(URL(string: "file:///tmp/user.json"))
        let response = URLResponse(url: url, mimeType: "application/json", expectedContentLength: 10, textEncodingName: nil)
        let context = ResponseContext(response)
        #expect(context.status == .ok)
        #expect(context.headerFields[.contentType] == "application/json")
    }

    @Test("a status code HTTPTypes cannot hold becomes 0")
    func outOfRangeStatus() throws {
        let url = try #require(URL(string: "https://x/"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: 1_234, httpVersion: nil, headerFields: nil))
        #expect(ResponseContext(response).status.code == 0)
    }

    @Test("describes itself on one line")
    func description() {
        #expect(ResponseContext(url: URL(string: "https://x/a"), method: .get, status: .notFound).description == "GET https://x/a -> 404 Not Found")
        #expect(ResponseContext(url: nil).description == "(method unknown) (no URL) -> 200 OK")
    }

    // MARK: From URLSession's responses

    @Test("a status from a Foundation response keeps its standard reason phrase", arguments: [
        (404, "Not Found"), (200, "OK"), (422, "Unprocessable Content"), (402, "Payment Required"), (299, ""), (599, ""),
        (207, "Multi-Status"), (423, "Locked"), (507, "Insufficient Storage"),  // IANA's registry too
    ])
    func reasonPhrase(code: Int, phrase: String) throws {
        let url = try #require(URL(string: "https://api.example.com/users/x"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: code, httpVersion: "HTTP/1.1", headerFields: nil))
        let context = ResponseContext(response, request: URLRequest(url: url))
        #expect(context.status.reasonPhrase == phrase)
        #expect(context.description == "GET https://api.example.com/users/x -> \(code)" + (phrase.isEmpty ? "" : " \(phrase)"))
    }

    @Test("standard(_:) names the codes RFC 9110 names, and holds only 0...999", arguments: [
        (100, 100, "Continue"), (308, 308, "Permanent Redirect"), (511, 511, "Network Authentication Required"),
        (0, 0, ""), (999, 999, ""), (-1, 0, ""), (1_000, 0, ""), (Int.max, 0, ""),
    ])
    func standardStatus(code: Int, held: Int, phrase: String) {
        let status = HTTPResponse.Status.standard(code)
        #expect(status.code == held)
        #expect(status.reasonPhrase == phrase)
    }

    /// A Content-Type as a server spells it, and whether a JSON serializer accepts it.
    static let contentTypes: [(String?, Bool)] = [
        ("application/json", true), ("application/json; charset=utf-8", true), ("Application/JSON;Charset=UTF-8", true),
        ("application/json ; charset=utf-8", true), ("application/vnd.github+json", true), ("application/problem+json", true),
        ("text/json", true), ("text/html; charset=utf-8", false), ("TEXT/HTML", false), ("application/xml", false),
        ("application/jsonp", false), ("", true), ("  ", true), (nil, true), ("application/json, text/html", false),
        (#"application/json; profile="a;b""#, true), ("multipart/form-data; boundary=json", false),
        // FoundationNetworking's parsed type drops quotes the
        // field's comparison kept (now both drop them); control characters
        // HTTPFields makes spaces; a Kelvin sign lowercases to an ASCII k.
        (#""application/json""#, true), (#""application/json"; charset=utf-8"#, true), (#""application/json"#, true),
        ("application/json\u{1}", true), ("application/json\u{7F}", true), ("APPLICATION/JSON", true), ("application/\u{212A}son", false),
        // a value that is not type/subtype was read as one.
        ("application /json", false), ("application/ json", false), ("application", false), ("/json", false), ("application/", false),
    ]

    @Test("the content type a serializer checks is the same from a URLSession response as from its fields", arguments: contentTypes)
    func contentTypeFromFoundation(contentType: String?, accepted: Bool) throws {
        let url = try #require(URL(string: "https://api.example.com/users/x"))
        let fields = ["X-Request-Id": "1", "Server": "test"].merging(contentType.map { ["Content-Type": $0] } ?? [:]) { $1 }
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields))
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))
        let body = Data(#"{"login":"x","id":1}"#.utf8)
        let fromFoundation = Result { try serializer.serialize(body, for: response, request: URLRequest(url: url), as: User.self) }
        var byHand = HTTPFields()
        if let contentType { byHand[.contentType] = contentType }
        let fromFields = Result { try serializer.serialize(body, for: ResponseContext(url: url, method: .get, headerFields: byHand), as: User.self) }
        #expect(((try? fromFoundation.get()) != nil) == accepted)
        #expect(((try? fromFields.get()) != nil) == accepted)
        if case .failure(let error) = fromFoundation, let contentType, !contentType.isEmpty {
            #expect("\(error)".contains(contentType), "the failure names what arrived: \(error)")
        }
    }

    @Test("a URLSession response's fields are all there, the same from 100 tasks at once, and a change stays in its copy")
    func fieldsReadOnce() async throws {
        let url = try #require(URL(string: "https://api.example.com/users/x"))
        let sent = (0..<24).reduce(into: ["Content-Type": "application/json"]) { $0["X-Field-\($1)"] = "value \($1)" }
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: sent))
        let context = ResponseContext(response)
        let readings = await withTaskGroup(of: [String: String].self) { group in
            for _ in 0..<100 {
                group.addTask { Dictionary(context.headerFields.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { $1 }) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let expected = Dictionary(sent.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        #expect(readings.count == 100)
        #expect(readings.allSatisfy { $0 == expected })
        var changed = context
        changed.headerFields[.contentType] = "text/html"
        #expect(changed.headerFields[.contentType] == "text/html")
        #expect(context.headerFields[.contentType] == "application/json")
    }

    /// A part set on a context made from a Foundation response, and the parts it still reads.
    enum PartSet: String, CaseIterable, Sendable {
        case url, method, headerFields, materialized, urlThenMaterialized
    }

    @Test("setting one part of a context made from a URLSession response keeps the others as the response has them", arguments: PartSet.allCases)
    func settingOnePart(_ part: PartSet) throws {
        let final = try #require(URL(string: "https://api.example.com/repositories/1"))
        let response = try #require(HTTPURLResponse(
            url: final, statusCode: 404, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json", "ETag": "\"abc\""]))
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/repos/a/b")))
        request.httpMethod = "DELETE"
        var context = ResponseContext(response, request: request)
        let otherURL = try #require(URL(string: "https://elsewhere.example/x"))
        switch part {
        case .url: context.url = otherURL
        case .method: context.method = .post
        case .headerFields: context.headerFields = [.contentType: "text/html"]
        case .materialized: context = context.materialized
        case .urlThenMaterialized:
            context.url = otherURL
            context = context.materialized
        }
        let urlSet = part == .url || part == .urlThenMaterialized
        #expect(context.url == (urlSet ? otherURL : final))
        #expect(context.method == (part == .method ? .post : .delete))
        #expect(context.headerFields[.contentType] == (part == .headerFields ? "text/html" : "application/json"))
        #expect(context.headerFields[.eTag] == (part == .headerFields ? nil : "\"abc\""))
        #expect(context.status == .notFound)
        #expect("\(context)" == "\(part == .method ? "POST" : "DELETE") \(urlSet ? otherURL : final) -> 404 Not Found")
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))
        context.status = .ok
        let accepted = Result { try serializer.serialize(Data(#"{"login":"x","id":1}"#.utf8), for: context, as: User.self) }
        #expect((try? accepted.get()) != nil || part == .headerFields, "the content type the serializer checks is the context's")
    }

    @Test("serializing a URLResponse throws SculptError itself: a catch needs no cast")
    func typedFoundationOverload() throws {
        let url = try #require(URL(string: "https://api.example.com/users/x"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: 404, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"]))
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), errorMatcher: StaticModelMatcher(APIError.self))
        do {
            _ = try serializer.serialize(Data(#"{"message":"gone"}"#.utf8), for: response, request: URLRequest(url: url))
            Issue.record("a 404 serialized")
        } catch {
            #expect(error.errorModel(as: APIError.self)?.message == "gone")
        }
    }
}
