import SculptShared
import HTTPTypes
import Sculpt

/// A request's first line and header fields as read off the wire (RFC 9112), checked strictly:
/// whatever is ambiguous (two lengths, a length beside chunked framing, a folded line, a space
/// before a colon) is refused rather than guessed, so no two readers of the same bytes can
/// disagree about where a request ends.
struct HTTPRequestHead: Sendable {
    /// How the request's body is delimited.
    enum Framing: Equatable, Sendable {
        /// No body.
        case none
        /// Exactly this many bytes.
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
    }

    /// A request the server answers with an error status and then closes.
    struct Rejection: Error, Equatable, Sendable {
        /// 400, 413, 414, 417, 431, 501 or 505.
        var status: Int
        /// What was wrong, for the response body.
        var reason: String
    }

    /// The method, a token as sent (`GET`).
    var method: HTTPRequest.Method
    /// The path and query (origin form), `/users/1?page=2`; an absolute-form target keeps only
    /// these, so no authority in a request ever reaches matching.
    var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    /// The header fields in order, repeats kept.
    var fields: HTTPFields
    /// How the body is delimited.
    var framing: Framing
    /// Whether the connection stays open after the response.
    var keepsAlive: Bool
    /// Whether the client waits for `100 Continue` before sending the body.
    var expectsContinue: Bool

    /// Parses the head's lines: `bytes` runs from the request line to the end of the last header
    /// line, without the blank line that ends the head. Lines end in LF, with or without CR.
    ///
    /// - Throws: ``Rejection`` with the status to answer.
    init(parsing bytes: ArraySlice<UInt8>, maximumBodySize: Int) throws(Rejection) {
        var lines = bytes.split(separator: Self.lineFeed, omittingEmptySubsequences: false).map { line in
            line.last == Self.carriageReturn ? line.dropLast() : line
        }[...]
        guard let requestLine = lines.popFirst() else { throw Rejection(status: 400, reason: "the request has no request line") }
        (method, target, minorVersion) = try Self.requestLine(requestLine)
        fields = HTTPFields()
        for line in lines {
            fields.append(try Self.field(line))
        }
        let hosts = fields[values: Self.host]
        guard hosts.count <= 1, minorVersion == 0 || hosts.count == 1 else {
            throw Rejection(status: 400, reason: "an HTTP/1.1 request has exactly one Host field; this one has \(hosts.count)")
        }
        guard hosts.allSatisfy({ RequestTarget.isAuthority(ArraySlice($0.utf8)) }) else {
            throw Rejection(status: 400, reason: "the Host field is not a host and an optional port")
        }
        framing = try Self.framing(fields, minorVersion: minorVersion, maximumBodySize: maximumBodySize)
        let connection = Self.tokens(fields[values: .connection])
        keepsAlive = minorVersion == 1 ? !connection.contains("close") : connection.contains("keep-alive")
        let expectations = Self.tokens(fields[values: .expect])
        guard expectations.allSatisfy({ $0 == "100-continue" }) else {
            throw Rejection(status: 417, reason: "the only expectation this server meets is 100-continue")
        }
        expectsContinue = !expectations.isEmpty && framing != .none
    }

    // MARK: - Request line

    private static func requestLine(_ line: ArraySlice<UInt8>) throws(Rejection) -> (HTTPRequest.Method, String, Int) {
        let parts = line.split(separator: space, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let method = HTTPRequest.Method(String(decoding: parts[0], as: UTF8.self)), parts[0].allSatisfy(isTokenByte) else {
            throw Rejection(status: 400, reason: "the request line is not METHOD SP TARGET SP HTTP-VERSION")
        }
        let version = parts[2]
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)),
            let major = version.dropFirst(5).first, isDigit(major), version.dropFirst(6).first == UInt8(ascii: "."),
            let minor = version.last, isDigit(minor)
        else {
            throw Rejection(status: 400, reason: "the request line does not end in an HTTP version (HTTP/1.1)")
        }
        guard major == UInt8(ascii: "1") else {
            throw Rejection(status: 505, reason: "this server speaks HTTP/1.0 and HTTP/1.1")
        }
        // A later 1.x is answered as 1.1, the highest minor version this server speaks (RFC 9110,
        // section 6.2).
        return (method, try RequestTarget.pathAndQuery(parts[1]), Swift.min(Int(minor - UInt8(ascii: "0")), 1))
    }

    // MARK: - Fields

    private static func field(_ line: ArraySlice<UInt8>) throws(Rejection) -> HTTPField {
        guard let first = line.first, first != space, first != tab else {
            throw Rejection(status: 400, reason: "a header line starts with white space (obsolete line folding is not accepted)")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), line[..<colon].allSatisfy(isTokenByte),
            let name = HTTPField.Name(String(decoding: line[..<colon], as: UTF8.self))
        else {
            throw Rejection(status: 400, reason: "a header line is not NAME: VALUE with a token for a name")
        }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == space || byte == tab { value.removeFirst() }
        while let byte = value.last, byte == space || byte == tab { value.removeLast() }
        guard value.allSatisfy({ $0 == tab || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw Rejection(status: 400, reason: "the value of \(name) has a control byte")
        }
        return HTTPField(name: name, value: value)
    }

    private static func framing(_ fields: HTTPFields, minorVersion: Int, maximumBodySize: Int) throws(Rejection) -> Framing {
        let lengths = fields[values: .contentLength].flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { $0.trimmingWhiteSpace }
        let codings = tokens(fields[values: .transferEncoding])
        if fields[.transferEncoding] != nil {
            guard !codings.isEmpty else { throw Rejection(status: 400, reason: "Transfer-Encoding names no coding") }
            guard lengths.isEmpty else {
                throw Rejection(status: 400, reason: "the request has both Content-Length and Transfer-Encoding")
            }
            guard minorVersion == 1 else { throw Rejection(status: 400, reason: "Transfer-Encoding needs HTTP/1.1") }
            guard codings == ["chunked"] else {
                throw Rejection(status: 501, reason: "the only transfer coding this server reads is chunked; found \(codings.joined(separator: ", "))")
            }
            return .chunked
        }
        guard let length = lengths.first else { return .none }
        guard lengths.allSatisfy({ $0 == length }), !length.isEmpty, length.utf8.allSatisfy(isDigit) else {
            throw Rejection(status: 400, reason: "Content-Length is not one decimal number")
        }
        guard let count = Int(length), count <= maximumBodySize else {
            throw Rejection(status: 413, reason: "the body is \(length) bytes; this server reads at most \(maximumBodySize)")
        }
        return count == 0 ? .none : .length(count)
    }

    /// The comma-separated tokens of a field's values, lowercased, empty ones left out.
    private static func tokens(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { ASCII.lowercased($0.trimmingWhiteSpace) }.filter { !$0.isEmpty }
    }

    // MARK: - Bytes

    /// `Host`, which swift-http-types leaves out of its names (HTTP/2 carries it as `:authority`).
    private static let host = HTTPField.Name.literal("Host")

    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingWhiteSpace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
