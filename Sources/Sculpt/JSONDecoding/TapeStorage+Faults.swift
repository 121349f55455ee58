extension TapeStorage {
    /// The ``JSONError`` `JSONDecoder` throws for `invalid`: the fault diagnosed in the text, with
    /// its line and column.
    func error(for invalid: TapeScalars.Invalid) -> JSONError {
        let fault: JSONFaultDiagnosis.Fault?
        let start: Int
        switch invalid {
        case .notRepresentable(let parsed):
            return .numberIsNotRepresentableInSwift(parsed: parsed)
        case .string(let range):
            fault = JSONFaultDiagnosis.stringFault(in: text, range)
            start = range.lowerBound
        case .number(let range):
            fault = JSONFaultDiagnosis.numberFault(in: text, range)
            start = range.lowerBound
        }
        switch fault {
        case .invalidUTF8(let at)?: return .cannotConvertInputStringDataToUTF8(location: location(of: at))
        case .unexpectedCharacter(let context, let ascii, let at)?: return .unexpectedCharacter(context: context, ascii: ascii, location: location(of: at))
        case .invalidHexDigits(let digits, let at)?: return .invalidHexDigitSequence(digits, location: location(of: at))
        case .invalidEscape(let ascii, let at)?: return .unexpectedEscapedCharacter(ascii: ascii, location: location(of: at))
        case .controlCharacter(let ascii, let at)?: return .unescapedControlCharacterInString(ascii: ascii, location: location(of: at))
        case .missingLowSurrogate(let at)?: return .expectedLowSurrogateUTF8SequenceAfterHighSurrogate(location: location(of: at))
        case .invalidScalar(let value, let at)?: return .couldNotCreateUnicodeScalarFromUInt32(location: location(of: at), unicodeScalarValue: value)
        case .leadingZero(let at)?: return .numberWithLeadingZero(location: location(of: at))
        case nil:
            // The fast read and the diagnosis disagree: name the value's start.
            return .cannotConvertInputStringDataToUTF8(location: location(of: start))
        }
    }

    /// The line (from 1) and column of the byte at `offset`, as `JSONDecoder` counts them: a line
    /// feed ends its line, so it is column 0 of the next.
    private func location(of offset: Int) -> JSONError.SourceLocation {
        var counted = lineFeedsCounted
        if offset + 1 < counted.end { counted = (0, 0, -1) }
        var index = counted.end
        while index <= offset, index < text.count {
            if text[index] == UInt8(ascii: "\n") {
                counted.count += 1
                counted.last = index
            }
            index += 1
        }
        counted.end = index
        lineFeedsCounted = counted
        return .init(line: counted.count + 1, column: counted.last < 0 ? offset + 1 : offset - counted.last, index: offset)
    }
}
