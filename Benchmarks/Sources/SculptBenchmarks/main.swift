// Sculpt's benchmark suite: each case against its baseline, side by side in one process.
//   swift run -c release --package-path Benchmarks sculpt-benchmarks [--filter TEXT] [--json FILE]
import Foundation

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--memory-child", let mode = Memory.Mode(rawValue: arguments[2]) {
    try Memory.child(mode, payload: URL(filePath: arguments[3]))
    exit(0)
}
if arguments.count == 4, arguments[1] == "--events-child" {
    try EventMemory.child(observed: arguments[2] == "observed", payload: URL(filePath: arguments[3]))
    exit(0)
}
if arguments.count == 5, arguments[1] == "--shape-child", let index = Int(arguments[2]), let side = Shape.Side(rawValue: arguments[3]) {
    try Shape.child(shape: index, side, payload: URL(filePath: arguments[4]))
    exit(0)
}
// --profile TEXT N [--baseline]: run one side of the first matching case N times, nothing else
// (for valgrind --tool=callgrind; profile both sides and compare).
if let index = arguments.firstIndex(of: "--profile"), arguments.count > index + 2, let count = Int(arguments[index + 2]),
    let item = try Cases.all().first(where: { $0.name.localizedCaseInsensitiveContains(arguments[index + 1]) })
{
    let sides = try item.prepare()
    let body = arguments.contains("--baseline") ? sides.baseline : sides.sculpt
    for _ in 0..<count { try body() }
    exit(0)
}
let filter = arguments.firstIndex(of: "--filter").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
let jsonFile = arguments.firstIndex(of: "--json").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    ?? URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "results.json").path

say("Sculpt benchmarks: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.operatingSystemVersionString)")
say("Payloads: user \(Payloads.userJSON.count) B, issues \(Payloads.issuesJSON.count) B, array \(Payloads.largeArrayJSON.count) B, "
    + "envelope \(Payloads.envelopeJSON.count) B, wrapper \(Payloads.wrapperJSON.count) B, discriminator-last \(Payloads.discriminatorLastJSON.count) B\n")

let harness = Harness()
var results: [Measurement] = []
/// `text` padded with spaces to `width` (left-aligned) or right-aligned when `width` is negative.
func pad(_ text: String, _ width: Int) -> String {
    let fill = String(repeating: " ", count: max(0, abs(width) - text.count))
    return width < 0 ? fill + text : text + fill
}

@MainActor func report(_ result: Measurement) {
    let verdict = result.meetsTarget.map { $0 ? "ok" : "MISSED" } ?? ""
    let target = result.target.map { String(format: "<= %.2f", $0) } ?? ""
    let unit = result.name.hasPrefix("peak memory per event") ? " B" : result.name.hasPrefix("peak memory") ? " KB" : " ns"
    say(pad(result.name, 46) + pad(String(format: "%.0f", result.sculptNanoseconds) + unit, -14) + pad(String(format: "%.0f", result.baselineNanoseconds) + unit, -14)
        + "  " + pad(result.baseline, 24) + pad(String(format: "%.3f", result.ratio), -7) + "  " + pad(target, 8) + " " + verdict)
    results.append(result)
}
say(pad("case", 46) + pad("Sculpt", -14) + pad("baseline", -14) + "  " + pad("baseline is", 24) + pad("ratio", -7) + "  " + pad("target", 8))
for item in try Cases.all() where filter.map({ item.name.localizedCaseInsensitiveContains($0) }) ?? true {
    report(try harness.measure(item))
}
if filter.map({ "peak memory".localizedCaseInsensitiveContains($0) }) ?? true {
    for measurement in try Memory.measure() { report(measurement) }
}
if filter.map({ "peak memory per event".localizedCaseInsensitiveContains($0) }) ?? true {
    for measurement in try EventMemory.measure() { report(measurement) }
}
if filter.map({ "peak memory, shape:".localizedCaseInsensitiveContains($0) || "shape:".localizedCaseInsensitiveContains($0) }) ?? true {
    for measurement in try Shape.measureMemory() { report(measurement) }
}
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
try encoder.encode(results).write(to: URL(filePath: jsonFile))
say("\nWrote \(jsonFile)")
