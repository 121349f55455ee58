import Foundation

/// The parts of a `multipart/*` body (RFC 2046), such as a login form posted as
/// `multipart/form-data` (RFC 7578): each part's name, content type and the ranges of its header
/// and its content, so that a secret part can be found by its name and replaced in place.
///
/// ```swift
/// let body = MultipartBody(bytes, boundary: "x")
/// body?.parts.map(\.name)   // ["login", "password"]
/// ```
///
/// Reading is one pass over the bytes: the boundary is at most 70 bytes (RFC 2046), so finding
/// each delimiter costs at most 70 comparisons a byte. Lines may end in CRLF or LF.
package struct MultipartBody: Sendable {
    /// One part.
    package struct Part: Sendable {
        /// The `name` of its `Content-Disposition` (a form field's name), if any.
        package var name: String?
        /// Its `Content-Type`, if any.
        package var contentType: String?
        /// Where its content lies in the body.
        package var content: Range<Int>
        /// Whether its content is written in base64 (`Content-Transfer-Encoding: base64`).
        package var isBase64 = false

        /// Its content as a reader decodes it: base64 decoded when it is written so.
        package func decoded(in bytes: [UInt8]) -> Data {
            let written = Data(bytes[content])
            guard isBase64 else { return written }
            return Data(base64Encoded: written, options: .ignoreUnknownCharacters) ?? written
        }
    }

    /// The parts, in order.
    package let parts: [Part]

    /// The longest boundary RFC 2046 allows.
    private static let longestBoundary = 70

    /// The boundary a `Content-Type` of a multipart body names (`multipart/form-data;
    /// boundary=----x`), or `nil` for any other type.
    ///
    /// ```swift
    /// MultipartBody.boundary(in: ["multipart/form-data; boundary=\"b1\""])   // b1
    /// ```
    package static func boundary(in contentTypes: [String]) -> String? {
        for value in contentTypes {
            let parameters = value.split(separator: ";").map { $0.trimmingCharacters(in: [" ", "\t"]) }
            guard let essence = parameters.first, ASCII.lowercased(essence).hasPrefix("multipart/") else { continue }
            for parameter in parameters.dropFirst() {
                guard let equals = parameter.firstIndex(of: "="), ASCII.lowercased(parameter[..<equals]).trimmingCharacters(in: [" "]) == "boundary" else { continue }
                var boundary = parameter[parameter.index(after: equals)...].trimmingCharacters(in: [" "])
                if boundary.count >= 2, boundary.hasPrefix("\""), boundary.hasSuffix("\"") { boundary = String(boundary.dropFirst().dropLast()) }
                guard !boundary.isEmpty, boundary.utf8.count <= longestBoundary else { return nil }
                return boundary
            }
        }
        return nil
    }

    /// The parts of `bytes`, delimited by `boundary`; `nil` when no delimiter opens a part.
    package init?(_ bytes: [UInt8], boundary: String) {
        let delimiter = Array("--\(boundary)".utf8)
        guard boundary.utf8.count <= Self.longestBoundary, var start = Self.delimiter(delimiter, in: bytes, from: 0) else { return nil }
        var parts: [Part] = []
        while true {
            var cursor = start + delimiter.count
            // `--` after a delimiter closes the body.
            if bytes[cursor...].starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) { break }
            guard let lineEnd = bytes[cursor...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            cursor = lineEnd + 1
            let (name, contentType, isBase64, contentStart) = Self.header(bytes, from: cursor)
            let next = Self.delimiter(delimiter, in: bytes, from: contentStart)
            var contentEnd = next ?? bytes.count
            // The line break before a delimiter belongs to it.
            if next != nil, contentEnd > contentStart, bytes[contentEnd - 1] == UInt8(ascii: "\n") {
                contentEnd -= 1
                if contentEnd > contentStart, bytes[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
            }
            parts.append(Part(name: name, contentType: contentType, content: contentStart..<max(contentStart, contentEnd), isBase64: isBase64))
            guard let next else { break }
            start = next
        }
        guard !parts.isEmpty else { return nil }
        self.parts = parts
    }

    /// Where the next delimiter at the start of a line begins, at or after `from`.
    private static func delimiter(_ delimiter: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + delimiter.count <= bytes.count {
            if (index == 0 || bytes[index - 1] == UInt8(ascii: "\n")), bytes[index] == delimiter[0],
                bytes[index..<(index + delimiter.count)].elementsEqual(delimiter) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// A part's header from `start`: its name, content type and transfer encoding, and where its
    /// content starts (after the empty line).
    private static func header(_ bytes: [UInt8], from start: Int) -> (name: String?, contentType: String?, isBase64: Bool, contentStart: Int) {
        var name: String?
        var contentType: String?
        var isBase64 = false
        var lineStart = start
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var line = bytes[lineStart..<lineEnd]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            lineStart = lineEnd + 1
            guard !line.isEmpty else { return (name, contentType, isBase64, min(lineStart, bytes.count)) }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { continue }
            let field = ASCII.lowercased(text[..<colon]).trimmingCharacters(in: [" "])
            let value = text[text.index(after: colon)...].trimmingCharacters(in: [" ", "\t"])
            if field == "content-type" { contentType = value }
            if field == "content-disposition" { name = Self.parameter("name", in: value) }
            if field == "content-transfer-encoding" { isBase64 = ASCII.lowercased(value) == "base64" }
        }
        return (name, contentType, isBase64, bytes.count)
    }

    /// The value of `parameter` in a header value (`form-data; name="password"`), unquoted: white
    /// space around `=` allowed, and the extended form (`name*=UTF-8''password`, RFC 8187)
    /// decoded.
    private static func parameter(_ parameter: String, in value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let key = ASCII.lowercased(piece[..<equals].trimmingCharacters(in: [" ", "\t"]))
            let raw = piece[piece.index(after: equals)...].trimmingCharacters(in: [" ", "\t"])
            if key == parameter {
                return raw.count >= 2 && raw.hasPrefix("\"") && raw.hasSuffix("\"") ? String(raw.dropFirst().dropLast()) : raw
            }
            if key == parameter + "*", let quote = raw.range(of: "'", options: .backwards) {
                // `charset'language'value`, the value percent-encoded.
                let encoded = raw[quote.upperBound...]
                return encoded.removingPercentEncoding ?? String(encoded)
            }
        }
        return nil
    }
}
