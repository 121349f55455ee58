// Redaction: a known secret planted in one place of an interaction (chosen by the input, the rest
// of the interaction made from the input's bytes) appears in nothing Sculpt writes or says: the
// recorder's redaction written as a cassette, a HAR import, a replay miss, an unused-interaction
// report, a SculptError; in headers, URLs, JSON bodies and form bodies. And redaction never crashes on raw bytes: the input itself, as a body, a
// URL and header values, is redacted, and a body's redaction is idempotent and keeps JSON valid.
import Foundation
import FuzzSupport
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting

/// The secret: `Z` never occurs in filler (see `filler`), so any `ZZ` in an output is a leak.
let secret = String(repeating: "Z", count: 24)
let leak = "ZZ"

/// Filler text from input bytes: URL-significant characters included, `Z` and `z` excluded.
func filler(_ bytes: ArraySlice<UInt8>) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyABCDEFGHIJKLMNOPQRSTUVWXY0123456789-._~!$&'()*+,;=:@/?#%[] \"\\".utf8)
    return String(decoding: bytes.prefix(64).map { alphabet[Int($0) % alphabet.count] }, as: UTF8.self)
}

/// The secret names, as a redaction finds them in any case.
let names = ["access_token", "refresh_token", "id_token", "api_key", "apikey", "client_secret", "token", "password"]

/// Reads choices from the input, byte by byte (zero once the input runs out).
struct Choices {
    var bytes: ArraySlice<UInt8>
    mutating func next(_ count: Int) -> Int {
        guard let byte = bytes.popFirst() else { return 0 }
        return Int(byte) % count
    }
    mutating func flip(_ text: String) -> String {
        String(text.map { next(2) == 0 ? Character($0.uppercased()) : $0 })
    }
}

/// A name spelled as a choice says: any case, percent-encoded, with `[]`, inside `outer[...]`.
func spelled(_ name: String, _ choices: inout Choices) -> String {
    let name = choices.flip(name)
    switch choices.next(4) {
    case 0: return name
    case 1: return name.replacingOccurrences(of: "_", with: "%5F")
    case 2: return name + "%5B%5D"
    default: return "outer%5B\(name)%5D"
    }
}

