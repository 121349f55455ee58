public import Foundation
import SculptShared
import HTTPTypes

/// What changed between two recordings of one API: interactions paired by method and path, and
/// for each pair the members added, removed and changed in type, the statuses and the content
/// types; and the interactions only one side has.
///
/// ```swift
/// let diff = try RecordingDiff(old: [committed], new: [rerecorded])
/// #expect(!diff.isBreaking, "\(diff)")
/// ```
///
/// Bodies are compared by their shape, not their values: every recorded body of a method and path
/// (any query, any page) is merged into the kinds of value seen at each member path, so a value
/// that changes is no change, and a member that turns from a string to a number, from a whole
/// number to one written with a fraction (`1` to `1.5`), or starts being `null`, is. Of two
/// members of one object with equal names, only the first counts, as decoders read only the
/// first. An array recorded empty on one side says nothing about its elements. A removed member,
/// a changed type and an interaction only the old recording has are breaking.
public struct RecordingDiff: Sendable, CustomStringConvertible {
    /// One difference.
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        /// What differs.
        public enum Kind: Sendable, Hashable {
            /// A member the new recording has and the old does not.
            case added(member: String, type: String)
            /// A member the old recording has and the new does not.
            case removed(member: String, type: String)
            /// A member (or the body, `""`) whose values have kinds the old recording's did not:
            /// `string` to `number`, `object` to `array`, `string` to `string or null`.
            case retyped(member: String, from: String, to: String)
            /// A member whose values lost a kind and gained none (`string or null` to `string`).
            case narrowed(member: String, from: String, to: String)
            /// The statuses recorded differ.
            case status(from: [Int], to: [Int])
            /// The content types recorded differ (compared without parameters, case-insensitively).
            case contentType(from: [String], to: [String])
            /// Only the old recording has the interaction.
            case onlyInOld
            /// Only the new recording has the interaction.
            case onlyInNew
        }

        /// The interaction, `GET /repos/apple/swift`.
        public var interaction: String
        /// What differs.
        public var kind: Kind

        /// Whether a model that decoded the old recording may fail on the new: a member removed, a
        /// kind of value it has not seen, or an interaction the new recording lacks (the API no
        /// longer answers it there, or the recording no longer exercises it).
        public var isBreaking: Bool {
            switch kind {
            case .removed, .retyped, .onlyInOld: true
            default: false
            }
        }

        /// One line: `GET /users/octocat: removed site_admin (boolean)`.
        public var description: String {
            let what = switch kind {
            case .added(let member, let type): "added \(Self.shown(member)) (\(type))"
            case .removed(let member, let type): "removed \(Self.shown(member)) (\(type))"
            case .retyped(let member, let from, let to): "retyped \(Self.shown(member)): \(from) -> \(to)"
            case .narrowed(let member, let from, let to): "narrowed \(Self.shown(member)): \(from) -> \(to)"
            case .status(let from, let to): "status \(from.map(String.init).joined(separator: ", ")) -> \(to.map(String.init).joined(separator: ", "))"
            case .contentType(let from, let to): "content type \(Self.list(from)) -> \(Self.list(to))"
            case .onlyInOld: "only in the old recording"
            case .onlyInNew: "only in the new recording"
            }
            // Paths and member names are the recordings' text: through the gate.
            return ShownText.line("\(interaction): \(what)\(isBreaking ? " [breaking]" : "")", limit: 4_096)
        }

        private static func shown(_ member: String) -> String {
            member.isEmpty ? "the body" : PrintableText.value(member, limit: 256)
        }

