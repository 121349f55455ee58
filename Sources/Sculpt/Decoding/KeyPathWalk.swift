import SculptShared
/// Follows a key path through a `Decoder`'s containers and decodes only the target: containers
/// are opened along the path and elements before an index are skipped without being built.
struct KeyPathWalk {
    /// The key path could not be followed; `report` says where and what was there instead.
    struct Miss: Error {
        var report: SculptError.KeyPathMiss
    }

    let keyPath: ModelKeyPath
    private var components: [ModelKeyPath.Component] { keyPath.components }
    /// The component being resolved.
    private var step = 0

    init(_ keyPath: ModelKeyPath) {
        self.keyPath = keyPath
    }

    /// Decodes the `M` at the key path.
    ///
    /// - Throws: ``Miss`` when the path leads nowhere; the decoder's errors for the target.
    static func decode<M: Decodable>(_ type: M.Type, at keyPath: ModelKeyPath, from decoder: any Decoder) throws -> M {
        var walk = KeyPathWalk(keyPath)
        return try walk.value(from: decoder)
    }

    /// The `M` at the rest of the path, starting at the current step, from `decoder`'s value.
    private mutating func value<M: Decodable>(from decoder: any Decoder) throws -> M {
        switch components[step] {
        case .key(let name):
            return try value(at: name, in: try open { try decoder.container(keyedBy: AnyCodingKey.self) })
        case .index(let index):
            return try value(at: index, in: try open { try decoder.unkeyedContainer() })
        }
    }

    private mutating func value<M: Decodable>(at name: String, in container: KeyedDecodingContainer<AnyCodingKey>) throws -> M {
        let key = AnyCodingKey(name)
        guard step + 1 < components.count else {
            // A decoder may give a missing key a value: XMLCoder reads no `<item>` as an empty array.
            guard container.contains(key) || M.self is any ExpressibleByArrayLiteral.Type else {
                throw miss(available: container.allKeys.map(\.stringValue).sorted())
            }
            do {
                return try container.decode(M.self, forKey: key)
            } catch DecodingError.keyNotFound where !container.contains(key) {
                throw miss(available: container.allKeys.map(\.stringValue).sorted())
            }
        }
        guard container.contains(key) else {
            throw miss(available: container.allKeys.map(\.stringValue).sorted())
        }
        step += 1
        switch components[step] {
        case .key(let name):
            return try value(at: name, in: try open { try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key) })
        case .index(let index):
            return try element(at: index, ofArrayAt: key, in: container)
        }
    }

    /// The `M` at the rest of the path from element `index` of the array at `key`. The array is
    /// decoded as an array (not opened as an unkeyed container), so that a decoder for which one
    /// element is not an array reads it as one: XMLCoder's lone `<item>` is an element, and its
    /// unkeyed container would list the item's children. Elements other than `index` are passed
    /// over without being built.
    private func element<M: Decodable>(at index: Int, ofArrayAt key: AnyCodingKey, in container: KeyedDecodingContainer<AnyCodingKey>) throws -> M {
        var walk = self
        var found: Result<M, any Error>?
        var position = 0
        let count = try ArrayElement.withBuilder({ decoder in
            defer { position += 1 }
            guard position == index else { return }
            do {
                if walk.step + 1 < walk.components.count {
                    walk.step += 1
                    found = .success(try walk.value(from: decoder))
                } else {
                    found = .success(try decoder.singleValueContainer().decode(M.self))
                }
            } catch {
                found = .failure(error)
                throw error
            }
        }) {
            do {
                return try container.decode([ArrayElement].self, forKey: key).count
            } catch where found != nil {
                throw error
            } catch {
                return try open { throw error }
            }
        }
        guard let found else {
            throw miss(available: count == 0 ? [] : ["[0]...[\(count - 1)]"])
        }
        return try found.get()
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
            return try value(at: name, in: try open { try container.nestedContainer(keyedBy: AnyCodingKey.self) })
        case .index(let index):
            return try value(at: index, in: try open { try container.nestedUnkeyedContainer() })
        }
    }

    private func miss(available: [String] = [], found: String? = nil) -> Miss {
        Miss(report: .init(keyPath: keyPath.description, failedAt: keyPath.prefix(through: step), availableKeys: available, found: found))
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

    /// An array element passed over on the way to an index; decoding it reads nothing.
    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    /// An element of an array decoded on the way to an index: it hands its decoder to the builder
    /// of the innermost ``withBuilder(_:_:)`` on this thread, which reads the element it wants.
    private struct ArrayElement: Decodable {
        typealias Builder = (any Decoder) throws -> Void

        private static let builder = ThreadLocal<Builder>()

        static func withBuilder<T>(_ builder: @escaping Builder, _ body: () throws -> T) throws -> T {
            try Self.builder.withValue(builder, body)
        }

        init(from decoder: any Decoder) throws {
            try Self.builder.value?(decoder)
        }
    }
}
