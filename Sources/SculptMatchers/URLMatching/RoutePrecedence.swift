import SculptShared
import HTTPTypes

/// The order in which a ``URLModelMatcher`` tries routes, as comparisons: what ``URLModelMatcher/explain(_:method:status:)``
/// and ``URLModelMatcher/ambiguities()`` report, and what the route trie does when it looks up a
/// path (literal, then `#`, then `*`, then `**`, segment by segment; a pattern that ends before
/// `**` would begin comes first; then the most specific route of one pattern).
enum RoutePrecedence {
    /// Where two patterns that match one path part: `nil` for the same pattern, else the first
    /// segment whose tokens differ and whether the first pattern's token comes first there.
    static func firstDifference(_ first: URLPattern, _ second: URLPattern) -> (segment: Int, firstWins: Bool)? {
        var index = 0
        while true {
            let left = index < first.tokens.count ? rank(first.tokens[index]) : -1
            let right = index < second.tokens.count ? rank(second.tokens[index]) : -1
            if left == -1, right == -1 { return nil }
            if left != right { return (index, left < right) }
            if case .literal(let a) = first.tokens[index], case .literal(let b) = second.tokens[index], a != b {
                return (index, a < b)  // never between patterns that match one path
            }
            if left == rank(.remainder) { return nil }
            index += 1
        }
    }

    /// A token's place at one segment: a literal first, then `#`, `*`, `**`.
    static func rank(_ token: URLPattern.Token) -> Int {
        switch token {
        case .literal: 0
        case .digits: 1
        case .segment: 2
        case .remainder: 3
        }
    }

    /// How specific a route of one pattern is, for a response: 0 with both a method and a status,
    /// 1 with a method, 2 with a status, 3 with neither; `nil` when the route does not apply.
    static func specificity(method required: HTTPRequest.Method?, status requiredStatus: HTTPResponse.Status?, for method: HTTPRequest.Method?, _ status: HTTPResponse.Status?) -> Int? {
        if let required, required != method { return nil }
        if let requiredStatus, requiredStatus.code != status?.code { return nil }
        switch (required, requiredStatus) {
        case (.some, .some): return 0
        case (.some, nil): return 1
        case (nil, .some): return 2
        case (nil, nil): return 3
        }
    }

    /// Whether `pattern` matches every one of `segments`.
    static func matches(_ pattern: URLPattern, _ segments: [[UInt8]]) -> Bool {
        for (index, token) in pattern.tokens.enumerated() {
            if token == .remainder { return true }
            guard index < segments.count, accepts(token, segments[index]) else { return false }
        }
        return pattern.tokens.count == segments.count
    }

    /// Whether `token` accepts a segment's bytes. Literals compare byte for byte, as the lookup
    /// does: `café` precomposed and decomposed are different segments, though equal `String`s.
    static func accepts(_ token: URLPattern.Token, _ segment: some Collection<UInt8>) -> Bool {
        switch token {
        case .literal(let text): text.utf8.elementsEqual(segment)
        case .digits: segment.isASCIIDigits
        case .segment, .remainder: true
        }
    }

    /// What a token is, for messages: `literal 'users'`, `#`, `*`, `**`.
    static func name(_ token: URLPattern.Token?) -> String {
        switch token {
        case .literal(let text): "literal '\(text)'"
        case .digits: "'#'"
        case .segment: "'*'"
        case .remainder: "'**'"
        case nil: "the end of the pattern"
        }
    }
}
