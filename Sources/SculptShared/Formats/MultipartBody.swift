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
/// Reading is one pass over the bytes: a delimiter is looked for only where a line starts, and a
/// comparison that fails stops inside that line, so the bytes are compared about once whatever
/// the boundary's length (RFC 2046 allows 70 bytes; senders write more, and any length is read).
/// Lines may end in CRLF or LF, and a header field may be folded onto the lines after it.
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
    /// The boundary that delimits them.
    package let boundary: String

    /// Whether one of `contentTypes` is a `multipart/*` type.
    package static func isMultipart(_ contentTypes: [String]) -> Bool {
        contentTypes.contains { ASCII.lowercased($0.trimmingCharacters(in: [" ", "\t"])).hasPrefix("multipart/") }
    }

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
                guard !boundary.isEmpty else { return nil }
                return boundary
            }
        }
        return nil
    }

    /// The parts of `bytes`, delimited by `boundary` or, when that opens no part (a sender that
    /// declared one boundary and wrote another), by the one the first line that starts with `--`
    /// names (after a preamble, if any); with no boundary given, by the one the first line names
    /// when it starts with `--`. `nil` when none opens a part.
    package init?(_ bytes: [UInt8], boundary: String?) {
        if let boundary, let parts = Self.parts(of: bytes, boundary: boundary) {
            (self.parts, self.boundary) = (parts, boundary)
            return
        }
        // With no boundary declared, only a body that starts as one is taken for one.
        var lineStart = 0
        while boundary != nil, lineStart < bytes.count, !bytes[lineStart...].starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) {
            guard let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            lineStart = lineEnd + 1
        }
        guard bytes[lineStart...].starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) else { return nil }
        let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        guard lineStart + 2 <= lineEnd,
            case let written = String(decoding: bytes[(lineStart + 2)..<lineEnd], as: UTF8.self).trimmingCharacters(in: [" ", "\t", "\r"]),
            written != boundary, let parts = Self.parts(of: bytes, boundary: written)
        else { return nil }
        (self.parts, self.boundary) = (parts, written)
    }

    /// The parts of `bytes` delimited by `boundary`; `nil` when no delimiter opens one.
    private static func parts(of bytes: [UInt8], boundary: String) -> [Part]? {
        let delimiter = Array("--\(boundary)".utf8)
        guard !boundary.isEmpty, var start = Self.delimiter(delimiter, in: bytes, from: 0) else { return nil }
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
        return parts.isEmpty ? nil : parts
    }

    /// Where the next delimiter begins at or after `from`: at the start of a line, followed by
    /// `--` (the close) or by white space to the line's end (RFC 2046), so that a line of content
    /// that only starts as one (`--boundary-and-more`) is content.
    private static func delimiter(_ delimiter: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + delimiter.count <= bytes.count {
            if (index == 0 || bytes[index - 1] == UInt8(ascii: "\n")), bytes[index] == delimiter[0],
                bytes[index..<(index + delimiter.count)].elementsEqual(delimiter), endsDelimiter(bytes, at: index + delimiter.count) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Whether what follows a delimiter at `index` ends it: `--`, or white space and then a line
    /// break or the end of the body.
    private static func endsDelimiter(_ bytes: [UInt8], at index: Int) -> Bool {
        if bytes[index...].starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) { return true }
        let rest = bytes[index...].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        return rest.first.map { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") } ?? true
    }

    /// A part's header from `start`: its name, content type and transfer encoding, and where its
    /// content starts (after the empty line). A line that starts with white space continues the
    /// field before it (a folded field).
    private static func header(_ bytes: [UInt8], from start: Int) -> (name: String?, contentType: String?, isBase64: Bool, contentStart: Int) {
        var fields: [String] = []
        var lineStart = start
        var contentStart = bytes.count
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var line = bytes[lineStart..<lineEnd]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            lineStart = lineEnd + 1
            guard let first = line.first else {
                contentStart = min(lineStart, bytes.count)
                break
            }
            let text = String(decoding: line, as: UTF8.self)
            if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"), let last = fields.indices.last {
                fields[last] += " " + text.trimmingCharacters(in: [" ", "\t"])
            } else {
                fields.append(text)
            }
        }
        var name: String?
        var contentType: String?
        var isBase64 = false
        for text in fields {
            guard let colon = text.firstIndex(of: ":") else { continue }
            let field = ASCII.lowercased(text[..<colon]).trimmingCharacters(in: [" "])
            let value = text[text.index(after: colon)...].trimmingCharacters(in: [" ", "\t"])
            if field == "content-type" { contentType = value }
            if field == "content-disposition" { name = Self.parameter("name", in: value) }
            if field == "content-transfer-encoding" { isBase64 = ASCII.lowercased(value) == "base64" }
        }
        return (name, contentType, isBase64, contentStart)
    }

    /// The value of `parameter` in a header value (`form-data; name="password"`), unquoted: white
    /// space around `=` allowed, a `;` inside quotes kept, the extended form
    /// (`name*=UTF-8''password`, RFC 8187) decoded, and an encoded word (`=?utf-8?q?password?=`,
    /// RFC 2047) decoded.
    private static func parameter(_ parameter: String, in value: String) -> String? {
        for piece in pieces(of: value).dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let key = ASCII.lowercased(piece[..<equals].trimmingCharacters(in: [" ", "\t"]))
            let raw = piece[piece.index(after: equals)...].trimmingCharacters(in: [" ", "\t"])
            if key == parameter {
                let unquoted = raw.count >= 2 && raw.hasPrefix("\"") && raw.hasSuffix("\"") ? String(raw.dropFirst().dropLast()) : raw
                return encodedWord(unquoted) ?? unquoted
            }
            if key == parameter + "*", let quote = raw.range(of: "'", options: .backwards) {
                // `charset'language'value`, the value percent-encoded.
                let encoded = raw[quote.upperBound...]
                return encoded.removingPercentEncoding ?? String(encoded)
            }
        }
        return nil
    }

    /// `value` split at each `;` outside quotes.
    private static func pieces(of value: String) -> [Substring] {
        var pieces: [Substring] = []
        var start = value.startIndex
        var quoted = false
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if character == "\\", quoted, value.index(after: index) < value.endIndex {
                index = value.index(index, offsetBy: 2)
                continue
            }
            if character == "\"" { quoted.toggle() }
            if character == ";", !quoted {
                pieces.append(value[start..<index])
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        pieces.append(value[start...])
        return pieces
    }

    /// The text of an RFC 2047 encoded word (`=?utf-8?q?pass_word?=`, `=?utf-8?b?cGFzcw==?=`), as
    /// some senders write a non-ASCII field name; `nil` for any other text.
    private static func encodedWord(_ text: String) -> String? {
        guard text.hasPrefix("=?"), text.hasSuffix("?="), text.count > 4 else { return nil }
        let fields = text.dropFirst(2).dropLast(2).split(separator: "?", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        switch ASCII.lowercased(fields[1]) {
        case "b": return Data(base64Encoded: String(fields[2])).map { String(decoding: $0, as: UTF8.self) }
        case "q":
            var bytes: [UInt8] = []
            var rest = Substring(fields[2]).utf8[...]
            while let byte = rest.first {
                rest = rest.dropFirst()
                if byte == UInt8(ascii: "_") {
                    bytes.append(UInt8(ascii: " "))
                } else if byte == UInt8(ascii: "="), rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) {
                    bytes.append(value)
                    rest = rest.dropFirst(2)
                } else {
                    bytes.append(byte)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        default: return nil
        }
    }
}
