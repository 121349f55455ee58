import Foundation
public import Sculpt

extension Fixture {
    /// The fixture's response serialized as `M`: the one line a mapping test needs.
    ///
    /// ```swift
    /// let label = try Fixture(contentsOf: file).model(Label.self, using: serializer)
    /// ```
    /// - Throws: ``MappingFailure``, whose description shows the fixture, what the matcher
    ///   decided, and the serializer's error (for a decoding failure, with its coding path).
    public func model<Matcher, M: Decodable & Sendable>(_ type: M.Type, using serializer: ModelResponseSerializer<Matcher>) throws -> M {
        do {
            return try serializer.serialize(data, for: context, as: M.self)
        } catch {
            throw MappingFailure(fixture: self, decision: Self.decision(of: serializer.matcher, for: self), error: error)
        }
    }

    /// The fixture's response serialized into whatever model the serializer's matcher picks.
    ///
    /// ```swift
    /// let model = try fixture.model(using: serializer)
    /// ```
    /// - Throws: ``MappingFailure``.
    public func model<Matcher>(using serializer: ModelResponseSerializer<Matcher>) throws -> any Decodable & Sendable {
        do {
            return try serializer.serialize(data, for: context)
        } catch {
            throw MappingFailure(fixture: self, decision: Self.decision(of: serializer.matcher, for: self), error: error)
        }
    }

    /// A fixture that did not map to the expected model, with everything needed to see why.
    public struct MappingFailure: Error, CustomStringConvertible {
        /// The fixture that was serialized.
        public var fixture: Fixture
        /// What the matcher resolved the response to, in words.
        public var decision: String
        /// The serializer's error, usually a ``SculptError``.
        public var error: any Error

        /// The fixture (source, request, status), the matcher's decision, and the error.
        public var description: String {
            let source = fixture.source.map { "Fixture \($0): " } ?? "Fixture: "
            return """
                \(source)\(fixture.request.method.rawValue) \(fixture.request.url.absoluteString) -> \(fixture.response.status.code)
                Matcher decision: \(decision)
                \(error)
                """
        }
    }

    private static func decision(of matcher: some ModelMatcher, for fixture: Fixture) -> String {
        do {
            return try matcher.modelType(for: fixture.context, data: fixture.data).map { "\($0)" } ?? "no model type"
        } catch {
            return "the matcher threw: \(error)"
        }
    }
}
