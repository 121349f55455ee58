import Foundation
import SculptShared
import Sculpt

/// The text between two tags inside the root element, as the parser would hand it to XMLCoder,
/// and the same text written as one CDATA section.
///
/// FoundationXML's parser hands an element's text to its delegate in pieces: one for each entity
/// or character reference, one for each CDATA section, one for the text between them. XMLCoder
/// joins each piece to the text before it by copying both (`old + new`), so a text of `n` bytes in
/// `k` pieces costs `n × k`: a megabyte of `&amp;` took 40 seconds. A CDATA section reaches it in
/// one piece. So text in more than one piece is rewritten as one section of the text it stands
/// for, references resolved and sections joined. It keeps its meaning: XMLCoder reads a CDATA
/// section as text.
///
/// Comments and processing instructions in the text are left out, as XMLCoder leaves them out.
/// Text that cannot be written so is left for the parser, which must say what is wrong: a comment
/// or instruction that XML does not allow, a reference that is not well-formed, and `]]>` outside
/// a section. Such text, and a section that must be split because its text holds `]]>`, still
/// reaches XMLCoder in pieces, so ``maximumPieceWork`` bounds what it may cost.
struct XMLElementText {
    /// The text's range in the document, from the end of one tag to the start of the next.
    let range: Range<Int>

    /// The text as one CDATA section (more, where it holds `]]>`); `nil` when it cannot be written so.
    private(set) var section: [UInt8]?

    /// How many pieces XMLCoder receives it in, once rewritten where it can be.
    private(set) var pieces = 1

    /// The largest pieces × bytes a text may cost XMLCoder: 64 MiB copied, a few tenths of a
    /// second, on any text. A real document's text comes in one piece once rewritten.
    static let maximumPieceWork = 1 << 26

    /// Whether the parser would hand text with these bytes in several pieces: it holds a
    /// reference, a CDATA section, comment or processing instruction, or a carriage return (the
    /// parser reads a line end as a line feed, and starts a piece there).
    static func isInPieces(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        [UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: "\r")].contains { bytes.offset(of: $0, in: range) != nil }
            || range.count > longestTextInOnePiece && range.contains { bytes[$0] >= 0x80 }
    }

    /// libxml2 hands text with a character past ASCII over in pieces of about 300 bytes; shorter
    /// text comes whole.
    static let longestTextInOnePiece = 256

    /// Reads the text in `range` of `bytes`, which holds no tag: text, references, and whole CDATA
    /// sections, comments and processing instructions.
    init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
        self.range = range
        let reader = Reader(bytes: bytes, end: range.upperBound)
        if let (section, splits) = reader.section(from: range.lowerBound) {
            self.section = section
            pieces = 1 + splits
        } else {
            pieces = reader.piecesLeftAsText(from: range.lowerBound)
        }
    }

    /// Whether XMLCoder would copy more than ``maximumPieceWork`` bytes joining the pieces.
    var exceedsPieceWork: Bool {
        let (work, overflow) = pieces.multipliedReportingOverflow(by: range.count)
        return overflow || work > Self.maximumPieceWork
    }

    /// What closes one section and opens the next, between the `]]` and `>` of text that holds `]]>`.
    static let splitSection = Array("]]><![CDATA[".utf8)
}

/// A pass over an element's text.
private struct Reader {
    let bytes: UnsafeRawBufferPointer
    let end: Int

    /// The text as CDATA, split where it holds `]]>`, and how many times it was split; `nil` when
    /// it cannot be written so.
    func section(from start: Int) -> ([UInt8], splits: Int)? {
        guard let content = content(from: start) else { return nil }
        var splits = 0
        var text = cdataOpen
        text.reserveCapacity(content.count + 16)
        content.withUnsafeBytes { content in
            var index = 0
            while let close = content.offset(of: cdataClose, from: index) {
                // `]]` ends one section, `>` starts the next.
                text.append(contentsOf: content[index..<(close + 2)])
                text.append(contentsOf: XMLElementText.splitSection)
                splits += 1
                index = close + 2
            }
            text.append(contentsOf: content[index...])
        }
        text.append(contentsOf: cdataClose)
        return (text, splits)
    }

