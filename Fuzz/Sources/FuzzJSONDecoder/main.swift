// SculptJSONDecoder against JSONDecoder. The first line is `KDNF SHAPE`: four settings (key
// strategy, date strategy, data strategy, non-conforming floats, each a digit) and a Decodable
// shape (see Shape); the rest is the document. Both decoders read the document by the shape
// with the same settings: the same value, or the same DecodingError case at the same coding path.
import Foundation
import FuzzSupport
import HTTPTypes
import Sculpt
import SculptJSON
import SculptMatchers
import SculptTesting

/// The outcome of one decode: the value's text, or the error's case and coding path.
func outcome(_ decode: () throws -> Shaped) -> (text: String, kind: String?) {
    do {
        return (try decode().text, nil)
    } catch let error as DecodingError {
        switch error {
        case .typeMismatch(_, let context): return (context.codingPath.map(\.stringValue).description, "typeMismatch")
        case .valueNotFound(_, let context): return (context.codingPath.map(\.stringValue).description, "valueNotFound")
        case .keyNotFound(let key, let context): return (context.codingPath.map(\.stringValue).description, "keyNotFound \(key.stringValue)")
        case .dataCorrupted(let context): return (context.codingPath.map(\.stringValue).description, "dataCorrupted")
        @unknown default: return ("", "unknown")
        }
    } catch {
        return ("", "\(type(of: error))")
    }
}

/// A custom key converter: the last key, lowercased, without underscores.
let customKeys = JSONDecoder.KeyDecodingStrategy.custom { path in AnyKey((path.last?.stringValue ?? "").lowercased().replacingOccurrences(of: "_", with: "")) }

runFuzzer { input in
    let (head, document) = input.headAndRest
    let settings = Array(head.prefix(4).utf8) + [UInt8](repeating: UInt8(ascii: "0"), count: 4)
    let shape = Shape.parse(head.dropFirst(min(head.count, 5)))
    let foundation = JSONDecoder()
    var sculpt = SculptJSONDecoder()
    func set<Value>(_ path: ReferenceWritableKeyPath<JSONDecoder, Value>, _ sculptPath: WritableKeyPath<SculptJSONDecoder, Value>, _ value: Value) {
        foundation[keyPath: path] = value
        sculpt[keyPath: sculptPath] = value
    }
    switch settings[0] % 3 {
    case 1: set(\.keyDecodingStrategy, \.keyDecodingStrategy, .convertFromSnakeCase)
    case 2: set(\.keyDecodingStrategy, \.keyDecodingStrategy, customKeys)
    default: break
    }
    switch settings[1] % 5 {
    case 1: set(\.dateDecodingStrategy, \.dateDecodingStrategy, .secondsSince1970)
    case 2: set(\.dateDecodingStrategy, \.dateDecodingStrategy, .millisecondsSince1970)
    case 3: set(\.dateDecodingStrategy, \.dateDecodingStrategy, .iso8601)
    case 4: set(\.dateDecodingStrategy, \.dateDecodingStrategy, .custom { Date(timeIntervalSince1970: try $0.singleValueContainer().decode(Double.self) * 2) })
    default: break
    }
    if settings[2] % 2 == 1 { set(\.dataDecodingStrategy, \.dataDecodingStrategy, .custom { Data(try $0.singleValueContainer().decode(String.self).utf8) }) }
    if settings[3] % 2 == 1 { set(\.nonConformingFloatDecodingStrategy, \.nonConformingFloatDecodingStrategy, .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")) }
    foundation.userInfo[Shaped.shapeKey] = shape
    sculpt.userInfo[Shaped.shapeKey] = shape

    let expected = outcome { try foundation.decode(Shaped.self, from: document) }
    let actual = outcome { try sculpt.decode(Shaped.self, from: document) }
    // Tracking which members were read (a mapping report) changes no decode: the same document
    // maps exactly when the decoder alone reads it.
    let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Shaped.self), decoder: sculpt)
    let fixture = Fixture(request: .init(url: URL(filePath: "/")), response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: document))
    let report = MappingReport(fixtures: [fixture], serializer: serializer)
    let bodyless = document.isEmpty
    require(bodyless || (report.mappings.count == 1) == (actual.kind == nil),
            "\(head): the decoder alone \(actual.kind ?? "read"), a mapping report \(report.mappings.isEmpty ? "failed: \(report.failures.first.map { "\($0.error)" }?.prefix(500) ?? "")" : "read")")
    if shape.listsKeysInDecoderOrder, expected.kind != nil {
        // Which failing member JSONDecoder reports first follows its dictionary's hash order, so
        // when several members fail, each its own way, the error it reports varies from process
        // to process: Sculpt must fail too, with the first failure in the document's order.
        require(actual.kind != nil, "\(head): JSONDecoder threw \(expected.kind ?? "") at \(expected.text), Sculpt read \(actual.text.prefix(500))")
    } else {
        require(actual == expected, "\(head): JSONDecoder \(expected.kind ?? "read") \(expected.text.prefix(500)), Sculpt \(actual.kind ?? "read") \(actual.text.prefix(500))")
    }
}
