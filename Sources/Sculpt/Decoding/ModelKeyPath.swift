import SculptShared
/// A path to the part of a response body that holds the model, such as `data.items` or
/// `results[0].tracks`.
///
/// ```swift
/// let path = try ModelKeyPath("results[0].tracks")   // [.key("results"), .index(0), .key("tracks")]
/// let dotted = try ModelKeyPath(#"links.self\.href"#) // [.key("links"), .key("self.href")]
/// ```
///
/// Syntax: keys separated by `.`; `[n]` after a key (or at the start) selects element `n` of an
/// array; a backslash makes the next character part of the key, so `\.`, `\[`, `\]` and `\\`
/// write a key that contains them. Keys compare exactly, after JSON unescaping.
public struct ModelKeyPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a key path.
    public enum Component: Sendable, Hashable {
        /// A key of an object.
        case key(String)
        /// A zero-based position in an array.
        case index(Int)
    }

    /// Why a key path string could not be parsed, and where.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text that failed to parse.
        public var keyPath: String
        /// The character offset of the problem.
        public var offset: Int
        /// What was wrong there.
        public var reason: String

        /// Creates a syntax error.
        /// - Parameters:
        ///   - keyPath: the key path as written.
        ///   - offset: the offset, in characters, of the first character that is not allowed.
        ///   - reason: what is wrong there.
        public init(keyPath: String, offset: Int, reason: String) {
            self.keyPath = keyPath
            self.offset = offset
            self.reason = reason
        }

        /// E.g. `invalid key path "data..items" at offset 5: empty key`.
        public var description: String {
            ShownText.line("invalid key path \"\(keyPath)\" at offset \(offset): \(reason)", limit: 2_048)
        }
    }

    /// The steps, outermost first; never empty.
    public let components: [Component]

    /// Parses a key path.
    ///
    /// ```swift
    /// let path = try ModelKeyPath("data.items")
    /// ```
    /// - Parameter string: the key path, members separated by `.`.
    /// - Throws: ``SyntaxError`` for an empty path or key, an unterminated or non-numeric index,
    ///   or a trailing backslash.
    public init(_ string: String) throws(SyntaxError) {
        var parser = Parser(text: string)
        self.components = try parser.parse()
    }

    /// The keys of a path made only of keys (`meta.type` → `["meta", "type"]`); `nil` when it has
    /// an index.
    ///
    /// ```swift
    /// try ModelKeyPath("meta.type").keys  // ["meta", "type"]
    /// ```
    public var keys: [String]? {
        var keys: [String] = []
        for component in components {
            guard case .key(let key) = component else { return nil }
            keys.append(key)
        }
        return keys
    }

    /// The keys a discriminator field names: its keys as a path (`meta.type`), or the whole text as
    /// one key when it is not a valid key-only path (`a[0]`, `a..b`).
    ///
    /// ```swift
    /// ModelKeyPath.fieldKeys("meta.type")  // ["meta", "type"]
    /// ModelKeyPath.fieldKeys("a[0]")       // ["a[0]"]
    /// ```
    package static func fieldKeys(_ field: String) -> [String] {
        (try? ModelKeyPath(field))?.keys ?? [field]
    }

    /// The path written back in the syntax it is parsed from, e.g. `results[0].tracks`.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                for character in key {
                    if "\\.[]".contains(character) { text.append("\\") }
                    text.append(character)
                }
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// The path up to and including component `index`, written as ``description`` writes it.
    func prefix(through index: Int) -> String {
        ModelKeyPath(components: Array(components[...index])).description
    }

    private init(components: [Component]) {
        self.components = components
    }
}

extension ModelKeyPath {
    private struct Parser {
        let text: String
        private var characters: [Character]
        private var position = 0

        init(text: String) {
            self.text = text
            self.characters = Array(text)
        }

        mutating func parse() throws(SyntaxError) -> [Component] {
            guard !characters.isEmpty else { throw error("empty key path; use no key path for the whole body") }
            var components: [Component] = []
            var expectsKey = characters.first != "["
            while position < characters.count {
                if characters[position] == "[" {
                    if expectsKey { throw error("empty key before '['") }
                    components.append(.index(try index()))
                    expectsKey = false
                } else if expectsKey {
                    components.append(.key(try key()))
                    expectsKey = false
                } else if characters[position] == "." {
                    position += 1
                    expectsKey = true
                    if position == characters.count { throw error("empty key after '.'") }
                } else {
                    throw error("expected '.' or '[' after a key or index, found '\(characters[position])'")
                }
            }
            return components
        }

        private mutating func key() throws(SyntaxError) -> String {
            var key = ""
            while position < characters.count {
                let character = characters[position]
                if character == "." || character == "[" { break }
                if character == "]" { throw error("unexpected ']'; write \\] for a ']' in a key") }
                if character == "\\" {
                    position += 1
                    guard position < characters.count else { throw error("backslash at the end escapes nothing") }
                    key.append(characters[position])
                } else {
                    key.append(character)
                }
                position += 1
            }
            if key.isEmpty { throw error("empty key") }
            return key
        }

        private mutating func index() throws(SyntaxError) -> Int {
            let start = position
            position += 1
            var digits = ""
            while position < characters.count, characters[position] != "]" {
                digits.append(characters[position])
                position += 1
            }
            guard position < characters.count else { throw error("'[' at offset \(start) is never closed") }
            position += 1
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let index = Int(digits) else {
                throw error("array index must be a non-negative integer, found '[\(digits)]'")
            }
            return index
        }

        private func error(_ reason: String) -> SyntaxError {
            SyntaxError(keyPath: text, offset: min(position, characters.count), reason: reason)
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
