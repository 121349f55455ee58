import Foundation

/// One benchmark case: Sculpt's way and the baseline it is compared to, run side by side.
struct Case {
    var name: String
    /// What the case compares, for the table.
    var baselineName: String
    /// The highest acceptable ratio (Sculpt time / baseline time), when the case has a target.
    var target: Double?
    /// Builds the case's payloads, serializers and tables, when it runs: a filtered or profiled
    /// run builds only what it measures.
    var prepare: () throws -> Sides
}

/// The work a case times, one operation of each side.
struct Sides {
    var sculpt: () throws -> Void
    var baseline: () throws -> Void
}

/// A case's result: median times per operation and the median of the per-round ratios.
struct Measurement: Codable {
    var name: String
    var baseline: String
    var sculptNanoseconds: Double
    var baselineNanoseconds: Double
    var ratio: Double
    var target: Double?
    var meetsTarget: Bool? { target.map { ratio <= $0 } }
}

/// Measures cases the way noisy shared machines allow: each round times a batch of the baseline
/// and a batch of Sculpt back to back (alternating which goes first), a case's ratio is the
/// median of its per-round ratios, and times are medians per operation. Batches are sized to
/// about `batchSeconds` after a warm-up.
struct Harness {
    var rounds = 41
    var batchSeconds = 0.03

    func measure(_ item: Case) throws -> Measurement {
        let sides = try item.prepare()
        let iterations = try calibrate(sides.baseline)
        for _ in 0..<3 {  // warm-up: caches, lazy metadata, allocator
            _ = try time(sides.sculpt, iterations)
            _ = try time(sides.baseline, iterations)
        }
        var sculptTimes: [Double] = []
        var baselineTimes: [Double] = []
        var ratios: [Double] = []
        for round in 0..<rounds {
            let sculpt: Double
            let baseline: Double
            if round.isMultiple(of: 2) {
                baseline = try time(sides.baseline, iterations)
                sculpt = try time(sides.sculpt, iterations)
            } else {
                sculpt = try time(sides.sculpt, iterations)
                baseline = try time(sides.baseline, iterations)
            }
            sculptTimes.append(sculpt)
            baselineTimes.append(baseline)
            ratios.append(sculpt / baseline)
        }
        return Measurement(
            name: item.name, baseline: item.baselineName, sculptNanoseconds: median(sculptTimes), baselineNanoseconds: median(baselineTimes),
            ratio: median(ratios), target: item.target)
    }

    /// Iterations for a batch of about `batchSeconds`.
    private func calibrate(_ body: () throws -> Void) throws -> Int {
        var iterations = 1
        while true {
            let perIteration = try time(body, iterations)
            let total = perIteration * Double(iterations) / 1e9
            if total >= batchSeconds / 4 || iterations >= 1 << 20 {
                return max(1, Int(batchSeconds / (perIteration / 1e9)))
            }
            iterations *= 4
        }
    }

    /// Nanoseconds per iteration of a batch.
    private func time(_ body: () throws -> Void, _ iterations: Int) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { try body() }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations)
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}

/// Keeps a result alive so the optimizer cannot drop the work that made it.
@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Writes a line to standard output at once (unbuffered): progress shows as cases finish.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
