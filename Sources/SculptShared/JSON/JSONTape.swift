import Foundation

/// A JSON document scanned once into a flat list of its values, in document order: what
/// ``SculptJSONDecoder`` decodes from. Each value is one entry; an object's entry is followed by
/// its members (a key's entry, then the value's entries), an array's by its elements, and a
/// container's entry says where it ends, so a value is skipped in one step whatever it holds.
/// A literal's entry is one 8-byte word and any other entry two (see ``Entries``), so an array of
/// `null`, `true` or `false` costs what `JSONDecoder`'s scan of it costs.
///
/// The scan checks what `JSONDecoder`'s scanner checks before a decode, no more: the structure,
/// the literals, that strings end and that each `\u` has four bytes before any quote, and nesting
/// of at most 512 levels. A string's escapes and UTF-8, and a number's grammar, are checked when
/// the value is decoded, as `JSONDecoder` checks them, so the two accept and refuse the same
/// documents.
///
/// The tape and the types the decoder reads it through (``Kind``, ``Entry``, ``Entries``) are
/// public types whose members are all `package`: the compiler inlines a `package` member's
/// `@inlinable` body into another module only when every type around it is public, and the
/// decoder, in another module, reads an entry for each value it decodes. No product exports
/// this module, so nothing here is public API.
public struct JSONTape {
    /// What a value is.
    public enum Kind: UInt8 {
        case null = 0, `true`, `false`, number, string, array, object
    }

    /// One value: its kind and flags, where its text starts, and its length (a string's or a
    /// number's bytes) or its end and count (a container's entry index past its last child, and
    /// its children).
    public struct Entry {
        /// Bits 60...63 the kind, bit 59 "a string without escapes", bit 58 "ASCII only" (control
        /// characters are the decode's to find),
        /// bits 0...47 the byte offset of the value's text (a string's content, after its quote).
        @usableFromInline package let header: UInt64
        /// A string's or a number's length in bytes; a container's end entry (bits 0...31) and
        /// count (32...63); 0 for a literal, whose entry has no payload word.
        @usableFromInline package let payload: UInt64

        @inlinable @inline(__always) package var kind: Kind { Kind(rawValue: UInt8(truncatingIfNeeded: header >> 60)) ?? .null }
        @inlinable @inline(__always) package var offset: Int { Int(truncatingIfNeeded: header & 0xFFFF_FFFF_FFFF) }
        @inlinable @inline(__always) package var length: Int { Int(truncatingIfNeeded: payload) }
        @inlinable @inline(__always) package var isSimpleString: Bool { header & (1 << 59) != 0 }
        @inlinable @inline(__always) package var isASCII: Bool { header & (1 << 58) != 0 }
        @inlinable @inline(__always) package var end: Int { Int(truncatingIfNeeded: payload & 0xFFFF_FFFF) }
        @inlinable @inline(__always) package var count: Int { Int(truncatingIfNeeded: payload >> 32) }

        /// Words the entry takes in ``Entries``: a literal's header alone, or a header and a payload.
        @inlinable @inline(__always) package var width: Int { Self.hasPayload(header) ? 2 : 1 }

        @inlinable @inline(__always)
        package init(_ kind: Kind, offset: Int, payload: UInt64 = 0, simple: Bool = false, ascii: Bool = false) {
            var header = UInt64(kind.rawValue) << 60 | UInt64(truncatingIfNeeded: offset)
            if simple { header |= 1 << 59 }
            if ascii { header |= 1 << 58 }
            self.header = header
            self.payload = payload
        }

        @inlinable @inline(__always)
        package init(header: UInt64, payload: UInt64) {
            self.header = header
            self.payload = payload
        }

        /// Whether an entry with this header is followed by a payload word: all but the literals.
        @inlinable @inline(__always)
        package static func hasPayload(_ header: UInt64) -> Bool {
            header >> 60 >= UInt64(Kind.number.rawValue)
        }
    }

    /// The entry of an object's or array's first child (when it has one: else its end).
    @inlinable @inline(__always)
    package static func firstChild(of container: Int) -> Int { container + 2 }

    /// The entry of a member's value, from its key's entry (a string's, two words).
    @inlinable @inline(__always)
    package static func value(ofKey key: Int) -> Int { key + 2 }

    /// The deepest nesting of arrays and objects, as `JSONDecoder` allows.
    package static let maximumDepth = 512

    /// Why the text is not JSON, as `JSONDecoder` reports it: the decode fails with
    /// `DecodingError.dataCorrupted` at the top level.
    package struct Invalid: Error {
        package var reason: String
        package var offset: Int
    }

