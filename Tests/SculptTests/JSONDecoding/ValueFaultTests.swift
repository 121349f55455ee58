import Foundation
import Sculpt
import SculptJSON
import Testing

/// A value whose text is not JSON, or a number no Swift type of its kind holds, fails inside a
/// type's own `init(from:)` with the error `JSONDecoder` throws there: the same case, location and
/// words, so that a type that catches and keeps it reads the same under either decoder.
@Suite("Faults in a value read as JSONDecoder's")
struct ValueFaultTests {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes member `v` as `T` and keeps what it threw.
    struct Catching<T: Decodable>: Decodable {
        let caught: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            do {
                _ = try container.decode(T.self, forKey: Key("v"))
                caught = "nothing"
            } catch {
                caught = ValueFaultTests.normalized(error)
            }
        }
    }

    /// An error as printed, as an `NSError`'s domain and code, and as its localized description.
    static func normalized(_ error: any Error) -> String {
        let bridged = error as NSError
        return "\(type(of: error)): \(error) | \(bridged.domain) \(bridged.code) | \(error.localizedDescription)"
    }

    static func caught<T: Decodable>(_ type: T.Type, _ value: [UInt8]) -> (json: String, sculpt: String) {
        let body = Data(Array("{\n \"v\":".utf8) + value + Array("}".utf8))
        let json = (try? JSONDecoder().decode(Catching<T>.self, from: body).caught) ?? "decode failed"
        let sculpt = (try? SculptJSONDecoder().decode(Catching<T>.self, from: body).caught) ?? "decode failed"
        return (json, sculpt)
    }

    @Test("a number outside JSON's grammar, or one the type cannot hold", arguments: [
        "01", "-01", "00.5", "0x1", "1.", "1.e5", "-", "-x", "1e", "1e+", "1.2.3", "1e5e5", "1e5.3", "1-2", "1.5", "1e400", "300", "-1",
    ])
    func numbers(text: String) throws {
        for result in [Self.caught(Int.self, Array(text.utf8)), Self.caught(Int8.self, Array(text.utf8)), Self.caught(UInt.self, Array(text.utf8)),
                       Self.caught(Double.self, Array(text.utf8)), Self.caught(Float.self, Array(text.utf8)), Self.caught(Decimal.self, Array(text.utf8))] {
            #expect(result.sculpt == result.json)
        }
    }

    @Test("a string with a control character, an escape that does not read, or bytes that are not UTF-8", arguments: [
        Array("\"a\u{1F}b\"".utf8), Array("\"x\ny\"".utf8), Array(#""a\xb""#.utf8), Array(#""a\u12G4b""#.utf8), Array(#""\uD800""#.utf8),
        Array(#""\uD800\u0041""#.utf8), Array(#""\uD800x""#.utf8), Array(#""\uD800\uZZZZ""#.utf8), Array(#""\uDC00""#.utf8),
        [0x22, 0x61, 0xC3, 0x28, 0x22], [0x22, 0xC0, 0xAF, 0x22], Array(#""ok\n"#.utf8) + [0xFF, 0x22], Array(#""\u00e9\t\u0000""#.utf8),
    ] as [[UInt8]])
    func strings(bytes: [UInt8]) throws {
        let result = Self.caught(String.self, bytes)
        #expect(result.sculpt == result.json)
    }

    @Test("past the type, the decode fails as JSONDecoder's: not valid JSON, at the top level")
    func topLevel() throws {
        struct Model: Decodable { let v: Int }
        let body = Data("{\n \"v\": 01}".utf8)
        let json = try #require(throws: DecodingError.self) { try JSONDecoder().decode(Model.self, from: body) }
        let sculpt = try #require(throws: DecodingError.self) { try SculptJSONDecoder().decode(Model.self, from: body) }
        guard case .dataCorrupted(let expected) = json, case .dataCorrupted(let found) = sculpt else {
            Issue.record("\(json) / \(sculpt)")
            return
        }
        #expect(found.debugDescription == expected.debugDescription)
        #expect(found.underlyingError.map(Self.normalized) == expected.underlyingError.map(Self.normalized))
    }

    @Test("a Lossy value and a LossyArray's failures keep the same fault under either decoder")
    func lossy() throws {
        struct Model: Decodable {
            let one: Lossy<Int>
            let many: LossyArray<String>
        }
        let body = Data("{\"one\": 1.5, \"many\": [\"a\", \"b\u{01}\", \"\\uDC00\"]}".utf8)
        let json = try JSONDecoder().decode(Model.self, from: body)
        let sculpt = try SculptJSONDecoder().decode(Model.self, from: body)
        #expect(sculpt.many.failures.map { Self.normalized($0.error) } == json.many.failures.map { Self.normalized($0.error) })
        #expect(sculpt.many.failures.count == 2)
        #expect(sculpt.one.failure.map(Self.normalized) == json.one.failure.map(Self.normalized))
        #expect(sculpt.one.failure != nil)
    }
}
