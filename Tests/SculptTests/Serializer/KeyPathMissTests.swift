import Foundation
import HTTPTypes
import Sculpt
import SculptJSON
import SculptMatchers
import SculptXML
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A key path that leads nowhere names the members the body does have there, whichever decoder
/// reads the body and whichever entry point the caller took.
@Suite("Key path misses list the body's own members")
struct KeyPathMissTests {
    struct Row: Decodable, Sendable { let id: Int }

    enum Format: String, CaseIterable, Sendable {
        case sculptJSON, foundationJSON, propertyList, xml

        var decoder: ContentDecoder {
            switch self {
            case .sculptJSON: .json(SculptJSONDecoder())
            case .foundationJSON: .json(JSONDecoder())
            case .propertyList: .propertyList()
            case .xml: .xml()
            }
        }

        var contentType: String {
            switch self {
            case .sculptJSON, .foundationJSON: "application/json"
            case .propertyList: "application/x-plist"
            case .xml: "application/xml"
            }
        }

        /// `data` holds `items` and `total`; there is no `data.row`.
        var body: Data {
            switch self {
            case .sculptJSON, .foundationJSON:
                Data(#"{"data":{"items":[],"total":3}}"#.utf8)
            case .propertyList:
                Data("""
                    <?xml version="1.0" encoding="UTF-8"?>
                    <plist version="1.0"><dict><key>data</key><dict><key>items</key><array/><key>total</key><integer>3</integer></dict></dict></plist>
                    """.utf8)
            case .xml:
                Data("<response><data><items/><total>3</total></data></response>".utf8)
            }
        }
    }

    enum Entry: String, CaseIterable, Sendable {
        case serialize, serializeAs, result, foundationResponse, foundationResponseAs
    }

    static let url = URL(string: "https://api.example.com/rows")!

    /// The error `body` throws, or `nil`.
    static func caught(_ body: () throws(SculptError) -> Void) -> SculptError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("a miss names where it failed and the members there", arguments: Format.allCases, Entry.allCases)
    func miss(format: Format, entry: Entry) throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Row.self, at: "data.row"), decoders: [format.decoder])
        let context = ResponseContext(url: Self.url, method: .get, status: .ok, headerFields: [.contentType: format.contentType])
        let response = try #require(HTTPURLResponse(url: Self.url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": format.contentType]))
        let body = format.body
        let error: SculptError? = switch entry {
        case .serialize: Self.caught { () throws(SculptError) in _ = try serializer.serialize(body, for: context) }
        case .serializeAs: Self.caught { () throws(SculptError) in _ = try serializer.serialize(body, for: context, as: Row.self) }
        case .result: if case .failure(let error) = serializer.result(body, for: context, as: Row.self) { error } else { nil }
        case .foundationResponse: Self.caught { () throws(SculptError) in _ = try serializer.serialize(body, for: response) }
        case .foundationResponseAs: Self.caught { () throws(SculptError) in _ = try serializer.serialize(body, for: response, as: Row.self) }
        }
        let miss = try #require(error)
        guard case .keyPathNotFound(let found) = miss.reason else {
            Issue.record("\(format) \(entry): \(miss)")
            return
        }
        #expect(found == SculptError.KeyPathMiss(keyPath: "data.row", failedAt: "data.row", availableKeys: ["items", "total"]))
        #expect(miss.description.contains("items, total") || miss.description.contains("\"items\", \"total\""), "\(miss)")
    }
}
