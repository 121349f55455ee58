import Foundation

extension DiscriminatorScanner {
    /// The field found in a scan of the whole body (a ``JSONTape`` of the text that starts at
    /// `start` in `body`, after any byte order mark), with the same outcome the byte-by-byte peek
    /// gives, offsets counted in the body as it arrived; `nil` where the two could differ (a key
    /// whose reading fails), for the caller to peek as usual.
    package func find(in entries: JSONTape.Entries, body: UnsafeBufferPointer<UInt8>, start: Int) -> Outcome? {
        let lexer = JSONLexer(body)
        var object = 0
        switch entries[0].kind {
        case .object: break
        case .array: return .notAnObject("an array")
        case .string: return .notAnObject("a string")
        case .true, .false: return .notAnObject("a boolean")
        case .null: return .notAnObject("null")
        case .number: return .notAnObject("a number")
        }
        for (depth, key) in path.enumerated() {
            guard let value = member(key, of: object, in: entries, lexer, start: start) else { return .missing }
            guard let value = value else { return nil }
            if depth == path.count - 1 { return read(entries[value], lexer, start: start) }
            guard entries[value].kind == .object else { return .missing }
            object = value
        }
        return .missing
    }

    /// The value entry of the first member of `object` named `key`: `nil` when there is none,
    /// `.some(nil)` when a key could not be read.
    private func member(_ key: Key, of object: Int, in entries: JSONTape.Entries, _ lexer: JSONLexer, start: Int) -> Int?? {
        var position = JSONTape.firstChild(of: object)
        while position < entries[object].end {
            let entry = entries[position]
            let token = JSONLexer.StringToken(content: Self.range(of: entry, start), hasEscapes: !entry.isSimpleString, isASCII: entry.isASCII)
            let matches: Bool
            if token.hasEscapes {
                guard let candidate = try? lexer.unescaped(token) else { return .some(nil) }
                matches = candidate.withUnsafeBufferPointer { key.matches($0, candidateIsASCII: $0.allSatisfy { $0 < 0x80 }) }
            } else {
                matches = key.matches(UnsafeBufferPointer(rebasing: lexer.bytes[token.content]), candidateIsASCII: token.isASCII)
            }
            if matches { return .some(JSONTape.value(ofKey: position)) }
            position = entries.next(afterMember: position)
        }
        return nil
    }

    /// The field's value, as the peek reads it.
    private func read(_ entry: JSONTape.Entry, _ lexer: JSONLexer, start: Int) -> Outcome {
        let range = Self.range(of: entry, start)
        switch entry.kind {
        case .string:
            do {
                return .found(.string(try lexer.text(of: JSONLexer.StringToken(content: range, hasEscapes: !entry.isSimpleString, isASCII: entry.isASCII))))
            } catch {
                return .found(.invalid(error))
            }
        case .number:
            do {
                try lexer.validateNumber(range)
            } catch {
                return .found(.invalid(error))
            }
            return .found(.number(String(decoding: UnsafeBufferPointer(rebasing: lexer.bytes[range]), as: UTF8.self)))
        case .true: return .found(.bool(true))
        case .false: return .found(.bool(false))
        case .null: return .found(.null)
        case .object: return .found(.object)
        case .array: return .found(.array)
        }
    }

    /// Where an entry of the text that starts at `start` lies in the body.
    private static func range(of entry: JSONTape.Entry, _ start: Int) -> Range<Int> {
        (start + entry.offset)..<(start + entry.offset + entry.length)
    }
}
