import Foundation

extension DiscriminatorScanner {
    /// A key on the field's path, compared as `JSONDecoder` compares keys: as Swift strings, so
    /// canonically equivalent spellings are one key (`"\u212Aind"`, with KELVIN SIGN, is `Kind`;
    /// `"cafe\u0301"` is `café`), and the first of them in an object is the one that counts.
    ///
    /// Two all-ASCII keys are equal exactly when their bytes are (no ASCII character has another
    /// canonical spelling), so they compare as bytes with no string made; a byte of 0x80 or above
    /// in either key is what sends a comparison to `String`.
    package struct Key: Sendable {
        /// The key's UTF-8.
        package let utf8: [UInt8]
        /// The key as given.
        package let text: String
        /// Whether every byte of `utf8` is ASCII.
        package let isASCII: Bool

        package init(_ text: String) {
            self.text = text
            utf8 = Array(text.utf8)
            isASCII = utf8.allSatisfy { $0 < 0x80 }
        }

        /// Whether `candidate`, a key's unescaped UTF-8, names this key; `candidateIsASCII` says
        /// it has no byte of 0x80 or above.
        @inline(__always)
        package func matches(_ candidate: UnsafeBufferPointer<UInt8>, candidateIsASCII: Bool) -> Bool {
            if candidate.count == utf8.count, Self.equal(utf8, candidate) { return true }
            if isASCII, candidateIsASCII { return false }
            return matchesAsString(candidate)
        }

        /// The comparison `JSONDecoder` makes. Out of line: ASCII keys never come here.
        @inline(never)
        private func matchesAsString(_ candidate: UnsafeBufferPointer<UInt8>) -> Bool {
            // A key that is not UTF-8 names nothing (JSONDecoder refuses the body).
            guard let candidate = JSONLexer.string(validating: candidate) else { return false }
            return candidate == text
        }

        /// Whether `left` and `right`, of equal length, hold the same bytes.
        @inline(__always)
        private static func equal(_ left: [UInt8], _ right: UnsafeBufferPointer<UInt8>) -> Bool {
            left.withUnsafeBufferPointer { left in
                guard let leftStart = left.baseAddress, let rightStart = right.baseAddress else { return left.isEmpty }
                return memcmp(leftStart, rightStart, left.count) == 0
            }
        }
    }
}
