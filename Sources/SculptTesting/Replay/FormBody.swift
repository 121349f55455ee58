import Foundation
import SculptShared
import Sculpt

/// A body in `application/x-www-form-urlencoded` (`grant_type=refresh_token&refresh_token=r1`) as
/// a replay compares it with a redacted recording.
enum FormBody {
    /// Whether `body` matches a `recorded` form body in which some values are ``Redaction/marker``:
    /// the same parameters in the same order, each value equal or recorded as the marker.
    static func matches(_ body: Data, recorded: Data) -> Bool {
        // The recording first: it is usually small, and most hold no marker.
        guard let recordedText = String(data: recorded, encoding: .utf8), recordedText.contains("=" + Secrets.marker),
            let text = String(data: body, encoding: .utf8)
        else { return false }
        let pairs = text.split(separator: "&", omittingEmptySubsequences: false)
        let recordedPairs = recordedText.split(separator: "&", omittingEmptySubsequences: false)
        guard pairs.count == recordedPairs.count else { return false }
        return zip(pairs, recordedPairs).allSatisfy { pair, recordedPair in
            if pair == recordedPair { return true }
            guard let equals = recordedPair.firstIndex(of: "="), recordedPair[recordedPair.index(after: equals)...] == Secrets.marker else {
                return false
            }
            return pair.hasPrefix(recordedPair[...equals])
        }
    }
}
