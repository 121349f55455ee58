import Foundation
import Sculpt
import SculptJSON
import Testing

/// What a decode gave: the value as `dump` writes it, or the error's case and coding path. Two
/// decoders agree when their outcomes are equal.
enum DecodeOutcome: Equatable, CustomStringConvertible {
    case value(String)
    case error(String, path: [String])

    init<T>(_ decode: () throws -> T) {
        do {
            self = .value(Self.canonical(try decode()))
        } catch let error as DecodingError {
            switch error {
            case .typeMismatch(_, let context): self = .error("typeMismatch", path: context.codingPath.map(\.stringValue))
            case .valueNotFound(_, let context): self = .error("valueNotFound", path: context.codingPath.map(\.stringValue))
            case .keyNotFound(let key, let context): self = .error("keyNotFound \(key.stringValue)", path: context.codingPath.map(\.stringValue))
            case .dataCorrupted(let context): self = .error("dataCorrupted", path: context.codingPath.map(\.stringValue))
            @unknown default: self = .error("unknown", path: [])
            }
        } catch {
            self = .error("\(type(of: error))", path: [])
        }
    }

    /// A value written out in full through its mirror, a dictionary's members sorted, so two
    /// equal values are one text whatever their dictionaries' orders.
    static func canonical(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .dictionary:
            let members = mirror.children.map { member -> String in
                let pair = Array(Mirror(reflecting: member.value).children)
                return pair.count == 2 ? "\(canonical(pair[0].value)): \(canonical(pair[1].value))" : canonical(member.value)
            }
            return "[" + members.sorted().joined(separator: ", ") + "]"
        case .optional:
            return mirror.children.first.map { "some(\(canonical($0.value)))" } ?? "nil"
        case .collection, .set, .tuple, .struct, .class, .enum:
            guard !mirror.children.isEmpty else { return "\(type(of: value)).\(value)" }
            let children = mirror.children.map { "\($0.label ?? ""): \(canonical($0.value))" }
            let parts = mirror.displayStyle == .set ? children.sorted() : children
            return "\(type(of: value))(" + parts.joined(separator: ", ") + ")"
        default:
            return String(reflecting: value)
        }
    }

    /// Whether two outcomes agree for a `[String: T]`, whose members `JSONDecoder` visits in its
    /// own dictionary's hash order, seeded per process: when more than one member is wrong, the
    /// one it reports varies from run to run, so two errors agree on their kind and depth.
    func agreesIgnoringMemberOrder(with other: DecodeOutcome) -> Bool {
        switch (self, other) {
        case let (.error(kind, path), .error(otherKind, otherPath)): kind == otherKind && path.count == otherPath.count
        default: self == other
        }
    }

    var description: String {
        switch self {
        case .value(let text): "value \(text.prefix(300))"
        case .error(let kind, let path): "\(kind) at \(path)"
        }
    }
}

/// `SculptJSONDecoder` and `JSONDecoder` on the same bytes and type, with the same settings.
func agreement<T: Decodable>(
    _ type: T.Type, _ data: Data, configure: (inout SculptJSONDecoder, JSONDecoder) -> Void = { _, _ in }
) -> (sculpt: DecodeOutcome, foundation: DecodeOutcome) {
    var sculpt = SculptJSONDecoder()
    let foundation = JSONDecoder()
    configure(&sculpt, foundation)
    return (DecodeOutcome { try sculpt.decode(T.self, from: data) }, DecodeOutcome { try foundation.decode(T.self, from: data) })
}

@Suite("SculptJSONDecoder gives JSONDecoder's answers")
struct SculptJSONDecoderTests {
    // MARK: - JSONTestSuite

    /// Types that read every kind of value strictly, so that a file's numbers, strings and
    /// structure are all decoded, each as its type asks.
    static func strictAnswers(_ data: Data) -> [(type: String, sculpt: DecodeOutcome, foundation: DecodeOutcome)] {
        [
            ("AnyJSON", agreement(AnyJSON.self, data)),
            ("String", agreement(String.self, data)), ("Int", agreement(Int.self, data)), ("Double", agreement(Double.self, data)),
            ("Bool", agreement(Bool.self, data)), ("[Int]", agreement([Int].self, data)), ("[String]", agreement([String].self, data)),
            ("[Double?]", agreement([Double?].self, data)), ("[[Int]]", agreement([[Int]].self, data)), ("[Bool?]", agreement([Bool?].self, data)),
            ("Int8", agreement(Int8.self, data)), ("UInt64", agreement(UInt64.self, data)), ("Float", agreement(Float.self, data)),
            ("Decimal", agreement(Decimal.self, data)),
        ].map { ($0.0, $0.1.sculpt, $0.1.foundation) }
    }

