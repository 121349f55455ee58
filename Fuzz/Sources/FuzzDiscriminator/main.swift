// The discriminator peek against JSONDecoder: whenever JSONDecoder accepts a body, the value the
// peek reports for `type` (top level), `meta.kind` (nested), `Kind` (KELVIN SIGN spells its K) and
// `méta.café` (a precomposed é, decomposed as e + U+0301) is the value JSONDecoder sees there, a
// string written as JSON writes it (quoted, with its escapes). Seeds/FuzzDiscriminator.dict holds
// the canonically equivalent spellings. The same peek inside a serializer that decodes with
// SculptJSONDecoder (which finds the field in a scan of the whole body, kept for the decode)
// reports the same as the peek alone.
import Foundation
import FuzzSupport
import Sculpt
import SculptJSON
import SculptMatchers

let fields = ["type", "meta.kind", "Kind", "m\u{E9}ta.caf\u{E9}"]
let matchers = fields.map { TypeFieldModelMatcher(field: $0) }
let fieldKeys = fields.map { (try? ModelKeyPath($0))?.keys ?? [$0] }
let context = ResponseContext(url: URL(string: "https://api.example.com/items"), status: .ok)

/// What the matcher reports, in the words of `SculptError.unknownDiscriminator`'s `found`.
func peek(_ matcher: TypeFieldModelMatcher, _ data: Data) -> Result<String?, SculptError> {
    do {
        let matched = try matcher.modelType(for: context, data: data)
        require(matched == nil, "a matcher without registrations matched \(String(describing: matched))")
        return .success(nil)
    } catch let error as SculptError {
        switch error.reason {
        case .unknownDiscriminator(_, let found, _):
            require(error.body == data, "the error lost the body")
            return .success(found)
        case .invalidJSON(_, let offset):
            require(error.body == data && (0...data.count).contains(offset), "invalidJSON offset \(offset) outside 0...\(data.count)")
            return .failure(error)
        default:
            require(false, "unexpected error \(error)")
            return .failure(error)
        }
    } catch {
        require(false, "not a SculptError: \(error)")
        return .success(nil)
    }
}

/// The same matchers in serializers that decode with SculptJSONDecoder: their peek reads a scan of
/// the whole body.
let sharing = matchers.map { ModelResponseSerializer(matcher: $0, decoder: SculptJSONDecoder()) }

/// What the matcher reports inside a serializer, in `peek`'s terms.
func peekSharing(_ serializer: ModelResponseSerializer<TypeFieldModelMatcher>, _ data: Data) -> Result<String?, SculptError> {
    do {
        let value = try serializer.serialize(data, for: context)
        require(false, "a matcher without registrations gave \(value)")
        return .success(nil)
    } catch {
        switch error.reason {
        case .unknownDiscriminator(_, let found, _): return .success(found)
        case .noModelMatched: return .success(nil)
        default: return .failure(error)
        }
    }
}

/// Whether a serializer answered before it asked the matcher: a blank body (white space, a byte
/// order mark) is an empty body, with no peek to compare.
func isBlankBodyAnswer(_ result: Result<String?, SculptError>) -> Bool {
    guard case .failure(let error) = result, case .emptyBody = error.reason else { return false }
    return true
}

/// The matcher's `found` for a value JSONDecoder decoded; `nil` means "any numeric text equal to it".
func expectedFound(_ value: AnyJSON?) -> String?? {
    switch value {
    case nil: return .some(nil)
    case .null: return "null"
    case .bool(let bool): return .some(String(bool))
    case .string(let string): return .some(jsonQuoted(string))
    case .object: return "an object"
    case .array: return "an array"
    case .number, .unrepresentableNumber: return nil
    }
}

/// `string` as JSON writes it, which is how the matcher quotes a string tag: `"`, `\` and the
/// control characters escaped (`\n`, `\u001b`), everything else as it is.
func jsonQuoted(_ string: String) -> String {
    var text = "\""
    for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": text += "\\\""
        case "\\": text += "\\\\"
        case "\n": text += "\\n"
        case "\r": text += "\\r"
        case "\t": text += "\\t"
        case "\u{08}": text += "\\b"
        case "\u{0C}": text += "\\f"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: text.unicodeScalars.append(scalar)
        }
    }
    return text + "\""
}

/// What JSONDecoder sees at a field of an object body, decoding nothing else: `seen` is `nil` when
/// the field is missing or the body is not an object.
struct Probe: Decodable {
    nonisolated(unsafe) static var keys: [String] = []
    var seen: AnyJSON?

    init(from decoder: any Decoder) throws {
        var object: KeyedDecodingContainer<AnyKey>
        do {
            object = try decoder.container(keyedBy: AnyKey.self)
        } catch DecodingError.typeMismatch {
            return
        }
        for key in Self.keys.dropLast() {
            guard object.contains(AnyKey(key)) else { return }
            do {
                object = try object.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(key))
            } catch DecodingError.typeMismatch, DecodingError.valueNotFound {
                return  // not an object: the field is not there (anything else means JSONDecoder refuses the body)
            }
        }
        let field = AnyKey(Self.keys[Self.keys.count - 1])
        if object.contains(field) { seen = try object.decode(AnyJSON.self, forKey: field) }
    }
}

runFuzzer { data in
    for ((matcher, keys), serializer) in zip(zip(matchers, fieldKeys), sharing) {
        let outcome = peek(matcher, data)
        let shared = peekSharing(serializer, data)
        if !isBlankBodyAnswer(shared) {
            switch (outcome, shared) {
            case (.success(let alone), .success(let inSerializer)):
                require(alone == inSerializer, "\(matcher.field): the peek found \(alone ?? "nothing") alone, \(inSerializer ?? "nothing") in a serializer")
            case (.failure(let alone), .failure(let inSerializer)):
                require(alone.reason.name == inSerializer.reason.name, "\(matcher.field): the peek failed with \(alone.reason.name) alone, \(inSerializer.reason.name) in a serializer")
            default:
                require(false, "\(matcher.field): the peek gave \(outcome) alone, \(shared) in a serializer")
            }
        }
        Probe.keys = keys
        guard !data.isEmpty, let probe = try? JSONDecoder().decode(Probe.self, from: data) else { continue }
        guard case .success(let found) = outcome else {
            require(false, "JSONDecoder accepts the body but the peek says \(outcome)")
            continue
        }
        let seen = probe.seen
        switch (expectedFound(seen), seen) {
        case (.some(let expected), _):
            require(found == expected, "\(matcher.field): peek found \(found ?? "nothing"), JSONDecoder \(expected ?? "nothing")")
        case (nil, .number(let number)?):
            require(found.flatMap(Double.init) == number, "\(matcher.field): peek found \(found ?? "nothing"), JSONDecoder \(number)")
        default:
            require(found != nil, "\(matcher.field): JSONDecoder sees a number the peek did not")
        }
    }
}
