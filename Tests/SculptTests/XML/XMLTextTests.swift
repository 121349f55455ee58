import Foundation
import Sculpt
import SculptMatchers
import SculptXML
import Testing

/// An XML body is read as its bytes say or refused: no character is dropped from its text, and no
/// entity's value is guessed.
@Suite("XML text reads whole or is refused")
struct XMLTextTests {
    typealias Value = XMLLimitsTests.Value

    /// `text` in a wide encoding, after its byte order mark when `mark`.
    static func encoded(_ text: String, unitSize: Int, bigEndian: Bool, mark: Bool) -> [UInt8] {
        let scalars = (mark ? "\u{FEFF}" : "") + text
        var bytes: [UInt8] = []
        let units: [UInt32] = unitSize == 2 ? scalars.utf16.map(UInt32.init) : scalars.unicodeScalars.map(\.value)
        for unit in units {
            let unitBytes = (0..<unitSize).map { UInt8(truncatingIfNeeded: unit >> (8 * $0)) }
            bytes += bigEndian ? unitBytes.reversed() : unitBytes
        }
        return bytes
    }

    static let document = "<r><v>caf\u{E9} \u{1F600}</v></r>"

    @Test("UTF-16 and UTF-32 in either byte order, with or without a mark, decode to the same text", arguments: [2, 4], [false, true])
    func wideEncodings(unitSize: Int, bigEndian: Bool) throws {
        for mark in [false, true] {
            let body = Data(Self.encoded(Self.document, unitSize: unitSize, bigEndian: bigEndian, mark: mark))
            #expect(try XMLModelDecoder().decode(Value.self, from: body) == Value(v: "caf\u{E9} \u{1F600}"))
        }
    }

    @Test("UTF-16 or UTF-32 whose bytes do not read is refused with the encoding and the offset, never cut short", arguments: [
        (Self.encoded(Self.document, unitSize: 2, bigEndian: false, mark: true) + [0x41], "not valid UTF-16LE: it ends with 1 byte at offset 44"),
        (Self.encoded(Self.document, unitSize: 2, bigEndian: true, mark: false) + [0x00], "not valid UTF-16BE: it ends with 1 byte at offset 42"),
        (Self.encoded(Self.document, unitSize: 4, bigEndian: false, mark: false) + [0x20, 0x00, 0x00], "not valid UTF-32LE: it ends with 3 bytes at offset 80"),
        (Self.encoded("<r><v>a", unitSize: 2, bigEndian: false, mark: false) + [0x00, 0xD8] + Self.encoded("</v></r>", unitSize: 2, bigEndian: false, mark: false),
         "not valid UTF-16LE: 1 code unit at offset 14 does not read as a character"),
        (Self.encoded("<r><v>a", unitSize: 4, bigEndian: true, mark: false) + [0x00, 0x11, 0x00, 0x00] + Self.encoded("</v></r>", unitSize: 4, bigEndian: true, mark: false),
         "not valid UTF-32BE: 1 code unit at offset 28 does not read as a character"),
    ] as [([UInt8], String)])
    func unreadableWideText(body: [UInt8], expected: String) throws {
        let description = XMLLimitsTests.decodingFailure(Data(body))
        #expect(description?.contains(expected) == true, "\(description ?? "")")
    }

