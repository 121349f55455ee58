import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptXML
import Testing

/// XML documents that would crash the parser or run without bound are refused with a decoding error that says why and keeps the body; levels are counted as
/// the body's format counts them.
@Suite("XML limits")
struct XMLLimitsTests {
    struct Value: Decodable, Sendable, Equatable { let v: String }

    static let context = ResponseContext(url: URL(string: "https://api.example.com/x"), method: .get, status: .ok, headerFields: [.contentType: "application/xml"])

    /// A document `depth` elements deep: `<r>`, `depth - 2` levels of `<e>`, then `<v>x</v>`.
    static func nested(_ depth: Int) -> String {
        "<r>" + String(repeating: "<e>", count: depth - 2) + "<v>x</v>" + String(repeating: "</e>", count: depth - 2) + "</r>"
    }

    /// The description of the decoding error `body` gives through an XML serializer.
    static func decodingFailure(_ body: String, decoder: XMLModelDecoder = XMLModelDecoder()) -> String? {
        decodingFailure(Data(body.utf8), decoder: decoder)
    }

    /// The description of the decoding error `body` gives through an XML serializer.
    static func decodingFailure(_ body: Data, decoder: XMLModelDecoder = XMLModelDecoder()) -> String? {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Value.self), decoders: [.xml(decoder)])
        switch serializer.result(body, for: context, as: Value.self) {
        case .success(let value):
            Issue.record("\(body.count) bytes decoded as \(value)")
            return nil
        case .failure(let error):
            guard case .decodingFailed = error.reason else {
                Issue.record("\(error)")
                return nil
            }
            #expect(error.body == body)
            #expect("\(error)".utf8.count <= 4096)
            return "\(error)"
        }
    }

    @Test("elements nested 30,000 deep are refused before the parser recurses (it crashed the process); 256 levels decode")
    func deepNesting() throws {
        let description = Self.decodingFailure(Self.nested(30_000))
        #expect(description?.contains("deeper than 256 levels: level 257 opens at byte") == true, "\(description ?? "")")
        let within = Data(Self.nested(256).utf8)
        #expect(try XMLModelDecoder().decode(Value.self, from: Data("<r><v>x</v></r>".utf8)) == Value(v: "x"))
        #expect(throws: DecodingError.self) { try XMLModelDecoder().decode(Value.self, from: within) }  // decodes, but has no v at the top
        #expect(XMLModelDecoder().nestingOffset(exceeding: 256, in: within) == nil)
    }

    @Test("maximumNestingDepth is the decoder's own limit")
    func configuredDepth() throws {
        let shallow = XMLModelDecoder(maximumNestingDepth: 2)
        #expect(try shallow.decode(Value.self, from: Data("<r><v>x</v></r>".utf8)) == Value(v: "x"))
        let description = Self.decodingFailure("<r><v><w/></v></r>", decoder: shallow)
        #expect(description?.contains("deeper than 2 levels: level 3 opens at byte 6") == true, "\(description ?? "")")
    }

    @Test("a refusal's offset in a UTF-16 document says it counts the document read as UTF-8")
    func wideDocumentOffsets() throws {
        let body = try #require("<r><v><w/></v></r>".data(using: .utf16LittleEndian))
        let error = try #require(throws: DecodingError.self) { try XMLModelDecoder(maximumNestingDepth: 2).decode(Value.self, from: body) }
        #expect("\(error)".contains("level 3 opens at byte 6 of the document read as UTF-8"), "\(error)")
    }

    @Test("markup that is not an element does not count as a level", arguments: [
        "<r><!-- <a><b><c> --><v>x</v></r>",
        "<r><![CDATA[<a><b><c>]]><v>x</v></r>",
        "<?xml version=\"1.0\"?><?pi <a><b>?><r><v>x</v></r>",
        "<r a='b>c' b=\"/>\"><v>x</v></r>",
        "<r><a/><b/><c/><v>x</v></r>",
        "<!DOCTYPE r SYSTEM \"a[b].dtd\"><r><v>x</v></r>",
    ])
    func notLevels(body: String) throws {
        #expect(try XMLModelDecoder(maximumNestingDepth: 2).decode(Value.self, from: Data(body.utf8)) == Value(v: "x"))
    }

    @Test("a DTD internal subset is refused: entity expansion is unbounded, and an internal entity read as empty text", arguments: [
        "<!DOCTYPE r [<!ENTITY a \"" + String(repeating: "x", count: 10_000) + "\">]><r><v>" + String(repeating: "&a;", count: 5_000) + "</v></r>",
        "<!DOCTYPE r [<!ENTITY name \"Ada\">]><r><v>&name;</v></r>",
        "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n]>\n<r><v>x</v></r>",
    ])
    func internalSubset(body: String) throws {
        let description = Self.decodingFailure(body)
        #expect(description?.contains("declares a DTD internal subset at byte") == true, "\(description ?? "")")
    }

    @Test("a CDATA section reads as the text it stands for, joined with the text around it (it read as the text before it alone)", arguments: [
        ("<r><v>x<![CDATA[y]]>z</v></r>", "xyz"),
        ("<r><v><![CDATA[a < b && c > d]]></v></r>", "a < b && c > d"),
        ("<r><v>one <![CDATA[<two>]]><![CDATA[ three]]></v></r>", "one <two> three"),
        ("<r><!-- <![CDATA[not this]]> --><v>a<![CDATA[]]>b</v><?pi <![CDATA[ ?></r>", "ab"),
        ("<r><v>\n  <![CDATA[kept]]>\n</v></r>", "kept"),
        ("<r><v><![CDATA[a]]> <![CDATA[<b>]]></v></r>", "a <b>"),
        ("<r><v><![CDATA[a]]><![CDATA[<b>]]></v></r>", "a<b>"),
        ("<r><v><![CDATA[a]]> <![CDATA[b]]>c</v></r>", "a bc"),
    ])
    func cdata(body: String, expected: String) throws {
        #expect(try XMLModelDecoder().decode(Value.self, from: Data(body.utf8)) == Value(v: expected))
    }

    @Test("text or a second element outside the root element is refused (FoundationXML reported success, and the first root was read alone)", arguments: [
        ("<r><v>1</v></r><r><v>2</v></r>", "outside its root element at byte 15"),
        ("<r><v>1</v></r>trailing", "outside its root element at byte 15"),
        ("\u{FEFF}<?xml version=\"1.0\"?>\ntext<r><v>1</v></r>", "outside its root element at byte 25"),
        ("not XML at all", "outside its root element at byte 0"),
        ("<?xml version=\"1.0\"?><!-- only a comment -->", "has no root element"),
    ])
    func textBesideRoot(body: String, expected: String) throws {
        let description = Self.decodingFailure(body)
        #expect(description?.contains(expected) == true, "\(description ?? "")")
    }

    @Test("white space, comments and processing instructions beside the root element are read as they are", arguments: [
        "\u{FEFF}<?xml version=\"1.0\"?>\n<!-- a feed -->\n<r><v>x</v></r>\n<!-- end -->\n<?pi x?>\n",
        "<!DOCTYPE r SYSTEM \"r.dtd\">\r\n\t<r><v>x</v></r>",
    ])
    func besideRoot(body: String) throws {
        #expect(try XMLModelDecoder().decode(Value.self, from: Data(body.utf8)) == Value(v: "x"))
    }

    @Test("a processing instruction without data decodes (FoundationXML crashed the process on it)", arguments: [
        "<?pi?><r><v>x</v></r>",
        "<r><?pi?><v>x</v></r>",
        "<r><v>x<?pi?></v></r>",
        "<r><v>x</v></r><?pi?>",
        "<?xml version=\"1.0\"?>\n<?xml-stylesheet?><r><v>x</v><?a b?><?c\t?></r>",
        "<r><v>x</v><?caf\u{E9}?></r>",
        "<!-- <![CDATA[ --><?pi?><!-- ]]> --><r><v>x</v></r>",
        "<r><?x <![CDATA[ ?><?pi?><?y ]]> ?><v>x</v></r>",
    ])
    func instructionWithoutData(body: String) throws {
        #expect(try XMLModelDecoder().decode(Value.self, from: Data(body.utf8)) == Value(v: "x"))
    }

    @Test("an XML declaration inside the document is a decoding error, not a crash")
    func misplacedDeclaration() throws {
        let description = Self.decodingFailure("<r><?xml?><v>x</v></r>")
        #expect(description?.contains("an XML declaration that is not at the start of the document (libxml2 error 64)") == true, "\(description ?? "")")
    }

    @Test("an instruction without data where the parser resumes after a declaration that does not end is a decoding error, not a crash", arguments: [
        "<?xml version=\"1\u{6C2E}<r><?xml?><v>x</v></r>",
        "<?xml version=\"1.0\" <r><?pi?><v>x</v></r>",
    ])
    func instructionAfterBrokenDeclaration(body: String) throws {
        _ = Self.decodingFailure(body)
    }

    @Test("text that only looks like an instruction keeps its bytes: in CDATA it is text", arguments: [
        ("<r><v><![CDATA[<?x?>]]></v></r>", "<?x?>"),
        ("<r><!-- <?x?> --><v>a</v></r>", "a"),
    ])
    func instructionLookalikes(body: String, expected: String) throws {
        #expect(try XMLModelDecoder().decode(Value.self, from: Data(body.utf8)) == Value(v: expected))
    }

    @Test("CDATA inside markup that does not end is the parser's to refuse, and the rewrite does not trap", arguments: [
        "<r><v a='>' <![CDATA[>]]>x</v></r>",
        "<r><v <![CDATA[x>]]> </v></r>",
    ])
    func cdataInBrokenMarkup(body: String) throws {
        _ = Self.decodingFailure(body)
    }

    @Test("a > in a quoted attribute value before a CDATA section beside text still joins them")
    func cdataAfterQuotedGreaterThan() throws {
        let body = "<r><v a='>'>x<![CDATA[y]]></v></r>"
        #expect(try XMLModelDecoder().decode(Value.self, from: Data(body.utf8)) == Value(v: "xy"))
    }

    @Test("a document that is not well-formed says what is wrong and near which line, not Code=76 \"(null)\"", arguments: [
        ("<r>\n<v>x</w>\n</r>", "an end tag that does not match its start tag (libxml2 error 76), near line 3, column 5"),
        ("<r><v>x</v>", "not well-formed: the document ends too early"),
        ("<r><v a='1' a='2'>x</v></r>", "an attribute given twice (libxml2 error 42)"),
        ("<r><v>&nbsp;</v></r>", "refers to an entity that is not declared at byte 6"),
    ])
    func syntaxErrors(body: String, expected: String) throws {
        let description = Self.decodingFailure(body)
        #expect(description?.contains(expected) == true, "\(description ?? "")")
        #expect(description?.contains("(null)") == false)
    }

    #if canImport(FoundationXML)
    @Test("on Linux a document over 10,000,000 bytes is refused with the reason, unread; one of 10,000,000 decodes")
    func documentSize() throws {
        let frame = "<r><v></v></r>"
        let largest = "<r><v>" + String(repeating: "a", count: XMLModelDecoder.maximumDocumentSize - frame.utf8.count) + "</v></r>"
        #expect(try XMLModelDecoder().decode(Value.self, from: Data(largest.utf8)).v.utf8.count == XMLModelDecoder.maximumDocumentSize - frame.utf8.count)
        let description = Self.decodingFailure(largest + " ")
        #expect(description?.contains("is 10000001 bytes; FoundationXML's parser reads at most 10000000 bytes") == true, "\(description ?? "")")
        let huge = Data(count: 100_000_000)
        #expect(throws: DecodingError.self) { try XMLModelDecoder().decode(Value.self, from: huge) }
    }
    #endif

    @Test("XMLCoder's errorContextLength set by the caller does not trap on a malformed document of several lines")
    func errorContext() throws {
        let decoder = XMLModelDecoder { $0.errorContextLength = 10 }
        _ = Self.decodingFailure("<r>\n  <v>x</v>\n  <w>\n</r>\n", decoder: decoder)
    }

    @Test("maximumNestingDepth counts elements in XML and XML property lists, not brackets in their text", arguments: [
        ("application/xml", 2, "<r><v>[[[[{{{{x}}}}]]]]</v></r>", nil),
        ("application/xml", 2, "<r><v><w>x</w></v></r>", 6),
        ("application/x-plist", 3, "<plist><dict><key>v</key><string>[[[[x]]]]</string></dict></plist>", nil),
        ("application/x-plist", 3, "<plist><dict><key>v</key><dict><key>w</key><string>x</string></dict></dict></plist>", 31),
        ("application/json", 2, #"{"v":"x","w":[[1]]}"#, 14),
    ] as [(String, Int, String, Int?)])
    func nestingDepthByFormat(contentType: String, limit: Int, body: String, offset: Int?) throws {
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Value.self), decoders: [.json(), .xml(), .propertyList()])
        serializer.maximumNestingDepth = limit
        let context = ResponseContext(url: URL(string: "https://api.example.com/x"), method: .get, status: .ok, headerFields: [.contentType: contentType])
        switch serializer.result(Data(body.utf8), for: context, as: Value.self) {
        case .success(let value):
            #expect(offset == nil && value.v.contains("x"), "\(value)")
        case .failure(let error):
            guard case .nestingTooDeep(limit, let found) = error.reason else {
                Issue.record("\(contentType): \(error)")
                return
            }
            #expect(found == offset)
            #expect("\(error)".contains("nests deeper than \(limit) levels (level \(limit + 1) opens at byte \(found))"))
        }
    }
}
