import Sculpt
import SculptShared
/// FNV-1a, 64 bits: a short, stable, fast name for text of any length, for keys and for the
/// fingerprints a cache compares. Not cryptographic: whatever uses it checks what it finds (a
/// stored URL against the request's) or accepts that a short, guessable value can be found from
/// its hash.
enum FNVHash {
    /// The hash of `text`'s UTF-8.
    ///
    /// ```swift
    /// FNVHash.of("")   // 0xcbf29ce484222325
    /// ```
    static func of(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
