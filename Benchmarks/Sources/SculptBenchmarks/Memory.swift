import Foundation
import Sculpt
import SculptJSON
import SculptMatchers

/// Peak memory of decoding the 5 MB array, and an array holding one 50 MB string, each way in a
/// fresh child process (peak RSS is a process's high-water mark), above an idle child that only
/// reads the same file.
enum Memory {
    enum Mode: String, CaseIterable {
        case idle, baseline, sculpt, sculptDecoder
        case stringIdle, stringBaseline, stringDecoder

        /// Whether the child reads the long string's file.
        var readsString: Bool { [.stringIdle, .stringBaseline, .stringDecoder].contains(self) }
    }

    /// `["xxx…"]`, 50 MB: what a decoder copies of a string shows at this size.
    static let longStringJSON = Data(("[\"" + String(repeating: "x", count: 50_000_000) + "\"]").utf8)

    /// Runs in the child: read the payload, decode it one way, report peak RSS in KB.
    static func child(_ mode: Mode, payload: URL) throws {
        let data = try Data(contentsOf: payload)
        switch mode {
        case .idle, .stringIdle: consume(data)
        case .baseline: consume(try JSONDecoder().decode([Item].self, from: data))
        case .sculpt:
            var routes = URLModelMatcher()
            try routes.add("/items", [Item].self)
            let context = ResponseContext(url: URL(string: "https://x/items"), headerFields: [.contentType: "application/json"])
            consume(try ModelResponseSerializer(matcher: routes).serialize(data, for: context, as: [Item].self))
        case .sculptDecoder: consume(try SculptJSONDecoder().decode([Item].self, from: data))
        case .stringBaseline: consume(try JSONDecoder().decode([String].self, from: data))
        case .stringDecoder: consume(try SculptJSONDecoder().decode([String].self, from: data))
        }
        print(peakResidentKilobytes())
    }

    /// This process's peak resident memory. On Linux `ru_maxrss` carries over from the parent across
    /// fork and exec, so the kernel's per-process high-water mark (`VmHWM`) is read instead.
    static func peakResidentKilobytes() -> Int {
        #if os(Linux)
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
        #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss) / 1024  // bytes on Darwin
        #endif
    }

    /// Lowers this process's peak resident memory to what it holds now, so that what runs after
    /// is measured without what ran before; returns that resident memory in KB. Linux only:
    /// elsewhere the peak stays, and 0 is returned.
    static func resetPeak() -> Int {
        #if os(Linux)
        try? Data("5".utf8).write(to: URL(filePath: "/proc/self/clear_refs"))
        return peakResidentKilobytes()
        #else
        return 0
        #endif
    }

    /// Spawns one child per mode, `runs` times each, and compares the smallest peaks: the
    /// serializer's and `SculptJSONDecoder`'s, each against `JSONDecoder`'s.
    static func measure(runs: Int = 5) throws -> [Measurement] {
        let payload = FileManager.default.temporaryDirectory.appending(path: "sculpt-benchmark-\(getpid()).json")
        let stringPayload = FileManager.default.temporaryDirectory.appending(path: "sculpt-benchmark-string-\(getpid()).json")
        try Payloads.largeArrayJSON.write(to: payload)
        try longStringJSON.write(to: stringPayload)
        defer {
            try? FileManager.default.removeItem(at: payload)
            try? FileManager.default.removeItem(at: stringPayload)
        }
        var peaks: [Mode: Double] = [:]
        for mode in Mode.allCases {
            peaks[mode] = try (0..<runs).map { _ in try peak(mode, mode.readsString ? stringPayload : payload) }.min()
        }
        let stringIdle = peaks[.stringIdle] ?? 0
        let stringBaseline = (peaks[.stringBaseline] ?? 0) - stringIdle
        let stringDecoder = (peaks[.stringDecoder] ?? 0) - stringIdle
        let idle = peaks[.idle] ?? 0
        let baseline = (peaks[.baseline] ?? 0) - idle
        let sculpt = (peaks[.sculpt] ?? 0) - idle
        let decoder = (peaks[.sculptDecoder] ?? 0) - idle
        return [
            Measurement(
                name: "peak memory above idle, 5 MB array (KB)", baseline: "JSONDecoder alone", sculptNanoseconds: sculpt,
                baselineNanoseconds: baseline, ratio: sculpt / baseline, target: 1.1),
            Measurement(
                name: "peak memory, SculptJSONDecoder, 5 MB array (KB)", baseline: "JSONDecoder alone", sculptNanoseconds: decoder,
                baselineNanoseconds: baseline, ratio: decoder / baseline, target: 1.0),
            Measurement(
                name: "peak memory, SculptJSONDecoder, a 50 MB string (KB)", baseline: "JSONDecoder alone", sculptNanoseconds: stringDecoder,
                baselineNanoseconds: stringBaseline, ratio: stringDecoder / stringBaseline, target: 1.0),
        ]
    }

    struct ChildFailed: Error, CustomStringConvertible {
        var mode: String
        var output: String
        var description: String { "the \(mode) memory child printed no peak: \(output)" }
    }

    private static func peak(_ mode: Mode, _ payload: URL) throws -> Double {
        do {
            return try childPeak(arguments: ["--memory-child", mode.rawValue, payload.path])
        } catch let failure as ChildFailed {
            throw ChildFailed(mode: mode.rawValue, output: failure.output)
        }
    }

    /// Runs this executable with `arguments` and reads the peak it prints.
    static func childPeak(arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(filePath: CommandLine.arguments[0])
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, let peak = Double(text) else {
            throw ChildFailed(mode: arguments.dropFirst().joined(separator: " "), output: String(text.prefix(2_000)))
        }
        return peak
    }
}
