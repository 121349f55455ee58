import SculptShared
extension ElementFailure {
    /// Why an element failed, in a bounded form: the kind of `DecodingError`, its type or missing
    /// key, its coding path (at most ``pathLimit`` keys, each at most ``textLimit`` bytes) and its
    /// description with any underlying error's folded in (at most ``textLimit`` bytes). The
    /// element's own index is a placeholder in the path, so elements that failed the same way share
    /// one reason; the whole error and its underlying error are not kept.
    final class Reason: Sendable, Hashable {
        /// The most keys a path keeps: the first half and the last, the ones between counted.
        static let pathLimit = 32
        /// The most UTF-8 bytes a key or the description keeps.
        static let textLimit = 512

        /// One key of a coding path.
        enum Step: Hashable, Sendable {
            case key(String)
            case index(Int)
            /// The failed element's own index.
            case element
            /// Keys left out of a long path, counted.
            case elided(Int)
        }

        /// The case of the `DecodingError`, or `other` for any other error.
        enum Kind: Hashable, Sendable {
            case typeMismatch, valueNotFound, keyNotFound, dataCorrupted, other
        }

        let kind: Kind
        /// The expected type of a type mismatch or a missing value.
        let type: Any.Type?
        /// The missing key of `keyNotFound`.
        let key: Step?
        let path: [Step]
        /// The description: the context's, or the error's own for `other`.
        let text: String
        /// Whether Sculpt wrote `text` itself (an unknown tag, a reason not kept), quoting no value
        /// but the element's tag: a description shows it. A model's or a decoder's text may quote
        /// any value of the element, and a description read apart from the body does not.
        let isSculpts: Bool

        private init(kind: Kind, type: Any.Type? = nil, key: Step? = nil, path: [Step] = [], text: String, isSculpts: Bool = false) {
            self.kind = kind
            self.type = type
            self.key = key
            self.path = path
            self.text = ClippedText.value(text, limit: Self.textLimit)
            self.isSculpts = isSculpts
        }

        /// The reason for `error`, thrown by the element at `index`; `elementDepth` is the length of
        /// the element decoder's coding path (its last key the index), when known; `isSculpts`
        /// when Sculpt threw it (a family's unknown tag).
        convenience init(_ error: any Error, index: Int, elementDepth: Int?, isSculpts: Bool = false) {
            guard let error = error as? DecodingError else {
                self.init(kind: .other, text: SculptError.describe(error))
                return
            }
            func steps(_ codingPath: [any CodingKey]) -> [Step] {
                var steps = codingPath.enumerated().map { position, key in
                    if position + 1 == elementDepth, key.intValue == index { return Step.element }
                    return Self.step(key)
                }
                if steps.count > Self.pathLimit {
                    let head = Self.pathLimit / 2
                    let tail = Self.pathLimit - head - 1
                    steps = steps.prefix(head) + [.elided(steps.count - head - tail)] + steps.suffix(tail)
                }
                return steps
            }
            func text(_ context: DecodingError.Context) -> String {
                context.underlyingError.map { "\(context.debugDescription) (\($0))" } ?? context.debugDescription
            }
            switch error {
            case .typeMismatch(let type, let context):
                self.init(kind: .typeMismatch, type: type, path: steps(context.codingPath), text: text(context))
            case .valueNotFound(let type, let context):
                self.init(kind: .valueNotFound, type: type, path: steps(context.codingPath), text: text(context))
            case .keyNotFound(let key, let context):
                self.init(kind: .keyNotFound, key: Self.step(key), path: steps(context.codingPath), text: text(context))
            case .dataCorrupted(let context):
                self.init(kind: .dataCorrupted, path: steps(context.codingPath), text: text(context), isSculpts: isSculpts)
            @unknown default:
                self.init(kind: .other, text: SculptError.describe(error))
            }
        }

        private static func step(_ key: any CodingKey) -> Step {
            key.intValue.map(Step.index) ?? .key(ClippedText.value(key.stringValue, limit: textLimit))
        }

        /// What is kept in place of a reason once an array has ``FailureLog/distinctReasonLimit``
        /// different ones.
        static let notKept = Reason(
            kind: .other,
            text: "the reason was not kept: this array's failures had more than \(ClippedText.count(FailureLog.distinctReasonLimit)) different reasons, and only the first \(ClippedText.count(FailureLog.distinctReasonLimit)) are kept",
            isSculpts: true)

        /// The error again, for the element at `index`: a `DecodingError` of the same case, type,
        /// key and path (its description holding any underlying error's), or an error that prints
        /// as the original did.
        func error(at index: Int) -> any Error {
            let codingPath = path.map { StepKey($0, index: index) }
            let context = DecodingError.Context(codingPath: codingPath, debugDescription: text)
            switch kind {
            case .typeMismatch: return DecodingError.typeMismatch(type ?? Any.self, context)
            case .valueNotFound: return DecodingError.valueNotFound(type ?? Any.self, context)
            case .keyNotFound: return DecodingError.keyNotFound(StepKey(key ?? .key(""), index: index), context)
            case .dataCorrupted: return DecodingError.dataCorrupted(context)
            case .other: return Described(description: text)
            }
        }

        static func == (lhs: Reason, rhs: Reason) -> Bool {
            lhs.kind == rhs.kind && lhs.type.map(ObjectIdentifier.init) == rhs.type.map(ObjectIdentifier.init)
                && lhs.key == rhs.key && lhs.path == rhs.path && lhs.text == rhs.text && lhs.isSculpts == rhs.isSculpts
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(kind)
            hasher.combine(type.map(ObjectIdentifier.init))
            hasher.combine(key)
            hasher.combine(path)
            hasher.combine(text)
        }
    }

    /// A coding key rebuilt from a ``Reason/Step``.
    private struct StepKey: CodingKey {
        let stringValue: String
        let intValue: Int?

        init(_ step: Reason.Step, index: Int) {
            switch step {
            case .key(let key): (stringValue, intValue) = (key, nil)
            case .index(let position): (stringValue, intValue) = ("Index \(position)", position)
            case .element: (stringValue, intValue) = ("Index \(index)", index)
            case .elided(let count): (stringValue, intValue) = ("… \(count) keys …", nil)
            }
        }

        init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
        init(intValue: Int) { (stringValue, self.intValue) = ("Index \(intValue)", intValue) }
    }

    /// An error other than a `DecodingError`, kept as its description.
    private struct Described: Error, CustomStringConvertible {
        let description: String
    }
}
