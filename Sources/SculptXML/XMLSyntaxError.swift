import Foundation
import SculptShared
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A parser's error for a document that is not well-formed, told in words.
///
/// XMLCoder rethrows `XMLParser`'s error as it is, an `NSError` whose description on Linux is
/// `NSXMLParserErrorDomain Code=76 "(null)"`; swift-corelibs-foundation's names for the codes do not
/// match libxml2's numbering (76 reads as `standaloneValueError`, but it is a mismatched end tag).
/// This names libxml2's code and where the parser stopped.
enum XMLSyntaxError {
    /// `error` as a `DecodingError.dataCorrupted` saying what is wrong and near which line and
    /// column of `document`, when it is a parser's error (whose own description says no more than
    /// its code, so it is not kept); `nil` for any other error.
    static func decodingError(for error: any Error, in document: Data) -> DecodingError? {
        let parserError = error as NSError
        guard parserError.domain == XMLParser.errorDomain else { return nil }
        let parser = XMLParser(data: document)
        _ = parser.parse()
        let reason = reasons[parserError.code].map { "\($0) (libxml2 error \(parserError.code))" } ?? "libxml2 error \(parserError.code)"
        return .dataCorrupted(.init(
            codingPath: [],
            debugDescription: "The XML document is not well-formed: \(reason), near line \(parser.lineNumber), column \(parser.columnNumber)."))
    }

    /// libxml2's `xmlParserErrors` that a response's body most often meets.
    private static let reasons: [Int: String] = [
        4: "the document is empty",
        5: "the document ends too early, or has content after its root element",
        9: "a character that XML does not allow",
        23: "an entity reference without its ';'",
        26: "an entity that is not declared",
        31: "an unknown encoding",
        32: "an unsupported encoding",
        38: "a '<' in an attribute value",
        39: "an attribute value without quotes",
        40: "an attribute value that does not end",
        41: "an attribute without a value",
        42: "an attribute given twice",
        45: "a comment that does not end",
        57: "an XML declaration that is not well-formed",
        63: "a CDATA section that does not end",
        64: "an XML declaration that is not at the start of the document",
        68: "a name was expected",
        73: "a '>' was expected",
        76: "an end tag that does not match its start tag",
        77: "an element that is not closed",
    ]
}
