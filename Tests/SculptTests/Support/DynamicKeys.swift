/// Any key, by name.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}

/// A model that reads the member `ref`, then the member `ref` names, as a `Value`: a key made of
/// a value the body holds.
struct KeyedByReference<Value: Decodable & Sendable>: Decodable, Sendable {
    var value: Value

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let reference = try container.decode(String.self, forKey: AnyKey(stringValue: "ref"))
        value = try container.decode(Value.self, forKey: AnyKey(stringValue: reference))
    }
}
