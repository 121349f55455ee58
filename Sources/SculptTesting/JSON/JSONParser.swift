import Foundation
import Sculpt

extension JSONValue {
    /// Why bytes are not JSON, and where.
    struct ParseError: Error, Equatable, CustomStringConvertible {
        var reason: String
        var offset: Int
        var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// The deepest nesting the parser follows; deeper documents are an error, not a stack overflow.
    static let maximumDepth = 512

    /// Parses a whole document (a UTF-8 byte order mark is skipped).
    init(parsing data: Data) throws(ParseError) {
        let result: Result<JSONValue, ParseError> = data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
            return Result { () throws(ParseError) in try parser.document() }
        }
        self = try result.get()
    }
}

extension JSONValue {
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

    /// The line (the first is 1) of the byte at `offset` in `document`.
    static func line(atOffset offset: Int, in document: Data) -> Int {
        1 + document.prefix(max(0, offset)).reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
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

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    mutating func document() throws(JSONValue.ParseError) -> JSONValue {
        let value = try self.value()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected \(describeNext()) after the document") }
        return value
    }

    private mutating func value() throws(JSONValue.ParseError) -> JSONValue {
        skipWhitespace()
        guard let byte = peek() else { throw error("expected a value, found the end") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a value, found \(describeNext())")
        }
    }

    /// Counts one more level of nesting; the caller counts it back out with `defer`.
    private mutating func enter() throws(JSONValue.ParseError) {
        guard depth < JSONValue.maximumDepth else { throw error("nested deeper than \(JSONValue.maximumDepth) levels") }
        depth += 1
    }

    private mutating func object() throws(JSONValue.ParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONValue.Member] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a key, found \(describeNext())") }
            let key = try string()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':', found \(describeNext())") }
            index += 1
            members.append(.init(key: key, value: try value()))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw error("expected ',' or '}', found \(describeNext())")
            }
        }
    }

    private mutating func array() throws(JSONValue.ParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: throw error("expected ',' or ']', found \(describeNext())")
            }
        }
    }

    private mutating func string() throws(JSONValue.ParseError) -> String {
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else { throw error("the document ends inside a string") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(bytes: utf8, encoding: .utf8) else { throw error("a string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"): try escape(into: &utf8)
            case 0..<0x20: throw error("a control character must be escaped in a string")
            default: utf8.append(byte)
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(JSONValue.ParseError) {
        do {
            try JSONEscape.decode(bytes, at: &index, end: bytes.count, into: &utf8)
        } catch {
            throw self.error(error.reason)
        }
    }

    private mutating func number() throws(JSONValue.ParseError) -> String {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw error("a number needs digits") }
        if bytes[integerStart] == UInt8(ascii: "0"), integerDigits > 1 { throw error("a number cannot have leading zeros") }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a number needs digits after '.'") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("a number needs digits in its exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    private mutating func literal(_ text: String, _ value: JSONValue) throws(JSONValue.ParseError) -> JSONValue {
        let utf8 = Array(text.utf8)
        guard index + utf8.count <= bytes.count, bytes[index..<(index + utf8.count)].elementsEqual(utf8) else {
            throw error("expected \(text), found \(describeNext())")
        }
        index += utf8.count
        return value
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek(), JSONBytes.isWhitespace(byte) { index += 1 }
    }

    /// The offset of the value at `steps` from here (see ``JSONValue/offset(ofPath:in:)``), or of
    /// the deepest value on the way that holds the path's next step when it does not.
    mutating func offset(of steps: ArraySlice<JSONValue.PathStep>) -> Int {
        skipWhitespace()
        let start = index
        guard let step = steps.first else { return start }
        switch step {
        case .member(let name):
            guard peek() == UInt8(ascii: "{") else { return start }
            index += 1
            repeat {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\""), let key = try? string() else { return start }
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { return start }
                index += 1
                if key == name { return offset(of: steps.dropFirst()) }
                guard (try? value()) != nil else { return start }
            } while skipSeparator()
            return start
        case .index(let position):
            guard peek() == UInt8(ascii: "["), position >= 0 else { return start }
            index += 1
            for _ in 0..<position {
                guard (try? value()) != nil, skipSeparator() else { return start }
            }
            skipWhitespace()
            return peek() == UInt8(ascii: "]") ? start : offset(of: steps.dropFirst())
        }
    }

    /// Steps over the `,` after a member or element; `false` at anything else (the container's end).
    private mutating func skipSeparator() -> Bool {
        skipWhitespace()
        guard peek() == UInt8(ascii: ",") else { return false }
        index += 1
        return true
    }

    private func describeNext() -> String {
        guard let byte = peek() else { return "the end" }
        return (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private func error(_ reason: String) -> JSONValue.ParseError {
        JSONValue.ParseError(reason: reason, offset: index)
    }
}
