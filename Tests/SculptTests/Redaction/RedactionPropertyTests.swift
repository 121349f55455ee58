import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A secret planted in one place of an interaction must appear in nothing Sculpt writes or says:
/// the cassette a real `FixtureRecorder` writes, a HAR import, a replay miss, an unused-interaction
/// report, a `SculptError` and a fixture-mapping failure. Each row plants a fresh secret.
@Suite("Secrets never leave")
struct RedactionPropertyTests {
    /// Where the secret is planted.
    enum Position: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case authorizationHeader, authorizationLowercase, authorizationUppercase, cookieHeader, proxyAuthorizationHeader, apiKeyHeader
        case setCookieResponse
        case queryAccessToken, queryUppercase, queryPercentEncodedName, queryArrayForm, querySemicolons, queryRepeated
        case queryRefreshToken, queryIDToken, queryAPIKey, queryApikey, queryClientSecret, queryToken, queryPassword
        case queryOAuthCode, queryNestedURL, queryEncodedNestedURL, queryDoublyEncodedNestedURL, queryEncodedParameters
        case queryEncodedAbsoluteURL, locationEncodedNestedURL, queryLongArrayName, locationBackslashes, locationNoSlashes
        case queryTriplyEncodedName, queryNestedCredentials, queryEncodedNestedCredentials, queryPlusInName, queryEncodedSpacesInName
        case responseFormAsText
        case userName, password
        case fragmentImplicitFlow, fragmentHashRoute
        case relativeBaseUser, relativeBasePassword
        case locationHeader, contentLocationHeader, linkHeader
        case requestJSONBody, responseJSONBody, responseNestedJSONBody, responseJSONNumber
        case requestFormBody, responseFormBody
        case requestFormBodyUntyped, responseJSONUnderFormType, responseFormTwoTypes

        var testDescription: String { rawValue }

