import Foundation

/// Decodes the value at a key path in one pass of the decoder: containers are opened along the
/// path, elements before an index are skipped without being built, and only the target is decoded.
enum KeyPathDecoding {
    /// The key path could not be followed; `report` says where and what was there instead.
    struct Miss: Error {
        var report: SculptError.KeyPathMiss
    }

    static func decode<M: Decodable>(
        _ type: M.Type, at keyPath: ModelKeyPath, from data: Data, using decoder: any ModelDecoder
    ) throws -> M {
        try $current.withValue(keyPath) {
            try decoder.decode(Target<M>.self, from: data).value
        }
    }

    /// The key path of the decode in progress on this task; `Target.init(from:)` reads it because
    /// `Decoder` has no other channel that works for every `ModelDecoder`.
    @TaskLocal private static var current: ModelKeyPath?

    private struct Target<M: Decodable>: Decodable {
        let value: M

        init(from decoder: any Decoder) throws {
            guard let keyPath = KeyPathDecoding.current else {
                value = try M(from: decoder)
                return
            }
            var walk = Walk(keyPath: keyPath)
            value = try walk.decode(M.self, from: decoder)
        }
    }

    /// Follows the components one container at a time; `step` is the component being resolved.
    private struct Walk {
        let keyPath: ModelKeyPath
        var components: [ModelKeyPath.Component] { keyPath.components }
        var step = 0

        init(keyPath: ModelKeyPath) {
            self.keyPath = keyPath
        }

        mutating func decode<M: Decodable>(_ type: M.Type, from decoder: any Decoder) throws -> M {
            switch components[step] {
            case .key(let name):
                return try value(at: name, in: try open { try decoder.container(keyedBy: AnyKey.self) })
            case .index(let index):
                return try value(at: index, in: try open { try decoder.unkeyedContainer() })
            }
        }

        private mutating func value<M: Decodable>(at name: String, in container: KeyedDecodingContainer<AnyKey>) throws -> M {
            let key = AnyKey(stringValue: name)
            guard container.contains(key) else {
                throw miss(available: container.allKeys.map(\.stringValue).sorted())
            }
            guard step + 1 < components.count else {
                return try container.decode(M.self, forKey: key)
            }
            step += 1
            switch components[step] {
            case .key(let name):
                return try value(at: name, in: try open { try container.nestedContainer(keyedBy: AnyKey.self, forKey: key) })
            case .index(let index):
                return try value(at: index, in: try open { try container.nestedUnkeyedContainer(forKey: key) })
            }
        }

        private mutating func value<M: Decodable>(at index: Int, in container: UnkeyedDecodingContainer) throws -> M {
            var container = container
            let count = container.count ?? 0
            guard index < count else {
                throw miss(available: count == 0 ? [] : ["[0]...[\(count - 1)]"])
            }
            for _ in 0..<index {
                _ = try container.decode(Skipped.self)
            }
            guard step + 1 < components.count else {
                return try container.decode(M.self)
            }
            step += 1
            switch components[step] {
            case .key(let name):
                return try value(at: name, in: try open { try container.nestedContainer(keyedBy: AnyKey.self) })
            case .index(let index):
                return try value(at: index, in: try open { try container.nestedUnkeyedContainer() })
            }
        }

        private func miss(available: [String] = [], found: String? = nil) -> Miss {
            Miss(report: .init(keyPath: keyPath.description, failedAt: keyPath.prefix(through: step),
                               availableKeys: available, found: found))
        }

        /// Opens the container that the current step reads, turning "no container here" into a
        /// ``Miss`` that says what was there instead.
        private func open<C>(_ body: () throws -> C) throws -> C {
            do {
                return try body()
            } catch DecodingError.valueNotFound {
                throw miss(found: "null")
            } catch DecodingError.typeMismatch(_, let context) {
                throw miss(found: context.debugDescription)
            }
        }
    }

    /// A coding key for any string; key paths name keys at run time.
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// An array element passed over on the way to an index; decoding it reads nothing.
    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
