import Foundation
import Sculpt
import Testing

/// A lossy array keeps a bounded record of each failed element, whatever the element's error
/// carried: a million failures must not cost a decoder's whole error each.
@Suite("Lossy array failures are bounded")
struct LossyMemoryTests {
    /// What an element's decoder throws, named by the element's JSON string.
    enum Thrown: String, CaseIterable, Sendable {
        /// `dataCorrupted` with a 1 MB underlying error.
        case hugeUnderlying
        /// `typeMismatch` with a 1 MB description.
        case hugeDescription
        /// `dataCorrupted` at a coding path of 100 keys below the element.
        case deepPath
        /// `keyNotFound` for a key of 1 MB.
        case hugeKey
        /// An error of its own type, printing as 1 MB.
        case hugeCustom
    }

    struct Payload: Error, CustomStringConvertible {
        var description = String(repeating: "u", count: 1 << 20)
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// An element that always fails, the way its JSON string names.
    struct Failing: Decodable, Sendable {
        init(from decoder: any Decoder) throws {
            let thrown = Thrown(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .hugeCustom
            let path = decoder.codingPath
            let megabyte = String(repeating: "d", count: 1 << 20)
            switch thrown {
            case .hugeUnderlying:
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "bad", underlyingError: Payload()))
            case .hugeDescription:
                throw DecodingError.typeMismatch(Int.self, .init(codingPath: path, debugDescription: megabyte))
            case .deepPath:
                throw DecodingError.dataCorrupted(.init(codingPath: path + (0..<100).map { Key(stringValue: "k\($0)") }, debugDescription: "deep"))
            case .hugeKey:
                throw DecodingError.keyNotFound(Key(stringValue: megabyte), .init(codingPath: path, debugDescription: "missing"))
            case .hugeCustom:
                throw Payload()
            }
        }
    }

    @Test("each failure keeps a bounded record: no underlying error, 512-byte texts, 32-key paths", arguments: Thrown.allCases)
    func bounded(_ thrown: Thrown) throws {
        let array = try JSONDecoder().decode(LossyArray<Failing>.self, from: Data(#"["x","\#(thrown.rawValue)"]"#.utf8))
        let failure = try #require(array.failures.last)
        #expect(failure.index == 1)
        #expect(failure.description.utf8.count <= 2_048, "\(failure.description.utf8.count) bytes")
        switch failure.error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context), DecodingError.keyNotFound(_, let context):
            #expect(context.underlyingError == nil)
            #expect(context.debugDescription.utf8.count <= 512)
            #expect(context.codingPath.count <= 32)
            #expect(context.codingPath.first?.intValue == 1, "the element's index leads the path")
            if thrown == .hugeUnderlying { #expect(context.debugDescription.hasPrefix("bad (uuu")) }
            if thrown == .deepPath { #expect(context.codingPath.last?.stringValue == "k99") }
            if case DecodingError.keyNotFound(let key, _) = failure.error { #expect(key.stringValue.utf8.count <= 512) }
        default:
            #expect(thrown == .hugeCustom, "\(failure.error)")
            #expect("\(failure.error)".utf8.count <= 512)
        }
    }

    enum Letters: TypeFieldFamily {
        static let types: [String: any (Decodable & Sendable).Type] = ["a": Failing.self]
    }

    @Test("a tag is kept to 256 bytes")
    func longTag() throws {
        let tag = String(repeating: "t", count: 1 << 20)
        let array = try JSONDecoder().decode(LossyPolymorphicArray<Letters>.self, from: Data(#"[{"type":"\#(tag)"}]"#.utf8))
        let kept = try #require(array.skipped.first?.tag)
        #expect(kept.utf8.count <= ElementFailure.tagLimit)
        #expect(kept.hasPrefix("ttt"))
    }

    @Test("past 1,000 different reasons, further failures keep their index and tag and say the reason was not kept")
    func distinctReasons() throws {
        // Each unknown tag is its own reason ("found \"t17\"").
        let elements = (0..<1_500).map { #"{"type":"t\#($0)"}"# }.joined(separator: ",")
        let array = try JSONDecoder().decode(LossyPolymorphicArray<Letters>.self, from: Data("[\(elements)]".utf8))
        #expect(array.skipped.map(\.index) == Array(0..<1_500))
        #expect(array.skipped.map(\.tag) == (0..<1_500).map { "t\($0)" })
        #expect(array.skipped[999].description.contains(#"found "t999""#), "\(array.skipped[999])")
        #expect(array.skipped[1_000].description.contains("the reason was not kept"), "\(array.skipped[1_000])")
        #expect(array.skipped[1_000].description.hasPrefix(#"element [1000] (tag "t1000"): "#))
    }
}
