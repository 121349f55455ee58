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

    init(scope: Test.ID) {
        self.scope = scope
    }

    /// Adds what a case's recording used: the interactions its replay answered with, and those
    /// it recorded (the file holds them where it saved them).
    func add(_ recording: CassetteRecording) {
        let replay = recording.replay
        let usedHere = replay.usedIndices.union(recording.savedPositions)
        lock.withLock {
            used.formUnion(usedHere)
            if replay.interactions.count >= fullest?.interactions.count ?? 0 { fullest = replay }
        }
    }

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
