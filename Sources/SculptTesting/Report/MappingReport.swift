public import Foundation
import SculptShared
public import Sculpt
public import SculptMatchers

/// What a serializer makes of a set of recorded responses, in one value a test asserts on and a
/// person reads: the fixtures that map and decode (with the route that took each and the JSON
/// members the model never read), the ones that do not (with the error), and the routes that no
/// fixture covers.
///
/// ```swift
/// @Test func everyFixtureMaps() throws {
///     let report = try MappingReport(contentsOf: fixtures, serializer: GitHub.serializer)
///     #expect(report.isComplete, "\(report)")   // no failure, unreadable file or uncovered route
/// }
/// ```
///
/// Routes are known when the serializer's matcher is a `URLModelMatcher` (with any other matcher,
/// ``uncoveredRoutes`` is empty). Unread members are known when its decoder is a
/// `SculptJSONDecoder`: it marks each member a model looks up, in the same pass that decodes, and
/// the report lists the others (`owner.site_admin`, `labels[].node_id`; a member under one never
/// read is not listed). Every decode of the body counts, a matcher's look at a type field too; a
/// JSON string a model decodes on its own is another document. A response the serializer decodes
/// as its error model (an `errorResponse`) maps: the error model is what the app sees.
public struct MappingReport: Sendable, CustomStringConvertible {
    /// A fixture that mapped and decoded.
    public struct Mapping: Sendable, CustomStringConvertible {
        /// The fixture.
        public var fixture: Fixture
        /// The route that took it, when the matcher is a `URLModelMatcher`.
        public var route: URLModelMatcher.Route?
        /// The type it decoded as.
        public var modelType: any (Decodable & Sendable).Type
        /// Whether the serializer decoded it as its error model.
        public var isErrorModel: Bool
        /// The JSON members of the body that the model never read, as paths (`owner.site_admin`,
        /// `labels[].node_id`), in document order; empty when the decoder does not tell. Written
        /// as text when read: a report that is only checked for failures makes no string for them.
        public var unreadMembers: [String] { unread.strings }
        /// Whether the serializer's decoder tracked which members the model read (a
        /// `SculptJSONDecoder` does): when `false`, ``unreadMembers`` is empty because nothing is
        /// known, not because everything was read.
        public var readsAreTracked: Bool
        /// The unread members' names, kept as bytes.
        let unread: UnreadPaths

        /// `GET /users/octocat -> 200 (get-user.json): User by /users/* (unread: site_admin, plan.name)`.
        public var description: String {
            let route = self.route.map { " by \($0.pattern)" } ?? ""
            let kind = isErrorModel ? " (error model)" : ""
            // Only the paths shown are written.
            let unread = self.unread.isEmpty ? "" : " (unread: \(ClippedText.list(self.unread.paths.lazy.map { PrintableText.value($0, limit: 128) }, limit: 1_024, itemLimit: 128)))"
            // A member's name is the body's text: through the gate.
            // A member may be named by a secret value the response holds (a session keyed by its token).
            return ShownText.line("\(fixture): \(String(describing: modelType))\(kind)\(route)\(unread)", limit: 4_096, hiding: fixture.shownSecrets)
        }
    }

    /// A fixture that did not map or decode.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The fixture.
        public var fixture: Fixture
        /// The serializer's error, usually a `SculptError`.
        public var error: any Error & Sendable

