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
    /// What the cases have recorded and saved so far, in the order they saved.
    private var recorded: [Fixture] = []

    init(scope: Test.ID) {
        self.scope = scope
    }

    /// A case's recording, with how much of what the cases recorded its replay holds.
    struct Opening {
        /// The case's recording.
        var recording: CassetteRecording
        /// How many of the interactions the cases had saved when it was opened its replay answers
        /// from (all of them when it read the file, none when it did not).
        var replayed: Int
    }

    /// Opens a case's recording with `open`, under the lock that saves take, so that what its
    /// replay read of the file and what the ledger says the cases had saved agree.
    func open(_ open: () throws -> CassetteRecording) throws -> Opening {
        try lock.withLock {
            let recording = try open()
            return Opening(recording: recording, replayed: recording.replaysFile ? recorded.count : 0)
        }
    }

    /// Saves a case's recording, leaving out what other cases recorded for the same requests that
    /// its replay did not hold: cases running at once, or re-recording in ``RecordMode/all``,
    /// record the same requests, and on replay each case gets the cassette whole, so one copy of
    /// each request for every time one case makes it is what the file needs (a second copy would
    /// never be used, and would fail the scope as unused). A case that makes a request more often
    /// than the others keeps its extra copies. Returns the interactions left out whose responses
    /// differ from the one kept: a replay cannot give each case its own, and the run says so.
    func save(_ opening: Opening, keepingUnreplaced: Bool) throws -> [Fixture] {
        try lock.withLock {
            let saving = try opening.recording.save(keepingUnreplaced: keepingUnreplaced, answeredBy: Array(recorded[opening.replayed...]))
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