    /// Scans `bytes` (UTF-8, after any byte order mark) into entries the caller owns (and
    /// deallocates): the document's, then one `null` (see `TapeStorage.nullEntry`).
    ///
    /// - Throws: ``Invalid`` for text `JSONDecoder` refuses before decoding.
    package static func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws(Invalid) -> Entries {
        var scanner = Scanner(bytes: bytes)
        do throws(Invalid) {
            try scanner.scan()
        } catch {
            scanner.entries.deallocate()
            throw error
        }
        // One `null` after the document: what a decoder reads for a key that is not there.
        scanner.entries.append(Entry(.null, offset: 0))
        return scanner.entries.finished
    }
}

extension JSONTape {
    /// Entries appended one at a time into storage that doubles as it fills.
    package struct EntryBuffer {
        private var base: UnsafeMutablePointer<UInt64>
        private var capacity: Int
        /// Words written so far: the index the next entry gets.
        private(set) var count = 0

        /// A buffer of `capacity` words.
        package init(capacity: Int) {
            self.capacity = max(16, capacity)
            base = .allocate(capacity: self.capacity)
        }

        @inline(__always)
        package mutating func append(_ entry: Entry) {
            if count + 2 > capacity { grow() }
            base[count] = entry.header
            if Entry.hasPayload(entry.header) {
                base[count + 1] = entry.payload
                count += 2
            } else {
                count += 1
            }
        }

        @inlinable @inline(__always)
        package subscript(index: Int) -> Entry { Entries.entry(at: index, in: base) }

        /// Sets the payload of the entry at `index` (a container's, once it is closed).
        @inlinable @inline(__always)
        package func setPayload(_ payload: UInt64, ofEntryAt index: Int) {
            base[index + 1] = payload
        }

        private mutating func grow() {
            let larger = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = larger
            capacity *= 2
        }

        /// The entries, for their new owner to deallocate.
        package var finished: Entries { Entries(base: base, count: count) }

        package func deallocate() { base.deallocate() }
    }

    /// A scanned document's entries, stored as 8-byte words: a literal's entry is its header, any
    /// other entry its header and its payload. An entry's index is its header's word, so entries
    /// are found by skipping (``next(after:)``, ``JSONTape/firstChild(of:)``), never by counting.
    public struct Entries {
        /// The first word; the owner deallocates the words.
        @usableFromInline let base: UnsafeMutablePointer<UInt64>
        /// The words in all: the index past the last entry.
        package let count: Int

        fileprivate init(base: UnsafeMutablePointer<UInt64>, count: Int) {
            self.base = base
            self.count = count
        }

        /// The entry whose header is at `index`.
        @inlinable @inline(__always)
        package subscript(index: Int) -> Entry { Self.entry(at: index, in: base) }

        /// The entry after the value at `index` and everything it holds.
        @inlinable @inline(__always)
        package func next(after index: Int) -> Int {
            let entry = self[index]
            switch entry.kind {
            case .object, .array: return entry.end
            default: return index + entry.width
            }
        }

        /// The entry after an object's member: after its key at `key` and the value that follows.
        @inlinable @inline(__always)
        package func next(afterMember key: Int) -> Int {
            next(after: JSONTape.value(ofKey: key))
        }

        package func deallocate() { base.deallocate() }

        @inlinable @inline(__always)
        package static func entry(at index: Int, in base: UnsafeMutablePointer<UInt64>) -> Entry {
            let header = base[index]
            return Entry(header: header, payload: Entry.hasPayload(header) ? base[index + 1] : 0)
        }
    }
}

extension JSONTape {
    /// The one pass that builds a tape: iterative (an explicit stack of open containers), so depth
    /// costs no native stack.
    private struct Scanner {
        package let bytes: UnsafeBufferPointer<UInt8>
        package var index = 0
        package var entries: EntryBuffer
        /// The open containers: their entry index and their children counted so far.
        var open: [(entry: Int, count: Int)] = []

        package init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            // A word per two bytes holds an array of `null`, `true` or `false` (five bytes each,
            // comma included) or of strings without growing: a grow copies, and the copy stays
            // resident beside the tape. Pages of the estimate that no entry reaches are never
            // touched.
            entries = EntryBuffer(capacity: bytes.count / 2)
        }

        package mutating func scan() throws(Invalid) {
            try value()
            while !open.isEmpty {
                try afterValue()
            }
            skipWhitespace()
            guard index == bytes.count else { throw invalid("unexpected \(describe(index)) after the top-level value") }
        }