    /// Dictionaries, compared with ``DecodeOutcome/agreesIgnoringMemberOrder(with:)``.
    static func dictionaryAnswers(_ data: Data) -> [(type: String, sculpt: DecodeOutcome, foundation: DecodeOutcome)] {
        [
            ("[String: Int]", agreement([String: Int].self, data)), ("[String: String]", agreement([String: String].self, data)),
            ("[String: Bool]", agreement([String: Bool].self, data)),
        ].map { ($0.0, $0.1.sculpt, $0.1.foundation) }
    }

    @Test("every JSONTestSuite file decodes, or fails, as it does with JSONDecoder, as every strict type", arguments: try JSONTestFile.all())
    func jsonTestSuite(_ file: JSONTestFile) {
        for (type, sculpt, foundation) in Self.strictAnswers(file.data) {
            #expect(sculpt == foundation, "\(file.name) as \(type)")
        }
        for (type, sculpt, foundation) in Self.dictionaryAnswers(file.data) {
            #expect(sculpt.agreesIgnoringMemberOrder(with: foundation), "\(file.name) as \(type): \(sculpt) vs \(foundation)")
        }
    }

    // MARK: - Corpus

    @Test("every sample of the corpus decodes to the same value", arguments: ["stripe", "stackexchange", "github-webhooks", "octokit"])
    func corpus(_ folder: String) {
        let files = CorpusFiles.json(in: folder)
        #expect(!files.isEmpty)
        for file in files {
            let (sculpt, foundation) = agreement(AnyJSON.self, file.data)
            #expect(sculpt == foundation, "\(folder)/\(file.name)")
        }
    }

    // MARK: - Numbers

    @Test("numbers read as JSONDecoder reads each type", arguments: [
        "0", "-0", "1", "-1", "1.0", "1.5", "-1.5", "1e2", "1E2", "1e-2", "1.0e1", "12345678901234567890", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "9007199254740993.0", "9007199254740993.9",
        "9007199254740993.000000000000000000001", "3.0000000000000001", "1e308", "1e309", "1e-400", "0.0e0", "0e1", "0E5", "0e+1", "-0e1", "0e12", "0.0e1", "0.00e1", "00e1", "0.000e-1", "0e-7", "-0.0", "01", "1.",
        "-", "1e", "1e+", ".5", "1.5.2", "255", "256", "-128", "-129", "65535", "4294967296", "1.7976931348623157e308",
        "2.2250738585072014e-308", "4.9e-324", "0.1", "0.30000000000000004", "123456789.123456789",
        "9007199254740992", "9007199254740993", "900719925474099.3", "900719925474099.25", "1e22", "1e23", "1e-22", "1e-23",
        "2.5e+22", "9007199254740992e22", "9007199254740992e-22", "9007199254740992e-23", "1e0022", "1e00022", "-0.000",
        "0.0000000000000000000001", "0.00000000000000000000001", "4.35", "1.7976931348623157", "-12343.881967",
    ])
    func numbers(_ text: String) {
        let data = Data("[\(text)]".utf8)
        for (type, sculpt, foundation) in [
            ("[Int]", agreement([Int].self, data)), ("[Int8]", agreement([Int8].self, data)), ("[UInt8]", agreement([UInt8].self, data)),
            ("[Int64]", agreement([Int64].self, data)), ("[UInt64]", agreement([UInt64].self, data)), ("[Double]", agreement([Double].self, data)),
            ("[Float]", agreement([Float].self, data)), ("[Decimal]", agreement([Decimal].self, data)), ("[UInt]", agreement([UInt].self, data)),
        ].map({ ($0.0, $0.1.sculpt, $0.1.foundation) }) {
            #expect(sculpt == foundation, "\(text) as \(type)")
        }
    }

