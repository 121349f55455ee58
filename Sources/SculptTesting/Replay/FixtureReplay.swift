public import HTTPTypes
import Sculpt
import SculptShared
#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// Recorded interactions that answer requests: the engine behind ``FixtureReplay/makeSession(configuration:)``
/// (a `URLProtocol` on a real `URLSession`) and ``FixtureServer`` (a loopback HTTP server).
///
/// ```swift
/// let replay = FixtureReplay(try Cassette(contentsOf: file).interactions)
/// let session = replay.makeSession()
/// let user = try await session.model(from: url, serializer: serializer, as: User.self)
/// try replay.verifyAllUsed()
/// ```
///
/// A request matches a recorded one with the same method, path and query (query items compared as
/// a multiset, in any order; scheme, host and port are not compared) and, when ``Options`` ask,
/// the same values of chosen headers and an equal body (JSON bodies compared by meaning, others
/// byte for byte). A `HEAD` with no recorded `HEAD` is answered by the recorded `GET` (its body is
/// never sent). Recorded interactions are used once, in order, so the same request can get
/// different responses in turn; ``Options/repeatsLastResponse`` serves the last one again once a
/// sequence is used up. A request that matches nothing is a ``MissError``: never a crash, never the
/// real network.
///
/// Each replay is its own: two replays (two tests running in parallel) never see each other's
/// interactions. A replay installed on a session lives as long as the process, so a session
/// that outlives the code that made it still never reaches the network.
public final class FixtureReplay: @unchecked Sendable {
    /// What a request must share with a recorded one to match, and how sequences behave.
    ///
    /// ```swift
    /// let options = FixtureReplay.Options(matching: [.methodAndPath, .query, .headers(.accept)])
    /// ```
    public struct Options: Sendable {
        /// Header fields whose values must match too (a recorded interaction without the field
        /// does not match a request with it). Default: none.
        public var matchedHeaders: [HTTPField.Name]
        /// Whether request bodies must match: JSON by meaning (member order, white space and
        /// number spelling do not matter), anything else byte for byte. Default: `false`.
        public var matchesBody: Bool
        /// Whether the query must match (its items as a multiset). Default: `true`.
        public var matchesQuery: Bool
        /// Whether the last response of a used-up sequence is served again. Default: `false`
        /// (each recorded interaction answers once).
        public var repeatsLastResponse: Bool
        /// The ``RequestMatching/custom(_:_:)`` rules, in order.
        var customRules: [(name: String, matches: @Sendable (Fixture.Request, Fixture.Request) -> Bool)] = []

        /// Creates options.
        /// - Parameters:
        ///   - matchedHeaders: header fields whose values must match too.
        ///   - matchesBody: whether request bodies must match.
        ///   - matchesQuery: whether the query must match.
        ///   - repeatsLastResponse: whether the last response of a used-up sequence is served again.
        public init(matchedHeaders: [HTTPField.Name] = [], matchesBody: Bool = false, matchesQuery: Bool = true, repeatsLastResponse: Bool = false) {
            self.matchedHeaders = matchedHeaders
            self.matchesBody = matchesBody
            self.matchesQuery = matchesQuery
            self.repeatsLastResponse = repeatsLastResponse
        }

        /// Creates options from a list of rules: what is listed is compared, and the method and
        /// path always are.
        ///
        /// ```swift
        /// let loose = FixtureReplay.Options(matching: [.methodAndPath])   // any query answers
        /// ```
        /// - Parameters:
        ///   - matching: the rules; ``RequestMatching/default`` (method, path and query) by default.
        ///   - repeatsLastResponse: whether the last response of a used-up sequence is served again.
        public init(matching: [RequestMatching], repeatsLastResponse: Bool = false) {
            self.init(matchesQuery: false, repeatsLastResponse: repeatsLastResponse)
            for rule in matching {
                switch rule.rule {
                case .methodAndPath: break
                case .query: matchesQuery = true
                case .body: matchesBody = true
                case .headers(let names): matchedHeaders += names.filter { !matchedHeaders.contains($0) }
                case .custom(let name, let matches): customRules.append((name, matches))
                }
            }
        }
    }

    /// The recorded interactions, in order.
    public let interactions: [Fixture]
    /// How requests are matched.
    public let options: Options

