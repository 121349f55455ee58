import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

/// Every description Sculpt writes is at most 4 KB whatever a server or a fixture holds: long
/// values cut with their size stated, long lists with a count, in time proportional to what is
/// shown. The errors themselves keep every value whole.
@Suite("Bounded descriptions")
struct BoundedDescriptionTests {
    /// A hostile input, the description it produces, and what the description must say about
    /// what it cut.
    enum Row: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case discriminatorValue, errorModelMessage, contentType, codingPathKey, keyPathMissBesideManyKeys
        case hugeCandidateList, formatErrorReason, mappingFailureURL
        case unusedInteractions, missInLargeCassette

        var testDescription: String { rawValue }

        static let megabyte = 1 << 20

        /// The description, the text that states the size or count of what was cut, and a check that
        /// the error still holds the whole value.
        func run() throws -> (description: String, stated: String, whole: Bool) {
            let long = String(repeating: "v", count: Self.megabyte)
            switch self {
            case .discriminatorValue:
                var types = TypeFieldModelMatcher(field: "type")
                try types.add("user", User.self)
                let body = Data(#"{"type":"\#(long)"}"#.utf8)
                let error = try Self.error { try ModelResponseSerializer(matcher: types).serialize(body, for: response()) }
                guard case .unknownDiscriminator(_, let found, _) = error.reason else { return (error.description, "unknownDiscriminator", false) }
                return (error.description, "(1,048,578 bytes)", found?.utf8.count == Self.megabyte + 2)
            case .errorModelMessage:
                let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self), errorMatcher: StaticModelMatcher(APIError.self))
                let body = Data(#"{"message":"\#(long)"}"#.utf8)
                let error = try Self.error { try serializer.serialize(body, for: response(status: .badRequest)) }
                guard case .errorResponse(let model) = error.reason else { return (error.description, "errorResponse", false) }
                // The message is cut where the description's budget ends, its own size stated.
                return (error.description, "(\(Self.count(Self.megabyte)) bytes)", (model as? APIError)?.message.utf8.count == Self.megabyte)
            case .contentType:
                let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))
                let error = try Self.error { try serializer.serialize(Data("{}".utf8), for: response(contentType: "text/\(long)")) }
                let stated = "(\(Self.count(Self.megabyte + 5)) bytes)"
                return (error.description, stated, error.response.headerFields[.contentType]?.utf8.count == Self.megabyte + 5)
            case .codingPathKey:
                struct Item: Decodable, Sendable { let id: Int }
                let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([String: Item].self))
                let body = Data(#"{"\#(long)":{"id":"one"}}"#.utf8)
                let error = try Self.error { try serializer.serialize(body, for: response()) }
                return (error.description, "(1,048,576 bytes)", error.body == body)
            case .keyPathMissBesideManyKeys:
                let keys = (0..<100_000).map { #""key\#($0)":0"# }.joined(separator: ",")
                let body = Data(#"{"data":{\#(keys)}}"#.utf8)
                let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self, at: "data.missing"))
                let error = try Self.error { try serializer.serialize(body, for: response()) }
                guard case .keyPathNotFound(let miss) = error.reason else { return (error.description, "keyPathNotFound", false) }
                return (error.description, " more", miss.availableKeys.count == 100_000)
            case .hugeCandidateList:
                                let candidates = (0..<100_000).map { "/route/\($0)/\(String(repeating: "x", count: 100))" }
                let error = SculptError(.noModelMatched(candidates: candidates), response: response(), body: Data("{}".utf8))
                return (error.description, " more", true)
            case .formatErrorReason:
                let text = #"{"request":{"url":"https://x/a","method":"\#(String(repeating: "(", count: Self.megabyte))"},"response":{"status":200}}"#
                let error = try #require(throws: Fixture.FormatError.self) { try Fixture(json: Data(text.utf8)) }
                // A refused value is described by its size, never quoted at length.
                return (error.description, "a value of \(Self.megabyte) bytes", error.reason.utf8.count < 256)
            case .mappingFailureURL:
                let url = try #require(URL(string: "https://api.example.com/v3/" + String(repeating: "segment/", count: 100_000)))
                let fixture = Fixture(
                    request: .init(url: url), response: .init(headerFields: [.contentType: "text/\(long)"], body: Data("{}".utf8)),
                    source: String(repeating: "f", count: Self.megabyte))
                let error = try #require(throws: Fixture.MappingError.self) { try fixture.model(serializer: ModelResponseSerializer(matcher: StaticModelMatcher(User.self)), as: User.self) }
                return (error.description, "(1,048,576 bytes)", error.fixture.request.url == url)
            case .unusedInteractions:
                let error = try #require(throws: FixtureReplay.UnusedInteractionsError.self) { try FixtureReplay(try Self.cassette()).verifyAllUsed() }
                return (error.description, "more", error.interactions.count == 10_000)
            case .missInLargeCassette:
                let replay = FixtureReplay(try Self.cassette(), options: .init(matchedHeaders: [.accept], matchesBody: true))
                // The cassette is what is large; the request is long where it is cheap to compare.
                let query = (0..<20).map { "q\($0)=\(String(repeating: "q", count: 200))" }.joined(separator: "&")
                let url = try #require(URL(string: "https://api.example.com/items/1/\(String(repeating: "p", count: 20_000))?\(query)"))
                let request = Fixture.Request(url: url, headerFields: [.accept: String(repeating: "a", count: 20_000)], body: Data(long.utf8))
                let error = try #require(throws: FixtureReplay.MissError.self) { try replay.response(for: request) }
                return (error.description, "bytes)", error.request.url == url)
            }
        }

        /// 10,000 recorded interactions with long paths and queries.
        static func cassette() throws -> [Fixture] {
            try (0..<10_000).map { index in
                let url = try #require(URL(string: "https://api.example.com/items/\(index)/\(String(repeating: "s", count: 200))?page=\(index)&access_token=REDACTED"))
                return Fixture(request: .init(url: url), response: .init(status: .ok), source: "large.json #\(index)")
            }
        }

        static func error(_ body: () throws -> Any) throws -> SculptError {
            try #require(throws: SculptError.self) { try body() }
        }

        /// `n` with thousands separators, as descriptions write sizes.
        static func count(_ n: Int) -> String {
            var digits = Array(String(n))
            var index = digits.count - 3
            while index > 0 {
                digits.insert(",", at: index)
                index -= 3
            }
            return String(digits)
        }
    }

    @Test("a description is at most 4,096 bytes and says how much it left out", arguments: Row.allCases)
    func bounded(_ row: Row) throws {
        let (description, stated, whole) = try row.run()
        #expect(description.utf8.count <= 4_096, "\(row.rawValue): a description of \(description.utf8.count) bytes")
        #expect(description.contains(stated), "\(row.rawValue) does not state \(stated):\n\(description.prefix(4_096))")
        #expect(whole, "\(row.rawValue): the error must keep the value whole")
    }

    @Test("a 100 MB discriminator value is described in at most 4,096 bytes, its size stated", .timeLimit(.minutes(10)))
    func hugeTag() throws {
        var types = TypeFieldModelMatcher(field: "type")
        try types.add("user", User.self)
        var body = Data(#"{"type":""#.utf8)
        body.append(Data(repeating: UInt8(ascii: "t"), count: 100 << 20))
        body.append(Data(#""}"#.utf8))
        let error = try #require(throws: SculptError.self) { try ModelResponseSerializer(matcher: types).serialize(body, for: response()) }
        // How fast is the benchmarks' business (Benchmarks/: the describe row); the time limit only
        // catches a description that reads the whole value.
        let description = error.description
        #expect(description.utf8.count <= 4_096)
        #expect(description.contains("Found a value of 104,857,602 bytes (not shown: the body is 104,857,611 bytes, and Sculpt looks for secrets in its first 4,194,304)"), "\(description)")
    }
}
