import Sculpt
import SculptShared
/// The directives of `Cache-Control` field values (RFC 9111, section 5.2), names lowercased.
///
/// ```swift
/// let control = CacheControl(["max-age=60, must-revalidate"])
/// control.seconds("max-age")      // 60
/// control.contains("no-store")    // false
/// ```
struct CacheControl: Sendable {
    /// Each directive's argument (`nil` when it has none), by lowercased name; the first of a
    /// repeated directive wins.
    private var directives: [String: String?] = [:]

    /// Parses the values of every `Cache-Control` field of a message, byte by byte (a cached
    /// response is judged on every load).
    init(_ values: [String]) {
        for value in values {
            let bytes = Array(value.utf8)
            var start = 0
            var quoted = false
            var escaped = false
            for index in 0...bytes.count {
                if index < bytes.count {
                    // In a quoted string a backslash escapes the next byte (RFC 9110, 5.6.4).
                    if escaped {
                        escaped = false
                        continue
                    }
                    if quoted, bytes[index] == UInt8(ascii: "\\") {
                        escaped = true
                        continue
                    }
                    if bytes[index] == UInt8(ascii: "\"") { quoted.toggle() }
                    guard bytes[index] == UInt8(ascii: ","), !quoted else { continue }
                }
                add(bytes[start..<index])
                start = index + 1
            }
        }
    }

    /// Whether the directive is present.
    func contains(_ name: String) -> Bool {
        directives[name] != nil
    }

    /// A delta-seconds argument (`max-age=60`); `nil` when absent or not a number.
    func seconds(_ name: String) -> Int? {
        (directives[name] ?? nil).flatMap(Self.deltaSeconds)
    }

    /// A delta-seconds value (RFC 9111, section 1.2.2): decimal digits only, leading zeros
    /// allowed, values past 2^31 taken as 2^31; `nil` for anything else.
    ///
    /// ```swift
    /// CacheControl.deltaSeconds("0060")                    // 60
    /// CacheControl.deltaSeconds("99999999999999999999")    // 2147483648
    /// ```
    static func deltaSeconds(_ text: some StringProtocol) -> Int? {
        let digits = text.utf8
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 10 else { return 1 << 31 }
        return min(significant.reduce(0) { $0 * 10 + Int($1 - 0x30) }, 1 << 31)
    }

    /// Adds one `name[=argument]` directive.
    private mutating func add(_ directive: ArraySlice<UInt8>) {
        let equals = directive.firstIndex(of: UInt8(ascii: "="))
        let name = Self.trimmed(directive[..<(equals ?? directive.endIndex)]).map(ASCII.lowercased)
        guard !name.isEmpty else { return }
        var argument = equals.map { Self.trimmed(directive[($0 + 1)...]) }
        if let quoted = argument, quoted.count >= 2, quoted.first == UInt8(ascii: "\""), quoted.last == UInt8(ascii: "\"") {
            argument = quoted.dropFirst().dropLast()
        }
        let key = String(decoding: name, as: UTF8.self)
        if directives[key] == nil { directives[key] = .some(argument.map { String(decoding: $0, as: UTF8.self) }) }
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return [] }
        return bytes[first...last]
    }
}