    /// The interactions' indices by method and raw path, in recorded order.
    let index: [RouteKey: [Int]]
    /// The recorded requests, each parsed once.
    private let recorded: [RequestComparison.Recorded]
    /// Each route's interactions by query: a request is compared only with the interactions that
    /// can match it, so its cost does not grow with the cassette, whatever the queries. Changed as
    /// interactions are used, under the lock.
    private var queries: [RouteKey: QueryIndex]
    /// Sends and records the requests this replay lacks; `nil` for a replay that never reaches the
    /// network.
    let recorder: FixtureRecorder?
    private let lock = NSLock()
    private var used: [Bool]
    private var protocolSlot: ReplayURLProtocol.Type?
    private var redactionOnceFound: SecretPolicy?
    /// The misses a session answered with an error, the first of them kept, and how many.
    private var failedMisses: (first: MissError?, count: Int) = (nil, 0)

    /// The names a recording of these interactions redacts (a ``CassetteRecording``'s), beside
    /// the defaults.
    private let names: Redaction?

    /// What a miss or an unused-interaction report redacts: the default names (``Redaction``'s),
    /// the names of the recording that replays them, and every query parameter and header that
    /// any recording redacted (a user's `Redaction` names), so a name redacted in one recording is
    /// redacted in every line. Found at the first report.
    var redaction: SecretPolicy {
        lock.withLock {
            if let redactionOnceFound { return redactionOnceFound }
            let found = RequestComparison.policy(interactions.lazy.map(\.request), naming: names)
            redactionOnceFound = found
            return found
        }
    }

    /// Creates a replay of `interactions`.
    ///
    /// ```swift
    /// let replay = FixtureReplay(fixtures, options: .init(repeatsLastResponse: true))
    /// ```
    public convenience init(_ interactions: [Fixture], options: Options = .init()) {
        self.init(interactions, options: options, recorder: nil)
    }

    /// Creates a replay that sends a request it lacks through `recorder` (a ``CassetteRecording``
    /// that records), instead of answering it with a ``MissError``, and whose reports redact the
    /// names of `redaction` too.
    init(_ interactions: [Fixture], options: Options, recorder: FixtureRecorder?, redaction: Redaction? = nil) {
        self.interactions = interactions
        self.options = options
        self.recorder = recorder
        self.names = redaction
        self.used = Array(repeating: false, count: interactions.count)
        let recorded = interactions.map { RequestComparison.Recorded($0.request) }
        let index = Dictionary(grouping: interactions.indices) { RouteKey(method: interactions[$0].request.method.rawValue, path: recorded[$0].path) }
        self.recorded = recorded
        self.index = index
        self.queries = index.mapValues { QueryIndex($0) { options.matchesQuery ? recorded[$0].items : [] } }
    }

    /// The recorded interaction that answers `request`, marked as used.
    ///
    /// ```swift
    /// let fixture = try replay.response(for: Fixture.Request(method: .get, url: url))
    /// ```
    /// - Parameter request: The request to answer.
    /// - Throws: ``MissError`` when nothing recorded matches, or every match was already used.
    public func response(for request: Fixture.Request) throws(MissError) -> Fixture {
        // Parsed once, for every comparison below and for the miss's.
        var asked = AskedRequest(request, options)
        let chosen: Int? = lock.withLock {
            if let chosen = take(asked) { return chosen }
            guard request.method == .head, last(matching: asked) == nil else { return nil }
            asked.method = .get
            defer { asked.method = request.method }
            return take(asked)
        }
        guard let chosen else {
            let usedUp = lock.withLock {
                var matching = all(matching: asked)
                if matching.isEmpty, request.method == .head {
                    asked.method = .get
                    matching = all(matching: asked)
                    asked.method = request.method
                }
                return matching.count
            }
            let (nearest, compared) = nearest(to: asked)
            throw MissError(request: request, usedUp: usedUp, nearest: nearest, comparedInFull: compared, redaction: redaction)
        }
        return interactions[chosen]
    }

    /// The first unused interaction that matches `asked`, marked as used; else, when the last
    /// response repeats, the last that matches. Called with the lock held.
    private func take(_ asked: AskedRequest) -> Int? {
        let key = RouteKey(asked)
        if let chosen = queries[key]?.firstUnused(for: queryKey(asked), used: used, matches: { matches(asked, $0) }) {
            used[chosen] = true
            return chosen
        }
        return options.repeatsLastResponse ? last(matching: asked) : nil
    }

