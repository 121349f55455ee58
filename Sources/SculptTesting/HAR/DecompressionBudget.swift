import Foundation
import HTTPTypes
import SculptShared

/// How many decompressed bytes one HAR import may hold: 64 MB for one body and 256 MB for the
/// whole archive, so an archive of many small gzip bombs costs at most the archive cap, not the
/// body cap times the number of entries.
struct DecompressionBudget {
    /// The most bytes one body may expand to.
    static let bodyLimit = Gzip.maximumSize
    /// The most bytes all of an archive's decompressed bodies may add up to.
    static let archiveLimit = 256 << 20

    /// The bytes of decompressed bodies kept so far.
    private(set) var spent = 0

    /// A stored body and its fields as ``RecordedBody`` reads them, what it decompressed charged
    /// to the budget.
    ///
    /// - Throws: ``Gzip/Failure`` for a damaged stream, or one that expands past the body limit or
    ///   past what is left of the archive's, its reason naming the limit.
    mutating func decoded(_ data: Data, fields: HTTPFields) throws(Gzip.Failure) -> (body: Data, fields: HTTPFields) {
        let left = Self.archiveLimit - spent
        let limit = min(Self.bodyLimit, left)
        let decoded: (body: Data, fields: HTTPFields)
        do {
            // A HAR's content is the body as the browser decoded it, whatever coding the wire had.
            decoded = try RecordedBody.decoded(data, fields: fields, limit: limit, keptDecoded: true)
        } catch where error.isOverLimit {
            throw Gzip.Failure(reason: limit == Self.bodyLimit
                ? "the body expands past \(Self.megabytes(Self.bodyLimit)), the limit for one body"
                : "the archive's gzip bodies expand past \(Self.megabytes(Self.archiveLimit)) in all, the limit for one archive (\(left) bytes were left for this body)",
                isOverLimit: true)
        }
        if decoded.body != data { spent += decoded.body.count }
        return decoded
    }

    private static func megabytes(_ bytes: Int) -> String { "\(bytes >> 20) MB" }
}