    @Test("doubles of every length, point and exponent round to JSONDecoder's bits")
    func doubles() throws {
        // A fixed generator, so that a failure repeats: digits 1 to 20 long, the point anywhere
        // or nowhere, an exponent in -30...30 or none, either sign.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let numbers = (0..<20_000).map { _ -> String in
            let length = 1 + next(20)
            var digits = String(1 + next(9)) + String((1..<length).map { _ in Character(String(next(10))) })
            if next(3) > 0 { digits.insert(".", at: digits.index(digits.startIndex, offsetBy: 1 + next(length))) }
            if digits.hasSuffix(".") { digits += "0" }
            let exponent = next(2) == 0 ? "" : "e\(next(61) - 30)"
            return (next(2) == 0 ? "-" : "") + digits + exponent
        }
        let data = Data("[\(numbers.joined(separator: ","))]".utf8)
        let sculpt = try SculptJSONDecoder().decode([Double].self, from: data)
        let foundation = try JSONDecoder().decode([Double].self, from: data)
        for (index, (mine, theirs)) in zip(sculpt, foundation).enumerated() where mine.bitPattern != theirs.bitPattern {
            Issue.record("\(numbers[index]): \(mine) where JSONDecoder reads \(theirs)")
        }
    }

    // MARK: - Models and coding paths

    struct Owner: Codable, Equatable { let login: String; let id: Int; let siteAdmin: Bool?; let url: URL? }
    struct Item: Codable, Equatable {
        let id: Int
        let title: String
        let owner: Owner?
        let tags: [String]
        let score: Double?
        let created: Date?
        let nested: [String: [Int]]?
    }

    static let documents = [
        #"{"id":1,"title":"a","owner":{"login":"x","id":2,"siteAdmin":true,"url":"https://x/y"},"tags":["p","q"],"score":1.5,"created":0,"nested":{"a":[1,2]}}"#,
        #"{"id":1,"title":"a","tags":[],"owner":null}"#,
        #"{"id":1,"title":"a","tags":["p",3]}"#,
        #"{"id":1,"title":"a","tags":["p"],"owner":{"login":"x"}}"#,
        #"{"id":1,"title":"a","tags":["p"],"owner":{"login":"x","id":"2"}}"#,
        #"{"id":1,"title":"a","tags":["p"],"owner":{"login":"x","id":2,"url":"not a url with spaces"}}"#,
        #"{"id":1.5,"title":"a","tags":[]}"#,
        #"{"id":1,"title":"a","tags":null}"#,
        #"{"id":1,"title":"a","tags":[],"nested":{"a":[1,"b"]}}"#,
        #"{"id":1,"title":"a","id":2,"tags":[]}"#,
        #"{"title":"a","tags":[]}"#,
        #"[{"id":1,"title":"a","tags":[]}]"#,
        #"{"id":1,"title":"a\u0000b","tags":[]}"#,
        #"{"id":1,"title":"\ud800","tags":[]}"#,
        #"{"id":1,"title":"x","tags":[],"extra":"\u12"}"#,
        "{\"id\":1,\"title\":\"a\u{01}b\",\"tags\":[]}",
        "{\"id\":1,\"title\":\"ok\",\"tags\":[],\"unread\":\"a\u{01}b\"}",
        #"{"id":1,"title":"ok","tags":[],"unread":01}"#,
        #"{"id":1,"title":"ok","tags":[],}"#,
        #"{"id":1,"title":"ok","tags":[1,],}"#,
        #"{"i\u0064":1,"title":"escaped key","tags":[]}"#,
        "{\"id\":1,\"title\":\"café\",\"tags\":[\"cafe\u{301}\"]}",
    ]

    @Test("a model decodes, or fails at the same coding path, as with JSONDecoder", arguments: documents)
    func models(_ json: String) {
        let data = Data(json.utf8)
        let (sculpt, foundation) = agreement(Item.self, data)
        #expect(sculpt == foundation, "\(json)")
        let (sculptArray, foundationArray) = agreement([Item].self, Data("[\(json)]".utf8))
        #expect(sculptArray == foundationArray, "[\(json)]")
    }

    // MARK: - Duplicate keys

    struct Identified: Decodable, Equatable { let id: Int; let k3: Int? }

    /// Objects of `count` other keys with `id` twice (the first read, as JSONDecoder reads it),
    /// or once among near misses: short keys, long keys differing in their last byte, escapes.
    static let duplicateKeyDocuments: [String] = [0, 1, 7, 8, 9, 100, 5_000].flatMap { count -> [String] in
        let others = (0..<count).map { #""k\#($0)":\#($0)"# }
        let long = String(repeating: "x", count: 100)
        let nearMisses = (0..<count).map { #""\#(long)\#($0 % 10)":\#($0)"# }
        return [
            "{" + ([#""id":1"#] + others + [#""id":2"#]).joined(separator: ",") + "}",
            "{" + (others + [#""id":1"#, #""i\u0064":2"#]).joined(separator: ",") + "}",
            "{" + ([#""id":1"#] + nearMisses).joined(separator: ",") + "}",
            "{" + (others + [#""id":1"#] + others).joined(separator: ",") + "}",
        ]
    }

    @Test("of duplicated keys the first is read, in objects of every size", arguments: duplicateKeyDocuments)
    func duplicateKeys(_ json: String) {
        let data = Data(json.utf8)
        let (sculpt, foundation) = agreement(Identified.self, data)
        #expect(sculpt == foundation, "\(json.prefix(80))")
        let dictionaries = agreement([String: Int].self, data)
        #expect(dictionaries.sculpt == dictionaries.foundation, "\(json.prefix(80)) as [String: Int]")
        let snake = agreement(Identified.self, data) { sculpt, foundation in
            sculpt.keyDecodingStrategy = .convertFromSnakeCase
            foundation.keyDecodingStrategy = .convertFromSnakeCase
        }
        #expect(snake.sculpt == snake.foundation, "\(json.prefix(80)) under snake case")
    }

    /// Reads every key of an object in the reverse of its order, then one key that is not there:
    /// each lookup starts far from its key. (The values are compared sorted: `JSONDecoder` lists
    /// `allKeys` in its dictionary's order, which varies from run to run.)
    struct ReadBackwards: Decodable, Equatable {
        let values: [Int]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: DictionaryKeyForTests.self)
            values = try container.allKeys.reversed().map { try container.decode(Int.self, forKey: $0) }
                .sorted() + [try container.decodeIfPresent(Int.self, forKey: DictionaryKeyForTests(stringValue: "absent")) ?? -1]
        }
    }

    @Test("keys read in any order are found, in objects of every size", .timeLimit(.minutes(10)), arguments: [0, 1, 33, 100, 20_000])
    func keysOutOfOrder(_ count: Int) {
        let json = "{" + (0..<count).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        for snakeCase in [false, true] {
            let (sculpt, foundation) = agreement(ReadBackwards.self, Data(json.utf8)) { sculpt, foundation in
                if snakeCase {
                    sculpt.keyDecodingStrategy = .convertFromSnakeCase
                    foundation.keyDecodingStrategy = .convertFromSnakeCase
                }
            }
            #expect(sculpt == foundation, "\(count) keys, snake case: \(snakeCase)")
        }
    }

    /// Coding keys that are canonically equivalent to ASCII keys without being ASCII.
    struct CanonicalKeys: Decodable, Equatable {
        let kelvin: Int?
        let question: Int?
        enum CodingKeys: String, CodingKey {
            case kelvin = "\u{212A}"
            case question = "a\u{037E}"
        }
    }

    @Test("a coding key is found under a canonically equivalent spelling", arguments: [
        #"{"K":1,"a;":2}"#, #"{"\u212a":1,"a\u037e":2}"#, #"{"k":1,"a:":2}"#,
    ])
    func canonicalKeys(_ json: String) {
        let (sculpt, foundation) = agreement(CanonicalKeys.self, Data(json.utf8))
        #expect(sculpt == foundation, "\(json)")
    }

    // MARK: - Strategies

    struct SnakeModel: Codable, Equatable { let userName: String; let htmlURL: String?; let _private: Int?; let aB: Int? }

    @Test("key strategies: default, snake case and custom convert keys as JSONDecoder does", arguments: [
        #"{"user_name":"a","html_url":"u","_private":1,"a_b":2}"#,
        #"{"userName":"a"}"#,
        #"{"user_name":"a","userName":"b"}"#,
        #"{"user__name":"a"}"#,
        #"{"User_Name":"a"}"#,
        #"{"user_name":"a","dictionary":{"snake_key":1}}"#,
    ])
    func keyStrategies(_ json: String) {
        let data = Data(json.utf8)
        for strategy in ["default", "snake", "custom"] {
            let (sculpt, foundation) = agreement(SnakeModel.self, data) { sculpt, foundation in
                switch strategy {
                case "snake":
                    sculpt.keyDecodingStrategy = .convertFromSnakeCase
                    foundation.keyDecodingStrategy = .convertFromSnakeCase
                case "custom":
                    let custom = JSONDecoder.KeyDecodingStrategy.custom { path in
                        DictionaryKeyForTests(stringValue: (path.last?.stringValue ?? "").replacingOccurrences(of: "_", with: "").lowercased() == "username" ? "userName" : path.last?.stringValue ?? "")
                    }
                    sculpt.keyDecodingStrategy = custom
                    foundation.keyDecodingStrategy = custom
                default: break
                }
            }
            #expect(sculpt == foundation, "\(json) with \(strategy) keys")
        }
        let dictionaries = agreement([String: AnyJSON].self, data) { sculpt, foundation in
            sculpt.keyDecodingStrategy = .convertFromSnakeCase
            foundation.keyDecodingStrategy = .convertFromSnakeCase
        }
        #expect(dictionaries.sculpt == dictionaries.foundation, "a dictionary keeps its keys under snake case: \(json)")
    }

    /// The keys a keyed container offers (the document's keys as the key strategy converts
    /// them), each with the value looked up by it.
    struct ConvertedKeys: Decodable {
        let keys: [String]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: DictionaryKeyForTests.self)
            keys = try container.allKeys.map { "\($0.stringValue): \(try container.decode(Int.self, forKey: $0))" }.sorted()
        }
    }

    /// Keys with every ASCII byte in and around their words, then keys with other scripts.
    static let snakeCaseKeys: [String] = {
        var keys = ["a", "_", "__", "a_b", "_a_b_", "__a__b__", "a__b", "A_B", "aB_cD", "HTML_url", "url_HTML", "x_1st", "x_1_st", "x_a1b",
                    "x_don't", "x_a^b", "x_a`b", "x_a.b", "x_a:b", "x_a-b", "x_a b", "x_\\u0001b", "x_\\u007fb", "_leading", "trailing_", "ß_straße",
                    "é_été", "ǆ_ǆ", "x_ǅa", "σ_Σς", "i_İ", "x_\\u0345a", "日本_語", "a_\\u00adb", "x_\\r\\nb", "x_e\\u0301a", "_\\u00e9_"]
        for byte in 0x20..<0x7f where byte != 0x22 && byte != 0x5c {
            let scalar = String(UnicodeScalar(UInt8(byte)))
            keys += ["ab_c\(scalar)d", "ab_\(scalar)cd", "x\(scalar)y_z"]
        }
        return keys
    }()

    @Test("snake case converts every key as JSONDecoder converts it", arguments: snakeCaseKeys)
    func snakeCaseConversion(_ key: String) {
        let data = Data(#"{"\#(key)":1}"#.utf8)
        let (sculpt, foundation) = agreement(ConvertedKeys.self, data) { sculpt, foundation in
            sculpt.keyDecodingStrategy = .convertFromSnakeCase
            foundation.keyDecodingStrategy = .convertFromSnakeCase
        }
        #expect(sculpt == foundation, "\(key)")
    }

    struct Dated: Codable { let date: Date }

    @Test("date strategies read dates as JSONDecoder does", arguments: [
        #"{"date":0}"#, #"{"date":1.5e9}"#, #"{"date":"2026-11-26T05:30:00Z"}"#, #"{"date":"2026-11-26"}"#, #"{"date":null}"#,
        #"{"date":"x"}"#, #"{"date":[1]}"#, #"{"date":-1.25}"#,
    ])
    func dateStrategies(_ json: String) {
        let data = Data(json.utf8)
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let strategies: [(String, JSONDecoder.DateDecodingStrategy)] = [
            ("deferred", .deferredToDate), ("seconds", .secondsSince1970), ("milliseconds", .millisecondsSince1970), ("iso8601", .iso8601),
            ("custom", .custom { decoder in
                let container = try decoder.singleValueContainer()
                return Date(timeIntervalSince1970: try container.decode(Double.self) * 2)
            }),
        ]
        for (name, strategy) in strategies {
            let (sculpt, foundation) = agreement(Dated.self, data) { sculpt, foundation in
                sculpt.dateDecodingStrategy = strategy
                foundation.dateDecodingStrategy = strategy
            }
            #expect(sculpt == foundation, "\(json) with \(name)")
        }
    }

    struct Blob: Codable { let data: Data }

    @Test("data strategies read data as JSONDecoder does", arguments: [
        #"{"data":"aGVsbG8="}"#, #"{"data":"not base64!"}"#, #"{"data":[104,105]}"#, #"{"data":null}"#, #"{"data":"aGVs\nbG8="}"#,
        #"{"data":"aGVs\/bG8="}"#, #"{"data":3}"#,
    ])
    func dataStrategies(_ json: String) {
        let data = Data(json.utf8)
        let strategies: [(String, JSONDecoder.DataDecodingStrategy)] = [
            ("base64", .base64), ("deferred", .deferredToData),
            ("custom", .custom { decoder in Data(try decoder.singleValueContainer().decode(String.self).utf8.reversed()) }),
        ]
        for (name, strategy) in strategies {
            let (sculpt, foundation) = agreement(Blob.self, data) { sculpt, foundation in
                sculpt.dataDecodingStrategy = strategy
                foundation.dataDecodingStrategy = strategy
            }
            #expect(sculpt == foundation, "\(json) with \(name)")
        }
    }

    @Test("non-conforming floats are read from the strings the strategy names", arguments: [
        #"["inf","-inf","nan",1.5]"#, #"["Infinity"]"#, #"["inf\u0000"]"#,
    ])
    func nonConformingFloats(_ json: String) {
        let data = Data(json.utf8)
        for convert in [false, true] {
            let strategy: JSONDecoder.NonConformingFloatDecodingStrategy = convert ? .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan") : .throw
            let (sculpt, foundation) = agreement([Double].self, data) { sculpt, foundation in
                sculpt.nonConformingFloatDecodingStrategy = strategy
                foundation.nonConformingFloatDecodingStrategy = strategy
            }
            #expect(sculpt == foundation, "\(json) converting: \(convert)")
        }
    }

    struct ReadsUserInfo: Decodable {
        let flag: String
        init(from decoder: any Decoder) throws {
            flag = decoder.userInfo[CodingUserInfoKey(rawValue: "flag")!] as? String ?? "none"
        }
    }

    @Test("userInfo reaches every type's decoder")
    func userInfo() throws {
        var sculpt = SculptJSONDecoder()
        let key = try #require(CodingUserInfoKey(rawValue: "flag"))
        sculpt.userInfo = [key: "set"]
        #expect(try sculpt.decode([ReadsUserInfo].self, from: Data("[1,{}]".utf8)).map(\.flag) == ["set", "set"])
    }

    // MARK: - Containers

    /// A type that reads its containers by hand, as custom inits do.
    struct Manual: Decodable, CustomStringConvertible {
        var description: String
        init(from decoder: any Decoder) throws {
            var parts: [String] = []
            let keyed = try decoder.container(keyedBy: DictionaryKeyForTests.self)
            parts.append("keys \(keyed.allKeys.map(\.stringValue).sorted())")
            let missing = DictionaryKeyForTests(stringValue: "missing")
            parts.append("contains missing \(keyed.contains(missing))")
            parts.append("nil a \((try? keyed.decodeNil(forKey: DictionaryKeyForTests(stringValue: "a"))).map(String.init) ?? "throws")")
            if var list = try? keyed.nestedUnkeyedContainer(forKey: DictionaryKeyForTests(stringValue: "list")) {
                parts.append("count \(String(describing: list.count))")
                while !list.isAtEnd {
                    if (try? list.decodeNil()) == true { parts.append("null"); continue }
                    if let number = try? list.decode(Int.self) { parts.append("int \(number)"); continue }
                    if let inner = try? list.nestedContainer(keyedBy: DictionaryKeyForTests.self) {
                        parts.append("object \(inner.allKeys.count)")
                        continue
                    }
                    let text = try list.decode(String.self)
                    parts.append("string \(text)")
                }
                parts.append("end \(list.currentIndex)")
                parts.append("past end \(String(describing: (try? list.decode(Int.self))))")
            }
            let superDecoder = try keyed.superDecoder(forKey: missing)
            parts.append("super of missing is nil: \(try superDecoder.singleValueContainer().decodeNil())")
            description = parts.joined(separator: "; ")
        }
    }

    @Test("hand-written containers see the same keys, counts, nulls and ends", arguments: [
        #"{"a":null,"list":[1,null,"x",{"k":1},2]}"#, #"{"a":1,"list":[]}"#, #"{"list":[true]}"#, #"{"a":1,"a":2,"list":[1]}"#,
    ])
    func containers(_ json: String) {
        let (sculpt, foundation) = agreement(Manual.self, Data(json.utf8))
        #expect(sculpt == foundation, "\(json)")
    }

    @Test("a decoder kept past the decode still reads its value")
    func keptDecoder() throws {
        struct Keeper: Decodable {
            let decoder: any Decoder
            init(from decoder: any Decoder) throws {
                self.decoder = try decoder.container(keyedBy: DictionaryKeyForTests.self).superDecoder(forKey: DictionaryKeyForTests(stringValue: "a"))
            }
        }
        let kept = try SculptJSONDecoder().decode(Keeper.self, from: Data(#"{"a":{"b":"still here"}}"#.utf8))
        let value = try kept.decoder.container(keyedBy: DictionaryKeyForTests.self).decode(String.self, forKey: DictionaryKeyForTests(stringValue: "b"))
        #expect(value == "still here")
    }

    @Test("a container kept past the decode still reads its values (the text is copied for it, and only then)")
    func keptContainer() throws {
        struct Keeper: Decodable {
            let container: KeyedDecodingContainer<DictionaryKeyForTests>
            init(from decoder: any Decoder) throws {
                container = try decoder.container(keyedBy: DictionaryKeyForTests.self)
            }
        }
        var data = Data(#"{"b":"still here","n":[1,2]}"#.utf8)
        let kept = try SculptJSONDecoder().decode(Keeper.self, from: data)
        data.resetBytes(in: 0..<data.count)
        #expect(try kept.container.decode(String.self, forKey: DictionaryKeyForTests(stringValue: "b")) == "still here")
        #expect(try kept.container.decode([Int].self, forKey: DictionaryKeyForTests(stringValue: "n")) == [1, 2])
    }

    @Test("UTF-16, UTF-32 and byte order marks are read as JSONDecoder reads them", arguments: [
        String.Encoding.utf8, .utf16, .utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian,
    ])
    func encodings(_ encoding: String.Encoding) throws {
        let data = try #require(#"{"id":1,"title":"é","tags":["日本"]}"#.data(using: encoding))
        let (sculpt, foundation) = agreement(Item.self, data)
        #expect(sculpt == foundation)
        let marked = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"id":1,"title":"a","tags":[]}"#.utf8)
        let (sculptMarked, foundationMarked) = agreement(Item.self, marked)
        #expect(sculptMarked == foundationMarked)
    }

    @Test("short bodies with zero bytes and odd lengths are read, or refused, as JSONDecoder reads them", arguments: [
        [0x00, 0x30, 0xCC], [0x00, 0x31, 0x20], [0x31, 0x00, 0x20], [0x00, 0x31, 0x00], [0x00, 0x31], [0x31, 0x00],
        [0x00, 0x31, 0x00, 0x32, 0xCC], [0x31, 0x00, 0x32, 0x00, 0xCC], [0xFE, 0xFF, 0x00, 0x31, 0xCC], [0x00, 0x00, 0x00, 0x31, 0x00],
        [0x00, 0x31, 0x00, 0x20, 0xD8, 0x00], [0x22, 0x00, 0x22], [0x30], [],
    ] as [[UInt8]])
    func shortBodies(_ bytes: [UInt8]) {
        for (type, sculpt, foundation) in Self.strictAnswers(Data(bytes)) {
            #expect(sculpt == foundation, "\(bytes) as \(type)")
        }
    }

    // MARK: - Edge cases

    /// Reads `[null]` with `decodeIfPresent` of one type until past the end and reports the
    /// indexes it passes: JSONDecoder's `decodeIfPresent` moves on even at the end, for every type.
    struct PastTheEnd: Decodable {
        let indexes: [Int]
        init(from decoder: any Decoder) throws {
            let type = decoder.userInfo[PastTheEnd.typeKey] as? String
            var list = try decoder.unkeyedContainer()
            var indexes: [Int] = []
            for _ in 0..<3 {
                switch type {
                case "Float": _ = try list.decodeIfPresent(Float.self)
                case "Double": _ = try list.decodeIfPresent(Double.self)
                case "Int8": _ = try list.decodeIfPresent(Int8.self)
                case "Int16": _ = try list.decodeIfPresent(Int16.self)
                case "Int32": _ = try list.decodeIfPresent(Int32.self)
                case "Int64": _ = try list.decodeIfPresent(Int64.self)
                case "UInt": _ = try list.decodeIfPresent(UInt.self)
                case "UInt8": _ = try list.decodeIfPresent(UInt8.self)
                case "UInt16": _ = try list.decodeIfPresent(UInt16.self)
                case "UInt32": _ = try list.decodeIfPresent(UInt32.self)
                case "UInt64": _ = try list.decodeIfPresent(UInt64.self)
                case "Bool": _ = try list.decodeIfPresent(Bool.self)
                case "String": _ = try list.decodeIfPresent(String.self)
                default: _ = try list.decodeIfPresent(Int.self)
                }
                indexes.append(list.currentIndex)
            }
            self.indexes = indexes
        }

        static let typeKey = CodingUserInfoKey(rawValue: "type")!
    }

    @Test("decodeIfPresent past the end of an array moves on for every type, as JSONDecoder's does", arguments: [
        "Float", "Double", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Bool", "String",
    ])
    func decodeIfPresentPastTheEnd(_ type: String) throws {
        let data = Data("[null]".utf8)
        var sculpt = SculptJSONDecoder()
        sculpt.userInfo = [PastTheEnd.typeKey: type]
        let foundation = JSONDecoder()
        foundation.userInfo = [PastTheEnd.typeKey: type]
        #expect(try sculpt.decode(PastTheEnd.self, from: data).indexes == [1, 2, 3])
        #expect(try foundation.decode(PastTheEnd.self, from: data).indexes == [1, 2, 3])
    }

    @Test("a non-conforming float's name matches byte for byte: a decomposed é is not the strategy's precomposed one",
          arguments: [#"["e\#u{301}"]"#, #"["\#u{E9}"]"#, #"["e\u0301"]"#, #"["\u00E9"]"#])
    func nonConformingFloatBytes(_ json: String) {
        let strategy = JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "\u{E9}")
        let configure = { (sculpt: inout SculptJSONDecoder, foundation: JSONDecoder) in
            sculpt.nonConformingFloatDecodingStrategy = strategy
            foundation.nonConformingFloatDecodingStrategy = strategy
        }
        let (sculpt, foundation) = agreement([Double].self, Data(json.utf8), configure: configure)
        #expect(sculpt == foundation)
        let (sculptFloat, foundationFloat) = agreement([Float].self, Data(json.utf8), configure: configure)
        #expect(sculptFloat == foundationFloat)
    }

    /// Opens its container twice and, each time, a nested one twice, as some hand-written inits do.
    struct Reopens: Decodable {
        init(from decoder: any Decoder) throws {
            for _ in 0..<2 {
                let container = try decoder.container(keyedBy: DictionaryKeyForTests.self)
                for _ in 0..<2 {
                    _ = try container.nestedContainer(keyedBy: DictionaryKeyForTests.self, forKey: DictionaryKeyForTests(stringValue: "o"))
                }
            }
        }
    }

    @Test("a custom key converter is called for every key each time a container is made, as JSONDecoder calls it")
    func customKeyCalls() throws {
        final class Log: @unchecked Sendable {
            let lock = NSLock()
            var paths: [String] = []
            func append(_ path: String) { lock.withLock { paths.append(path) } }
        }
        func calls(_ decode: (JSONDecoder.KeyDecodingStrategy) throws -> Void) throws -> [String] {
            let log = Log()
            try decode(.custom { path in
                log.append(path.map(\.stringValue).joined(separator: "/"))
                return path.last ?? DictionaryKeyForTests(stringValue: "")
            })
            return log.paths
        }
        let data = Data(#"{"x":1,"o":{"p":2,"P":3}}"#.utf8)
        let sculpt = try calls { strategy in
            var decoder = SculptJSONDecoder()
            decoder.keyDecodingStrategy = strategy
            _ = try decoder.decode(Reopens.self, from: data)
        }
        let foundation = try calls { strategy in
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = strategy
            _ = try decoder.decode(Reopens.self, from: data)
        }
        #expect(sculpt == foundation)
        #expect(sculpt.count == 12)
    }

    @Test("a [String: T] is read as JSONDecoder reads it: under the default keys only a name's first value, under a strategy every value",
          arguments: [#"{"a":1,"a":"x"}"#, #"{"a":"x","a":1}"#, #"{"b":1,"a":2,"b":3}"#, #"{"caf\u00e9":1,"cafe\u0301":"x"}"#, #"{"1":"x"}"#, "null", "[]", #"{"a":null}"#,
                     // under a strategy a value's error comes before a later invalid name's.
                     #"{"a":{},"\q":1}"#, #"{"a":"x","\ud800":1}"#, "{\"a\":[],\"\u{01}\":1}"])
    func stringKeyedDictionaries(_ json: String) {
        for strategy in ["default", "snake"] {
            let configure = { (sculpt: inout SculptJSONDecoder, foundation: JSONDecoder) in
                if strategy == "snake" {
                    sculpt.keyDecodingStrategy = .convertFromSnakeCase
                    foundation.keyDecodingStrategy = .convertFromSnakeCase
                }
            }
            let (sculpt, foundation) = agreement([String: Int].self, Data(json.utf8), configure: configure)
            #expect(sculpt == foundation, "\(strategy)")
            let (sculptNested, foundationNested) = agreement([String: [String: Int?]].self, Data(#"{"outer":\#(json)}"#.utf8), configure: configure)
            #expect(sculptNested == foundationNested, "\(strategy), nested")
        }
    }

    @Test("a dictionary's key in an error's coding path has the intValue JSONDecoder's has")
    func dictionaryKeyInPath() throws {
        func lastKey(_ decode: () throws -> [String: Int]) -> (String, Int?)? {
            do {
                _ = try decode()
                return nil
            } catch let DecodingError.typeMismatch(_, context) {
                return context.codingPath.last.map { ($0.stringValue, $0.intValue) }
            } catch {
                return nil
            }
        }
        let data = Data(#"{"12":"x"}"#.utf8)
        let sculpt = lastKey { try SculptJSONDecoder().decode([String: Int].self, from: data) }
        let foundation = lastKey { try JSONDecoder().decode([String: Int].self, from: data) }
        #expect(sculpt?.0 == "12" && sculpt?.1 == 12)
        #expect(sculpt?.0 == foundation?.0 && sculpt?.1 == foundation?.1)
    }

    @Test("nesting: 512 levels decode, 513 do not", arguments: [511, 512, 513])
    func nesting(_ depth: Int) {
        let data = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        let (sculpt, foundation) = agreement(AnyJSON.self, data)
        #expect(sculpt == foundation)
    }
}

/// A coding key for any name, for tests' hand-written containers.
struct DictionaryKeyForTests: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
