import Foundation
import SculptShared

/// A serializer's decoders as every response reads them: the first (read without an array access),
/// whether there are others to choose from, and whether one reads a type-field peek's scan.
@usableFromInline
struct DecoderChoice: Sendable {
    /// The decoders, in the order they are tried.
    let decoders: [ContentDecoder]

    /// The first of ``decoders``; a `JSONDecoder` when there are none.
    @usableFromInline let primary: any ModelDecoder

    /// Whether there is more than one decoder to choose from.
    @usableFromInline let negotiates: Bool

    /// Whether a decoder reads the scan a type-field peek made of the body
    /// (``ModelDecoder/sharesJSONScan``): each call then keeps that scan for the decode.
    @usableFromInline let sharesScans: Bool

    init(_ decoders: [ContentDecoder]) {
        self.decoders = decoders
        primary = decoders.first?.decoder ?? JSONDecoder()
        negotiates = decoders.count > 1
        sharesScans = decoders.contains { $0.decoder.sharesJSONScan }
    }

    /// Runs a serializer's steps, keeping the scan a type-field peek makes of the body for the
    /// decode when a decoder reads it (see `SharedScan`).
    @inlinable
    func sharingScans<T>(_ steps: () throws(SculptError) -> T) throws(SculptError) -> T {
        guard sharesScans else { return try steps() }
        return try SharedScan.sharing(steps)
    }
}
