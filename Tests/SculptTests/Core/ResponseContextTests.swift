import Foundation
import HTTPTypes
import Sculpt
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
}
