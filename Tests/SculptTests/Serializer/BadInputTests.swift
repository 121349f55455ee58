import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import Testing

/// What a server can send, and what Sculpt must make of it: a model where the bytes are a model
/// after all, otherwise a typed error that keeps the response and every byte of the body, with a
/// bounded description. Nothing here may crash or hang.
@Suite("Bad input: a typed error, in linear time, never a crash")
struct BadInputTests {
    /// The serializers the rows run through.
    enum Serializer: String, Sendable {
        /// URL routes under `/v3`, an error model for error statuses.
        case routes
        /// A `type` discriminator in the body.
        case typeField
        /// The routes with limits: 1 MiB bodies, 32 levels of nesting.
        case limited

        func serialize(_ body: Data, _ response: ResponseContext) throws -> any Decodable & Sendable {
            switch self {
            case .routes: try Self.routeSerializer.serialize(body, for: response)
            case .typeField: try Self.typeSerializer.serialize(body, for: response)
            case .limited: try Self.limitedSerializer.serialize(body, for: response)
            }
        }

        static let routeSerializer: ModelResponseSerializer<URLModelMatcher> = {
            var routes = URLModelMatcher(pathPrefix: "/v3")
            do {
                try routes.add("/users/*", User.self)
                try routes.add("/users/*/repos", [Repository].self)
                try routes.add("/search/**", [User].self, at: "data.items")
                try routes.add("/items/#", User.self, at: "data.items[1]")
            } catch {
                Issue.record("the routes do not compile: \(error)")
            }
            return ModelResponseSerializer(matcher: routes, errorMatcher: StaticModelMatcher(APIError.self))
        }()

        static let typeSerializer: ModelResponseSerializer<TypeFieldModelMatcher> = {
            var types = TypeFieldModelMatcher(field: "type")
            do {
                try types.add("user", User.self)
                try types.add("users", [User].self, at: "items")
            } catch {
                Issue.record("the types do not compile: \(error)")
            }
            return ModelResponseSerializer(matcher: types)
        }()

        static let limitedSerializer: ModelResponseSerializer<URLModelMatcher> = {
            var serializer = routeSerializer
            serializer.maximumBodySize = 1 << 20
            serializer.maximumNestingDepth = 32
            return serializer
        }()
    }

    /// What a row must produce: a model, or the named `SculptError` case.
    enum Outcome: Sendable, Equatable {
        case model
        case error(String)

        init(_ result: Result<any Decodable & Sendable, any Error>) {
            switch result {
            case .success: self = .model
            case .failure(let error as SculptError): self = .error(error.reason.name)
            case .failure(let error): self = .error("not a SculptError: \(type(of: error))")
            }
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var serializer: Serializer = .routes
        var url = "https://api.example.com/v3/users/octocat"
        var method: HTTPRequest.Method = .get
        var status: HTTPResponse.Status = .ok
        var contentType: String? = "application/json; charset=utf-8"
        /// Built when the row runs (some bodies are large).
        var body: @Sendable () -> Data
        var expected: Outcome

        var testDescription: String { name }
        var response: ResponseContext {
            var fields = HTTPFields()
            if let contentType { fields[.contentType] = contentType }
            return ResponseContext(url: URL(string: url), method: method, status: status, headerFields: fields)
        }
    }

    static let user = #"{"login":"octocat","id":1}"#

    static func text(_ text: String) -> @Sendable () -> Data { { Data(text.utf8) } }
    static func bytes(_ bytes: [UInt8]) -> @Sendable () -> Data { { Data(bytes) } }

