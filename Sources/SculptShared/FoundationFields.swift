import Foundation
package import HTTPTypes
#if canImport(FoundationNetworking)
import FoundationNetworking
#else
import HTTPTypesFoundation
#endif

/// Header fields between Foundation's request and response types and `HTTPFields`: the one
/// conversion Sculpt makes, for ``ResponseContext``, the response cache, and SculptTesting's
/// recorder, replay protocol and proxy.
///
/// ```swift
/// let fields = FoundationFields.fields(of: httpURLResponse)   // sorted by name
/// let response = FoundationFields.response(status: 200, fields: fields, url: url)
/// ```
///
/// Foundation holds each field's value as a `String` decoded from the wire's bytes, by a rule that
/// depends on the platform. Apple's URL loading system reads each byte as one ISO Latin-1
/// character, which is what HTTPTypesFoundation's bridge (`HTTPURLResponse.httpResponse`,
/// `URLRequest.httpRequest`) assumes: on Apple platforms the bridge converts. FoundationNetworking
/// (Linux) decodes header bytes as UTF-8, and fails a response whose header bytes are not UTF-8
/// ("Failed writing header"): there a value's UTF-8 is its bytes. (The bridge would turn `é` into
/// the single byte 0xE9, which is not the `C3 A9` the server sent, and any character past U+00FF
/// into a space.)
package enum FoundationFields {
    /// A response's header fields, sorted by name so that every read gives the same fields in the
    /// same order: Foundation keeps no order (on Linux each read of `allHeaderFields` is a new
    /// dictionary, in a new order) and has already joined a repeated field's values with commas.
    /// Names that differ only in case (FoundationNetworking keeps `x-` names as sent) are ordered
    /// by their spelling, then by value.
    package static func fields(of response: HTTPURLResponse) -> HTTPFields {
        #if canImport(FoundationNetworking)
        var fields = pairs(utf8: response.allHeaderFields)
        #else
        // The bridge reads no fields from a response whose status is outside 0...999.
        var fields = Array(response.httpResponse?.headerFields ?? [:])
        #endif
        fields.sort { ($0.name.canonicalName, $0.name.rawName, $0.value) < ($1.name.canonicalName, $1.name.rawName, $1.value) }
        return HTTPFields(fields)
    }

    /// A request's header fields, in no particular order (Foundation keeps none).
    package static func fields(of request: URLRequest) -> HTTPFields {
        #if canImport(FoundationNetworking)
        HTTPFields(pairs(utf8: (request.allHTTPHeaderFields ?? [:]) as [AnyHashable: Any]))
        #else
        request.httpRequest?.headerFields ?? [:]
        #endif
    }

    /// A Foundation response with `status` and `fields` (a repeated field's values joined, as
    /// Foundation holds them: see ``joined(_:)``), from `url`; `nil` for a status outside 0...999.
    package static func response(status: Int, fields: HTTPFields, url: URL) -> HTTPURLResponse? {
        guard (0...999).contains(status) else { return nil }
        #if canImport(FoundationNetworking)
        return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: joined(fields))
        #else
        return HTTPURLResponse(httpResponse: HTTPResponse(status: .init(code: status), headerFields: fields), url: url)
        #endif
    }

    /// A request for `url` with `method` and `fields` (a repeated field's values joined: see
    /// ``joined(_:)``).
    package static func request(_ url: URL, method: HTTPRequest.Method, fields: HTTPFields) -> URLRequest {
        #if !canImport(FoundationNetworking)
        // The bridge needs a scheme (it traps without one) and makes no request for `CONNECT`.
        if url.scheme != nil, let request = URLRequest(httpRequest: HTTPRequest(method: method, url: url, headerFields: fields)) {
            return request
        }
        #endif
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        request.allHTTPHeaderFields = joined(fields)
        return request
    }

    /// Fields as Foundation's header dictionary, under the name as first spelled: a repeated
    /// field's values joined with `, `, and `Cookie`'s with `; ` (RFC 6265's cookie string).
    private static func joined(_ fields: HTTPFields) -> [String: String] {
        var joined: [HTTPField.Name: (name: String, value: String)] = [:]
        for field in fields {
            if let earlier = joined[field.name] {
                let separator = field.name == .cookie ? "; " : ", "
                joined[field.name] = (earlier.name, earlier.value + separator + field.value)
            } else {
                joined[field.name] = (field.name.rawName, field.value)
            }
        }
        return Dictionary(uniqueKeysWithValues: joined.values.map { ($0.name, $0.value) })
    }

    #if canImport(FoundationNetworking)
    /// Foundation's header dictionary as fields, each value's UTF-8 its bytes; names that are not
    /// field names are left out.
    private static func pairs(utf8 headers: [AnyHashable: Any]) -> [HTTPField] {
        var fields: [HTTPField] = []
        fields.reserveCapacity(headers.count)
        for (name, value) in headers {
            guard let name = (name as? String).flatMap({ HTTPField.Name($0) }), let value = value as? String else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        return fields
    }
    #endif
}