        /// The interaction with `secret` planted here.
        func interaction(_ secret: String) throws -> Planted {
            var planted = Planted()
            let base = "https://api.example.com/v3/rows/\(rawValue)"
            func url(_ text: String) throws -> URL { try #require(URL(string: text)) }
            switch self {
            case .authorizationHeader: planted.requestFields = [("Authorization", "Bearer \(secret)")]
            case .authorizationLowercase: planted.requestFields = [("authorization", "token \(secret)")]
            case .authorizationUppercase: planted.requestFields = [("AUTHORIZATION", "Basic \(secret)")]
            case .cookieHeader: planted.requestFields = [("Cookie", "session=\(secret); theme=dark")]
            case .proxyAuthorizationHeader: planted.requestFields = [("Proxy-Authorization", "Basic \(secret)")]
            case .apiKeyHeader: planted.requestFields = [("x-API-key", secret)]
            case .setCookieResponse: planted.responseFields = [("Set-Cookie", "id=\(secret); HttpOnly")]
            case .queryAccessToken: planted.url = try url("\(base)?page=2&access_token=\(secret)")
            case .queryUppercase: planted.url = try url("\(base)?ACCESS_TOKEN=\(secret)")
            case .queryPercentEncodedName: planted.url = try url("\(base)?access%5Ftoken=\(secret)")
            case .queryArrayForm: planted.url = try url("\(base)?access_token%5B%5D=\(secret)")
            case .querySemicolons: planted.url = try url("\(base)?a=1;access_token=\(secret);b=2")
            case .queryRepeated: planted.url = try url("\(base)?access_token=first&access_token=\(secret)")
            case .queryRefreshToken: planted.url = try url("\(base)?refresh_token=\(secret)")
            case .queryIDToken: planted.url = try url("\(base)?id_token=\(secret)")
            case .queryAPIKey: planted.url = try url("\(base)?api_key=\(secret)")
            case .queryApikey: planted.url = try url("\(base)?apikey=\(secret)")
            case .queryClientSecret: planted.url = try url("\(base)?client_id=app&client_secret=\(secret)")
            case .queryToken: planted.url = try url("\(base)?Token=\(secret)")
            case .queryPassword: planted.url = try url("\(base)?user=a&password=\(secret)")
            case .queryOAuthCode: planted.url = try url("\(base)?code=\(secret)&state=xyz")
            case .queryNestedURL: planted.url = try url("\(base)?next=/cb?access_token=\(secret)")
            case .queryEncodedNestedURL: planted.url = try url("\(base)?next=%2Fcb%3Ftoken%3D\(secret)%26a%3D1")
            case .queryDoublyEncodedNestedURL: planted.url = try url("\(base)?next=%252Fcb%253Faccess_token%253D\(secret)")
            case .queryEncodedParameters: planted.url = try url("\(base)?state=token%3D\(secret)%26page%3D2")
            case .queryEncodedAbsoluteURL: planted.url = try url("\(base)?next=https%3A%2F%2Fa.example%2Fcb%3Faccess_token%3D\(secret)")
            case .queryLongArrayName: planted.url = try url("\(base)?\(String(repeating: "a", count: 300))%5Baccess%5Ftoken%5D=\(secret)")
            // 
            case .queryTriplyEncodedName: planted.url = try url("\(base)?access%25255Ftoken=\(secret)")
            case .queryNestedCredentials: planted.url = try url("\(base)?next=https://u:\(secret)@x.example/&a=1")
            case .queryEncodedNestedCredentials: planted.url = try url("\(base)?next=https%3A%2F%2Fu%3A\(secret)%40x.example%2F&a=1")
            case .queryPlusInName: planted.url = try url("\(base)?token+=\(secret)")
            case .queryEncodedSpacesInName: planted.url = try url("\(base)?\(String(repeating: "%20", count: 100))token=\(secret)")
            case .responseFormAsText:
                planted.responseContentType = "text/plain"
                planted.responseBody = "refresh_token=\(secret)&scope=repo"
            case .locationBackslashes:
                // WHATWG URL parsers (browsers, curl's follow) read `\` as `/` after a special scheme.
                planted.status = 302
                planted.responseFields = [("Location", #"https:\\u:\#(secret)@a.example/cb"#)]
            case .locationNoSlashes:
                planted.status = 302
                planted.responseFields = [("Location", "https:u:\(secret)@a.example/cb")]
            case .locationEncodedNestedURL:
                planted.status = 302
                planted.responseFields = [("Location", "/login?return=https%3A%2F%2Fa.example%2Fcb%3Faccess_token%3D\(secret)")]
            case .userName: planted.url = try url("https://\(secret)@api.example.com/v3/rows/\(rawValue)")
            case .password: planted.url = try url("https://user:\(secret)@api.example.com/v3/rows/\(rawValue)")
            case .fragmentImplicitFlow: planted.url = try url("\(base)#access_token=\(secret)&token_type=bearer&state=1")
            case .fragmentHashRoute: planted.url = try url("\(base)#/callback?id_token=\(secret)")
            case .relativeBaseUser:
                planted.url = URL(string: rawValue, relativeTo: try url("https://\(secret)@api.example.com/v3/rows/"))
            case .relativeBasePassword:
                planted.url = URL(string: "#top", relativeTo: try url("https://u:\(secret)@api.example.com/v3/rows/\(rawValue)?access_token=\(secret)"))
            case .locationHeader:
                planted.status = 302
                planted.responseFields = [("Location", "/final?access_token=\(secret)")]
            case .contentLocationHeader: planted.responseFields = [("Content-Location", "https://api.example.com/v3/x?token=\(secret)")]
            case .linkHeader:
                planted.responseFields = [("Link", #"<https://api.example.com/v3/x?page=2>; rel="prev", <https://api.example.com/v3/x?page=3&access_token=\#(secret)>; rel="next""#)]
            case .requestJSONBody:
                planted.method = "POST"
                planted.requestFields = [("Content-Type", "application/json")]
                planted.requestBody = #"{"grant_type":"password","username":"a","password":"\#(secret)"}"#
            case .responseJSONBody:
                planted.responseBody = #"{"access_token":"\#(secret)","token_type":"bearer","refresh_token":"\#(secret)R","expires_in":3600}"#
            case .responseNestedJSONBody:
                planted.responseBody = #"{"data":[{"id":1},{"credentials":{"ID_TOKEN" : "\#(secret)"}}]}"#
            case .responseJSONNumber:
                planted.responseBody = #"{"login":"a","client_secret":{"value":"\#(secret)","kind":["x"]}}"#
            case .requestFormBody:
                planted.method = "POST"
                planted.requestFields = [("Content-Type", "application/x-www-form-urlencoded")]
                planted.requestBody = "grant_type=refresh_token&refresh_token=\(secret)&client_id=app"
            case .responseFormBody:
                // GitHub's token endpoint answers this way when the request has no Accept: JSON.
                planted.responseContentType = "application/x-www-form-urlencoded; charset=utf-8"
                planted.responseBody = "access_token=\(secret)&scope=repo&token_type=bearer"
            case .requestFormBodyUntyped:
                // A HAR entry whose only type is postData.mimeType; a client that sent none.
                planted.method = "POST"
                planted.requestFields = []
                planted.requestBody = "grant_type=password&password=\(secret)"
            case .responseJSONUnderFormType:
                planted.responseContentType = "application/x-www-form-urlencoded"
                planted.responseBody = #"{"refresh_token":"\#(secret)"}"#
            case .responseFormTwoTypes:
                planted.responseContentType = "text/html"
                planted.responseFields = [("Content-Type", "application/x-www-form-urlencoded")]
                planted.responseBody = "token=\(secret)&scope=repo"
            }
            if planted.url == nil { planted.url = try url(base) }
            return planted
        }
    }

    /// An interaction as plain parts, so that every pipeline can be fed the same one.
    struct Planted {
        var method = "GET"
        var url: URL?
        var requestFields: [(String, String)] = [("Accept", "application/json")]
        var requestBody: String?
        var status = 200
        var responseFields: [(String, String)] = []
        var responseContentType = "application/json"
        var responseBody = #"{"login":"octocat","id":1}"#

        var fixture: Fixture {
            get throws {
                Fixture(
                    request: .init(
                        method: try #require(HTTPRequest.Method(method)), url: try #require(url), headerFields: try Self.fields(requestFields),
                        body: requestBody.map { Data($0.utf8) }),
                    response: .init(
                        status: .init(code: status),
                        headerFields: try Self.fields([("Content-Type", responseContentType)] + responseFields), body: Data(responseBody.utf8)))
            }
        }

        static func fields(_ pairs: [(String, String)]) throws -> HTTPFields {
            var fields = HTTPFields()
            for (name, value) in pairs { fields.append(HTTPField(name: try #require(HTTPField.Name(name)), value: value)) }
            return fields
        }
    }

    /// A fresh secret: letters and digits only, so that no encoding can disguise it.
    private static func secret() -> String {
        "zz" + UUID().uuidString.replacingOccurrences(of: "-", with: "") + "zz"
    }

    @Test("no output of any pipeline shows a secret planted here", arguments: Position.allCases)
    func neverShown(_ position: Position) async throws {
        let secret = Self.secret()
        let planted = try position.interaction(secret)
        let outputs = [
            ("recorded cassette", try await recorded(planted)),
            ("HAR import", try harImport(planted)),
            ("replay miss", try missDescription(planted)),
            ("unused interactions", try unusedDescription(planted)),
            ("SculptError", try errorDescription(planted)),
            ("error model", try errorModelDescription(planted)),
            ("decoding failure", try decodingFailureDescription(planted)),
            ("mapping failure", try mappingFailure(planted)),
        ]
        for (name, output) in outputs {
            #expect(!output.isEmpty, "\(name) produced nothing")
            #expect(!output.contains(secret), "\(name) shows the secret planted in \(position.rawValue):\n\(output)")
        }
    }

    /// A name a user's `Redaction` added is redacted in every line of a miss, including the lines
    /// of candidates recorded without it.
    @Test("a name one recording redacted is redacted in every candidate's lines")
    func userNamesRedactedEverywhere() throws {
        let secret = Self.secret()
        let signature = try #require(HTTPField.Name("X-Sig"))
        func request(_ url: String, _ fields: HTTPFields = [:]) throws -> Fixture.Request {
            Fixture.Request(method: .get, url: try #require(URL(string: url)), headerFields: fields)
        }
        let response = Fixture.Response(status: .ok, headerFields: [.contentType: "application/json"], body: Data("{}".utf8))
        var pin = Fixture(request: try request("https://h/b"), response: response)
        pin.request.method = .post
        pin.request.body = Data(#"{"pin":"REDACTED"}"#.utf8)
        let fixtures = [
            pin,
            Fixture(request: try request("https://h/a?mysig=REDACTED&page=1", [signature: "REDACTED"]), response: response),
            Fixture(request: try request("https://h/a?page=2"), response: response),
            Fixture(request: try request("https://h/a?page=3&sort=asc"), response: response),
            Fixture(request: try request("https://h/a?page=4&sort=desc"), response: response),
        ]
        let replay = FixtureReplay(fixtures, options: .init(matchedHeaders: [signature]))
        // `pin` was redacted in a recorded body: as a parameter it is a secret too.
        let asked = try request("https://h/a?mysig=\(secret)&page=9&pin=\(secret)P", [signature: "\(secret)H"])
        let miss = try #require(throws: FixtureReplay.MissError.self) { try replay.response(for: asked) }
        #expect(!miss.description.contains(secret), "\(miss.description)")
        #expect(miss.description.contains("mysig=REDACTED"), "\(miss.description)")
    }

    @Test("a matcher's error quotes no value the body holds under a secret name")
    func matcherErrorsRedacted() throws {
        let secret = Self.secret()
        let body = Data(#"{"token":"\#(secret)","kind":"grant"}"#.utf8)
        let context = ResponseContext(url: URL(string: "https://h/grant"), method: .get, status: .ok, headerFields: [.contentType: "application/json"])
        struct Quoting: Error, CustomStringConvertible {
            let text: String
            var description: String { "could not read \(text)" }
        }
        func description(_ matcher: some ModelMatcher) -> String {
            let serializer = ModelResponseSerializer(matcher: matcher)
            let error = #expect(throws: SculptError.self) { try serializer.serialize(body, for: context) }
            return error?.description ?? ""
        }
        for text in [
            description(TypeFieldModelMatcher(field: "token", ["expected": User.self])),
            description(ClosureModelMatcher { _, data in throw Quoting(text: String(decoding: data, as: UTF8.self)) }),
        ] {
            #expect(!text.contains(secret), "\(text)")
        }
    }

    // MARK: - The pipelines

    /// The cassette a real recorder writes, its session answered by a registered `URLProtocol`.
    private func recorded(_ planted: Planted) async throws -> String {
        let configuration = URLSessionConfiguration.unhurried
        configuration.protocolClasses = [PlantedProtocol.self]
        let recorder = FixtureRecorder(configuration: configuration)
        let url = try #require(planted.url)
        var request = URLRequest(url: url)
        request.httpMethod = planted.method
        for (name, value) in planted.requestFields { request.addValue(value, forHTTPHeaderField: name) }
        request.httpBody = planted.requestBody.map { Data($0.utf8) }
        PlantedProtocol.answers.set(planted, for: url.absoluteURL.path())
        _ = try await recorder.data(for: request)
        #expect(recorder.interactions.count == 1)
        let file = FileManager.default.temporaryDirectory.appending(path: "sculpt-redaction-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try recorder.cassette.encoded().write(to: file)
        return try String(contentsOf: file, encoding: .utf8)
    }

    /// A HAR archive with the interaction as an entry, and again as a failed (skipped) entry.
    private func harImport(_ planted: Planted) throws -> String {
        func headers(_ pairs: [(String, String)]) -> Any { pairs.map { ["name": $0.0, "value": $0.1] } }
        var request: [String: Any] = ["method": planted.method, "url": try #require(planted.url).absoluteString, "headers": headers(planted.requestFields)]
        let requestType = planted.requestFields.first { $0.0 == "Content-Type" }?.1 ?? "application/json"
        if let body = planted.requestBody { request["postData"] = ["mimeType": requestType, "text": body] }
        let response: [String: Any] = [
            "status": planted.status, "headers": headers([("Content-Type", planted.responseContentType)] + planted.responseFields),
            "content": ["mimeType": planted.responseContentType, "text": planted.responseBody],
        ]
        let failed: [String: Any] = ["request": request, "response": ["status": 0, "headers": [Any]()]]
        let har = ["log": ["version": "1.2", "entries": [["request": request, "response": response], failed]]]
        let archive = try HARArchive(json: try JSONSerialization.data(withJSONObject: har))
        #expect(archive.fixtures.count == 1 && archive.skipped.count == 1)
        let written = String(decoding: Cassette(archive.fixtures).encoded(), as: UTF8.self)
        return written + "\n" + archive.skipped.map(\.description).joined(separator: "\n")
    }

    /// A miss against a recording of the same path that differs in every way a request can.
    private func missDescription(_ planted: Planted) throws -> String {
        let fixture = try planted.fixture
        var recorded = fixture
        recorded.request.url = try #require(URL(string: "https://api.example.com\(RequestComparisonPath.of(fixture.request.url))?other=1"))
        recorded.request.headerFields = [.authorization: "other", .cookie: "other", .proxyAuthorization: "other"]
        recorded.request.body = Data(#"{"other":1}"#.utf8)
        let matched = Redaction.defaultHeaders + [.accept, .contentType]
        let replay = FixtureReplay([recorded], options: .init(matchedHeaders: matched, matchesBody: true))
        do {
            _ = try replay.response(for: fixture.request)
            Issue.record("the request matched")
            return ""
        } catch {
            return error.description
        }
    }

    /// The report of a hand-written (unredacted) interaction that no request used.
    private func unusedDescription(_ planted: Planted) throws -> String {
        var fixture = try planted.fixture
        fixture.source = "hand-written.json #0"
        do {
            try FixtureReplay([fixture]).verifyAllUsed()
            Issue.record("nothing was unused")
            return ""
        } catch {
            return error.description
        }
    }

    /// A serializer's error for the planted response, at the planted URL.
    private func errorDescription(_ planted: Planted) throws -> String {
        let fixture = try planted.fixture
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([User].self))
        let error = try #require(throws: SculptError.self) { try serializer.serialize(fixture.data, for: fixture.context) }
        return error.description
    }

    /// A serializer's error when the planted response, as a 401, decodes as its error model: the
    /// model's own description must not show what the body's secret members held.
    private func errorModelDescription(_ planted: Planted) throws -> String {
        var failed = planted
        failed.status = 401
        let fixture = try failed.fixture
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), errorMatcher: StaticModelMatcher(PlantedFailure.self))
        let error = try #require(throws: SculptError.self) { try serializer.serialize(fixture.data, for: fixture.context) }
        return error.description
    }

    /// A serializer's error when the planted body's secret members hold values the model cannot
    /// take (`Cannot initialize Kind from invalid String value <secret>`).
    private func decodingFailureDescription(_ planted: Planted) throws -> String {
        let fixture = try planted.fixture
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(PlantedGrant.self))
        let error = try #require(throws: SculptError.self) { try serializer.serialize(fixture.data, for: fixture.context) }
        return error.description
    }

    /// A one-line mapping test's failure for the planted fixture.
    private func mappingFailure(_ planted: Planted) throws -> String {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([User].self))
        let error = try #require(throws: Fixture.MappingError.self) { try planted.fixture.model(serializer: serializer, as: [User].self) }
        return error.description
    }
}

/// Any body, as an error model: its description shows every member it decoded.
private struct PlantedFailure: ErrorResponseModel {
    let body: AnyJSON

    init(from decoder: any Decoder) throws {
        body = try AnyJSON(from: decoder)
    }
}

/// A token grant whose token only takes one value, so that a decoding error quotes the value it
/// found.
private struct PlantedGrant: Decodable {
    enum Kind: String, Decodable { case expected }

    let access_token: Kind
}

/// The path of a URL as replay compares it.
private enum RequestComparisonPath {
    static func of(_ url: URL) -> String {
        let path = url.absoluteURL.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }
}

/// Answers each request with the planted response registered for its path: a real session, a real
/// recorder, no network.
final class PlantedProtocol: URLProtocol {
    /// Planted responses by path.
    final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var byPath: [String: RedactionPropertyTests.Planted] = [:]

        func set(_ planted: RedactionPropertyTests.Planted, for path: String) {
            lock.withLock { byPath[path] = planted }
        }

        func get(_ path: String) -> RedactionPropertyTests.Planted? {
            lock.withLock { byPath[path] }
        }
    }

    static let answers = Answers()

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url?.absoluteURL, let planted = Self.answers.get(url.path()) else {
            client?.urlProtocol(self, didFailWithError: URLError(.fileDoesNotExist))
            return
        }
        var fields = ["Content-Type": planted.responseContentType]
        for (name, value) in planted.responseFields { fields[name] = value }
        guard let response = HTTPURLResponse(url: url, statusCode: planted.status, httpVersion: "HTTP/1.1", headerFields: fields) else {
            client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data(planted.responseBody.utf8))
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