        /// After a value inside a container: a `,` and the next member or element, or the
        /// container's end (a trailing comma before it is accepted, as `JSONDecoder` accepts it).
        private mutating func afterValue() throws(Invalid) {
            skipWhitespace()
            guard index < bytes.count else { throw invalid("the text ends inside an object or array") }
            let isObject = entries[open[open.count - 1].entry].kind == .object
            let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == closing {
                    index += 1
                    close()
                    return
                }
                if isObject { try member() } else { try value() }
            case closing:
                index += 1
                close()
            default:
                throw invalid("unexpected \(describe(index)) in \(isObject ? "an object" : "an array")")
            }
        }

        /// A member: a key, `:`, and its value (the value's scan may open a container).
        private mutating func member() throws(Invalid) {
            skipWhitespace()
            guard index < bytes.count else { throw invalid("the text ends inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else { throw invalid("expected a key in quotes, found \(describe(index))") }
            try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw invalid("expected ':' after a key, found \(describe(index))") }
            index += 1
            open[open.count - 1].count += 1
            try value(counting: false)
        }

        /// A value: a scalar is recorded whole; a container is recorded open, and its first member
        /// or element scanned, or it is closed at once when empty.
        private mutating func value(counting: Bool = true) throws(Invalid) {
            skipWhitespace()
            guard index < bytes.count else { throw invalid("the text ends where a value should be") }
            if counting, !open.isEmpty { open[open.count - 1].count += 1 }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard open.count < JSONTape.maximumDepth else { throw invalid("nested deeper than \(JSONTape.maximumDepth) levels") }
                let isObject = byte == UInt8(ascii: "{")
                open.append((entries.count, 0))
                entries.append(Entry(isObject ? .object : .array, offset: index))
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    close()
                } else if isObject {
                    try member()
                } else {
                    try value()
                }
            case UInt8(ascii: "t"): try literal("true", .true)
            case UInt8(ascii: "f"): try literal("false", .false)
            case UInt8(ascii: "n"): try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): number()
            default: throw invalid("unexpected \(describe(index)) where a value should be")
            }
        }

        /// Closes the innermost container: its end and count recorded.
        private mutating func close() {
            let (entry, count) = open.removeLast()
            entries.setPayload(UInt64(truncatingIfNeeded: count) << 32 | UInt64(truncatingIfNeeded: entries.count), ofEntryAt: entry)
        }

        /// A string, from its opening quote: its content's place, and whether it has escapes and
        /// bytes past ASCII. Control characters, escapes and UTF-8 are the decode's to check.
        private mutating func string() throws(Invalid) {
            index += 1
            let start = index
            var lexer = JSONLexer(bytes)
            lexer.index = start
            var simple = true
            var ascii = !lexer.moveToQuoteOrBackslash()
            while true {
                guard lexer.index < bytes.count else {
                    index = bytes.count
                    throw invalid("the text ends inside a string")
                }
                if bytes[lexer.index] == UInt8(ascii: "\"") { break }
                simple = false
                do {
                    try lexer.skipEscape()
                } catch {
                    index = lexer.index
                    throw invalid(error.reason)
                }
                ascii = !lexer.moveToQuoteOrBackslash() && ascii
            }
            entries.append(Entry(.string, offset: start, payload: UInt64(lexer.index - start), simple: simple, ascii: ascii))
            index = lexer.index + 1
        }

        /// A number as `JSONDecoder`'s scanner takes one (``JSONLexer/numberRun()``).
        private mutating func number() {
            var lexer = JSONLexer(bytes)
            lexer.index = index
            let run = lexer.numberRun()
            index = run.upperBound
            entries.append(Entry(.number, offset: run.lowerBound, payload: UInt64(run.count)))
        }

        private mutating func literal(_ text: StaticString, _ kind: Kind) throws(Invalid) {
            let expected = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            guard index + expected.count <= bytes.count,
                UnsafeBufferPointer(rebasing: bytes[index..<(index + expected.count)]).elementsEqual(expected)
            else { throw invalid("expected \(text), found \(describe(index))") }
            entries.append(Entry(kind, offset: index))
            index += expected.count
        }

        @inline(__always)
        private mutating func skipWhitespace() {
            while index < bytes.count, JSONBytes.isWhitespace(bytes[index]) { index += 1 }
        }

        private func describe(_ position: Int) -> String {
            position < bytes.count ? JSONLexer.describe(bytes[position]) : "the end"
        }

        @inline(never)
        private func invalid(_ reason: String) -> Invalid {
            Invalid(reason: reason, offset: index)
        }
    }
}