    static let rows: [Row] = [
        // Empty and blank bodies.
        Row(name: "empty body with 200", body: text(""), expected: .error("emptyBody")),
        Row(name: "white space only", body: text(" \n\t\r "), expected: .error("emptyBody")),
        Row(name: "empty body with 204", status: .noContent, body: text(""), expected: .model),
        Row(name: "empty error body with 500", status: .internalServerError, body: text(""), expected: .error("unacceptableStatusCode")),
        // Broken JSON.
        Row(name: "truncated JSON", body: text(#"{"login":"oct"#), expected: .error("decodingFailed")),
        Row(name: "truncated JSON, type field", serializer: .typeField, body: text(#"{"login":"oct"#), expected: .error("invalidJSON")),
        Row(name: "invalid UTF-8 in a string", body: bytes(Array(#"{"login":""#.utf8) + [0xC3, 0x28] + Array(#"","id":1}"#.utf8)), expected: .error("decodingFailed")),
        Row(name: "NUL bytes", body: bytes([0x7B, 0x00, 0x00, 0x7D]), expected: .error("decodingFailed")),
        Row(name: "trailing garbage", body: text(user + " <html>"), expected: .error("decodingFailed")),
        Row(name: "a lone surrogate in a value that is read", body: text(#"{"login":"\uD800","id":1}"#), expected: .error("decodingFailed")),
        Row(name: "a \\u escape cut short at the end", serializer: .typeField, body: text(#"{"a":"\uDFA\"#), expected: .error("invalidJSON")),
        // Encodings.
        Row(name: "a UTF-8 byte order mark", body: bytes([0xEF, 0xBB, 0xBF] + Array(user.utf8)), expected: .model),
        Row(name: "UTF-16 little endian", body: { user.data(using: .utf16LittleEndian) ?? Data() }, expected: .model),
        Row(name: "UTF-16 big endian with a BOM, type field", serializer: .typeField,
            body: { Data([0xFE, 0xFF]) + (#"{"type":"user","login":"a","id":2}"#.data(using: .utf16BigEndian) ?? Data()) }, expected: .model),
        Row(name: "UTF-16 with a lone surrogate",
            body: { (#"{"id":1,"login":""#.data(using: .utf16LittleEndian) ?? Data()) + Data([0x00, 0xD8]) + (#""}"#.data(using: .utf16LittleEndian) ?? Data()) },
            expected: .error("decodingFailed")),
        Row(name: "gzip bytes not decoded", body: bytes([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xAB, 0x56, 0xCA]), expected: .error("decodingFailed")),
        Row(name: "gzip bytes, type field", serializer: .typeField, body: bytes([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00]), expected: .error("invalidJSON")),
        // Sizes and depth.
        Row(name: "JSON nested 10,000 deep", body: text(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)), expected: .error("decodingFailed")),
        Row(name: "JSON nested 10,000 deep, type field", serializer: .typeField,
            body: text(#"{"type":"user","x":"# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"),
            expected: .error("decodingFailed")),
        Row(name: "JSON nested 10,000 deep, limited", serializer: .limited, body: text(String(repeating: "[", count: 10_000)), expected: .error("nestingTooDeep")),
        Row(name: "brackets inside strings do not count as nesting", serializer: .limited,
            body: text(#"{"login":""# + String(repeating: "[", count: 100) + #"","id":1}"#), expected: .model),
        Row(name: "an escaped quote does not end a string for the nesting count", serializer: .limited,
            body: text(#"{"login":"\"\\\""# + String(repeating: "{", count: 40) + #"","id":1}"#), expected: .model),
        Row(name: "nesting exactly at the limit", serializer: .limited,
            body: text(#"{"login":"a","id":1,"x":"# + String(repeating: "[", count: 31) + String(repeating: "]", count: 31) + "}"), expected: .model),
        Row(name: "nesting one past the limit", serializer: .limited,
            body: text(#"{"login":"a","id":1,"x":"# + String(repeating: "[", count: 32) + String(repeating: "]", count: 32) + "}"), expected: .error("nestingTooDeep")),
        Row(name: "a 50 MB string value", body: { Data((#"{"id":1,"login":""# + String(repeating: "a", count: 50 << 20) + #""}"#).utf8) }, expected: .model),
        Row(name: "a 50 MB string value, limited", serializer: .limited,
            body: { Data((#"{"id":1,"login":""# + String(repeating: "a", count: 50 << 20) + #""}"#).utf8) }, expected: .error("bodyTooLarge")),
        Row(name: "a 2 MB error body, limited", serializer: .limited, status: .badGateway,
            body: { Data(repeating: 0x20, count: 2 << 20) + Data(#"{"message":"x"}"#.utf8) }, expected: .error("unacceptableStatusCode")),
        // Numbers and shapes.
        Row(name: "a number out of Int's range", body: text(#"{"login":"a","id":99999999999999999999}"#), expected: .error("decodingFailed")),
        Row(name: "a number out of Double's range", body: text(#"{"login":"a","id":1e400}"#), expected: .error("decodingFailed")),
        Row(name: "a top-level scalar", body: text("42"), expected: .error("decodingFailed")),
        Row(name: "a top-level scalar, type field", serializer: .typeField, body: text("42"), expected: .error("unknownDiscriminator")),
        Row(name: "null for an object", body: text("null"), expected: .error("decodingFailed")),
        Row(name: "an array for an object", body: text("[]"), expected: .error("decodingFailed")),
        // Discriminators.
        Row(name: "discriminator as a number", serializer: .typeField, body: text(#"{"type":3}"#), expected: .error("unknownDiscriminator")),
        Row(name: "discriminator null", serializer: .typeField, body: text(#"{"type":null}"#), expected: .error("unknownDiscriminator")),
        Row(name: "discriminator an object", serializer: .typeField, body: text(#"{"type":{"name":"user"}}"#), expected: .error("unknownDiscriminator")),
        Row(name: "discriminator duplicated: the first wins, as in JSONDecoder", serializer: .typeField,
            body: text(#"{"type":"user","type":"nobody","login":"a","id":1}"#), expected: .model),
        Row(name: "discriminator escaped", serializer: .typeField, body: text(#"{"t\u0079pe":"\u0075ser","login":"a","id":1}"#), expected: .model),
        Row(name: "discriminator missing", serializer: .typeField, body: text(user), expected: .error("unknownDiscriminator")),
        Row(name: "discriminator unknown", serializer: .typeField, body: text(#"{"type":"admin"}"#), expected: .error("unknownDiscriminator")),
        Row(name: "discriminator naming a Swift type: only registered values resolve", serializer: .typeField,
            body: text(#"{"type":"SculptTests.User","login":"a","id":1}"#), expected: .error("unknownDiscriminator")),
        // Content types.
        Row(name: "HTML labelled application/json", body: text("<html><body>502 Bad Gateway</body></html>"), expected: .error("decodingFailed")),
        Row(name: "HTML labelled application/json, type field", serializer: .typeField, body: text("<html></html>"), expected: .error("invalidJSON")),
        Row(name: "JSON labelled text/html", contentType: "text/html; charset=utf-8", body: text(user), expected: .error("unacceptableContentType")),
        Row(name: "no Content-Type", contentType: nil, body: text(user), expected: .model),
        Row(name: "a content type with empty parameters", contentType: "application/json;;; charset=", body: text(user), expected: .model),
        Row(name: "a content type that only starts like JSON", contentType: "application/jsonx", body: text(user), expected: .error("unacceptableContentType")),
        // URLs.
        Row(name: "a path of 10,000 segments", url: "https://api.example.com/v3/" + String(repeating: "a/", count: 10_000), body: text(user),
            expected: .error("noModelMatched")),
        Row(name: "a percent-encoded / stays in its segment", url: "https://api.example.com/v3/users/a%2Fb", body: text(user), expected: .model),
        Row(name: "a percent-encoded / does not add a segment", url: "https://api.example.com/v3/users/a%2Fb%2Frepos", body: text(user), expected: .model),
        Row(name: ".. is resolved", url: "https://api.example.com/v3/users/a/repos/../../b", body: text(user), expected: .model),
        Row(name: ". is resolved", url: "https://api.example.com/v3/./users/./octocat", body: text(user), expected: .model),
        Row(name: ".. cannot leave the prefix unnoticed", url: "https://api.example.com/v3/../users/octocat", body: text(user), expected: .error("noModelMatched")),
        Row(name: "non-ASCII segments", url: "https://api.example.com/v3/users/%C3%BCml%C3%A4ut", body: text(user), expected: .model),
        Row(name: "an escape that is not UTF-8", url: "https://api.example.com/v3/users/%C3", body: text(user), expected: .model),
        Row(name: "no URL", url: "", body: text(user), expected: .error("noModelMatched")),
        // Key paths.
        Row(name: "a key path through an array", url: "https://api.example.com/v3/search/x", body: text(#"{"data":[{"items":[]}]}"#), expected: .error("keyPathNotFound")),
        Row(name: "a key path through a scalar", url: "https://api.example.com/v3/search/x", body: text(#"{"data":"none"}"#), expected: .error("keyPathNotFound")),
        Row(name: "a key path index out of range", url: "https://api.example.com/v3/items/7", body: text(#"{"data":{"items":[{}]}}"#), expected: .error("keyPathNotFound")),
        Row(name: "a key path through null", url: "https://api.example.com/v3/search/x", body: text(#"{"data":null}"#), expected: .error("keyPathNotFound")),
        // Error statuses.
        Row(name: "an error status with an HTML body", status: .badGateway, contentType: "text/html", body: text("<html>bad gateway</html>"), expected: .error("unacceptableStatusCode")),
        Row(name: "an error status with a JSON error", status: .notFound, body: text(#"{"message":"Not Found"}"#), expected: .error("errorResponse")),
        Row(name: "an error status with broken JSON", status: .notFound, body: text(#"{"message":"#), expected: .error("unacceptableStatusCode")),
    ]

    @Test("each row gives its model or its typed error, with the response and body kept", arguments: rows)
    func row(_ row: Row) {
        let body = row.body()
        let response = row.response
        let result = Result { try row.serializer.serialize(body, response) }
        #expect(Outcome(result) == row.expected)
        guard case .failure(let error as SculptError) = result else { return }
        #expect(error.body == body, "the error must keep every byte of the body")
        #expect(error.response.url == response.url && error.response.status == response.status)
        let description = error.description
        #expect(!description.isEmpty)
        #expect(description.utf8.count <= 4_096, "a description of \(description.utf8.count) bytes")
    }

    @Test("descriptions redact secret query parameters and passwords, and bound the URL and the body", arguments: [
        "https://api.example.com/v3/nothing?access_token=s3cr3t&page=2",
        "https://api.example.com/v3/nothing?API_KEY=s3cr3t",
        "https://api.example.com/v3/nothing?client_secret=s3cr3t#x",
        "https://user:s3cr3t@api.example.com/v3/nothing",
    ])
    func redactedDescriptions(_ url: String) throws {
        let body = Data(String(repeating: "x", count: 100_000).utf8)
        let error = try #require(throws: SculptError.self) { try Serializer.routeSerializer.serialize(body, for: response(url)) }
        #expect(!error.description.contains("s3cr3t"))
        #expect(error.description.contains("REDACTED"))
        #expect(error.description.utf8.count < 2_048)
        #expect(error.response.url?.absoluteString == url, "the context keeps the URL as it was")
    }

    @Test("an error body over the limit says so in the error's description")
    func limitedErrorBody() throws {
        let body = Data(repeating: 0x20, count: 2 << 20) + Data(#"{"message":"x"}"#.utf8)
        let error = try #require(throws: SculptError.self) { try Serializer.limitedSerializer.serialize(body, for: response(status: .badGateway)) }
        #expect(error.description.contains("the serializer reads at most 1048576"))
    }

    @Test("a URL of 100,000 bytes is cut in a description")
    func longURL() throws {
        let url = "https://api.example.com/v3/" + String(repeating: "segment/", count: 12_500)
        let error = try #require(throws: SculptError.self) { try Serializer.routeSerializer.serialize(Data("{}".utf8), for: response(url)) }
        #expect(error.description.utf8.count < 4_096)
        #expect(error.description.contains("more bytes"))
    }

    @Test("an invalidJSON offset points into the body as it arrived, whatever its encoding", arguments: [
        Data(#"{"type":"us"#.utf8),
        #"{"type":"us"#.data(using: .utf16LittleEndian) ?? Data(),
        Data([0xFF, 0xFE]) + (#"{"type": tru"#.data(using: .utf16LittleEndian) ?? Data()),
        #"{"type":"us"#.data(using: .utf32BigEndian) ?? Data(),
        Data(#"{"a":"\uDFA\"#.utf8),
    ])
    func invalidJSONOffset(_ body: Data) throws {
        let error = try #require(throws: SculptError.self) { try Serializer.typeSerializer.serialize(body, for: response()) }
        #expect(error.reason.name == "invalidJSON")
        if case .invalidJSON(_, let offset) = error.reason { #expect((0...body.count).contains(offset)) }
    }
}
