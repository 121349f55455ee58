// The fixture and cassette readers: any bytes either read or throw; what reads survives a round
// trip through the writer, and compares with itself as unchanged; and whatever the recorder can write (any status, 0 for one out of
// range, odd header values) reads back.
import Foundation
import FuzzSupport
import SculptTesting

runFuzzer { data in
    if let fixture = try? Fixture(json: data) {
        checkRoundTrip(fixture)
    }
    if let cassette = try? Cassette(json: data) {
        let again = try? Cassette(json: cassette.encoded(byteExact: true))
        require(again?.interactions.count == cassette.interactions.count, "a cassette does not read back with all its interactions")
        cassette.interactions.forEach(checkRoundTrip)
        // A recording compared with itself has no changes; with nothing, every interaction is new.
        let same = RecordingDiff(old: cassette.interactions, new: cassette.interactions)
        require(same.changes.isEmpty, "a cassette differs from itself: \(same.description.prefix(500))")
        let added = RecordingDiff(old: [Fixture](), new: cassette.interactions)
        require(added.changes.allSatisfy { $0.kind == .onlyInNew } && !added.isBreaking, "an empty recording is not where every interaction is new")
    }
    if let recorded = RecordedFixture.make(from: data) {
        RecordedFixture.checkReadsBack(recorded)
    }
}
