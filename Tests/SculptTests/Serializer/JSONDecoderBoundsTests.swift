import Foundation
import Sculpt
import SculptMatchers
import Testing

/// `JSONDecoder` stops the process on a body whose last character (white space aside) opens level 513: a serializer
/// that decodes with it refuses such a body with an error instead, in every encoding and on every
/// path a body takes, and leaves every other body to `JSONDecoder`.
@Suite("JSON bodies JSONDecoder would trap on are refused")
struct JSONDecoderBoundsTests {
    struct Model: Decodable, Sendable { let id: Int }

    /// A body and the encoding it is sent in.
    struct Body: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let encoding: String.Encoding
        var data: Data { text.data(using: encoding) ?? Data() }
        var testDescription: String { "\(name), \(encoding)" }
    }

    static let deep = [
        ("513 arrays", String(repeating: "[", count: 513)),
        ("512 objects, then an array", String(repeating: #"{"a":"#, count: 512) + "["),
        ("512 arrays, then an object", String(repeating: "[", count: 512) + "{"),
        ("1,000 arrays", String(repeating: "[", count: 1_000)),
        ("513 arrays, then a carriage return", String(repeating: "[", count: 513) + "\r"),
        ("512 objects, then an array and white space", String(repeating: #"{"a":"#, count: 512) + "[ \r\n\t\r"),
    ]

    static let bodies: [Body] = deep.flatMap { name, text in
        [String.Encoding.utf8, .utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian].map {
            Body(name: name, text: text, encoding: $0)
        }
    }

    static let context = ResponseContext(url: URL(string: "https://api.example.com/items"), status: .ok, headerFields: [.contentType: "application/json"])

    @Test("refused as invalid JSON by the default serializer, naming the bracket past 512 levels, white space after it or not", arguments: bodies)
    func serializer(_ body: Body) {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Model.self))
        #expect {
            try serializer.serialize(body.data, for: Self.context)
        } throws: { error in
            guard case .decodingFailed(_, let underlying)? = (error as? SculptError)?.reason,
                case .dataCorrupted(let context) = underlying as? DecodingError
            else { return false }
            return context.debugDescription == "The given data was not valid JSON."
                && "\(context.underlyingError.map(String.init(describing:)) ?? "")".contains("tooManyNestedArraysOrDictionaries")
        }
    }

    @Test("refused where JSON is negotiated among decoders, and in an error body", arguments: bodies.filter { $0.encoding == .utf8 })
    func otherPaths(_ body: Body) {
        let negotiated = ModelResponseSerializer(matcher: StaticModelMatcher(Model.self), decoders: [.json(), .propertyList()])
        #expect(throws: SculptError.self) { try negotiated.serialize(body.data, for: Self.context) }
        let failing = ResponseContext(url: Self.context.url, status: .badRequest, headerFields: [.contentType: "application/json"])
        let withErrors = ModelResponseSerializer(matcher: StaticModelMatcher(Model.self), errorMatcher: StaticModelMatcher(Model.self))
        #expect(throws: SculptError.self) { try withErrors.serialize(body.data, for: failing) }
    }

    @Test("left to JSONDecoder when the last character opens no container past 512 levels", arguments: [
        String(repeating: "[", count: 512),
        String(repeating: "[", count: 512) + "\r",
        String(repeating: "[", count: 513) + "x",
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
        #"{"id":1}"#,
    ])
    func leftToJSONDecoder(_ text: String) throws {
        try JSONDecoder().checkBounds(of: Data(text.utf8))
    }
}
