import SculptShared
/// A compiled URL path pattern such as `/repos/*/*/issues/#` or `/search/**`.
///
/// ```swift
/// let pattern = try URLPattern("/repos/*/*/issues/#")
/// pattern.tokens  // [.literal("repos"), .segment, .segment, .literal("issues"), .digits]
/// ```
///
/// A pattern is split like a URL path: on `/`, empty segments dropped (leading, trailing and
/// doubled slashes mean nothing), each segment percent-decoded on its own. Each segment is a token:
/// - `#`: one segment of ASCII digits (never empty);
/// - `*`: exactly one segment;
/// - `**`: zero or more segments; only as the last token;
/// - `{name}`, `{name:#}` and `{name:**}`: `*`, `#` and `**` with a name, for the value the segment
///   holds (``parameterNames``, ``path(with:)``); a name is an ASCII letter or `_`, then letters,
///   digits, `_`, `-` and `.`, and a pattern names each parameter once;
/// - anything else is a literal, compared case-sensitively after decoding. `id#` and `a*b` are
///   literals; write `%2A` for a literal `*` segment, `%23` for a literal `#`, and `%7B` and `%7D`
///   for braces.
///
/// A brace that does not make a whole segment a parameter (`{id`, `v{n}`), and a segment written
/// as other routers name a parameter (`:login`), are refused with what to write instead.
///
/// ```swift
/// let issue = try URLPattern("/repos/{owner}/{repo}/issues/{number:#}")
/// issue.parameterNames                                                  // ["owner", "repo", "number"]
/// try issue.path(with: ["owner": "apple", "repo": "swift", "number": "1"]) // "/repos/apple/swift/issues/1"
/// ```
///
/// `/` and the empty pattern are the root path. A pattern has at most ``maximumSegmentCount``
/// segments.
public struct URLPattern: Sendable, Hashable, CustomStringConvertible {
    /// One segment of a pattern.
    public enum Token: Sendable, Hashable {
        /// A segment equal to this text (after percent-decoding).
        case literal(String)
        /// `#`: a segment of one or more ASCII digits.
        case digits
        /// `*`: any one segment.
        case segment
        /// `**`: any number of segments, including none.
        case remainder
    }

    /// Why a pattern could not be compiled.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The pattern as given.
        public var pattern: String
        /// What is wrong with it.
        public var reason: String

