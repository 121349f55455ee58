import Foundation
import SculptShared
import Sculpt

extension OrderedJSON {
    /// The deepest nesting `JSONDecoder` reads, and so the deepest body a fixture stores as JSON.
    static let maximumDepth = 512

    /// The deepest nesting a fixture file may have: a body's ``maximumDepth`` levels, plus the
    /// levels the file format wraps it in (a cassette's interactions, an interaction's response):
    /// what the writer writes, the reader reads. Deeper documents are an error, not a stack overflow.
    static let maximumFileDepth = maximumDepth + 8

    /// Parses a whole document (a UTF-8 byte order mark is skipped), nesting at most
    /// `maximumDepth` levels.
    ///
    /// - Throws: `JSONSyntaxError`, saying what was expected and what is there, at a byte offset.
    init(parsing data: Data, maximumDepth: Int = OrderedJSON.maximumDepth) throws(JSONSyntaxError) {
        let result: Result<OrderedJSON, JSONSyntaxError> = data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
            return Result { () throws(JSONSyntaxError) in try parser.document() }
        }
        self = try result.get()
    }
}

extension OrderedJSON {
    /// The byte offset at which the value at `path` begins in `document`: a path of member names
    /// and indices as messages write it (`interactions[2].response.headers[0]`; the empty path is
    /// the whole document). Where the document lacks the path, or stops being JSON on the way, the
    /// offset of the deepest value that should hold it; `nil` for text that is not such a path. A
    /// repeated member name is read at its first occurrence, as ``subscript(_:)`` reads it.
    static func offset(ofPath path: String, in document: Data) -> Int? {
        guard let steps = PathStep.steps(of: path) else { return nil }
        return document.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
            return parser.offset(of: steps[...])
        }
    }

    /// The line (the first is 1) of the byte at `offset` in `document`: lines end with LF, CRLF or
    /// a lone CR.
    static func line(atOffset offset: Int, in document: Data) -> Int {
        var line = 1
        var previous: UInt8 = 0
        for byte in document.prefix(max(0, offset)) {
            if byte == UInt8(ascii: "\r") || (byte == UInt8(ascii: "\n") && previous != UInt8(ascii: "\r")) { line += 1 }
            previous = byte
        }
        return line
    }

    /// One step of a path: a member name or an index.
    fileprivate enum PathStep: Equatable {
        case member(String)
        case index(Int)

        /// `interactions[2].request.url` as steps; `nil` for text that is not such a path.
        static func steps(of path: String) -> [PathStep]? {
            guard !path.isEmpty else { return [] }
            var steps: [PathStep] = []
            for part in path.split(separator: ".", omittingEmptySubsequences: false) {
                let name = part.prefix { $0 != "[" }
                var rest = part.dropFirst(name.count)
                guard !name.isEmpty || rest.hasPrefix("[") else { return nil }  // an empty part: `a..b`
                if !name.isEmpty { steps.append(.member(String(name))) }
                while rest.hasPrefix("[") {
                    guard let close = rest.firstIndex(of: "]"), let index = Int(rest[rest.index(after: rest.startIndex)..<close]) else { return nil }
                    steps.append(.index(index))
                    rest = rest[rest.index(after: close)...]
                }
                guard rest.isEmpty else { return nil }
            }
            return steps
        }
    }
}

