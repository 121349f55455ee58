import Foundation
import Sculpt

/// One JSON shape, large enough that its cost shows: `SculptJSONDecoder` beside `JSONDecoder` on
/// the same bytes, in time (a case) and in peak memory (a fresh child process per decoder).
struct Shape: Sendable {
    let name: String
    let payload: @Sendable () -> Data
    /// Decodes the payload with `JSONDecoder` (`sculpt == false`) or `SculptJSONDecoder`.
    let decode: @Sendable (_ data: Data, _ sculpt: Bool) throws -> Void

    init<T: Decodable & Sendable>(_ name: String, _ type: T.Type, dates: JSONDecoder.DateDecodingStrategy? = nil, _ payload: @escaping @Sendable () -> Data) {
        self.name = name
        self.payload = payload
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

    /// The shapes: arrays of each scalar, optionals, nested arrays, dictionaries of each key type,
    /// objects with escaped keys, `Decimal`, `Date` and `Data`.
    static let all: [Shape] = [
        Shape("[Int], 200,000", [Int].self) { json((0..<200_000).map { $0 &* 7_919 % 1_000_003 - 500_000 }) },
        Shape("[Double], 200,000", [Double].self) { json((0..<200_000).map { Double($0) * 1.618_033 - 12_345.5 }) },
        Shape("[Decimal], 100,000", [Decimal].self) { text("[" + (0..<100_000).map { "\($0 % 9_999).\($0 % 100)" }.joined(separator: ",") + "]") },
        Shape("[Bool], 200,000", [Bool].self) { json((0..<200_000).map { $0 % 3 == 0 }) },
        Shape("[String], 100,000 short", [String].self) { json((0..<100_000).map { "name-\($0)" }) },
        Shape("[Int?], 200,000 null", [Int?].self) { text("[" + Array(repeating: "null", count: 200_000).joined(separator: ",") + "]") },
        Shape("[Int?], 200,000 half null", [Int?].self) { text("[" + (0..<200_000).map { $0.isMultiple(of: 2) ? "null" : "\($0)" }.joined(separator: ",") + "]") },
        Shape("[[Int]], 40,000 of 5", [[Int]].self) { json((0..<40_000).map { base in (0..<5).map { base + $0 } }) },
        Shape("[String: Int], 50,000 keys", [String: Int].self) { json(Dictionary(uniqueKeysWithValues: (0..<50_000).map { ("key-\($0)", $0) })) },
        Shape("[Int: Int], 50,000 keys", [Int: Int].self) { text("{" + (0..<50_000).map { #""\#($0)":\#($0 &* 31)"# }.joined(separator: ",") + "}") },
        Shape("objects with escaped keys, 20,000", [EscapedKeys].self) {
            text("[" + (0..<20_000).map { #"{"caf\u00e9":\#($0),"na\u00efve":"x\#($0)","\u0041BC":true}"# }.joined(separator: ",") + "]")
        },
        Shape("[Date], 100,000 seconds", [Date].self, dates: .secondsSince1970) { json((0..<100_000).map { 1_700_000_000 + Double($0) * 0.5 }) },
        Shape("[Date], 50,000 ISO 8601", [Date].self, dates: .iso8601) {
            json((0..<50_000).map { "2026-11-\(10 + $0 % 18)T\(10 + $0 % 12):\(10 + $0 % 50):00Z" })
        },
        Shape("[Data], 20,000 of 48 bytes", [Data].self) { json((0..<20_000).map { index in Data((0..<48).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }).base64EncodedString() }) },
    ]

    /// A case: this shape's time with each decoder.
    var timeCase: Case {
        let shape = self
        return Case(name: "shape: \(name)", baselineName: "JSONDecoder.decode", target: 1.0) {
            let data = shape.payload()
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
    /// How a memory child decodes: not at all (reading the payload only), or with one decoder.
    enum Side: String, CaseIterable {
        case idle, foundation, sculpt
    }

    /// Runs in a child: reads the payload, decodes it as `side` says, prints peak RSS in KB.
    static func child(shape index: Int, _ side: Side, payload: URL) throws {
        let data = try Data(contentsOf: payload)
        switch side {
        case .idle: consume(data)
        case .foundation: try all[index].decode(data, false)
        case .sculpt: try all[index].decode(data, true)
        }
        print(Memory.peakResidentKilobytes())
    }

    /// Each shape's peak memory above an idle child, `SculptJSONDecoder` against `JSONDecoder`:
    /// the smallest of `runs` children per side.
    static func measureMemory(runs: Int = 3) throws -> [Measurement] {
        try all.indices.map { index in
            let payload = FileManager.default.temporaryDirectory.appending(path: "sculpt-shape-\(getpid())-\(index).json")
            try all[index].payload().write(to: payload)
            defer { try? FileManager.default.removeItem(at: payload) }
            var peaks: [Side: Double] = [:]
            for side in Side.allCases {
                peaks[side] = try (0..<runs).map { _ in
                    try Memory.childPeak(arguments: ["--shape-child", String(index), side.rawValue, payload.path])
                }.min()
            }
            let idle = peaks[.idle] ?? 0
            let foundation = (peaks[.foundation] ?? 0) - idle
            let sculpt = (peaks[.sculpt] ?? 0) - idle
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