        /// E.g. `invalid URL pattern "/a/**/b": '**' must be the last segment`. A pattern over
        /// 80 characters is shown by its start and end, with its length in bytes; control and
        /// invisible characters are escaped, and the whole is at most 2 KB.
        public var description: String {
            ShownText.line("invalid URL pattern \(URLPattern.shown(pattern)): \(reason)", limit: 2_048)
        }
    }

    /// A pattern in a message: in quotes, by its start and end when it is over 80 characters,
    /// with its length in bytes. It passes the gate whole before its middle is left out, so that
    /// no credential in it is shown in part.
    static func shown(_ pattern: String) -> String {
        let safe = ShownText.line(pattern, limit: .max)
        guard safe.count > 80 else { return "\"\(safe)\"" }
        return "\"\(safe.prefix(56))…\(safe.suffix(16))\" (\(pattern.utf8.count) bytes)"
    }

    /// The most segments a pattern may have: 256. Real APIs stay far below it (GitHub's longest
    /// route template has 11), and it bounds the depth of the route trie, and so the depth of a
    /// lookup's backtracking, whatever the table and the path.
    public static let maximumSegmentCount = 256

    /// The tokens, one per segment.
    public let tokens: [Token]

    /// The name of each token's parameter, one per token: `nil` for a literal and for a `*`, `#`
    /// or `**` written without a name.
    public private(set) var names: [String?]

    /// How many tokens have a name: a match captures values only for a pattern with some.
    private(set) var namedCount: Int

    /// Compiles a pattern.
    ///
    /// ```swift
    /// let search = try URLPattern("/search/**")
    /// ```
    /// - Parameter pattern: the path pattern, such as `/repos/*/*/issues/#`.
    /// - Throws: ``SyntaxError`` when the pattern has more than ``maximumSegmentCount`` segments,
    ///   `**` is not the last segment, a segment is `.` or `..` (paths are matched with those
    ///   resolved, so such a pattern could never match), or a segment has a percent escape that does
    ///   not decode to UTF-8.
    public init(_ pattern: String) throws(SyntaxError) {
        // Counted before splitting, so an oversized pattern costs one pass and no allocation.
        let count = PathSegments.count(pattern[...])
        guard count <= Self.maximumSegmentCount else {
            throw SyntaxError(pattern: pattern, reason: "a pattern may have at most \(Self.maximumSegmentCount) segments; this one has \(count)")
        }
        var tokens: [Token] = []
        var names: [String?] = []
        tokens.reserveCapacity(count)
        names.reserveCapacity(count)
        for raw in PathSegments.splitRaw(pattern[...]) {
            if tokens.last == .remainder {
                throw SyntaxError(pattern: pattern, reason: "'**' must be the last segment")
            }
            let (token, name) = try Self.token(raw, in: pattern)
            if let name, names.contains(name) {
                throw SyntaxError(pattern: pattern, reason: "the parameter '\(name)' is named twice; give each its own name")
            }
            tokens.append(token)
            names.append(name)
        }
        self.tokens = tokens
        self.names = names
        self.namedCount = names.count { $0 != nil }
    }

    /// This pattern with the names `other` gives where this one gives none: a route registered
    /// again without names (`/users/*` after `/users/{login}`) keeps the names it had.
    func naming(like other: URLPattern) -> URLPattern {
        guard other.namedCount > 0, other.tokens == tokens else { return self }
        var pattern = self
        pattern.names = zip(names, other.names).map { $0 ?? $1 }
        pattern.namedCount = pattern.names.count { $0 != nil }
        return pattern
    }

    /// The token a raw segment writes, and its parameter's name.
    private static func token(_ raw: Substring, in pattern: String) throws(SyntaxError) -> (Token, String?) {
        switch raw {
        case "#": return (.digits, nil)
        case "*": return (.segment, nil)
        case "**": return (.remainder, nil)
        default:
            if let parameter = try ParameterSyntax.parameter(raw, in: pattern) { return parameter }
            guard let literal = PathSegments.decodeStrictly(raw) else {
                throw SyntaxError(pattern: pattern, reason: "segment '\(raw)' has a percent escape that is malformed or not UTF-8")
            }
            if PathSegments.isDotSegment(literal.utf8) {
                throw SyntaxError(pattern: pattern, reason: "segment '\(raw)' can never match: paths are matched with '.' and '..' resolved")
            }
            return (.literal(String(literal)), nil)
        }
    }

    /// The names of the parameters, in the order the pattern writes them.
    public var parameterNames: [String] {
        names.compactMap(\.self)
    }

    /// The pattern in normal form: `/repos/*/*/issues/#`, `/repos/{owner}/{repo}`; the root is `/`.
    public var description: String {
        "/" + zip(tokens, names).map { token, name in name.map { ParameterSyntax.text(token, named: $0) } ?? token.text }.joined(separator: "/")
    }

    /// How many leading segments of `segments` this pattern accepts, for ranking near misses.
    func acceptedPrefixLength(of segments: [[UInt8]]) -> Int {
        var count = 0
        for (token, segment) in zip(tokens, segments) {
            if token == .remainder { return segments.count }
            guard RoutePrecedence.accepts(token, segment) else { return count }
            count += 1
        }
        return count
    }
}

extension URLPattern.Token {
    /// The token as written in a pattern, literals escaped so they read back as literals.
    var text: String {
        switch self {
        case .digits: "#"
        case .segment: "*"
        case .remainder: "**"
        case .literal(let text):
            switch text {
            case "#": "%23"
            case "*": "%2A"
            case "**": "%2A%2A"
            default: text.escapingForPattern
            }
        }
    }
}

extension Collection<UInt8> {
    /// Whether these bytes are one or more ASCII digits: what a `#` segment matches.
    var isASCIIDigits: Bool {
        !isEmpty && allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}

extension String {
    /// `%`, `/`, `?` and braces percent-encoded, and a leading `:`, so a decoded literal is written
    /// back into a pattern as the same literal. Works on UTF-8 bytes: a `/` followed by a combining mark
    /// is one `Character`, not `"/"`.
    fileprivate var escapingForPattern: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        for (offset, byte) in utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "%"): bytes += "%25".utf8
            case UInt8(ascii: "/"): bytes += "%2F".utf8
            case UInt8(ascii: "{"): bytes += "%7B".utf8
            case UInt8(ascii: "}"): bytes += "%7D".utf8
            case UInt8(ascii: "?"): bytes += "%3F".utf8
            case UInt8(ascii: ":") where offset == 0: bytes += "%3A".utf8
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
