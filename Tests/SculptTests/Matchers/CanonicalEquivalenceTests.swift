import Foundation
import Sculpt
import SculptMatchers
import Testing

/// The value `JSONDecoder` decodes at `keys` in `json`, or `nil` when a key is missing.
private func decodedValue(at keys: [String], in json: String) throws -> String? {
    let decoder = JSONDecoder()
    decoder.userInfo[FieldProbe.keys] = keys
    return try decoder.decode(FieldProbe.self, from: .json(json)).value
}

/// Reads one string field through `JSONDecoder`'s keyed containers, which compare keys as Swift
/// strings do.
private struct FieldProbe: Decodable {
    static let keys = CodingUserInfoKey(rawValue: "keys")!
    var value: String?

    init(from decoder: any Decoder) throws {
        let keys = decoder.userInfo[Self.keys] as? [String] ?? []
        var object = try decoder.container(keyedBy: Key.self)
        for key in keys.dropLast() {
            guard object.contains(Key(key)) else { return }
            object = try object.nestedContainer(keyedBy: Key.self, forKey: Key(key))
        }
        value = try object.decodeIfPresent(String.self, forKey: Key(keys[keys.count - 1]))
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ stringValue: String) { self.stringValue = stringValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

@Suite("Canonically equivalent keys and values")
struct CanonicalEquivalenceTests {
    /// Rows: the field, the body, and the value `JSONDecoder` reads there. Keys compare as Swift
    /// strings compare (canonical equivalence), and the first of equal keys wins, so a peek that
    /// compared bytes picked "b" in the rows marked (old: b) and nothing in those marked (old: nil).
    @Test("the peek picks the model for the value JSONDecoder decodes at the field", arguments: [
        ("Kind", #"{"\u212Aind":"a","Kind":"b"}"#, "a", "KELVIN SIGN escaped, first (old: b)"),
        ("Kind", #"{"Kind":"a","\u212Aind":"b"}"#, "a", "KELVIN SIGN escaped, second"),
        ("Kind", "{\"\u{212A}ind\":\"a\",\"Kind\":\"b\"}", "a", "KELVIN SIGN raw, first (old: b)"),
        ("Kind", "{\"Kind\":\"a\",\"\u{212A}ind\":\"b\"}", "a", "KELVIN SIGN raw, second"),
        ("Kind", "{\"x\":1,\"\u{212A}ind\":\"a\"}", "a", "KELVIN SIGN alone (old: nil)"),
        ("\u{212A}ind", #"{"Kind":"a","\u212Aind":"b"}"#, "a", "KELVIN SIGN in the field, ASCII in the body (old: b)"),
        ("caf\u{E9}", #"{"cafe\u0301":"a","café":"b"}"#, "a", "decomposed key escaped, first (old: b)"),
        ("caf\u{E9}", "{\"cafe\u{301}\":\"a\",\"caf\u{E9}\":\"b\"}", "a", "decomposed key raw, first (old: b)"),
        ("caf\u{E9}", #"{"caf\u00E9":"a","cafe\u0301":"b"}"#, "a", "precomposed key escaped, first"),
        ("cafe\u{301}", "{\"caf\u{E9}\":\"a\",\"cafe\u{301}\":\"b\"}", "a", "a decomposed field, precomposed key first (old: b)"),
        ("cafe\u{301}", #"{"caf\u00e9":"a"}"#, "a", "a decomposed field, precomposed key escaped (old: nil)"),
        ("\u{C5}", #"{"\u212B":"a","A\u030A":"b","Å":"x"}"#, "a", "ANGSTROM SIGN, decomposed and precomposed Å (old: x)"),
        ("x;y", "{\"x\u{37E}y\":\"a\",\"x;y\":\"b\"}", "a", "GREEK QUESTION MARK (old: b)"),
        ("\u{D55C}", "{\"\u{1112}\u{1161}\u{11AB}\":\"a\",\"\u{D55C}\":\"b\"}", "a", "a Hangul syllable as jamo (old: b)"),
        ("meta.Kind", #"{"meta":{"\u212Aind":"a","Kind":"b"}}"#, "a", "a nested path (old: b)"),
        ("m\u{E9}ta.Kind", "{\"me\u{301}ta\":{\"Kind\":\"a\"},\"m\u{E9}ta\":{\"Kind\":\"b\"}}", "a", "a nested path through a decomposed key (old: b)"),
        ("Kind", #"{"Kind":"cafe\u0301"}"#, "caf\u{E9}", "a decomposed value escaped"),
        ("Kind", "{\"Kind\":\"cafe\u{301}\"}", "caf\u{E9}", "a decomposed value raw"),
        ("Kind", #"{"Kind":"caf\u00e9"}"#, "caf\u{E9}", "a precomposed value escaped"),
        ("Kind", "{\"\u{212A}ind\":\"cafe\u{301}\",\"Kind\":\"a\"}", "caf\u{E9}", "a decomposed value at a KELVIN SIGN key (old: a)"),
        ("Kind", #"{"kind":"b","KIND":"b","Kind":"a"}"#, "a", "ASCII keys that differ in case stay different"),
    ])
    func agreesWithJSONDecoder(_ field: String, _ json: String, _ decodes: String, _ row: String) throws {
        var matcher = TypeFieldModelMatcher(field: field)
        try matcher.add("a", ModelA.self)
        try matcher.add("b", ModelB.self)
        try matcher.add("caf\u{E9}", ModelC.self)
        try matcher.add("x", ModelD.self)
        matcher.unknownValuesMatchNothing = true

        let decoded = try decodedValue(at: ModelKeyPath.fieldKeys(field), in: json)
        #expect(decoded == decodes, "JSONDecoder reads \(decoded ?? "nothing") (\(row))")
        let peeked = try matcher.modelType(for: response(), data: .json(json))?.type
        let expected = decoded.flatMap { matcher.modelType(forValue: $0)?.type }
        #expect(peeked == expected, "\(row): the peek picked \(peeked.map { "\($0)" } ?? "nothing"), JSONDecoder reads \(decoded ?? "nothing")")
    }
}
