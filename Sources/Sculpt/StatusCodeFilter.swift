import SculptShared
/// A serializer's acceptable status codes, ready to be asked for every response: a set that is one
/// run of codes (the default `200...299`) is answered by two comparisons instead of a hash lookup.
@usableFromInline
struct StatusCodeFilter: Sendable {
    /// The codes, when they form one unbroken run.
    private let run: ClosedRange<Int>?
    /// The codes accepted, of those given: none outside ``responseCodes``.
    private let accepted: Set<Int>
    /// The codes as given.
    let codes: Set<Int>

    /// The codes a response can carry: `HTTPResponse.Status` holds 0...999, and 0 stands for a
    /// status that could not be held (a code Foundation gave outside 0...999, a HAR entry's
    /// failed request), which no filter accepts.
    static let responseCodes = 1...999

    /// The default acceptable codes: 200...299.
    @usableFromInline static var successCodes: Set<Int> { Set(200...299) }

    init(_ codes: Set<Int>) {
        self.codes = codes
        let accepted = codes.filter(Self.responseCodes.contains)
        self.accepted = accepted
        if let lowest = accepted.min(), let highest = accepted.max(), highest - lowest + 1 == accepted.count {
            run = lowest...highest
        } else {
            run = nil
        }
    }

    /// Whether a status code is acceptable.
    @usableFromInline
    func accepts(_ code: Int) -> Bool {
        guard let run else { return accepted.contains(code) }
        return run.contains(code)
    }
}
