import Foundation
import Sculpt
import SculptJSON

/// One JSON shape, large enough that its cost shows: `SculptJSONDecoder` beside `JSONDecoder` on
/// the same bytes, in time (a case) and in peak memory (a fresh child process per decoder).
struct Shape: Sendable {
    let name: String
    /// How many values the measured document holds.
    let count: Int
    /// The document, with `count` values.
    let document: @Sendable (_ count: Int) -> Data
    /// Decodes the payload with `JSONDecoder` (`sculpt == false`) or `SculptJSONDecoder`.
    let decode: @Sendable (_ data: Data, _ sculpt: Bool) throws -> Void

    init<T: Decodable & Sendable>(
        _ name: String, _ count: Int, _ type: T.Type, dates: JSONDecoder.DateDecodingStrategy? = nil,
        _ document: @escaping @Sendable (_ count: Int) -> Data
    ) {
        self.name = name
        self.count = count
        self.document = document
        decode = { data, sculpt in
            if sculpt {
                var decoder = SculptJSONDecoder()
                if let dates { decoder.dateDecodingStrategy = dates }
                consume(try decoder.decode(T.self, from: data))
            } else {
                let decoder = JSONDecoder()
                if let dates { decoder.dateDecodingStrategy = dates }
                consume(try decoder.decode(T.self, from: data))
            }
        }
    }

    /// The measured document.
    var payload: Data { document(count) }

    /// The shapes: arrays of each scalar, optionals, nested arrays, dictionaries of each key type,
    /// objects with escaped keys, `Decimal`, `Date` and `Data`.
    static let all: [Shape] = [
        Shape("[Int], 200,000", 200_000, [Int].self) { n in json((0..<n).map { $0 &* 7_919 % 1_000_003 - 500_000 }) },
        Shape("[Double], 200,000", 200_000, [Double].self) { n in json((0..<n).map { Double($0) * 1.618_033 - 12_345.5 }) },
        Shape("[Decimal], 100,000", 100_000, [Decimal].self) { n in text("[" + (0..<n).map { "\($0 % 9_999).\($0 % 100)" }.joined(separator: ",") + "]") },
        Shape("[Bool], 200,000", 200_000, [Bool].self) { n in json((0..<n).map { $0 % 3 == 0 }) },
        Shape("[String], 100,000 short", 100_000, [String].self) { n in json((0..<n).map { "name-\($0)" }) },
        Shape("[Int?], 200,000 null", 200_000, [Int?].self) { n in text("[" + Array(repeating: "null", count: n).joined(separator: ",") + "]") },
        Shape("[Int?], 200,000 half null", 200_000, [Int?].self) { n in text("[" + (0..<n).map { $0.isMultiple(of: 2) ? "null" : "\($0)" }.joined(separator: ",") + "]") },
        Shape("[[Int]], 40,000 of 5", 40_000, [[Int]].self) { n in json((0..<n).map { base in (0..<5).map { base + $0 } }) },
        Shape("[String: Int], 50,000 keys", 50_000, [String: Int].self) { n in json(Dictionary(uniqueKeysWithValues: (0..<n).map { ("key-\($0)", $0) })) },
        Shape("[[String: Int]], 300,000 empty", 300_000, [[String: Int]].self) { n in text("[" + Array(repeating: "{}", count: n).joined(separator: ",") + "]") },
        Shape("[Int: Int], 50,000 keys", 50_000, [Int: Int].self) { n in text("{" + (0..<n).map { #""\#($0)":\#($0 &* 31)"# }.joined(separator: ",") + "}") },
        Shape("objects with escaped keys, 20,000", 20_000, [EscapedKeys].self) { n in
            text("[" + (0..<n).map { #"{"caf\u00e9":\#($0),"na\u00efve":"x\#($0)","\u0041BC":true}"# }.joined(separator: ",") + "]")
        },
        Shape("[Date], 100,000 seconds", 100_000, [Date].self, dates: .secondsSince1970) { n in json((0..<n).map { 1_700_000_000 + Double($0) * 0.5 }) },
        Shape("[Date], 50,000 ISO 8601", 50_000, [Date].self, dates: .iso8601) { n in
            json((0..<n).map { "2026-11-\(10 + $0 % 18)T\(10 + $0 % 12):\(10 + $0 % 50):00Z" })
        },
        Shape("[Data], 20,000 of 48 bytes", 20_000, [Data].self) { n in
            json((0..<n).map { index in Data((0..<48).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }).base64EncodedString() })
        },
    ]

    /// A case: this shape's time with each decoder.
    var timeCase: Case {
        let shape = self
        return Case(name: "shape: \(name)", baselineName: "JSONDecoder.decode", target: 1.0) {
            let data = shape.payload
            return Sides(sculpt: { try shape.decode(data, true) }, baseline: { try shape.decode(data, false) })
        }
    }

    private static func json<T: Encodable>(_ value: T) -> Data {
        (try? JSONEncoder().encode(value)) ?? Data()
    }

    private static func text(_ string: String) -> Data {
        Data(string.utf8)
    }
}

/// An object whose keys arrive escaped (`"caf\u00e9"`), as some encoders write every non-ASCII key.
struct EscapedKeys: Decodable, Sendable {
    let café: Int
    let naïve: String
    let ABC: Bool
}

extension Shape {
    /// Which decoder a memory child runs.
    enum Side: String, CaseIterable {
        case foundation, sculpt
    }

    /// Runs in a child: reads the payload and decodes a document of the same shape with ten
    /// values, so that the code a decode runs is loaded (once per process, for either decoder);
    /// then decodes the payload as `side` says, and prints in KB how far resident memory rose
    /// above what the process held before that decode.
    static func child(shape index: Int, _ side: Side, payload: URL) throws {
        let data = try Data(contentsOf: payload)
        let shape = all[index]
        try shape.decode(shape.document(10), side == .sculpt)
        let before = Memory.resetPeak()
        try shape.decode(data, side == .sculpt)
        print(Memory.peakResidentKilobytes() - before)
    }

    /// Each shape's peak memory, `SculptJSONDecoder` against `JSONDecoder`: what a decode adds
    /// to a process that has decoded once, the smallest of `runs` children per side.
    static func measureMemory(runs: Int = 3) throws -> [Measurement] {
        try all.indices.map { index in
            let payload = FileManager.default.temporaryDirectory.appending(path: "sculpt-shape-\(getpid())-\(index).json")
            try all[index].payload.write(to: payload)
            defer { try? FileManager.default.removeItem(at: payload) }
            var peaks: [Side: Double] = [:]
            for side in Side.allCases {
                peaks[side] = try (0..<runs).map { _ in
                    try Memory.childPeak(arguments: ["--shape-child", String(index), side.rawValue, payload.path])
                }.min()
            }
            let foundation = peaks[.foundation] ?? 0
            let sculpt = peaks[.sculpt] ?? 0
            return Measurement(
                name: "peak memory, shape: \(all[index].name) (KB)", baseline: "JSONDecoder.decode", sculptNanoseconds: sculpt,
                baselineNanoseconds: foundation, ratio: sculpt / max(foundation, 1), target: 1.0)
        }
    }
}

extension Cases {
    /// Each shape's time, `SculptJSONDecoder` against `JSONDecoder`.
    static func shapes() -> [Case] {
        Shape.all.map(\.timeCase)
    }
}