        private static func list(_ types: [String]) -> String {
            types.isEmpty ? "none" : types.map { PrintableText.value($0, limit: 128) }.joined(separator: ", ")
        }
    }

    /// The differences, interaction by interaction in the old recording's order (then the new's),
    /// members in the order their bodies hold them.
    public var changes: [Change]

    /// Whether any change is breaking.
    public var isBreaking: Bool { changes.contains(where: \.isBreaking) }

    /// Compares two recordings' interactions.
    ///
    /// ```swift
    /// let diff = RecordingDiff(old: try Cassette(contentsOf: before).interactions, new: try Cassette(contentsOf: after).interactions)
    /// ```
    /// - Parameters:
    ///   - old: the interactions recorded first.
    ///   - new: the interactions recorded since.
    public init(old: [Fixture], new: [Fixture]) {
        let old = old.map(Reading.init), new = new.map(Reading.init)
        // A member a body names by a secret value a recording holds (a session keyed by the token
        // another response gave) is listed under the marker.
        let secrets = Set((old + new).flatMap(\.secretValues))
        let before = Side(old, hiding: secrets)
        let after = Side(new, hiding: secrets)
        changes = []
        for key in before.order {
            let line = before.lines[key] ?? ""
            guard let newer = after.recordings[key], let older = before.recordings[key] else {
                changes.append(Change(interaction: line, kind: .onlyInOld))
                continue
            }
            changes += Self.compare(older, newer, interaction: line)
        }
        for key in after.order where before.recordings[key] == nil {
            changes.append(Change(interaction: after.lines[key] ?? "", kind: .onlyInNew))
        }
    }

    /// Compares the recordings in two sets of files or folders (fixtures, cassettes and HAR
    /// archives, at any depth).
    ///
    /// ```swift
    /// let diff = try RecordingDiff(old: [URL(filePath: "Fixtures/2025")], new: [URL(filePath: "Fixtures/2026")])
    /// ```
    /// - Parameters:
    ///   - old: the files or folders recorded first.
    ///   - new: the files or folders recorded since.
    /// - Throws: ``RecordingFileError`` for a path that does not exist, a file that cannot be read
    ///   (a diff that passed over one could hide a removal), or a side that holds no recording (a
    ///   re-recording that failed would otherwise be no change).
    public init(old: [URL], new: [URL]) throws(RecordingFileError) {
        try self.init(old: Self.interactions(in: old), new: Self.interactions(in: new))
    }

    /// Every interaction in `paths`.
    private static func interactions(in paths: [URL]) throws(RecordingFileError) -> [Fixture] {
        let (fixtures, unreadable) = try FixtureFolder.interactions(in: paths)
        if let first = unreadable.first { throw first }
        guard !fixtures.isEmpty else {
            throw RecordingFileError(path: paths.map { $0.path(percentEncoded: false) }.joined(separator: ", "), reason: "holds no fixture, cassette or HAR archive")
        }
        return fixtures
    }

    /// The changes between the recordings of one interaction.
    private static func compare(_ old: Recording, _ new: Recording, interaction: String) -> [Change] {
        var changes: [Change] = []
        if old.statuses != new.statuses {
            changes.append(Change(interaction: interaction, kind: .status(from: old.statuses.sorted(), to: new.statuses.sorted())))
        }
        if old.contentTypes != new.contentTypes {
            changes.append(Change(interaction: interaction, kind: .contentType(from: old.contentTypes.sorted(), to: new.contentTypes.sorted())))
        }
        let before = old.shape.kinds
        let after = new.shape.kinds
        // A member is listed only where its parent is in both: under a removed or retyped member,
        // the one line about it says all.
        func parentInBoth(_ path: String, _ shape: BodyShape) -> Bool {
            guard let parent = shape.parents[path] else { return true }
            guard let was = before[parent], let now = after[parent] else { return false }
            return was == now || !was.intersection(now).intersection([.object, .array]).isEmpty
        }
        // An array's elements recorded on one side only (every list empty on the other) are not
        // known to have changed: an empty page is not a removal.
        func elementsUnknown(_ path: String, _ shape: BodyShape, otherSide: [String: BodyShape.Kinds]) -> Bool {
            guard path.hasSuffix("[]"), let array = shape.parents[path] else { return false }
            return otherSide[array]?.contains(.array) == true
        }
        for path in old.shape.order where parentInBoth(path, old.shape) {
            guard let was = before[path] else { continue }
            guard let now = after[path] else {
                if !elementsUnknown(path, old.shape, otherSide: after) {
                    changes.append(Change(interaction: interaction, kind: .removed(member: path, type: was.name)))
                }
                continue
            }
            if !now.subtracting(was.readable).isEmpty {
                changes.append(Change(interaction: interaction, kind: .retyped(member: path, from: was.name, to: now.name)))
            } else if now != was {
                changes.append(Change(interaction: interaction, kind: .narrowed(member: path, from: was.name, to: now.name)))
            }
        }
        for path in new.shape.order where before[path] == nil && parentInBoth(path, new.shape) && !elementsUnknown(path, new.shape, otherSide: before) {
            changes.append(Change(interaction: interaction, kind: .added(member: path, type: (after[path] ?? []).name)))
        }
        return changes
    }

    /// One line per change, then `3 changes, 1 breaking`; `no changes` when there are none. At
    /// most 64 KiB: past that, lines are left out and counted (``changes`` keeps everything).
    public var description: String {
        guard !changes.isEmpty else { return "no changes" }
        let breaking = changes.filter(\.isBreaking).count
        return ShownText.lines(changes.lazy.map(\.description), lineLimit: 4_096, limit: 64 << 10, last: "\(changes.count) change\(changes.count == 1 ? "" : "s"), \(breaking) breaking")
    }

    /// Everything recorded for one method and path.
    struct Recording {
        var statuses: Set<Int> = []
        var contentTypes: Set<String> = []
        var shape = BodyShape()
    }

    /// A recorded interaction's body as every reader of recordings reads it: decompressed, in
    /// UTF-8.
    struct Reading {
        var fixture: Fixture
        var body: Data
        /// The content type without parameters, lowercased; `nil` when none is recorded.
        var mediaType: String?

        init(_ fixture: Fixture) {
            self.fixture = fixture
            let (body, fields) = RecordedBody.decodedIfPossible(fixture.response.body, fields: fixture.response.headerFields)
            mediaType = fields[.contentType].map { type in
                type.split(separator: ";", maxSplits: 1).first.map { ASCII.lowercased(String($0)).trimmingCharacters(in: .whitespaces) } ?? ""
            }
            self.body = BodyText(body, contentTypes: fields[values: .contentType]).utf8
        }

        /// The secret values the recording holds: in its response's body, its request's URL and
        /// body, and the headers of both.
        var secretValues: [String] {
            let policy = SecretPolicy.default
            let request = fixture.request
            var values = policy.secretValues(in: body, contentTypes: mediaType.map { [$0] } ?? [], scanning: body.count).values
                + policy.secretValues(in: request.url) + policy.secretValues(in: request.headerFields) + policy.secretValues(in: fixture.response.headerFields)
            if let stored = request.body {
                let (decoded, fields) = RecordedBody.decodedIfPossible(stored, fields: request.headerFields)
                let text = BodyText(decoded, contentTypes: fields[values: .contentType]).utf8
                values += policy.secretValues(in: text, contentTypes: fields[values: .contentType], scanning: text.count).values
            }
            return values
        }
    }

    /// One recording's interactions by method and path.
    struct Side {
        var recordings: [String: Recording] = [:]
        var lines: [String: String] = [:]
        var order: [String] = []

        init(_ readings: [Reading], hiding secrets: Set<String>) {
            let index = SecretIndex(secrets)
            for reading in readings {
                let fixture = reading.fixture
                let path = RequestComparison.path(of: fixture.request.url)
                let key = fixture.request.method.rawValue + " " + path
                if recordings[key] == nil {
                    order.append(key)
                    // A secret value either recording holds is hidden in the path too (`/n/abc…?access_token=abc…`).
                    let line = "\(ClippedText.value(fixture.request.method.rawValue, limit: 64)) \(RequestComparison.shownPath(of: fixture.request.url))"
                    lines[key] = ShownText.line(line, limit: 1_100, hiding: index.candidates(in: line))
                }
                var recording = recordings[key] ?? Recording()
                recordings[key] = nil
                recording.statuses.insert(fixture.response.status.code)
                if let media = reading.mediaType { recording.contentTypes.insert(media) }
                recording.shape.hiding = index
                recording.shape.add(reading.body)
                recordings[key] = recording
            }
        }
    }
}
