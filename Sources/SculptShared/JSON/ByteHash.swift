/// A seeded 64-bit hash of bytes, for hash tables that hostile text fills: eight bytes at a time
/// (little-endian words), each mixed in by multiplies and shifts, then the rest with the count.
/// With a seed chosen at random per process, no fixed set of names collides on every machine.
///
/// A public type whose members are all `package`, as ``JSONTape`` is and for the same reason: the
/// decoder in another module hashes each key it looks up, and only a public type's `@inlinable`
/// members inline across modules.
public enum ByteHash {
    /// The hash of `bytes` under `seed`.
    @inlinable @inline(__always)
    package static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var hash = seed
        var index = 0
        while index + 8 <= bytes.count {
            hash = mix(hash ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        // The last 0 to 7 bytes as one little-endian word, as the iterator's hash packs them: by
        // two 4-byte loads that may overlap (equal bytes OR alike), or by bytes under 4.
        let rest = bytes.count - index
        var tail: UInt64 = 0
        if rest >= 4 {
            let low = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 4, as: UInt32.self)))
            tail = low | high << (8 * UInt64(rest - 4))
        } else if rest > 0 {
            tail = UInt64(bytes[index])
            if rest > 1 { tail |= UInt64(bytes[index + 1]) << 8 }
            if rest > 2 { tail |= UInt64(bytes[index + 2]) << 16 }
        }
        return mix(hash ^ tail ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15))
    }

    /// The same hash of the bytes an iterator gives.
    @inlinable
    package static func hash(_ bytes: some IteratorProtocol<UInt8>, seed: UInt64) -> UInt64 {
        var bytes = bytes
        var hash = seed
        var word: UInt64 = 0
        var shift: UInt64 = 0
        var count: UInt64 = 0
        while let byte = bytes.next() {
            word |= UInt64(byte) << shift
            shift += 8
            count += 1
            if shift == 64 {
                hash = mix(hash ^ word)
                word = 0
                shift = 0
            }
        }
        return mix(hash ^ word ^ (count &* 0x9E37_79B9_7F4A_7C15))
    }

    /// One word mixed into every bit of the result.
    @inlinable @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var value = value &* 0xBF58_476D_1CE4_E5B9
        value ^= value >> 31
        value = value &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 29)
    }
}
