import Foundation
import Sculpt
import SculptShared

/// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`'s conversion, with its rules: the words
/// between underscores joined, the first lowercased and each later one capitalized (as Foundation's
/// `lowercased()` and `capitalized` make them); a key without an inner underscore kept as it is;
/// leading and trailing underscores kept.
///
/// ```swift
/// SnakeCase.camelCased("one_two_three")    // oneTwoThree
/// SnakeCase.camelCased("_one_two_three_")  // _oneTwoThree_
/// ```
enum SnakeCase {
    /// The conversion of a key given as its text.
    static func camelCased(_ key: String) -> String {
        var key = key
        if let ascii = key.withUTF8({ KeyBytes.isASCII(UnsafeRawBufferPointer($0)) ? camelCased(ascii: UnsafeRawBufferPointer($0)) : nil }) {
            return ascii
        }
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        var last = key.index(before: key.endIndex)
        while last > first, key[last] == "_" { key.formIndex(before: &last) }
        let words = key[first...last].split(separator: "_")
        let joined = words.count == 1 ? String(key[first...last]) : ([words[0].lowercased()] + words.dropFirst().map { $0.capitalized }).joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }

    /// The conversion of an ASCII key.
    static func camelCased(ascii key: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: key.count) { output in
            var bytes = CamelCaseBytes(key)
            var count = 0
            while let byte = bytes.next() {
                output[count] = byte
                count += 1
            }
            return count
        }
    }

    /// Whether an ASCII key converts to exactly the UTF-8 `name`, found without making a string.
    @inline(__always)
    static func converts(ascii key: UnsafeRawBufferPointer, to name: UnsafeRawBufferPointer) -> Bool {
        guard key.count >= name.count else { return false }  // a conversion only drops bytes
        var bytes = CamelCaseBytes(key)
        for byte in name {
            guard bytes.next() == byte else { return false }
        }
        return bytes.next() == nil
    }

    /// Whether two ASCII keys convert to the same key.
    static func convertsAlike(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        var (first, second) = (CamelCaseBytes(a), CamelCaseBytes(b))
        while true {
            let byte = first.next()
            guard byte == second.next() else { return false }
            if byte == nil { return true }
        }
    }

    /// The bytes of an ASCII key's conversion, one at a time: the same result as the general
    /// rules, which for ASCII come to this. `lowercased()` maps A-Z to a-z. `capitalized` walks a
    /// word's bytes with a flag "the last byte was cased", false at the word's start: a letter
    /// after a cased byte is made lowercase, any other letter uppercase, and the flag set; `'`,
    /// `^` and `` ` `` (the ASCII in Foundation's case-ignorable set) leave the flag as it is;
    /// every other byte, digits included (`1st` capitalizes to `1St`), clears it.
    struct CamelCaseBytes: IteratorProtocol {
        private let key: UnsafeRawBufferPointer
        /// The first and last bytes that are not underscores; words lie between them.
        private let first: Int
        private let last: Int
        private var index = 0
        /// Whether the first word has ended.
        private var pastFirstWord = false
        private var lastIsCased = false

        init(_ key: UnsafeRawBufferPointer) {
            self.key = key
            let underscore = UInt8(ascii: "_")
            var first = 0
            while first < key.count, key[first] == underscore { first += 1 }
            var last = key.count - 1
            while last > first, key[last] == underscore { last -= 1 }
            // A key with no underscore between words is kept as it is: no words then.
            if first < key.count, key[first...last].contains(underscore) {
                (self.first, self.last) = (first, last)
            } else {
                (self.first, self.last) = (key.count, key.count - 1)
            }
        }

        mutating func next() -> UInt8? {
            while index < key.count {
                let byte = key[index]
                index += 1
                if index <= first || index > last + 1 { return byte }  // outside the words
                if byte == UInt8(ascii: "_") {
                    pastFirstWord = true
                    lastIsCased = false
                    continue
                }
                let isUpper = byte &- UInt8(ascii: "A") < 26, isLower = byte &- UInt8(ascii: "a") < 26
                if !pastFirstWord { return isUpper ? byte | 0x20 : byte }
                if isUpper || isLower {
                    defer { lastIsCased = true }
                    return lastIsCased ? byte | 0x20 : byte & ~0x20
                }
                if byte != UInt8(ascii: "'"), byte != UInt8(ascii: "^"), byte != UInt8(ascii: "`") { lastIsCased = false }
                return byte
            }
            return nil
        }
    }
}