    /// The last interaction that matches `asked`, used or not. Called with the lock held.
    private func last(matching asked: AskedRequest) -> Int? {
        queries[RouteKey(asked)]?.last(for: queryKey(asked)) { matches(asked, $0) }
    }

    /// Every interaction that matches `asked`, used or not. Called with the lock held.
    private func all(matching asked: AskedRequest) -> [Int] {
        queries[RouteKey(asked)]?.all(for: queryKey(asked)) { matches(asked, $0) } ?? []
    }

    /// The query items a request is indexed by: none when queries are not compared.
    private func queryKey(_ asked: AskedRequest) -> [String] {
        options.matchesQuery ? asked.items : []
    }

    /// Whether `asked` matches the recorded request at `index`.
    private func matches(_ asked: AskedRequest, _ index: Int) -> Bool {
        RequestComparison(asked, recorded[index], options).matches
    }

    /// What a request must share exactly with a recorded one to match: method and raw path.
    struct RouteKey: Hashable {
        var method: String
        var path: String

        init(method: String, path: String) {
            self.method = method
            self.path = path
        }

        init(_ asked: AskedRequest) {
            method = asked.method.rawValue
            path = asked.path
        }
    }

    /// Notes a miss that a session of this replay answered with an error, which the code under
    /// test may have caught.
    package func noteFailed(_ miss: MissError) {
        lock.withLock { failedMisses = (failedMisses.first ?? miss, failedMisses.count + 1) }
    }

    /// The first miss a session answered with an error, and how many it answered so.
    package var failed: (first: MissError?, count: Int) {
        lock.withLock { failedMisses }
    }

    /// The positions of the recorded interactions that requests have used.
    package var usedIndices: Set<Int> {
        lock.withLock { Set(interactions.indices.filter { used[$0] }) }
    }

    /// Checks that every recorded interaction answered a request of this replay or is in
    /// `alsoUsed` (used by replays of the same interactions elsewhere: the cases of one test).
    package func verifyAllUsed(alsoUsed: Set<Int>) throws(UnusedInteractionsError) {
        let unused = lock.withLock { interactions.indices.filter { !used[$0] && !alsoUsed.contains($0) }.map { interactions[$0] } }
        guard unused.isEmpty else { throw UnusedInteractionsError(interactions: unused, redaction: redaction) }
    }

    /// The recorded interactions no request has used yet.
    public var unusedInteractions: [Fixture] {
        lock.withLock { interactions.indices.filter { !used[$0] }.map { interactions[$0] } }
    }

    /// Checks that every recorded interaction answered a request.
    ///
    /// ```swift
    /// try replay.verifyAllUsed()
    /// ```
    /// - Throws: ``UnusedInteractionsError`` listing the ones that did not.
    public func verifyAllUsed() throws(UnusedInteractionsError) {
        try verifyAllUsed(alsoUsed: [])
    }

    /// A session whose requests this replay answers, through a `URLProtocol` registered on a copy
    /// of `configuration` (and on no other session). The session has no URL cache: every request
    /// reaches the replay, and FoundationNetworking can cancel a request that is given up.
    ///
    /// ```swift
    /// let session = replay.makeSession()
    /// ```
    /// - Parameter configuration: The configuration to start from; the session's protocol classes
    ///   are its own with the replay first.
    /// - Returns: the session.
    public func makeSession(configuration: URLSessionConfiguration = .ephemeral) -> URLSession {
        let configuration = configuration.uncachedCopy
        install(in: configuration)
        return URLSession(configuration: configuration)
    }

    /// Registers this replay's `URLProtocol` first on `configuration`, for sessions made elsewhere.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.default
    /// replay.install(in: configuration)
    /// let client = MyAPIClient(configuration: configuration)
    /// ```
    /// - Parameter configuration: The configuration whose sessions replay.
    public func install(in configuration: URLSessionConfiguration) {
        let slot: ReplayURLProtocol.Type = lock.withLock {
            if let protocolSlot { return protocolSlot }
            let slot = ReplayURLProtocol.register(self)
            protocolSlot = slot
            return slot
        }
        configuration.protocolClasses = [slot] + (configuration.protocolClasses ?? [])
    }
}
