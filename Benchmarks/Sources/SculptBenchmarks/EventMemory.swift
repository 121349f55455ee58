import Foundation
import Sculpt
import SculptMatchers

/// What a decoding observer's events cost in memory until the serializer returns: the peak of a
/// child that serializes a body of `count` elements a lossy array skips, with an observer and
/// without, the difference per event, against the stated bound of 100 bytes an event.
enum EventMemory {
    /// The bound the documentation states, in bytes an event.
    static let bound = 100.0

    /// The two sizes measured.
    static let sizes = [20_000, 200_000]

    /// `["x", "x", …]`: every element fails to decode as `Int`.
    static func body(_ count: Int) -> Data {
        Data(("[" + Array(repeating: #""x""#, count: count).joined(separator: ",") + "]").utf8)
    }

    /// Runs in the child: serialize the payload, observed or not, and report peak RSS in KB.
    static func child(observed: Bool, payload: URL) throws {
        let data = try Data(contentsOf: payload)
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher(LossyArray<Int>.self))
        let heard = Heard()
        if observed { serializer.decodingObserver = { _ in heard.add() } }
        let context = ResponseContext(url: URL(string: "https://api.example.com/items"), headerFields: [.contentType: "application/json"])
        consume(try serializer.serialize(data, for: context, as: LossyArray<Int>.self))
        print(Memory.peakResidentKilobytes())
    }

    /// One row per size: bytes an event (the observed child's peak over the plain one's, per
    /// event), against the bound.
    static func measure(runs: Int = 5) throws -> [Measurement] {
        try sizes.map { count in
            let payload = FileManager.default.temporaryDirectory.appending(path: "sculpt-events-\(getpid())-\(count).json")
            try body(count).write(to: payload)
            defer { try? FileManager.default.removeItem(at: payload) }
            func peak(_ observed: Bool) throws -> Double {
                try (0..<runs).map { _ in
                    try Memory.childPeak(arguments: ["--events-child", observed ? "observed" : "plain", payload.path])
                }.min() ?? 0
            }
            let perEvent = max(0, try peak(true) - peak(false)) * 1_024 / Double(count)
            return Measurement(
                name: "peak memory per event, \(count.formatted()) skipped (B)", baseline: "the stated bound", sculptNanoseconds: perEvent,
                baselineNanoseconds: bound, ratio: perEvent / bound, target: 1.0)
        }
    }

    private final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        func add() {
            lock.withLock { count += 1 }
        }
    }
}
