import Foundation

extension SecretPolicy {
    /// `excerpt`, the start of a JSON body, with every string value and every number of four or
    /// more characters replaced by `…`, its keys and structure kept: what a description shows of
    /// a body whose values were not all looked at for secrets, where any value could be one.
    ///
    /// ```swift
    /// SecretPolicy.maskingValues(inJSON: #"{"kind":"abc123","id":7}"#)   // {"kind":"…","id":7}
    /// ```
    package static func maskingValues(inJSON excerpt: String) -> String {
        let bytes = Array(excerpt.utf8)
        var masked: [UInt8] = []
        masked.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                end = min(end + 1, bytes.count)
                var next = end
                while next < bytes.count, JSONBytes.isWhitespace(bytes[next]) { next += 1 }
                let isKey = next < bytes.count && bytes[next] == UInt8(ascii: ":")
                masked.append(contentsOf: isKey ? Array(bytes[index..<end]) : Array("\"…\"".utf8))
                index = end
            } else if byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 {
                var end = index
                while end < bytes.count, isNumberByte(bytes[end]) { end += 1 }
                masked.append(contentsOf: end - index >= shortestSecretValue ? Array("…".utf8) : Array(bytes[index..<end]))
                index = end
            } else {
                masked.append(byte)
                index += 1
            }
        }
        return String(decoding: masked, as: UTF8.self)
    }

    /// `body` with every credential of a known shape (a GitHub or Slack token, a JWT, a private
    /// key's line: ``CredentialShape/find(in:insideWords:)``) replaced by ``Secrets/marker``,
    /// whatever name it stands under: what a recording keeps of a value no name marks as secret.
    ///
    /// ```swift
    /// SecretPolicy.redactingCredentialShapes(in: Data(#"{"note":"ghp_…"}"#.utf8))   // {"note":"REDACTED"}
    /// ```
    package static func redactingCredentialShapes(in body: Data) -> Data {
        let bytes = Array(body)
        // As written, and written with escapes (`ghp_\u0041…` in JSON, `%67hp_…` in a form).
        let found = (CredentialShape.find(in: bytes, insideWords: true).map(\.range) + CredentialShape.escaped(in: bytes).map(\.range))
            .sorted { $0.lowerBound < $1.lowerBound }
        guard !found.isEmpty else { return body }
        var redacted = Data()
        redacted.reserveCapacity(bytes.count)
        var start = 0
        for range in found where range.upperBound > start {
            if range.lowerBound >= start {
                redacted.append(contentsOf: bytes[start..<range.lowerBound])
                redacted.append(contentsOf: Secrets.marker.utf8)
            }
            start = range.upperBound
        }
        redacted.append(contentsOf: bytes[start...])
        return redacted
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
            || byte | 0x20 == UInt8(ascii: "e")
    }
}