/// Builds a ``OrderedJSON`` from the tokens ``JSONLexer`` reads.
private struct Parser {
    var lexer: JSONLexer
    let maximumDepth: Int
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = OrderedJSON.maximumFileDepth) {
        lexer = JSONLexer(bytes)
        lexer.skipByteOrderMark()
        self.maximumDepth = maximumDepth
    }

    mutating func document() throws(JSONSyntaxError) -> OrderedJSON {
        let value = try self.value()
        lexer.skipWhitespace()
        guard lexer.peek() == nil else { throw lexer.error("unexpected \(lexer.describeNext()) after the document") }
        return value
    }

    private mutating func value() throws(JSONSyntaxError) -> OrderedJSON {
        lexer.skipWhitespace()
        guard let byte = lexer.peek() else { throw lexer.error(expected: "a value") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try lexer.text(of: try lexer.string()))
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let text = try lexer.number()
            return .number(String(decoding: UnsafeBufferPointer(rebasing: lexer.bytes[text]), as: UTF8.self))
        default: throw lexer.error(expected: "a value")
        }
    }

    private mutating func literal(_ text: StaticString, _ value: OrderedJSON) throws(JSONSyntaxError) -> OrderedJSON {
        try lexer.literal(text)
        return value
    }

    /// Counts one more level of nesting; the caller counts it back out with `defer`.
    private mutating func enter() throws(JSONSyntaxError) {
        guard depth < maximumDepth else { throw lexer.error("nested deeper than \(maximumDepth) levels") }
        depth += 1
    }

    private mutating func object() throws(JSONSyntaxError) -> OrderedJSON {
        try enter()
        defer { depth -= 1 }
        lexer.index += 1
        var members: [OrderedJSON.Member] = []
        lexer.skipWhitespace()
        if lexer.peek() == UInt8(ascii: "}") {
            lexer.index += 1
            return .object(members)
        }
        while true {
            lexer.skipWhitespace()
            guard lexer.peek() == UInt8(ascii: "\"") else { throw lexer.error(expected: "a key") }
            let key = try lexer.text(of: try lexer.string())
            lexer.skipWhitespace()
            try lexer.expect(UInt8(ascii: ":"))
            members.append(.init(key: key, value: try value()))
            lexer.skipWhitespace()
            switch lexer.peek() {
            case UInt8(ascii: ","): lexer.index += 1
            case UInt8(ascii: "}"):
                lexer.index += 1
                return .object(members)
            default: throw lexer.error(expected: "',' or '}'")
            }
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> OrderedJSON {
        try enter()
        defer { depth -= 1 }
        lexer.index += 1
        var elements: [OrderedJSON] = []
        lexer.skipWhitespace()
        if lexer.peek() == UInt8(ascii: "]") {
            lexer.index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            lexer.skipWhitespace()
            switch lexer.peek() {
            case UInt8(ascii: ","): lexer.index += 1
            case UInt8(ascii: "]"):
                lexer.index += 1
                return .array(elements)
            default: throw lexer.error(expected: "',' or ']'")
            }
        }
    }

    /// The offset of the value at `steps` from here (see ``OrderedJSON/offset(ofPath:in:)``), or of
    /// the deepest value on the way that holds the path's next step when it does not.
    mutating func offset(of steps: ArraySlice<OrderedJSON.PathStep>) -> Int {
        lexer.skipWhitespace()
        let start = lexer.index
        guard let step = steps.first else { return start }
        switch step {
        case .member(let name):
            guard lexer.peek() == UInt8(ascii: "{") else { return start }
            lexer.index += 1
            repeat {
                lexer.skipWhitespace()
                guard let token = try? lexer.string(), let key = try? lexer.text(of: token) else { return start }
                lexer.skipWhitespace()
                guard (try? lexer.expect(UInt8(ascii: ":"))) != nil else { return start }
                if key == name { return offset(of: steps.dropFirst()) }
                guard (try? value()) != nil else { return start }
            } while skipSeparator()
            return start
        case .index(let position):
            guard lexer.peek() == UInt8(ascii: "["), position >= 0 else { return start }
            lexer.index += 1
            for _ in 0..<position {
                guard (try? value()) != nil, skipSeparator() else { return start }
            }
            lexer.skipWhitespace()
            return lexer.peek() == UInt8(ascii: "]") ? start : offset(of: steps.dropFirst())
        }
    }

    /// Steps over the `,` after a member or element; `false` at anything else (the container's end).
    private mutating func skipSeparator() -> Bool {
        lexer.skipWhitespace()
        guard lexer.peek() == UInt8(ascii: ",") else { return false }
        lexer.index += 1
        return true
    }
}
