import Foundation

/// What `SculptJSONDecoder` throws, inside a type's own `init(from:)`, for a value whose text is
/// not JSON, or a number no Swift type of its kind holds: the same cases, values and words as the
/// error `JSONDecoder` throws there (FoundationEssentials' `JSONError`, which is not public either),
/// so that a type that catches and keeps it (`Lossy`, `LossyArray`'s failures) reads the same
/// under either decoder. `"\(error)"` prints the case (`numberWithLeadingZero(location: ...)`);
/// ``debugDescription`` is the sentence. Past the type, the decode fails as `JSONDecoder`'s does:
/// `DecodingError.dataCorrupted` "The given data was not valid JSON.", at the top level. It is also
/// the underlying error of what `JSONDecoder`'s `checkBounds(of:)` throws.
package enum JSONError: Error, Sendable {
    /// Where in the text: the byte's offset, its line (from 1) and its column (from 1 after a line
    /// feed; 0 for the line feed itself), counted as `JSONDecoder` counts them.
    package struct SourceLocation: Sendable, Equatable {
        package let line: Int
        package let column: Int
        package let index: Int

        /// The place of the byte at `offset`, after `lineFeeds` line feeds, the last of them at
        /// `lastLineFeed` (-1 when there is none): a line feed ends its line, so it is column 0
        /// of the next.
        package init(offset: Int, lineFeeds: Int, lastLineFeed: Int) {
            line = lineFeeds + 1
            column = lastLineFeed < 0 ? offset + 1 : offset - lastLineFeed
            index = offset
        }

        /// The place of the byte at `offset` in `text`, its line feeds counted from the start.
        package init(offset: Int, in text: UnsafeRawBufferPointer) {
            var (lineFeeds, last) = (0, -1)
            var index = 0
            while let found = text.offset(of: UInt8(ascii: "\n"), in: index..<min(offset + 1, text.count)) {
                lineFeeds += 1
                last = found
                index = found + 1
            }
            self.init(offset: offset, lineFeeds: lineFeeds, lastLineFeed: last)
        }
    }

    case cannotConvertInputStringDataToUTF8(location: SourceLocation)
    case unexpectedCharacter(context: String?, ascii: UInt8, location: SourceLocation)
    case invalidHexDigitSequence(String, location: SourceLocation)
    case unexpectedEscapedCharacter(ascii: UInt8, location: SourceLocation)
    case unescapedControlCharacterInString(ascii: UInt8, location: SourceLocation)
    case expectedLowSurrogateUTF8SequenceAfterHighSurrogate(location: SourceLocation)
    case couldNotCreateUnicodeScalarFromUInt32(location: SourceLocation, unicodeScalarValue: UInt32)
    case numberWithLeadingZero(location: SourceLocation)
    case numberIsNotRepresentableInSwift(parsed: String)
    case tooManyNestedArraysOrDictionaries(location: SourceLocation)

    /// The fault in words, with its line and column.
    package var debugDescription: String {
        switch self {
        case .cannotConvertInputStringDataToUTF8(let at):
            "Unable to convert data to a string around \(Self.place(at))."
        case .unexpectedCharacter(let context, let ascii, let at):
            "Unexpected character '\(Self.character(ascii))' \(context.map { "\($0) " } ?? "")around \(Self.place(at))."
        case .invalidHexDigitSequence(let digits, let at):
            "Invalid hex digit in unicode escape sequence '\(digits)' around \(Self.place(at))."
        case .unexpectedEscapedCharacter(let ascii, let at):
            "Invalid escape sequence '\(Self.character(ascii))' around \(Self.place(at))."
        case .unescapedControlCharacterInString(let ascii, let at):
            "Unescaped control character '0x\(String(ascii, radix: 16))' around \(Self.place(at))."
        case .expectedLowSurrogateUTF8SequenceAfterHighSurrogate(let at):
            "Missing low code point in surrogate pair around \(Self.place(at))."
        case .couldNotCreateUnicodeScalarFromUInt32(let at, let value):
            "Invalid unicode scalar value '0x\(String(value, radix: 16))' around \(Self.place(at))."
        case .numberWithLeadingZero(let at):
            "Number with leading zero around \(Self.place(at))."
        case .numberIsNotRepresentableInSwift(let parsed):
            "Number \(parsed) is not representable in Swift."
        case .tooManyNestedArraysOrDictionaries(let at):
            "Too many nested arrays or dictionaries around \(Self.place(at))."
        }
    }

    private static func place(_ location: SourceLocation) -> String {
        "line \(location.line), column \(location.column)"
    }

    private static func character(_ byte: UInt8) -> String {
        String(Unicode.Scalar(byte))
    }
}

extension JSONError: CustomNSError {
    /// The domain `JSONDecoder`'s own fault bridges to (`FoundationEssentials.JSONError` where
    /// Foundation is swift-foundation), so that the two read the same as `NSError`s.
    package static var errorDomain: String { FoundationFault.current.domain }

    /// The code `JSONDecoder`'s fault of the same case bridges to: its case's place among the
    /// cases of FoundationEssentials' `JSONError` that carry values.
    package var errorCode: Int {
        switch self {
        case .cannotConvertInputStringDataToUTF8: 0
        case .unexpectedCharacter: 1
        case .tooManyNestedArraysOrDictionaries: 2
        case .invalidHexDigitSequence: 3
        case .unexpectedEscapedCharacter: 6
        case .unescapedControlCharacterInString: 7
        case .expectedLowSurrogateUTF8SequenceAfterHighSurrogate: 8
        case .couldNotCreateUnicodeScalarFromUInt32: 9
        case .numberWithLeadingZero: 10
        case .numberIsNotRepresentableInSwift: 11
        }
    }
}

extension JSONError.SourceLocation: CustomStringConvertible, CustomDebugStringConvertible {
    /// As `JSONDecoder`'s fault prints its place: `SourceLocation(line: 1, column: 6, index: 5)`.
    package var description: String {
        "SourceLocation(line: \(line), column: \(column), index: \(index))"
    }

    /// As `JSONDecoder`'s fault prints its place inside its case, with its type's module:
    /// `FoundationEssentials.JSONError.SourceLocation(line: 1, column: 6, index: 5)`.
    package var debugDescription: String {
        "\(JSONError.FoundationFault.current.typeName).\(description)"
    }
}

extension JSONError {
    /// The domain and type name of the fault `JSONDecoder` throws in a value, read once from the
    /// fault itself; Sculpt's own where `JSONDecoder` throws none of that type (Foundation before
    /// swift-foundation wraps an `NSError` instead).
    package struct FoundationFault {
        package let domain: String
        package let typeName: String

        package static let current: FoundationFault = {
            let own = FoundationFault(domain: String(reflecting: JSONError.self), typeName: String(reflecting: JSONError.self))
            guard let fault = (try? JSONDecoder().decode(Probe.self, from: Data("[01]".utf8)))?.fault,
                String(describing: type(of: fault)) == "JSONError"
            else { return own }
            return FoundationFault(domain: (fault as NSError).domain, typeName: String(reflecting: type(of: fault)))
        }()

        /// What `JSONDecoder` throws for `01` read as an `Int` inside a type's `init(from:)`.
        private struct Probe: Decodable {
            package let fault: (any Error)?
            package init(from decoder: any Decoder) throws {
                var elements = try decoder.unkeyedContainer()
                do {
                    _ = try elements.decode(Int.self)
                    fault = nil
                } catch {
                    fault = error
                }
            }
        }
    }
}
