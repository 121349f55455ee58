import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A context read lazily from a Foundation response: its fields, statuses at their extremes, and
/// secret parameters in its description.
@Suite("Contexts from Foundation responses")
struct FoundationContextTests {
    static let url = URL(string: "https://api.example.com/x")

    /// A response with fields that differ only in case (FoundationNetworking keeps `x-` names as
    /// sent) among enough others that Foundation's dictionary order changes from read to read.
    static func responseWithCaseVariants() throws -> HTTPURLResponse {
        var fields = ["X-Trace": "a", "x-trace": "b", "X-TRACE": "c", "Content-Type": "application/json"]
        for index in 0..<12 { fields["X-Field-\(index)"] = "\(index)" }
        let url = try #require(url)
        return try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields))
    }

    @Test("a Foundation response's fields read the same on every read, and as the materialized context's")
    func fieldsReadTheSame() throws {
        let context = ResponseContext(try Self.responseWithCaseVariants())
        let first = context.headerFields
        for _ in 0..<100 {
            #expect(context.headerFields == first)
        }
        #expect(context.materialized.headerFields == first)
        #expect(first.count == 16)
        // Sorted by name, names that differ only in case by their spelling.
        #expect(first.filter { $0.name == HTTPField.Name("x-trace") }.map(\.name.rawName) == ["X-TRACE", "X-Trace", "x-trace"])
        #expect(first.first?.name == .contentType)
    }

    @Test("a set of acceptable codes with extreme ends is taken, not trapped on", arguments: [
        Set([0, Int.max]), Set([Int.min, 200]), Set([Int.min, Int.max]), Set([-1, 200]),
    ])
    func extremeStatusSets(codes: Set<Int>) throws {
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))
        serializer.acceptableStatusCodes = codes
        let context = ResponseContext(url: Self.url, method: .get, status: .ok, headerFields: [.contentType: "application/json"])
        let accepted = codes.contains(200)
        #expect(serializer.result(Data(#"{"id":1,"login":"a"}"#.utf8), for: context, as: User.self).isSuccess == accepted)
    }

    @Test("a code Foundation gives outside 0...999 is status 0, which no serializer accepts", arguments: [1000, -1, Int.max, Int.min])
    func outOfRangeStatusIsNeverAccepted(code: Int) throws {
        let url = try #require(Self.url)
        let response = try #require(HTTPURLResponse(url: url, statusCode: code, httpVersion: nil, headerFields: ["Content-Type": "application/json"]))
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))
        serializer.acceptableStatusCodes = Set(0...999)
        let error = try #require(throws: SculptError.self) {
            try serializer.serialize(Data(#"{"id":1,"login":"a"}"#.utf8), for: response, as: User.self)
        }
        #expect(error.reason.name == "unacceptableStatusCode")
        if case .unacceptableStatusCode(let underlying) = error.reason { #expect(underlying == nil) }
        #expect(error.response.status.code == 0)
    }

    @Test("a secret parameter whose = is percent-encoded is redacted in a description", arguments: [
        "https://api.example.com/x?access_token%3DS3CRETz9",
        "https://api.example.com/x?a=1&ACCESS_TOKEN%3DS3CRETz9&b=2",
        "https://api.example.com/x?access_token%253DS3CRETz9",
        "https://api.example.com/x#access_token%3DS3CRETz9",
    ])
    func encodedEqualsSignIsRedacted(url: String) throws {
        let context = ResponseContext(url: URL(string: url), method: .get, status: .notFound)
        #expect(!context.description.contains("S3CRETz9"), "\(context)")
        #expect(context.description.contains("REDACTED"), "\(context)")
    }

    @Test("a parameter without a secret name keeps its encoded text")
    func encodedEqualsSignWithoutSecretIsKept() {
        let context = ResponseContext(url: URL(string: "https://api.example.com/x?page%3D2&q=swift"), method: .get, status: .notFound)
        #expect(context.description == "GET https://api.example.com/x?page%3D2&q=swift -> 404 Not Found")
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
