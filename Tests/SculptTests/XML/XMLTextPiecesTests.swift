import Foundation
@testable import SculptXML
import Testing

/// An element's text reads whole however it is written (references, CDATA sections, white space
/// between them), in time linear in its size; text that would still reach XMLCoder in many pieces
/// is refused by a stated limit.
@Suite("XML text in pieces")
struct XMLTextPiecesTests {
    typealias Value = XMLLimitsTests.Value

    static func decode(_ body: String) throws -> String {
        try XMLModelDecoder().decode(Value.self, from: Data(body.utf8)).v
    }

    @Test("text reads whole: references, sections and the white space between them", arguments: [
        ("<r><v>&#38; &#x26;</v></r>", "& &"),
        ("<r><v>&lt;p&gt;AT&amp;T &quot;&apos;&lt;/p&gt;</v></r>", "<p>AT&T \"'</p>"),
        ("<r><v>x<![CDATA[y]]>z &amp; <![CDATA[<w>]]></v></r>", "xyz & <w>"),
        ("<r><v>a]]&gt;b</v></r>", "a]]>b"),
        ("<r><v>&#93;]&gt;&#93;&#93;&gt;</v></r>", "]]>]]>"),
        ("<r><v>]<![CDATA[]>]]></v></r>", "]]>"),
        ("<r><v><![CDATA[]]]]><![CDATA[>]]></v></r>", "]]>"),
        ("<r><v>&#x1F600; &#233;t&#xE9;</v></r>", "\u{1F600} \u{E9}t\u{E9}"),
        ("<r><v>one&#13;&#10;two</v></r>", "one\r\ntwo"),
        ("<r><v>a&amp;<!-- note -->b</v></r>", "a&b"),
        ("<r><v>a&amp;<?pi x?>b</v></r>", "a&b"),
        ("<r><v>\n  &amp;  \n</v></r>", "&"),
        ("<r><v a=\"x>\">&amp;</v></r>", "&"),
        ("<r><v>a<!--c--> <!--c-->b</v></r>", "a b"),
        ("<r><v>x&#xD;<!--c-->y</v></r>", "x\ry"),
        ("<r><v>&#38; &#38;<!--c--></v></r>", "& &"),
        ("<r><v>a<?p d?> <?p d?>b</v></r>", "a b"),
        ("<r><v><![CDATA[a\r\nb\rc]]></v></r>", "a\nb\nc"),
        ("<r><v>\u{E9}" + String(repeating: " ", count: 600) + "x</v></r>", "\u{E9}" + String(repeating: " ", count: 600) + "x"),
    ])
    func readsWhole(body: String, expected: String) throws {
        #expect(try Self.decode(body) == expected)
    }

    @Test("long text reads whole, with or without references", arguments: ["word ", "a &lt; b ", "x<![CDATA[<y>]]>", "caf\u{E9} \u{6771}\u{4EAC} "])
    func longText(piece: String) throws {
        let text = String(repeating: piece, count: 4_000)
        let expected = text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "<![CDATA[", with: "").replacingOccurrences(of: "]]>", with: "")
        #expect(try Self.decode("<r><v>\(text)</v></r>") == expected.trimmingCharacters(in: .whitespaces))
    }

    @Test("what is not well-formed in text is still refused", arguments: [
        "<r><v>a&#0;b</v></r>",
        "<r><v>a&#xFFFE;b</v></r>",
        "<r><v>a&amp b</v></r>",
        "<r><v>a&#x;b</v></r>",
        "<r><v>a]]>b &amp;</v></r>",
        "<r><v>x &amp; <!-- a -- b --></v></r>",
        "<r><v>x &amp; <?xml version=\"1.0\"?></v></r>",
        "<r><v>x &amp; <![CDATA[y</v></r>",
    ])
    func malformed(body: String) throws {
        #expect(throws: DecodingError.self) { try Self.decode(body) }
    }

    @Test("a text of many references, or of sections beside text, decodes whole", arguments: [
        ("&amp;", "&", 100_000),
        ("x<![CDATA[&]]>", "x&", 50_000),
    ])
    func manyPieces(piece: String, value: String, count: Int) throws {
        let text = try Self.decode("<r><v>" + String(repeating: piece, count: count) + "</v></r>")
        #expect(text == String(repeating: value, count: count))
    }

    @Test("text in pieces reaches the parser as one CDATA section, which XMLCoder reads in one piece and so in linear time", arguments: [
        ("<r><v>a &amp; b</v></r>", "<r><v><![CDATA[a & b]]></v></r>"),
        ("<r><v>x<![CDATA[<y>]]>z</v><w/></r>", "<r><v><![CDATA[x<y>z]]></v><w/></r>"),
        ("<r><v>&#93;]&gt;</v></r>", "<r><v><![CDATA[]]]]><![CDATA[>]]></v></r>"),
        ("<r>\n  <v>plain</v>\n</r>", "<r>\n  <v>plain</v>\n</r>"),
        ("<r><v a=\"&amp;\">x</v></r>", "<r><v a=\"&amp;\">x</v></r>"),
        ("<r><v>" + String(repeating: "\u{E9}", count: 200) + "</v></r>", "<r><v><![CDATA[" + String(repeating: "\u{E9}", count: 200) + "]]></v></r>"),
        ("<r><v>" + String(repeating: "\u{E9}", count: 100) + "</v></r>", "<r><v>" + String(repeating: "\u{E9}", count: 100) + "</v></r>"),
    ])
    func oneSection(document: String, rewritten: String) throws {
        #expect(String(decoding: try XMLDocumentText.rewritten(Data(document.utf8)), as: UTF8.self) == rewritten)
    }

    @Test("text that would reach XMLCoder in too many pieces is refused, saying where and why", arguments: [
        "a<?xml?>", "]]&gt;", "a<!-- -- -->",
    ])
    func tooManyPieces(piece: String) throws {
        let text = String(repeating: piece, count: 200_000)
        let description = XMLLimitsTests.decodingFailure("<r><v>\(text)</v></r>")
        #expect(description?.contains("The XML document's text at byte 6 (\(text.utf8.count) bytes) would reach XMLCoder in") == true, "\(description?.prefix(400) ?? "")")
    }

    @Test("a carriage return written as a reference is kept; one written as itself is a line end, read as a line feed", arguments: [
        ("a line&#xD;\n", "a line\r\n", 10_000),
        ("a line\r\n", "a line\n", 10_000),
        ("one\rtwo\r\nthree", "one\ntwo\nthree", 1),
    ])
    func carriageReturns(piece: String, expected: String, count: Int) throws {
        let text = String(repeating: piece, count: count)
        #expect(try Self.decode("<r><v>\(text)</v></r>") == String(repeating: expected, count: count).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    #if canImport(FoundationXML)
    @Test("on Linux a document that fits the parser's size but not once its text is one piece is refused with both sizes")
    func grownPastTheParsersSize() throws {
        let frame = "<r><v>&lt;</v></r>"
        let body = "<r><v>&lt;" + String(repeating: "a", count: XMLModelDecoder.maximumDocumentSize - frame.utf8.count) + "</v></r>"
        let description = XMLLimitsTests.decodingFailure(body)
        #expect(description?.contains("is 10000009 bytes once its text is written in one piece (10000000 as sent)") == true, "\(description?.prefix(400) ?? "")")
    }
    #endif
}
