import SculptShared
/// A request target (RFC 9112, section 3.2) reduced to what the server matches on: the path and
/// query, as a string that parses as a URL the same way on every platform.
///
/// A target is refused when it has a byte no URL can hold (a space, a control, a non-ASCII byte,
/// `#`), a `%` not followed by two hexadecimal digits, or, in absolute form, an authority that is
/// empty, carries user information (`http://token@host/`), or is not a host and port. Bytes that
/// clients send unencoded although RFC 3986 reserves them (`|`, `{`, `"`, `[` and the like) are
/// percent-encoded one by one, so `%20` stays `%20` and `a|b` becomes `a%7Cb`, as Foundation
/// writes the recorded URL.
enum RequestTarget {
    /// The path and query of an origin-form (`/a?b`) or absolute-form (`http://h/a?b`) target.
    ///
    /// - Throws: a `400` ``HTTPRequestHead/Rejection`` saying what is wrong.
    static func pathAndQuery(_ target: ArraySlice<UInt8>) throws(HTTPRequestHead.Rejection) -> String {
        guard target.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "#") }) else {
            throw refusal("has a byte a URL cannot hold (a space, a control, a non-ASCII byte or #)")
        }
        if target.first == UInt8(ascii: "/") {
            return try normalized(target)
        }
        let lowercased = target.prefix(8).map(ASCII.lowercased)
        let scheme = lowercased.starts(with: Array("https://".utf8)) ? 8 : lowercased.starts(with: Array("http://".utf8)) ? 7 : 0
        guard scheme > 0 else {
            throw refusal("is neither a path (/users/1) nor an absolute http URL")
        }
        let afterScheme = target.dropFirst(scheme)
        let end = afterScheme.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? target.endIndex
        let authority = target[afterScheme.startIndex..<end]
        guard !authority.isEmpty, isAuthority(authority) else {
            throw refusal("names no host, or a host with user information (http://user@host/), which HTTP does not allow")
        }
        let rest = target[end...]
        if rest.isEmpty { return "/" }
        return (rest.first == UInt8(ascii: "?") ? "/" : "") + (try normalized(rest))
    }

    /// Whether `bytes` is a `Host` value (RFC 9110, section 7.2): a host (a name, an IPv4 address
    /// or a bracketed IP literal) and an optional port, or nothing at all.
    static func isAuthority(_ bytes: ArraySlice<UInt8>) -> Bool {
        var host = bytes
        if let colon = bytes.lastIndex(of: UInt8(ascii: ":")), !bytes[colon...].contains(UInt8(ascii: "]")) {
            guard bytes[(colon + 1)...].allSatisfy(isDigit) else { return false }
            host = bytes[..<colon]
        }
        if host.first == UInt8(ascii: "[") {
            guard host.count > 2, host.last == UInt8(ascii: "]") else { return false }
            return host.dropFirst().dropLast().allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") || isUnreserved($0) }
        }
        return hasValidEscapes(host) && host.allSatisfy { isUnreserved($0) || isSubDelimiter($0) || $0 == UInt8(ascii: "%") }
    }

    // MARK: - Path and query

    /// `bytes` with every `%` checked and every byte RFC 3986 does not allow in a path or query
    /// percent-encoded.
    private static func normalized(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestHead.Rejection) -> String {
        guard hasValidEscapes(bytes) else {
            throw refusal("has a % that is not followed by two hexadecimal digits")
        }
        guard bytes.contains(where: needsEncoding) else { return String(decoding: bytes, as: UTF8.self) }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            if needsEncoding(byte) {
                encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            } else {
                encoded.append(byte)
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static func hasValidEscapes(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while let percent = bytes[index...].firstIndex(of: UInt8(ascii: "%")) {
            guard percent + 2 < bytes.endIndex, isHexDigit(bytes[percent + 1]), isHexDigit(bytes[percent + 2]) else { return false }
            index = percent + 3
        }
        return true
    }

    private static func refusal(_ what: String) -> HTTPRequestHead.Rejection {
        HTTPRequestHead.Rejection(status: 400, reason: "the request target \(what)")
    }

    // MARK: - Bytes (RFC 3986, section 2)

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Printable ASCII that is neither unreserved, a delimiter nor `%`: `"`, `<`, `>`, `[`, `\`,
    /// `]`, `^`, `` ` ``, `{`, `|`, `}`.
    private static func needsEncoding(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"),
            UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            true
        default: false
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    private static func isSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default: false
        }
    }
}
