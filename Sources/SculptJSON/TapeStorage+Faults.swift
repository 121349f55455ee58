import Sculpt
import SculptShared
extension TapeStorage {
    /// The ``JSONError`` `JSONDecoder` throws for `invalid`: the fault diagnosed in the text, with
    /// its line and column.
    func error(for invalid: TapeScalars.Invalid) -> JSONError {
        let range: Range<Int>
        let fault: JSONError?
        switch invalid {
        case .notRepresentable(let parsed):
            return .numberIsNotRepresentableInSwift(parsed: parsed)
        case .string(let string):
            range = string
            fault = JSONFaultDiagnosis.stringFault(in: text, string, locate: location(of:))
        case .number(let number):
            range = number
            fault = JSONFaultDiagnosis.numberFault(in: text, number, locate: location(of:))
        }
        // The fast read and the diagnosis disagree: name the value's start.
        return fault ?? .cannotConvertInputStringDataToUTF8(location: location(of: range.lowerBound))
    }

    /// The line (from 1) and column of the byte at `offset`, as `JSONDecoder` counts them.
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
        return .init(offset: offset, lineFeeds: counted.count, lastLineFeed: counted.last)
    }
}
