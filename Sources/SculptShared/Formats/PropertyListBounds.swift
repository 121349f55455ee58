import Foundation

/// The bounds within which `PropertyListDecoder` reads a body: what its conformance to
/// `ModelDecoder` refuses before the decoder recurses through it.
package enum PropertyListBounds {
    /// The deepest a property list is read, as its XML form counts levels: 512, as `JSONDecoder`.
    package static let maximumDepth = 512

    /// How a binary property list begins.
    package static let binaryMagic = Array("bplist".utf8)

    /// Throws when `data` nests deeper than ``maximumDepth`` (as `nestingOffset` counts) or, for a
    /// binary list, cannot be decoded within linear time.
    package static func check(_ data: Data, nestingOffset: (Int, Data) -> Int?) throws {
        guard data.starts(with: binaryMagic) else {
            if let offset = nestingOffset(maximumDepth, data) {
                throw corrupted("The property list nests deeper than \(maximumDepth) levels: level \(maximumDepth + 1) opens at byte \(offset).")
            }
            return
        }
        // A value held in several places is decoded in each: more visits than bytes means
        // containers (or long strings) held in many places, which no encoder needs.
        let maximumValues = max(data.count, 64)
        switch BinaryPropertyList.firstFinding(in: data, maximumDepth: maximumDepth, maximumValues: maximumValues) {
        case nil:
            return
        case .tooDeep(let offset):
            throw corrupted("The binary property list nests deeper than \(maximumDepth) levels: the value at byte \(offset) is at level \(maximumDepth + 1).")
        case .holdsItself(let offset):
            throw corrupted("The binary property list's container at byte \(offset) holds itself: decoding it would never end.")
        case .tooManyValues:
            throw corrupted("The binary property list holds its containers or long strings in so many places that decoding it would visit more than \(maximumValues) values (a string or data counting one for each 32 bytes), one for each of its bytes.")
        case .unreadable(let offset):
            throw corrupted("The binary property list's object at byte \(offset) does not fit the list: a count past its offset table or a reference past its last object.")
        case .unreadableTrailer:
            throw corrupted("The binary property list's trailer (its last 32 bytes) does not read: Sculpt reads bplist00 with references and offsets of 1 to 8 bytes and counts that fit the list.")
        }
    }

    private static func corrupted(_ description: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: description))
    }
}