    @Test("an entity that only a DTD could declare is refused, in text or an attribute, with or without a DOCTYPE naming one", arguments: [
        (#"<!DOCTYPE r SYSTEM "r.dtd"><r><v>AT&amp;T &x; corp</v></r>"#, 42),
        (#"<!DOCTYPE r SYSTEM "r.dtd"><r><v>&secret;</v></r>"#, 33),
        (#"<!DOCTYPE r PUBLIC "-//R//EN" "r.dtd"><r><v a="&x;">x</v></r>"#, 47),
        ("<r><v>&nbsp;</v></r>", 6),
    ])
    func undeclaredEntities(body: String, offset: Int) throws {
        let description = XMLLimitsTests.decodingFailure(body)
        #expect(description?.contains("refers to an entity that is not declared at byte \(offset)") == true, "\(description ?? "")")
    }

    @Test("XML's five entities and character references keep their values beside a DOCTYPE naming a DTD")
    func predefinedEntities() throws {
        let body = #"<!DOCTYPE r SYSTEM "r.dtd"><r><v a="&quot;&apos;">AT&amp;T, &#38;x &#x26;y &lt;x&gt;</v></r>"#
        #expect(try XMLModelDecoder().decode(Value.self, from: Data(body.utf8)) == Value(v: "AT&T, &x &y <x>"))
    }

    @Test("an XML property list in UTF-16 or UTF-32 obeys maximumNestingDepth, at the offset in its own bytes", arguments: [2, 4])
    func widePropertyListDepth(unitSize: Int) throws {
        let plist = "<plist><dict><key>v</key><dict><key>w</key><string>x</string></dict></dict></plist>"
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Value.self), decoders: [.propertyList()])
        serializer.maximumNestingDepth = 3
        let context = ResponseContext(url: URL(string: "https://api.example.com/x"), method: .get, status: .ok, headerFields: [.contentType: "application/x-plist"])
        let body = Data(Self.encoded(plist, unitSize: unitSize, bigEndian: false, mark: true))
        guard case .failure(let error) = serializer.result(body, for: context, as: Value.self), case .nestingTooDeep(3, let offset) = error.reason else {
            Issue.record("a UTF-\(unitSize * 8) property list four levels deep was not refused")
            return
        }
        #expect(offset == unitSize + 31 * unitSize, "the fourth level's < in the body's own bytes")
    }

    @Test("an encoding declared past the first kilobyte is read as libxml2 reads it: refused when Sculpt does not read it, used when it does")
    func lateDeclaration() throws {
        let padding = String(repeating: " ", count: 1_100)
        let utf7 = XMLLimitsTests.decodingFailure("<?xml version=\"1.0\"\(padding)encoding=\"UTF-7\"?><r><v>a</v>+ADwALwByAD4APAByAD4-<v>b</v></r>")
        #expect(utf7?.contains("encoding 'utf-7' is not one Sculpt reads") == true, "\(utf7?.prefix(300) ?? "")")
        let latin1 = Data(Array("<?xml version=\"1.0\"\(padding)encoding=\"ISO-8859-1\"?><r><v>caf".utf8) + [0xE9] + Array("</v></r>".utf8))
        #expect(try XMLModelDecoder().decode(Value.self, from: latin1) == Value(v: "caf\u{E9}"))
    }

    @Test("markup that does not end is refused before the parser recovers from it, saying what and where", arguments: [
        ("<r>" + String(repeating: "<![CDATA[", count: 20_000) + "</r>", "a CDATA section that does not end, opened at byte 3"),
        ("<r>" + String(repeating: "<!--", count: 20_000) + "</r>", "a comment that does not end, opened at byte 3"),
        ("<r><v>x</v><?pi x", "a processing instruction that does not end, opened at byte 11"),
    ])
    func unclosed(body: String, expected: String) throws {
        let description = XMLLimitsTests.decodingFailure(body)
        #expect(description?.contains(expected) == true, "\(description?.prefix(300) ?? "")")
    }

    @Test("an element with more than 1,024 attributes is refused; one with 1,024 decodes")
    func attributes() throws {
        func element(_ count: Int) -> String {
            "<r><v " + (0..<count).map { "a\($0)=\"x\"" }.joined(separator: " ") + ">x</v></r>"
        }
        #expect(try XMLModelDecoder().decode(Value.self, from: Data(element(1_024).utf8)) == Value(v: "x"))
        let description = XMLLimitsTests.decodingFailure(element(1_025))
        #expect(description?.contains("element at byte 3 has more than 1024 attributes") == true, "\(description?.prefix(300) ?? "")")
    }

    @Test("a maximum depth below 1 is 1: the root is read, nothing deeper")
    func depthFloor() throws {
        #expect(XMLModelDecoder(maximumNestingDepth: -1).maximumNestingDepth == 1)
    }

    @Test("nestingOffset gives the offset in the body's bytes as sent, in every encoding", arguments: [
        (Self.encoded("<a><b/></a>", unitSize: 2, bigEndian: false, mark: true), 8),
        (Self.encoded("<a><b/></a>", unitSize: 4, bigEndian: true, mark: false), 12),
        (Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>".utf8) + [0xE9] + Array("<b/></a>".utf8), 47),
    ] as [([UInt8], Int)])
    func offsetsAsSent(body: [UInt8], offset: Int) throws {
        #expect(XMLModelDecoder().nestingOffset(exceeding: 1, in: Data(body)) == offset)
    }
}
