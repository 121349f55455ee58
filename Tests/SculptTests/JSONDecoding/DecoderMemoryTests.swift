import Foundation
@testable import Sculpt
import SculptShared
@testable import SculptJSON
import Testing

/// What `SculptJSONDecoder` holds: its scan keeps a literal (`null`, `true`, `false`) in one 8-byte
/// word, as `JSONDecoder`'s scan does, and any other value in two, values found by skipping
/// whatever mix of widths precedes them; and what it makes allocates no more than `JSONDecoder`'s
/// answer does.
@Suite("SculptJSONDecoder's memory")
struct DecoderMemoryTests {
    /// The words a scan of `json` takes.
    static func words(_ json: String) throws -> Int {
        var json = json
        return try json.withUTF8 { bytes in
            let entries = try JSONTape.scan(bytes)
            defer { entries.deallocate() }
            return entries.count
        }
    }

    @Test("a literal takes one word, any other value two, and the scan one word after the document", arguments: [
        ("null", 2),
        ("true", 2),
        ("[]", 3),
        ("[null,true,false]", 6),
        ("[1,\"a\"]", 7),
        ("{\"a\":true}", 6),
        ("{\"a\":{\"b\":null},\"c\":[false]}", 15),
    ])
    func widths(_ json: String, _ expected: Int) throws {
        #expect(try Self.words(json) == expected)
    }

    @Test("an array of a million nulls takes eight bytes an element, as JSONDecoder's scan does")
    func nulls() throws {
        let count = 1_000_000
        let json = "[" + Array(repeating: "null", count: count).joined(separator: ",") + "]"
        #expect(try Self.words(json) * MemoryLayout<UInt64>.stride == 8 * (count + 3))
    }

    @Test("an empty object decodes to the shared empty dictionary, with no storage of its own")
    func emptyDictionaries() throws {
        let data = Data("[{},{}]".utf8)
        let decoded = try SculptJSONDecoder().decode([[String: Int]].self, from: data)
        // A dictionary is one reference: the empty one's is shared by every empty dictionary.
        let storage = { (dictionary: [String: Int]) in unsafeBitCast(dictionary, to: UInt.self) }
        #expect(decoded.map(storage) == [storage([:]), storage([:])])
    }

    @Test("values after literals and containers of every width decode in place", arguments: [
        #"[null,{"a":[true,1,"x"],"b":false},[null],"end"]"#,
        #"{"n":null,"t":true,"s":"v","o":{"f":false},"a":[],"last":2}"#,
    ])
    func mixed(_ json: String) throws {
        let data = Data(json.utf8)
        let sculpt = try SculptJSONDecoder().decode(AnyJSON.self, from: data)
        #expect(sculpt == (try JSONDecoder().decode(AnyJSON.self, from: data)))
    }
}
