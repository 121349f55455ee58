import Foundation
import HTTPTypes
import Sculpt

/// Builds response contexts for serializer tests.
func response(
    _ url: String = "https://api.example.com/users/octocat",
    method: HTTPRequest.Method? = .get,
    status: HTTPResponse.Status = .ok,
    contentType: String? = "application/json; charset=utf-8"
) -> ResponseContext {
    var fields = HTTPFields()
    if let contentType { fields[.contentType] = contentType }
    return ResponseContext(url: URL(string: url), method: method, status: status, headerFields: fields)
}

extension Data {
    /// UTF-8 bytes of a JSON literal in a test.
    static func json(_ text: String) -> Data { Data(text.utf8) }
}
