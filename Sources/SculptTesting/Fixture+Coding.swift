import Foundation
import SculptShared
import HTTPTypes
import Sculpt

/// Reading and writing the JSON layout of fixture files.
extension Fixture {
    /// Reads a `{"request": ..., "response": ...}` object; `path` prefixes field names in errors.
    init(_ value: OrderedJSON, at path: String) throws(FormatError) {
        guard case .object = value else {
            throw FormatError(reason: "\(path.isEmpty ? "the top level" : path) must be an object with \"request\" and \"response\"", at: path)
        }
        guard let request = value["request"], case .object = request else { throw FormatError(reason: "missing object \"\(path)request\"", at: path) }
        guard let response = value["response"], case .object = response else { throw FormatError(reason: "missing object \"\(path)response\"", at: path) }
        guard let urlText = request["url"]?.string, let url = WrittenURL.parse(urlText) else {
            throw FormatError(reason: "\(path)request.url must be a URL string", at: "\(path)request.url")
        }
        let methodText = request["method"]?.string ?? "GET"
        guard let method = HTTPRequest.Method(methodText) else {
            throw FormatError(reason: "\(path)request.method \(Secrets.quoted(methodText)) is not a method", at: "\(path)request.method")
        }
        // 0...999, what `HTTPResponse.Status` holds: the recorder and `ResponseContext` write 0 for
        // "no valid status" (a code out of range), so whatever they write reads back.
        guard let status = response["status"]?.int, (0...999).contains(status) else {
            throw FormatError(reason: "\(path)response.status must be a number from 0 to 999 (an HTTP status, or 0 for none)", at: "\(path)response.status")
        }
        // Each body read as every reader reads it (``RecordedBody``): one stored compressed is
        // the body a client sees.
        let (requestBody, requestFields) = try Self.readable(try Self.body(of: request, at: "\(path)request"), try Self.fields(request["headers"], at: "\(path)request.headers"), at: "\(path)request")
        let (responseBody, responseFields) = try Self.readable(try Self.body(of: response, at: "\(path)response"), try Self.fields(response["headers"], at: "\(path)response.headers"), at: "\(path)response")
        self.init(
            request: .init(method: method, url: url, headerFields: requestFields, body: requestBody),
            response: .init(status: .standard(status), headerFields: responseFields, body: responseBody ?? Data()))
    }

    /// A stored body and its fields as a client sees them (``RecordedBody``).
    /// - Throws: ``FormatError`` for a body its `Content-Encoding` says is compressed that does
    ///   not decompress (damaged, or larger than a body may be): no reader could give a client
    ///   the body, so none reads the file.
    private static func readable(_ body: Data?, _ fields: HTTPFields, at path: String) throws(FormatError) -> (Data?, HTTPFields) {
        guard let body else { return (nil, fields) }
        do {
            let (decoded, described) = try RecordedBody.decoded(body, fields: fields)
            return (decoded, RecordedBody.stating(decoded, in: described))
        } catch {
            let coding = fields[values: .contentEncoding].joined(separator: ", ")
            throw FormatError(reason: "\(path).body is stored under Content-Encoding \(PrintableText.value(coding, limit: 64)) and does not decompress (\(error.reason))", at: "\(path).body")
        }
    }

    /// The fixture as a JSON object, bodies stored as ``encoded(byteExact:)`` describes.
    func jsonValue(byteExact: Bool) -> OrderedJSON {
        var requestMembers: [OrderedJSON.Member] = [
            .init(key: "method", value: .string(request.method.rawValue)),
            .init(key: "url", value: .string(request.url.absoluteString)),
        ]
        if !request.headerFields.isEmpty { requestMembers.append(.init(key: "headers", value: Self.json(request.headerFields))) }
        if let body = request.body, !body.isEmpty {
            requestMembers += Self.bodyMembers(body, contentType: request.headerFields[.contentType], byteExact: byteExact)
        }
        var responseMembers: [OrderedJSON.Member] = [.init(key: "status", value: .number(String(response.status.code)))]
        if !response.headerFields.isEmpty { responseMembers.append(.init(key: "headers", value: Self.json(response.headerFields))) }
        if !response.body.isEmpty {
            responseMembers += Self.bodyMembers(response.body, contentType: response.headerFields[.contentType], byteExact: byteExact)
        }
        return .object([.init(key: "request", value: .object(requestMembers)), .init(key: "response", value: .object(responseMembers))])
    }

    // MARK: - Headers