    /// What the text stands for: references resolved, sections' content joined; `nil` when it
    /// holds something only the parser may judge.
    private func content(from start: Int) -> [UInt8]? {
        var content: [UInt8] = []
        content.reserveCapacity(end - start)
        var index = start
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: "&"):
                guard let (scalar, next) = reference(at: index) else { return nil }
                content.append(contentsOf: String(scalar).utf8)
                index = next
            case UInt8(ascii: "<"):
                // A CDATA section is joined; a well-formed comment or instruction is left out, as
                // XMLCoder leaves it out; anything else stays the parser's to judge.
                if bytes.has(cdataOpen, at: index), let close = bytes.offset(of: cdataClose, in: (index + cdataOpen.count)..<end) {
                    appendNormalizingLineEnds(bytes[(index + cdataOpen.count)..<close], to: &content)
                    index = close + cdataClose.count
                } else if let after = wellFormedComment(at: index) ?? wellFormedInstruction(at: index) {
                    index = after
                } else {
                    return nil
                }
            default:
                let stop = bytes.firstOffset(ofEither: UInt8(ascii: "&"), UInt8(ascii: "<"), in: index..<end) ?? end
                // `]]>` is not allowed in text: the parser must refuse it.
                guard bytes.offset(of: cdataClose, in: index..<stop) == nil else { return nil }
                appendNormalizingLineEnds(bytes[index..<stop], to: &content)
                index = stop
            }
        }
        return content
    }

    /// Where the comment at `index` ends, when it is one XML allows: no `--` inside it, and no `-`
    /// before its end.
    private func wellFormedComment(at index: Int) -> Int? {
        guard bytes.has(commentOpen, at: index), let close = bytes.offset(of: commentClose, in: (index + commentOpen.count)..<end) else { return nil }
        let inside = (index + commentOpen.count)..<close
        guard bytes.offset(of: Array("--".utf8), in: inside) == nil, inside.isEmpty || bytes[close - 1] != UInt8(ascii: "-") else { return nil }
        return close + commentClose.count
    }

    /// Where the processing instruction at `index` ends, when it is one XML allows: a name that
    /// is not `xml` in any case, then white space and data or nothing.
    private func wellFormedInstruction(at index: Int) -> Int? {
        guard bytes.has(instructionOpen, at: index), let close = bytes.offset(of: instructionClose, in: (index + instructionOpen.count)..<end) else { return nil }
        let nameStart = index + instructionOpen.count
        var nameEnd = nameStart
        while nameEnd < close, Self.isNameByte(bytes[nameEnd], first: nameEnd == nameStart) { nameEnd += 1 }
        let name = bytes[nameStart..<nameEnd]
        guard !name.isEmpty, !name.elementsEqual("xml".utf8, by: { $0 | 0x20 == $1 }),
            nameEnd == close || [0x20, 0x09, 0x0A, 0x0D].contains(bytes[nameEnd])
        else { return nil }
        return close + instructionClose.count
    }

    /// Whether `byte` may be in an XML name (any byte past ASCII, as part of a character that may).
    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...: true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): !first
        default: false
        }
    }

    /// Appends text as the parser reads it: `\r\n` and a lone `\r` are line ends, read as `\n`
    /// (XML 1.0, section 2.11), in text and in CDATA sections. A carriage return written as a
    /// reference stays one.
    private func appendNormalizingLineEnds(_ text: Slice<UnsafeRawBufferPointer>, to content: inout [UInt8]) {
        var start = text.startIndex
        while let carriageReturn = bytes.offset(of: UInt8(ascii: "\r"), in: start..<text.endIndex) {
            content.append(contentsOf: bytes[start..<carriageReturn])
            content.append(UInt8(ascii: "\n"))
            start = carriageReturn + 1
            if start < text.endIndex, bytes[start] == UInt8(ascii: "\n") { start += 1 }
        }
        content.append(contentsOf: bytes[start..<text.endIndex])
    }

    /// How many pieces the parser hands the text over in, left as it is: one for each reference,
    /// line end, and section, comment or instruction, and one for the text after each.
    func piecesLeftAsText(from start: Int) -> Int {
        var pieces = 1
        var index = start
        while let next = (index..<end).first(where: { bytes[$0] == UInt8(ascii: "&") || bytes[$0] == UInt8(ascii: "<") || bytes[$0] == UInt8(ascii: "\r") }) {
            pieces += 2
            index = next + 1
        }
        return pieces
    }

    /// The scalar a reference at `index` stands for and the offset after it; `nil` for one that
    /// is not well-formed or stands for no character XML allows.
    private func reference(at index: Int) -> (Unicode.Scalar, Int)? {
        // `&#x` and 16 digits is longer than any reference to a character with leading zeros
        // this reads; longer ones are left to the parser.
        guard let semicolon = bytes.offset(of: UInt8(ascii: ";"), in: (index + 1)..<min(end, index + 24)) else { return nil }
        let name = bytes[(index + 1)..<semicolon]
        let after = semicolon + 1
        if let named = Self.namedEntities.first(where: { name.elementsEqual($0.name) }) { return (named.scalar, after) }
        guard name.first == UInt8(ascii: "#") else { return nil }
        let hex = name.dropFirst().first == UInt8(ascii: "x")
        let digits = name.dropFirst(hex ? 2 : 1)
        guard !digits.isEmpty, let value = UInt32(String(decoding: digits, as: UTF8.self), radix: hex ? 16 : 10),
              Self.isXMLCharacter(value), let scalar = Unicode.Scalar(value)
        else { return nil }
        return (scalar, after)
    }

    private static let namedEntities: [(name: [UInt8], scalar: Unicode.Scalar)] = [
        (Array("amp".utf8), "&"), (Array("lt".utf8), "<"), (Array("gt".utf8), ">"), (Array("quot".utf8), "\""), (Array("apos".utf8), "'"),
    ]

    /// XML 1.0's `Char`: a tab, line feed, carriage return, or a scalar from U+0020 on, without the
    /// surrogates (no scalar has them), U+FFFE and U+FFFF.
    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
    }
}

private let cdataOpen = Array("<![CDATA[".utf8)
private let cdataClose = Array("]]>".utf8)
private let commentOpen = Array("<!--".utf8)
private let commentClose = Array("-->".utf8)
private let instructionOpen = Array("<?".utf8)
private let instructionClose = Array("?>".utf8)
