public import Foundation
import SculptShared

/// A sequence of recorded interactions in one file, replayed in order: the same request may
/// appear several times with different responses.
///
/// ```swift
/// let cassette = try Cassette(contentsOf: folder.appending(path: "rename-repository.json"))
/// let replay = FixtureReplay(cassette.interactions)
/// ```
///
/// On disk: `{"interactions": [fixture, fixture, ...]}`, each entry a fixture as in a fixture file
/// (see `Docs/Fixtures.md`). A single-fixture file loads as a cassette of one.
public struct Cassette: Sendable {
    /// The interactions, in recorded order.
    public var interactions: [Fixture]

    /// Creates a cassette of `interactions`.
    /// - Parameter interactions: the interactions, in the order they were recorded.
    public init(_ interactions: [Fixture]) {
        self.interactions = interactions
    }

    /// Loads a cassette (or single fixture) file.
    ///
    /// ```swift
    /// let cassette = try Cassette(contentsOf: file)
    /// ```
    /// - Parameter file: the cassette or fixture file.
    /// - Throws: the file system's error, or ``Fixture/FormatError`` naming the file and the entry.
    public init(contentsOf file: URL) throws {
        self = try Fixture.FormatError.reading(file) { try Cassette(json: $0, source: file.lastPathComponent) }
    }

    /// Reads a cassette (or single fixture) from the bytes of its file.
    ///
    /// ```swift
    /// let cassette = try Cassette(json: data)
    /// ```
    /// - Parameters:
    ///   - json: the file's bytes.
    ///   - source: where the bytes came from, named in errors; `nil` when unknown.
    /// - Throws: ``Fixture/FormatError``.
    public init(json: Data, source: String? = nil) throws {
        let value: OrderedJSON
        do {
            value = try OrderedJSON(parsing: json, maximumDepth: OrderedJSON.maximumFileDepth)
        } catch {
            throw Fixture.FormatError(reason: "not JSON: \(error)", location: .offset(error.offset))
        }
        guard let entries = value["interactions"] else {
            var fixture = try Fixture(value, at: "")
            fixture.source = source
            self.init([fixture])
            return
        }
        guard let list = entries.array else { throw Fixture.FormatError(reason: "\"interactions\" must be an array", location: .path("interactions")) }
        var interactions: [Fixture] = []
        for (index, entry) in list.enumerated() {
            var fixture = try Fixture(entry, at: "interactions[\(index)].")
            fixture.source = source.map { "\($0) #\(index)" } ?? "#\(index)"
            interactions.append(fixture)
        }
        self.init(interactions)
    }

    /// The cassette as the text of a cassette file, bodies stored as ``Fixture/encoded(byteExact:)``
    /// stores them.
    ///
    /// ```swift
    /// try cassette.encoded().write(to: file)
    /// ```
    /// - Parameter byteExact: Whether bodies are written as base64, byte for byte, rather than as readable text where they are.
    public func encoded(byteExact: Bool = false) -> Data {
        let value = OrderedJSON.object([.init(key: "interactions", value: .array(interactions.map { $0.jsonValue(byteExact: byteExact) }))])
        return Data((value.prettyText + "\n").utf8)
    }
}
