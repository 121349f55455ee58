import SculptShared
import Sculpt

/// Reads a `Transfer-Encoding: chunked` body (RFC 9112, section 7.1) as its bytes arrive, in any
/// split: chunk sizes, extensions and trailer fields are read and dropped, and no line may grow
/// past ``maximumLineLength``.
struct ChunkedBody: Sendable {
    /// The longest chunk-size line or trailer line accepted.
    static let maximumLineLength = 4096
    /// The most trailer bytes accepted.
    static let maximumTrailerSize = 16 << 10

    private enum State: Sendable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailer
        case done
    }

    private var state = State.size
    private var trailerSize = 0
    /// The body bytes decoded so far (kept or not).
    private(set) var count = 0
    /// The most body bytes accepted.
    let maximumSize: Int

    init(maximumSize: Int) {
        self.maximumSize = maximumSize
    }

    /// Whether the whole body, trailers and all, has been read.
    var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// Consumes what it can of `buffer` from `index` on, moving `index` past it, and hands each
    /// piece of body to `take`. Stops at the end of the body or of the buffer.
    ///
    /// - Throws: ``HTTPRequestHead/Rejection`` for malformed framing (400) or a body over
    ///   ``maximumSize`` (413).
    mutating func consume(_ buffer: [UInt8], from index: inout Int, take: (ArraySlice<UInt8>) -> Void) throws(HTTPRequestHead.Rejection) {
        while index < buffer.count {
            switch state {
            case .size:
                guard let line = try Self.line(in: buffer, from: &index) else { return }
                let digits = line.prefix { PercentEncoding.hexValue($0) != nil }
                // Only an extension may follow the size, after optional white space (BWS ";").
                let afterDigits = line.dropFirst(digits.count)
                let rest = afterDigits.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                guard !digits.isEmpty, afterDigits.isEmpty || rest.first == UInt8(ascii: ";") else {
                    throw HTTPRequestHead.Rejection(status: 400, reason: "a chunk size is not a hexadecimal number")
                }
                var size = 0
                for digit in digits {
                    guard let value = PercentEncoding.hexValue(digit).map(Int.init), size <= (maximumSize - count) >> 4 else {
                        throw tooLarge
                    }
                    size = size << 4 | value
                }
                guard size <= maximumSize - count else { throw tooLarge }
                state = size == 0 ? .trailer : .data(remaining: size)
            case .data(let remaining):
                let piece = buffer[index..<Swift.min(buffer.count, index + remaining)]
                take(piece)
                index = piece.endIndex
                count += piece.count
                state = piece.count == remaining ? .dataEnd : .data(remaining: remaining - piece.count)
            case .dataEnd:
                guard let line = try Self.line(in: buffer, from: &index) else { return }
                guard line.isEmpty else { throw HTTPRequestHead.Rejection(status: 400, reason: "a chunk's data is longer than its size") }
                state = .size
            case .trailer:
                let start = index
                guard let line = try Self.line(in: buffer, from: &index) else { return }
                trailerSize += index - start
                guard trailerSize <= Self.maximumTrailerSize else {
                    throw HTTPRequestHead.Rejection(status: 431, reason: "the trailer fields are over \(Self.maximumTrailerSize) bytes")
                }
                if line.isEmpty { state = .done }
            case .done:
                return
            }
        }
    }

    private var tooLarge: HTTPRequestHead.Rejection {
        HTTPRequestHead.Rejection(status: 413, reason: "the chunked body is over \(maximumSize) bytes, the most this server reads")
    }

    /// The next whole line (without its CR LF or LF), moving `index` past it; `nil` when the line
    /// has not fully arrived.
    private static func line(in buffer: [UInt8], from index: inout Int) throws(HTTPRequestHead.Rejection) -> ArraySlice<UInt8>? {
        let end = Swift.min(buffer.count, index + maximumLineLength + 2)
        guard let feed = buffer[index..<end].firstIndex(of: HTTPRequestHead.lineFeed) else {
            guard end - index < maximumLineLength + 2 else {
                throw HTTPRequestHead.Rejection(status: 400, reason: "a chunk line is over \(maximumLineLength) bytes")
            }
            return nil
        }
        var line = buffer[index..<feed]
        if line.last == HTTPRequestHead.carriageReturn { line = line.dropLast() }
        guard !line.contains(HTTPRequestHead.carriageReturn) else {
            // A proxy in front could read a bare CR as a line end and frame the body otherwise.
            throw HTTPRequestHead.Rejection(status: 400, reason: "a chunk line has a carriage return that does not end it")
        }
        index = feed + 1
        return line
    }
}
