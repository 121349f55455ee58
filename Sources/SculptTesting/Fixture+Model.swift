import Foundation
import SculptShared
public import Sculpt

extension Fixture {
    /// The fixture's response serialized as `M`: the one line a mapping test needs.
    ///
    /// ```swift
    /// let label = try Fixture(contentsOf: file).model(serializer: serializer, as: Label.self)
    /// ```
    /// - Parameters:
    ///   - serializer: the serializer under test.
    ///   - type: the model the matcher must resolve.
    /// - Returns: the model.
    /// - Throws: ``MappingError``, whose description shows the fixture, what the matcher
    ///   decided, and the serializer's error (for a decoding failure, with its coding path).
    public func model<Matcher, M: Decodable & Sendable>(serializer: ModelResponseSerializer<Matcher>, as type: M.Type) throws -> M {
        do {
            return try serializer.serialize(data, for: context, as: M.self)
        } catch {
            throw MappingError(fixture: self, decision: Self.decision(of: serializer.matcher, for: self), error: error)
        }
    }

    /// The fixture's response serialized into whatever model the serializer's matcher picks.
    ///
    /// ```swift
    /// let model = try fixture.model(serializer: serializer)
    /// ```
    /// - Parameter serializer: the serializer under test.
    /// - Returns: the model the matcher picked.
    /// - Throws: ``MappingError``.
    public func model<Matcher>(serializer: ModelResponseSerializer<Matcher>) throws -> any Decodable & Sendable {
        do {
            return try serializer.serialize(data, for: context)
        } catch {
            throw MappingError(fixture: self, decision: Self.decision(of: serializer.matcher, for: self), error: error)
        }
    }

    /// The fixture's response serialized as metadata and a model of type `M`.
    ///
    /// ```swift
    /// let page = try fixture.model(serializer: enveloped, as: [Question].self)
    /// ```
    /// - Parameters:
    ///   - serializer: the envelope serializer under test.
    ///   - type: the model the matcher must resolve.
    /// - Returns: the metadata and the model.
    /// - Throws: ``MappingError``.
    public func model<Meta, Matcher, M: Decodable & Sendable>(serializer: EnvelopeResponseSerializer<Meta, Matcher>, as type: M.Type) throws -> Envelope<Meta, M> {
        do {
            return try serializer.serialize(data, for: context, as: M.self)
        } catch {
            throw MappingError(fixture: self, decision: Self.decision(of: serializer.base.matcher, for: self), error: error)
        }
    }

    /// A fixture that did not map to the expected model, with everything needed to see why.
    public struct MappingError: Error, CustomStringConvertible {
        /// The fixture that was serialized.
        public var fixture: Fixture
        /// What the matcher resolved the response to, in words, through the gate every text of
        /// Sculpt's passes.
        public var decision: String
        /// The serializer's error, usually a `SculptError`.
        public var error: any Error

        /// The fixture (source, request, status), the matcher's decision, and the error: at most
        /// 4,096 bytes, the URL shown as `ResponseContext` shows it (secrets redacted), long
        /// parts cut with their size stated. The properties keep everything whole.
        public var description: String {
            let source = fixture.source.map { "Fixture \(ClippedText.value($0, limit: 256)): " } ?? "Fixture: "
            let head = ShownText.line("\(source)\(fixture.context.description)", limit: 1_536, hiding: fixture.shownSecrets) + "\n"
                + ShownText.line("Matcher decision: \(ClippedText.value(decision, limit: 512))", limit: 600) + "\n"
            // A SculptError's description passed the gate line by line, and keeps its own lines.
            let room = Self.descriptionLimit - head.utf8.count
            let failure = error is SculptError ? ClippedText.value("\(error)", limit: room) : ShownText.line("\(error)", limit: room)
            return head + failure
        }

        /// The most a description holds, in UTF-8 bytes.
        static let descriptionLimit = 4_096
    }

    /// What the matcher resolved the fixture to, in words, through the gate: what a matcher
    /// throws may quote anything.
    private static func decision(of matcher: some ModelMatcher, for fixture: Fixture) -> String {
        do {
            return try matcher.modelType(for: fixture.context, data: fixture.data).map { "\($0)" } ?? "no model type"
        } catch {
            return ShownText.line("the matcher threw: \(error)", limit: 1_024, hiding: fixture.shownSecrets)
        }
    }
}
