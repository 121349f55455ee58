/// ASCII case, without locale or Unicode case folding: how HTTP compares names, media types,
/// directives and schemes.
package enum ASCII {
    /// `byte` lowercased when it is an ASCII capital letter, else as it is.
    @inline(__always)
    package static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// `bytes` with their ASCII capital letters lowercased, as text.
    package static func lowercased(_ bytes: some Sequence<UInt8>) -> String {
        String(decoding: bytes.map(lowercased), as: UTF8.self)
    }

    /// `text` with its ASCII capital letters lowercased; every other character as it is.
    package static func lowercased(_ text: some StringProtocol) -> String {
        lowercased(text.utf8)
    }
}
