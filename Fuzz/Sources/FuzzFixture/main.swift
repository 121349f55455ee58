// The fixture and cassette readers: any bytes either read or throw; what reads survives a round
// trip through the writer.
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
    }
}