        /// The fixture's line, then the error, once.
        public var description: String {
            // The error's description passed the gate line by line: its lines stay lines.
            ShownText.lines(["\(fixture): \(error)"], lineLimit: 4_096, limit: 8_192, keepingLineBreaks: true)
        }
    }

    /// The fixtures that mapped and decoded, in the order given.
    public var mappings: [Mapping]
    /// The fixtures that did not, in the order given.
    public var failures: [Failure]
    /// The routes of the matcher whose model decoded no fixture, in the order they were added (a
    /// fixture that failed, or that the error model took, covers none); empty when the matcher is
    /// not a `URLModelMatcher`.
    public var uncoveredRoutes: [URLModelMatcher.Route]
    /// The files that could not be read, with why: a report over folders lists them rather than
    /// stopping at the first.
    public var unreadableFiles: [String]

    /// Serializes every fixture with `serializer` and reports what came of each.
    ///
    /// ```swift
    /// let report = MappingReport(fixtures: [try .stub(.get, "/users/1", json: #"{"id": 1}"#)], serializer: serializer)
    /// ```
    /// - Parameters:
    ///   - fixtures: the recorded responses.
    ///   - serializer: the serializer under test.
    public init<Matcher>(fixtures: [Fixture], serializer: ModelResponseSerializer<Matcher>) {
        let routes = (serializer.matcher as? URLModelMatcher)
        mappings = []
        failures = []
        unreadableFiles = []
        var covered: Set<Int> = []
        // One tracking for every fixture: what a walk works in is allocated once.
        let tracking = ReadTracking()
        // Only a decoder that tracks reads tells which members the body's decode read; asked once
        // per kind of decoder.
        var tracksReads: [ObjectIdentifier: Bool] = [:]
        for fixture in fixtures {
            let outcome: Result<any Decodable & Sendable, any Error> = tracking.track(fixture.data) {
                Result { try serializer.serialize(fixture.data, for: fixture.context) }
            }
            let decoder = serializer.decoder(for: fixture.context)
            let tellsUnread = tracksReads[ObjectIdentifier(type(of: decoder))] ?? {
                let tells = decoder is any TracksReads
                tracksReads[ObjectIdentifier(type(of: decoder))] = tells
                return tells
            }()
            func unread() -> UnreadPaths { tellsUnread ? tracking.unread : UnreadPaths() }
            let position = routes?.routeIndex(for: fixture.context, data: fixture.data)
            let route = position.flatMap { routes?.routes[$0] }
            switch outcome {
            case .success(let model):
                // A route is covered by a fixture its model decoded: not by one that failed, nor one
                // the error model took.
                if let position { covered.insert(position) }
                mappings.append(Mapping(fixture: fixture, route: route, modelType: type(of: model), isErrorModel: false, readsAreTracked: tellsUnread, unread: unread()))
            case .failure(let error as SculptError):
                if case .errorResponse(let model) = error.reason {
                    mappings.append(Mapping(fixture: fixture, route: route, modelType: type(of: model), isErrorModel: true, readsAreTracked: tellsUnread, unread: unread()))
                } else {
                    failures.append(Failure(fixture: fixture, error: error))
                }
            case .failure(let error):
                failures.append(Failure(fixture: fixture, error: UnsendableError(description: ShownText.line("\(error)", limit: 4_096))))
            }
        }
        uncoveredRoutes = (routes?.routes ?? []).enumerated().filter { !covered.contains($0.offset) }.map(\.element)
    }

    /// Reads every fixture, cassette and HAR archive in `folders` (at any depth) and reports what
    /// `serializer` makes of each interaction.
    ///
    /// ```swift
    /// let report = try MappingReport(contentsOf: [fixtures.appending(path: "github")], serializer: serializer)
    /// ```
    /// - Parameters:
    ///   - folders: folders (or single files) of recordings.
    ///   - serializer: the serializer under test.
    /// - Throws: ``RecordingFileError`` when a path does not exist, or when the paths hold no
    ///   recording at all (a report over nothing would pass). A file that cannot be read is listed
    ///   in ``unreadableFiles`` instead.
    public init<Matcher>(contentsOf folders: [URL], serializer: ModelResponseSerializer<Matcher>) throws(RecordingFileError) {
        let (fixtures, unreadable) = try FixtureFolder.interactions(in: folders)
        guard !fixtures.isEmpty || !unreadable.isEmpty else {
            throw RecordingFileError(path: folders.map { $0.path(percentEncoded: false) }.joined(separator: ", "), reason: "holds no fixture, cassette or HAR archive")
        }
        self.init(fixtures: fixtures, serializer: serializer)
        unreadableFiles = unreadable.map(\.description)
    }

    /// Whether everything mapped: no failure, no unreadable file, no uncovered route. The one
    /// line a test asserts: `#expect(report.isComplete, "\(report)")`.
    public var isComplete: Bool {
        failures.isEmpty && unreadableFiles.isEmpty && uncoveredRoutes.isEmpty
    }

    /// The failures, unreadable files, uncovered routes and unread members, one per line, then a
    /// count of each; `"12 fixtures map, 0 fail, 0 routes uncovered"` when all is well. At most
    /// 64 KiB: past that, lines are left out and counted (the properties keep everything).
    public var description: String {
        // Each entry passed the gate line by line: a failure's lines stay lines.
        let lines = [
            AnyCollection(failures.lazy.map { "failed: \($0)" }),
            AnyCollection(unreadableFiles.lazy.map { "unreadable: \($0)" }),
            AnyCollection(uncoveredRoutes.lazy.map { "no fixture for: \($0)" }),
            AnyCollection(mappings.lazy.filter { !$0.unread.isEmpty }.map { "unread members: \($0)" }),
        ].joined()
        let mapped = mappings.count == 1 ? "1 fixture maps" : "\(mappings.count) fixtures map"
        var summary = "\(mapped), \(failures.count) fail, \(uncoveredRoutes.count) route\(uncoveredRoutes.count == 1 ? "" : "s") uncovered"
        if !unreadableFiles.isEmpty { summary += ", \(unreadableFiles.count) file\(unreadableFiles.count == 1 ? "" : "s") unreadable" }
        return ShownText.lines(lines, lineLimit: 4_096, limit: Self.descriptionLimit, last: summary, keepingLineBreaks: true)
    }

    /// The most a description holds, in UTF-8 bytes.
    static let descriptionLimit = 64 << 10

    /// An error that is not `Sendable`, kept as its description.
    struct UnsendableError: Error, Sendable, CustomStringConvertible {
        var description: String
    }
}
