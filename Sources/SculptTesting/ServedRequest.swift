import SculptShared
public import HTTPTypes
import Sculpt

/// One request a ``FixtureServer`` or a ``RecordingProxy`` answered, as its log shows it.
///
/// ```swift
/// let server = FixtureServer(replay: replay) { print($0) }
/// // GET /users/octocat -> 200, matched get-user.json
/// // GET /users/nobody -> 404, missed
/// ```
public struct ServedRequest: Sendable, Equatable, CustomStringConvertible {
    /// What became of the request.
    public enum Outcome: Sendable, Equatable {
        /// A recorded interaction answered it; `source` names where the interaction was loaded
        /// from, when known.
        case matched(source: String?)
        /// No recorded interaction matched: the answer was a `404` that says why.
        case missed
        /// The interaction that matched cannot be a final answer (status 0 or 1xx): a `502`.
        case unreplayable
        /// The target answered, and the exchange was recorded.
        case recorded
        /// The target could not be reached (a `502`, nothing recorded), or the exchange could not
        /// be written to the cassette file.
        case failed(reason: String)
    }

    /// The request's method.
    public var method: HTTPRequest.Method
    /// The request's path and query, through the gate every text of Sculpt's passes (secrets
    /// redacted by ``Redaction``'s rules, escaped, at most 1 KB).
    public var target: String
    /// The status the client was sent.
    public var status: Int
    /// What became of the request.
    public var outcome: Outcome

    /// Creates a log entry; `target`'s secrets are redacted here, by ``Redaction``'s default rules.
    /// - Parameters:
    ///   - method: the request's method.
    ///   - target: the request target as sent: path and query.
    ///   - status: the status the server answered.
    ///   - outcome: how the server answered.
    public init(method: HTTPRequest.Method, target: String, status: Int, outcome: Outcome) {
        self.init(method: method, target: target, status: status, outcome: outcome, policy: .default)
    }

    /// A log entry with `target` redacted by `policy` (a recording's own rules), and the secret
    /// values the request's `fields` hold hidden where the target repeats them.
    init(method: HTTPRequest.Method, target: String, status: Int, outcome: Outcome, policy: SecretPolicy, fields: HTTPFields = [:]) {
        self.method = method
        self.target = ShownText.line(policy.shown(urlText: target), limit: 1_024, hiding: policy.secretValues(in: fields), policy: policy)
        self.status = status
        self.outcome = outcome
    }

    /// E.g. `GET /users/octocat -> 200, matched get-user.json`: one line, at most about 2 KB
    /// whatever the client sent.
    public var description: String {
        let what: String
        switch outcome {
        case .matched(let source): what = "matched" + (source.map { " \(ClippedText.value($0, limit: 256))" } ?? "")
        case .missed: what = "missed"
        case .unreplayable: what = "unreplayable"
        case .recorded: what = "recorded"
        case .failed(let reason): what = "failed: \(ClippedText.value(reason, limit: 512))"
        }
        return ShownText.line("\(ClippedText.value(method.rawValue, limit: 64)) \(ClippedText.value(target, limit: 1_024)) -> \(status), \(what)", limit: 2_048)
    }
}
