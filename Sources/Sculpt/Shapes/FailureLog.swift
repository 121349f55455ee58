import SculptShared
/// The failures of one lossy array as it decodes, each reason recorded once: elements that fail
/// the same way share a ``ElementFailure/Reason``, and past ``distinctReasonLimit`` different
/// reasons the rest share one that says so, so the log costs a few dozen bytes an element whatever
/// the elements hold.
struct FailureLog {
    /// The most different reasons one array keeps.
    static let distinctReasonLimit = 1_000

    /// The failures, in order.
    private(set) var failures: [ElementFailure] = []
    private var reasons: Set<ElementFailure.Reason> = []
    private var tags: Set<String> = []

    /// Records that the element decoded by `element`, at `index`, failed with `error` (one Sculpt
    /// threw itself when `isSculpts`); returns the failure as kept (its reason and tag shared with
    /// the failures before it that had them).
    @discardableResult
    mutating func record(index: Int, tag: String?, error: any Error, element: any Decoder, isSculpts: Bool = false) -> ElementFailure {
        var reason = ElementFailure.Reason(error, index: index, elementDepth: element.codingPath.count, isSculpts: isSculpts)
        if let kept = reasons.firstIndex(of: reason) {
            reason = reasons[kept]
        } else if reasons.count < Self.distinctReasonLimit {
            reasons.insert(reason)
        } else {
            reason = .notKept
        }
        let tag = tag.map { shared($0) }
        let failure = ElementFailure(index: index, tag: tag, reason: reason)
        failures.append(failure)
        return failure
    }

    /// `tag` as the copy already kept, so repeated tags share their storage.
    private mutating func shared(_ tag: String) -> String {
        let tag = ClippedText.value(tag, limit: ElementFailure.tagLimit)
        if let kept = tags.firstIndex(of: tag) { return tags[kept] }
        if tags.count < Self.distinctReasonLimit { tags.insert(tag) }
        return tag
    }
}
