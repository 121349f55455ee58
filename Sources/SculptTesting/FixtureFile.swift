import Foundation
import HTTPTypes

/// The JSON layout of a fixture file, read with `JSONSerialization` so that a body can be any JSON.
struct FixtureFile {
    private let root: [String: Any]

    init(_ data: Data) throws {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw Fixture.FormatError(reason: "not JSON: \(error.localizedDescription)")
        }
        guard let root = object as? [String: Any] else {
            throw Fixture.FormatError(reason: "the top level must be an object with \"request\" and \"response\"")
        }
        self.root = root
    }

    func fixture() throws -> Fixture {
        guard let request = root["request"] as? [String: Any] else { throw error("missing object \"request\"") }
        guard let response = root["response"] as? [String: Any] else { throw error("missing object \"response\"") }
        guard let urlText = request["url"] as? String, let url = URL(string: urlText) else {
            throw error("request.url must be a URL string")
        }
        let methodText = request["method"] as? String ?? "GET"
        guard let method = HTTPRequest.Method(methodText) else { throw error("request.method \"\(methodText)\" is not a method") }
        guard let status = response["status"] as? Int, (0...999).contains(status) else {
            throw error("response.status must be a number from 0 to 999")
        }
        return Fixture(
            request: .init(
                method: method, url: url,
                headerFields: try fields(request["headers"], at: "request.headers"),
                body: try body(request, at: "request")),
            response: .init(
                status: .init(code: status),
                headerFields: try fields(response["headers"], at: "response.headers"),
                body: try body(response, at: "response") ?? Data()))
    }

    /// Headers as `[[name, value], ...]`, order and repeats kept.
    private func fields(_ value: Any?, at path: String) throws -> HTTPFields {
        guard let value else { return [:] }
        guard let pairs = value as? [[String]] else { throw error("\(path) must be an array of [name, value] pairs") }
        var fields = HTTPFields()
        for pair in pairs {
            guard pair.count == 2, let name = HTTPField.Name(pair[0]) else {
                throw error("\(path) has an invalid pair \(pair)")
            }
            fields.append(HTTPField(name: name, value: pair[1]))
        }
        return fields
    }

    /// `body` as bytes, per `bodyEncoding`: `json` (the default for a non-string body) is
    /// serialized compactly, `text` (the default for a string) is UTF-8, `base64` is decoded.
    private func body(_ object: [String: Any], at path: String) throws -> Data? {
        guard let body = object["body"], !(body is NSNull) else { return nil }
        let encoding = object["bodyEncoding"] as? String ?? (body is String ? "text" : "json")
        switch (encoding, body) {
        case ("text", let text as String):
            return Data(text.utf8)
        case ("base64", let text as String):
            guard let data = Data(base64Encoded: text) else { throw error("\(path).body is not valid base64") }
            return data
        case ("json", _):
            return try JSONSerialization.data(withJSONObject: body, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
        default:
            throw error("\(path).bodyEncoding must be \"json\", \"text\" or \"base64\" (with a string body)")
        }
    }

    private func error(_ reason: String) -> Fixture.FormatError {
        Fixture.FormatError(reason: reason)
    }
}
