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
        switch walk.components[0] {
        case .key(let name):
            return try walk.value(at: name, in: try walk.open { try decoder.container(keyedBy: AnyCodingKey.self) })
        case .index(let index):
            return try walk.value(at: index, in: try walk.open { try decoder.unkeyedContainer() })
        }
    }

    private mutating func value<M: Decodable>(at name: String, in container: KeyedDecodingContainer<AnyCodingKey>) throws -> M {
        let key = AnyCodingKey(name)
        guard container.contains(key) else {
            throw miss(available: container.allKeys.map(\.stringValue).sorted())
        }
        guard step + 1 < components.count else {
            return try container.decode(M.self, forKey: key)
        }
        step += 1
        switch components[step] {
        case .key(let name):
            return try value(at: name, in: try open { try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key) })
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
}
