import Foundation
internal import HTTPTypes
#if canImport(Synchronization) && !canImport(Darwin)
import Synchronization
#elseif canImport(os)
import os
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a ``ResponseContext``'s header fields come from: given as `HTTPFields`, or a Foundation
/// response read when they are first asked for.
///
/// Turning an `HTTPURLResponse`'s 24 header fields into `HTTPFields` costs about 8 µs on Linux
/// (reading `allHeaderFields` alone 2.3 µs: FoundationNetworking builds a new dictionary on every
/// read), most of a 1.2 KB decode. A response that serializes needs only its content type, so
/// the fields are converted only when something asks for them (a failure's description, a
/// matcher that reads headers, the HTTP cache), once, and kept.
@usableFromInline
struct HeaderFieldSource: Sendable {
    private enum Storage: Sendable {
        case fields(HTTPFields)
        case foundation(FoundationFields)
    }

    private var storage: Storage

    init(_ fields: HTTPFields) {
        storage = .fields(fields)
    }

    init(_ response: HTTPURLResponse) {
        storage = .foundation(FoundationFields(response))
    }

    /// The fields, converted on first use when they come from a Foundation response.
    var fields: HTTPFields {
        switch storage {
        case .fields(let fields): fields
        case .foundation(let response): response.fields
        }
    }

    /// The first `Content-Type`'s media type, for comparisons that ignore parameters (a
    /// serializer's acceptable content types): the whole value, or, from a Foundation response
    /// on Linux, the media type FoundationNetworking parsed when it made the response (reading
    /// it costs 14 ns; looking the field up, 315 ns).
    @usableFromInline
    var mediaType: String? {
        switch storage {
        case .fields(let fields): fields.first { $0.name == .contentType }?.value
        case .foundation(let response): response.mediaType
        }
    }
}

/// A Foundation response's header fields, converted once, when first read.
private final class FoundationFields: Sendable {
    private let response: HTTPURLResponse
    /// The fields once converted. A lock with no allocation of its own: a context is made for
    /// every response, and `NSLock` cost two allocations and a mutex's setup each time.
    private let converted = FieldsLock()

    init(_ response: HTTPURLResponse) {
        self.response = response
    }

    var fields: HTTPFields {
        converted.withLock { converted in
            if let converted { return converted }
            var fields = HTTPFields()
            for (name, value) in response.allHeaderFields {
                guard let name = (name as? String).flatMap({ HTTPField.Name($0) }), let value = value as? String else { continue }
                fields.append(HTTPField(name: name, value: value))
            }
            converted = fields
            return fields
        }
    }

    var mediaType: String? {
        #if canImport(FoundationNetworking)
        // Parsed from `Content-Type` when the response was made, lowercased, without parameters;
        // nil only when the response has no such field.
        if let mimeType = response.mimeType, Self.isPlain(mimeType) { return mimeType }
        #endif
        return fields.first { $0.name == .contentType }?.value
    }

    /// Whether a parsed media type compares as the field itself would: only lowercase token
    /// characters and `/`. Anything else (white space, a backslash, a control character, a
    /// non-ASCII byte) sends the comparison to the field, as `HTTPFields` holds it; so does a `k`,
    /// which may be a Kelvin sign (U+212A) that lowercasing turned into ASCII. The one other change
    /// the parse makes, dropping quotes, the comparison makes too.
    private static func isPlain(_ mediaType: String) -> Bool {
        // Over the bytes in place, one bit per byte: iterating `utf8` cost 600 instructions for
        // `application/json`.
        var mediaType = mediaType
        return mediaType.withUTF8 { bytes in
            for byte in bytes {
                let bits = byte < 64 ? plainBelow64 >> byte : byte < 128 ? plainFrom64 >> (byte - 64) : 0
                guard bits & 1 == 1 else { return false }
            }
            return true
        }
    }

    /// `!#$&+-./` and `0`...`9`, as bits 0...63.
    private static let plainBelow64: UInt64 = 0x03FF_E85A_0000_0000
    /// `^_` and `a`...`z` but `k`, as bits 64...127.
    private static let plainFrom64: UInt64 = 0x07FF_F7FE_C000_0000
}

#if canImport(Synchronization) && !canImport(Darwin)
/// `Mutex` where no availability limits it (Linux).
private typealias FieldsLock = Mutex<HTTPFields?>

extension Mutex where Value == HTTPFields? {
    init() { self.init(nil) }
}
#else
/// `OSAllocatedUnfairLock` on Apple platforms (macOS 13, iOS 16: the package's minimum).
private typealias FieldsLock = OSAllocatedUnfairLock<HTTPFields?>

extension OSAllocatedUnfairLock where State == HTTPFields? {
    init() { self.init(initialState: nil) }
}
#endif
