// Property lists, binary and XML in any encoding: the whole input is the body, decoded into a
// model that follows every array and dictionary to its end. Whatever arrives, the serializer
// returns a model or throws a SculptError that keeps the body; a list that refers to itself, or to
// its containers from many places, is refused before the decoder recurses through it.
import Foundation
import FuzzSupport
import HTTPTypes
import Sculpt
import SculptMatchers

/// Any property-list value, every container read to its end.
struct Tree: Decodable, Sendable {
    var values = 0

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            while !array.isAtEnd { values += try array.decode(Tree.self).values + 1 }
        } else if let dictionary = try? decoder.container(keyedBy: AnyCodingKey.self) {
            for key in dictionary.allKeys { values += try dictionary.decode(Tree.self, forKey: key).values + 1 }
        }
    }
}

struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Tree.self), decoders: [.propertyList()])
let context = ResponseContext(url: URL(string: "https://api.example.com/settings"), method: .get, status: .ok, headerFields: [.contentType: "application/x-plist"])

runFuzzer { body in
    do throws(SculptError) {
        let tree = try serializer.serialize(body, for: context, as: Tree.self)
        require(tree.values <= max(body.count, 64), "decoding visited \(tree.values) values of a \(body.count)-byte list")
    } catch {
        require(error.body == body, "the error lost the body")
        require(String(describing: error).utf8.count <= 16_384, "an error description over 16 KB")
    }
}
