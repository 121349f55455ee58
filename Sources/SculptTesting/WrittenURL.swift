import Foundation
import SculptShared

/// A URL as a recording, a HAR archive, a stub or a request line writes it: the characters a URL
/// may not hold after its authority (a space, `[`, `]`, `"`, `{`, past ASCII, a `%` that starts no
/// escape, a second `#`) are percent-encoded, and an escape already written (`%20`, `%2F`) is kept
/// as it is. So `https://h/s?filter[x]=a%20b`, as browsers write it in HAR files, reads as
/// `https://h/s?filter%5Bx%5D=a%20b` on every platform, where Foundation's own repair of such a
/// string encodes its `%` as well (`a%2520b`), and older systems read no URL at all.
enum WrittenURL {
    /// The URL `text` writes; `nil` when it is not one even with those characters encoded.
    ///
    /// ```swift
    /// WrittenURL.parse("https://h/s?filter[x]=a%20b")?.absoluteString   // "https://h/s?filter%5Bx%5D=a%20b"
    /// ```
    static func parse(_ text: String) -> URL? {
        URL(string: encoded(text))
    }

    /// `text` with what a URL may not hold after its authority percent-encoded.
    static func encoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var written = Array(bytes[..<authorityEnd(bytes)])
        var inFragment = false
        var changed = false
        for index in written.count..<bytes.count {
            let byte = bytes[index]
            let kept = switch byte {
            case UInt8(ascii: "%"): index + 2 < bytes.count && PercentEncoding.hexValue(bytes[index + 1]) != nil && PercentEncoding.hexValue(bytes[index + 2]) != nil
            case UInt8(ascii: "#"): !inFragment
            default: isAllowed(byte)
            }
            if kept {
                written.append(byte)
            } else {
                written += [UInt8(ascii: "%"), PercentEncoding.hexDigit(byte >> 4), PercentEncoding.hexDigit(byte & 0x0F)]
                changed = true
            }
            inFragment = inFragment || byte == UInt8(ascii: "#")
        }
        return changed ? String(decoding: written, as: UTF8.self) : text
    }

    /// Where the scheme and authority end: at the first `/`, `?` or `#` after `scheme://`; at the
    /// start for a path.
    private static func authorityEnd(_ bytes: [UInt8]) -> Int {
        guard let separator = bytes.firstRange(of: Array("://".utf8)), separator.lowerBound > 0,
            bytes[..<separator.lowerBound].allSatisfy({ isAllowed($0) && !"/?#:@".utf8.contains($0) })
        else { return 0 }
        return bytes[separator.upperBound...].firstIndex { "/?#".utf8.contains($0) } ?? bytes.count
    }

    /// Whether a URL's path, query or fragment holds `byte` as it is (RFC 3986's unreserved and
    /// reserved characters).
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "-._~!$&'()*+,;=:@/?#".utf8.contains(byte)
        }
    }
}