    private static func fields(_ value: OrderedJSON?, at path: String) throws(FormatError) -> HTTPFields {
        guard let value else { return [:] }
        guard let pairs = value.array else { throw FormatError(reason: "\(path) must be an array of [name, value] pairs", at: path) }
        var fields = HTTPFields()
        for pair in pairs {
            guard let items = pair.array, items.count == 2, let name = items[0].string.flatMap({ HTTPField.Name($0) }),
                let text = items[1].string
            else {
                // Only the shape is named: the values may be secrets (an Authorization value).
                throw FormatError(reason: "\(path) has an invalid pair at position \(fields.count + 1): \(Self.shape(of: pair))", at: "\(path)[\(fields.count)]")
            }
            fields.append(HTTPField(name: name, value: text))
        }
        return fields
    }

    /// What a header pair is instead of `[name, value]`: `an array of 3 items`, `a number`.
    private static func shape(of pair: OrderedJSON) -> String {
        switch pair {
        case .array(let items) where items.count != 2: "an array of \(items.count) items, not [name, value]"
        case .array: "not a valid field name and a string value"
        case .object: "an object, not [name, value]"
        case .string: "a string, not [name, value]"
        default: "not [name, value]"
        }
    }

    private static func json(_ fields: HTTPFields) -> OrderedJSON {
        .array(fields.map { .array([.string($0.name.rawName), .string($0.value)]) })
    }

    // MARK: - Bodies

    /// `body` as bytes, per `bodyEncoding`: `json` (the default for a non-string body) is written
    /// compactly with its members in order, `text` (the default for a string) is UTF-8, `base64` is
    /// decoded.
    private static func body(of object: OrderedJSON, at path: String) throws(FormatError) -> Data? {
        guard let body = object["body"] else { return nil }
        // `null` is no body, unless it is said to be JSON: the body `null`.
        guard body != .null || object["bodyEncoding"]?.string == "json" else { return nil }
        let encoding = object["bodyEncoding"]?.string ?? (body.string == nil ? "json" : "text")
        switch (encoding, body) {
        case ("text", .string(let text)):
            return Data(text.utf8)
        case ("base64", .string(let text)):
            guard let data = Data(base64Encoded: text) else { throw FormatError(reason: "\(path).body is not valid base64", at: "\(path).body") }
            return data
        case ("json", _):
            return body.compactData
        default:
            throw FormatError(reason: "\(path).bodyEncoding must be \"json\", \"text\" or \"base64\" (with a string body)", at: "\(path).bodyEncoding")
        }
    }

    /// How a body is stored: JSON as JSON when the content type says JSON and it parses; text as
    /// text; anything else as base64. A body that starts with a byte order mark, which a reader of
    /// JSON or text drops, is stored as base64. `byteExact` keeps every byte: text when it is
    /// UTF-8, else base64.
    private static func bodyMembers(_ body: Data, contentType: String?, byteExact: Bool) -> [OrderedJSON.Member] {
        if !byteExact, !body.starts(with: [0xEF, 0xBB, 0xBF]), contentType.map(isJSON) ?? false, let value = try? OrderedJSON(parsing: body) {
            // A string or `null` says it is JSON: either would read back as something else.
            let explicit = value.string != nil || value == .null ? [OrderedJSON.Member(key: "bodyEncoding", value: .string("json"))] : []
            return [.init(key: "body", value: value)] + explicit
        }
        if !body.starts(with: [0xEF, 0xBB, 0xBF]), let text = String(data: body, encoding: .utf8),
            !text.unicodeScalars.contains(where: { $0.value == 0 })
        {
            return [.init(key: "body", value: .string(text))]
        }
        return [.init(key: "body", value: .string(body.base64EncodedString())), .init(key: "bodyEncoding", value: .string("base64"))]
    }

    private static func isJSON(_ contentType: String) -> Bool {
        let essence = ASCII.lowercased(contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces))
        return essence == "application/json" || essence == "text/json" || essence.hasSuffix("+json")
    }
}

extension Fixture.FormatError {
    /// An error at the value with JSON path `path` (`interactions[2].response.status`; a trailing
    /// `.` is ignored, an empty path is the top level).
    init(reason: String, at path: String) {
        self.init(reason: reason, location: .path(path.hasSuffix(".") ? String(path.dropLast()) : path))
    }
}

extension OrderedJSON {
    /// Compact text, for messages.
    var compactText: String { String(decoding: compactData, as: UTF8.self) }
}