struct Planted {
    var url = "https://api.example.com/v3/items"
    var requestFields: [(String, String)] = []
    var requestBody: Data?
    var responseFields: [(String, String)] = []
    var responseType = "application/json"
    var responseBody = Data(#"{"id":1}"#.utf8)
    var base: String?
}

/// A JSON document with `{name: secret}` at a depth and among members the input chooses.
func jsonBody(_ choices: inout Choices, _ text: String) -> Data {
    let name = choices.flip(names[choices.next(names.count)])
    // Objects are built member by member: a literal with a key the input chose could repeat one.
    var value: Any = choices.next(3) == 0 ? ["value": secret, "kind": [secret]] : secret
    var object: [String: Any] = ["n": 1]
    object[text] = text
    object[name] = value
    value = object
    for _ in 0..<choices.next(6) {
        if choices.next(2) == 0 {
            var outer: [String: Any] = ["other": [text, 2]]
            outer[text] = value
            value = outer
        } else {
            value = [value, text]
        }
    }
    return (try? JSONSerialization.data(withJSONObject: value, options: choices.next(2) == 0 ? [.prettyPrinted] : [])) ?? Data("{}".utf8)
}

func plant(_ data: Data) -> Planted {
    var choices = Choices(bytes: ArraySlice(data))
    let position = choices.next(15)  // the first byte chooses where the secret goes
    let text = filler(ArraySlice(data.dropFirst(8)))
    var planted = Planted()
    let path = "/v3/items/\(text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "x")"
    let query = "f=\(text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "x")"
    let separator = ["&", ";", "&"][choices.next(3)]
    let parameter = "\(spelled(names[choices.next(names.count)], &choices))=\(secret)"
    switch position {
    case 0: planted.requestFields = [(choices.flip("authorization"), "Bearer \(secret)")]
    case 1: planted.requestFields = [(choices.flip("cookie"), "a=\(text.prefix(8)); s=\(secret)")]
    case 2:
        let repeated = choices.next(2) == 0 ? "\(parameter)\(separator)" : ""
        planted.url = "https://api.example.com\(path)?\(query)\(separator)\(repeated)\(parameter)"
    case 3: planted.url = "https://\(secret)@api.example.com\(path)?\(query)"
    case 4: planted.url = "https://user:\(secret)@api.example.com\(path)"
    case 5: planted.url = "https://api.example.com\(path)#\(choices.next(2) == 0 ? "/cb?" : "")\(parameter)&state=1"
    case 6:
        planted.base = ["https://\(secret)@h.example/v3/", "https://u:\(secret)@h.example/v3/?\(parameter)"][choices.next(2)]
        planted.url = ["", "items", "?x=1", "#top", "/abs", text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""][choices.next(6)]
    case 7: planted.responseFields = [(choices.flip("location"), "\(path)?\(query)&\(parameter)")]
    case 8: planted.responseFields = [("Link", "<https://api.example.com\(path)?\(parameter)>; rel=\"next\", <\(path)>; rel=\"last\"")]
    case 9: planted.responseFields = [("Content-Location", "https://api.example.com\(path)?\(parameter)")]
    case 10: planted.requestBody = jsonBody(&choices, text)
    case 11: planted.responseBody = jsonBody(&choices, text)
    case 12:
        planted.requestFields = [("Content-Type", choices.flip("application/x-www-form-urlencoded") + ["", "; charset=utf-8"][choices.next(2)])]
        planted.requestBody = Data("grant_type=refresh_token\(separator)\(query)\(separator)\(parameter)".utf8)
    case 13:
        planted.responseType = "application/x-www-form-urlencoded"
        planted.responseBody = Data("\(parameter)\(separator)scope=repo\(separator)\(query)".utf8)
    default: planted.url = "https://api.example.com\(path)?code=\(secret)&\(query)&\(["state", "redirect_uri", "grant_type", "client_id"][choices.next(4)])=1"
    }
    return planted
}

func fields(_ pairs: [(String, String)]) -> HTTPFields {
    var fields = HTTPFields()
    for (name, value) in pairs {
        if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
    }
    return fields
}

func check(_ output: String, _ what: String, _ planted: Planted) {
    require(!output.contains(leak), "\(what) shows the secret (\(planted.url), base \(planted.base ?? "none")):\n\(output.prefix(8_192))")
}

/// Redaction of raw bytes never traps, is idempotent, and keeps valid JSON valid.
func checkRaw(_ data: Data) {
    let redaction = Redaction()
    let body = redaction.redacting(body: data)
    require(redaction.redacting(body: body) == body, "redacting a body twice changed it")
    if (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil {
        require((try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) != nil, "a redacted JSON body is not JSON")
    }
    let text = String(decoding: data.prefix(4_096), as: UTF8.self)
    if let url = URL(string: text) {
        _ = redaction.redacting(url)
        _ = Redaction().redacting(url)
    }
    if let value = HTTPField.Name("Link").map({ redaction.redacting(HTTPFields([HTTPField(name: $0, value: text)])) }) {
        _ = value
    }
    _ = redaction.redacting(HTTPFields([HTTPField(name: .location, value: text)]))
}

runFuzzer { data in
    checkRaw(data)
    let planted = plant(data)
    let base = planted.base.flatMap { URL(string: $0) }
    guard let url = URL(string: planted.url, relativeTo: base), url.absoluteURL.host() != nil else { return }
    let fixture = Fixture(
        request: .init(method: planted.requestBody == nil ? .get : .post, url: url, headerFields: fields(planted.requestFields), body: planted.requestBody),
        response: .init(status: .ok, headerFields: fields([("Content-Type", planted.responseType)] + planted.responseFields), body: planted.responseBody))

    // The recorder's redaction, written as a cassette.
    check(String(decoding: Cassette([Redaction().redacting(fixture)]).encoded(), as: UTF8.self), "a recording", planted)

    // A HAR import of the same interaction.
    func har(_ pairs: [(String, String)]) -> [[String: String]] { pairs.map { ["name": $0.0, "value": $0.1] } }
    var request: [String: Any] = ["method": fixture.request.method.rawValue, "url": url.absoluteString, "headers": har(planted.requestFields)]
    if let body = planted.requestBody { request["postData"] = ["text": String(decoding: body, as: UTF8.self)] }
    let response: [String: Any] = [
        "status": 200, "headers": har([("Content-Type", planted.responseType)] + planted.responseFields),
        "content": ["text": String(decoding: planted.responseBody, as: UTF8.self)],
    ]
    let entries = [["request": request, "response": response], ["request": request, "response": ["status": 0]]]
    if let json = try? JSONSerialization.data(withJSONObject: ["log": ["entries": entries]]), let archive = try? HARArchive(json: json) {
        check(String(decoding: Cassette(archive.fixtures).encoded(), as: UTF8.self), "a HAR import", planted)
        check(archive.skipped.map(\.description).joined(separator: "\n"), "a skipped HAR entry", planted)
    }

    // A miss against a recording that differs in every compared part, and the unused report.
    var recorded = fixture
    recorded.request.url = URL(string: "https://api.example.com\(url.path(percentEncoded: true))?other=1") ?? url
    recorded.request.headerFields = [.authorization: "other", .cookie: "other"]
    recorded.request.body = Data(#"{"other":1}"#.utf8)
    let replay = FixtureReplay([recorded], options: .init(matchedHeaders: Redaction.defaultHeaders + [.accept], matchesBody: true))
    do {
        _ = try replay.response(for: fixture.request)
    } catch {
        check("\(error)", "a miss", planted)
    }
    do {
        try FixtureReplay([fixture]).verifyAllUsed()
    } catch {
        check("\(error)", "an unused report", planted)
    }

    // A serializer's error for the response at the planted URL.
    let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([String].self))
    do {
        _ = try serializer.serialize(fixture.data, for: fixture.context)
    } catch {
        check("\(error)", "a SculptError", planted)
        require("\(error)".utf8.count <= 4_096, "a SculptError's description is \("\(error)".utf8.count) bytes")
    }
}
