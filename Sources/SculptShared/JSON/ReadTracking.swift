import Foundation

/// Which members of a response body no decode read, for a test that asks (a mapping report):
/// set for one synchronous call with ``track(_:_:)``, a `SculptJSONDecoder` decoding the body on
/// the same thread marks each member a keyed container looks up; ``unread`` then lists the
/// others.
///
/// Only decodes of the body itself count: a JSON string a type decodes inside its own
/// `init(from:)` is another document, and is not tracked. Every decode of the body counts (a
/// matcher's look at a type field, then the model's decode): a member is unread when none of them
/// read it. Outside ``track(_:_:)`` a decode reads one thread-local value, once, and marks nothing.
///
/// Finding the unread members costs one walk of each tracked decode's scan (``UnreadWalk``),
/// while the decode's text is at hand; the reads of a body are kept from one decode to the next,
/// and the walk's working storage from one body to the next.
///
/// A tracking is used by one thread at a time (the one that runs ``track(_:_:)``), so its state
/// is read and changed without exclusivity checks.
package final class ReadTracking {
    /// The body whose decodes are tracked.
    @exclusivity(unchecked) private var body = Data()
    /// The marks the decodes of the body add their reads to: every decode is of the same text, so
    /// its scan is the same. Reused for the next body when no decoder still holds them.
    @exclusivity(unchecked) private var marks: ReadMarks?
    /// Whether ``marks`` are the body's: a decode of it has begun.
    @exclusivity(unchecked) private var marksAreForBody = false
    /// The paths of the members no tracked decode of the body read, in document order (see
    /// ``MemberPath``): `owner.site_admin`, `items[].node_id` (array positions are `[]`: a member
    /// unread in several elements is listed once). A member under one never read is not listed,
    /// nor a repeat of a name whose first member was read. Empty when no decode of the body was
    /// tracked.
    @exclusivity(unchecked) package private(set) var unread = UnreadPaths()
    /// The paths of the body read by name, not through a decode: a type field a matcher found.
    @exclusivity(unchecked) private var namedReads: [[String]] = []
    /// Whether a decode is being tracked: a decode that a type's `init(from:)` starts inside it
    /// reads another document, and is not tracked.
    @exclusivity(unchecked) private var decoding = false
    /// What a walk works in, kept from one walk to the next so that a report over many bodies
    /// allocates it once.
    @exclusivity(unchecked) private var scratch = UnreadWalk.Scratch()

    /// A tracking with no body yet: ``track(_:_:)`` gives it one.
    package init() {}

    /// The tracking of the running call, if any.
    package static let current = ThreadLocal<ReadTracking>()

    /// Runs `run` with this tracking visible to decodes on this thread, tracking the decodes of
    /// `body`: what an earlier call tracked is forgotten.
    package func track<T>(_ body: Data, _ run: () throws -> T) rethrows -> T {
        self.body = body
        marksAreForBody = false
        namedReads = []
        unread = UnreadPaths()
        decoding = false
        return try Self.current.withValue(self, run)
    }

    /// The tracking for a decode of `data` starting on this thread: this thread's, when `data` is
    /// its body and no decode it tracks is already running; end it with ``endDecode()``.
    package static func beginDecode(of data: Data) -> ReadTracking? {
        guard let tracking = current.value, !tracking.decoding, tracking.body == data else { return nil }
        tracking.decoding = true
        return tracking
    }

    /// Notes that the member at `path` (its members' names, outermost first) of `data` was read
    /// without a decode, as a matcher reads a type field, when `data` is the body this thread's
    /// tracking tracks: the member is not listed, nor the members on the way to it.
    /// The path is made only while a tracking is set.
    package static func noteRead(path: @autoclosure () -> [String], of data: Data) {
        guard let tracking = current.value, tracking.body == data else { return }
        tracking.namedReads.append(path())
    }

    /// Ends the decode ``beginDecode(of:)`` started.
    package func endDecode() {
        decoding = false
    }

    /// The marks a decode of the body adds its reads to, its scan having `count` entries: those of
    /// the body's decodes before it, or cleared ones.
    package func marks(forScanOf count: Int) -> ReadMarks {
        if marksAreForBody, let marks, marks.count == count { return marks }
        marksAreForBody = true
        // Marks a decoder still holds (one a model kept) are left to it.
        if isKnownUniquelyReferenced(&marks), let marks {
            marks.reset(count: count)
            return marks
        }
        let fresh = ReadMarks(count: count)
        marks = fresh
        return fresh
    }

    /// Walks a decode's scan of the body, once the decode has added its reads to `marks`, for
    /// the members no decode of the body read so far (while the decode's text is at hand).
    ///
    /// - Parameters:
    ///   - entries: the decode's scan of the body.
    ///   - text: the body's bytes.
    ///   - marks: the marks from ``marks(forScanOf:)``, with the decode's reads added.
    ///   - seed: the seed the decoder hashed names under (``ByteHash``).
    package func record(_ entries: JSONTape.Entries, text: UnsafeBufferPointer<UInt8>, marks: ReadMarks, seed: UInt64) {
        let scan = UnreadWalk.Scan(entries: entries, text: text, marks: marks, seed: seed, namedReads: namedReads)
        unread = UnreadWalk.paths(unreadIn: scan, body: body, scratch: &scratch)
    }
}

/// A decoder that marks the members it reads while a ``ReadTracking`` tracks the body it decodes:
/// a mapping report lists unread members only for a body such a decoder decodes, since a look
/// another decoder's body decode never marked would say every member it read was unread.
package protocol TracksReads {}
