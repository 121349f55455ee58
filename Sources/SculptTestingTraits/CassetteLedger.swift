import Foundation
import SculptTesting
import Testing

/// Which interactions of one cassette the test cases under a suite or test function used: each
/// case replays the cassette on its own, and an interaction is unused only when none of them used
/// it.
final class CassetteLedger: @unchecked Sendable {
    /// The ledgers of the enclosing scopes, by cassette file.
    @TaskLocal static var current: [String: CassetteLedger] = [:]

    private let lock = NSLock()
    /// The replay that held the most interactions (a recording run adds to the file as it goes).
    private var fullest: FixtureReplay?
    private var used: Set<Int> = []

    /// The suite or test function whose scope this ledger is: the one test filter that records
    /// its cassette for every test that shares it.
    let scope: Test.ID
    /// What the cases have recorded and saved so far: a case's recording of a request another
    /// case recorded is not saved again (see ``save(_:keepingUnreplaced:)``).
    private var recorded: [Fixture] = []

    init(scope: Test.ID) {
        self.scope = scope
    }

    /// Saves a case's recording, leaving out what the cases before it recorded for the same
    /// requests: on replay every case of the scope gets the first answer to a request they all
    /// make, so a second copy would never be used (and would fail the scope as unused). Returns
    /// the interactions left out whose responses differ from the first's: a replay cannot give
    /// each case its own, and the run says so.
    func save(_ recording: CassetteRecording, keepingUnreplaced: Bool) throws -> [Fixture] {
        try lock.withLock {
            let saving = try recording.save(keepingUnreplaced: keepingUnreplaced, answeredBy: recorded)
            recorded += saving.written
            return saving.conflicting
        }
    }

    /// Adds what a case's recording used: the interactions its replay answered with, and those
    /// it recorded (the file holds them where it saved them).
    func add(_ recording: CassetteRecording, threw: Bool) {
        let replay = recording.replay
        let usedHere = replay.usedIndices.union(recording.savedPositions)
        lock.withLock {
            used.formUnion(usedHere)
            if replay.interactions.count >= fullest?.interactions.count ?? 0 { fullest = replay }
            if threw { threwInCase = true }
        }
    }

    /// Whether a case under the scope threw: what it did not reach is unused, and its failure says so.
    var someCaseThrew: Bool {
        lock.withLock { threwInCase }
    }

    private var threwInCase = false

    /// The interactions no case used, as the error that lists them; `nil` when every one was used.
    func unused() -> FixtureReplay.UnusedInteractionsError? {
        let (fullest, used) = lock.withLock { (self.fullest, self.used) }
        guard let fullest else { return nil }
        do throws(FixtureReplay.UnusedInteractionsError) {
            try fullest.verifyAllUsed(alsoUsed: used)
            return nil
        } catch {
            return error
        }
    }
}
