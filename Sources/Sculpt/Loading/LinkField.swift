import Foundation
internal import HTTPTypes

/// The links of `Link` fields (RFC 8288): `<https://api.github.com/repositories/1/issues?page=2>;
/// rel="next", <...>; rel="last"`.
///
/// ```swift
/// LinkField.target(rel: "next", in: response.headerFields, base: response.url)   // .../issues?page=2
/// ```
enum LinkField {
    /// The target of the first link with relation type `rel` (compared case-insensitively, among
    /// the space-separated types of a `rel` parameter), resolved against `base`; `nil` when there
    /// is none or it is not an `http` or `https` URL.
    static func target(rel: String, in fields: HTTPFields, base: URL?) -> URL? {
        for value in fields[values: .literal("Link")] {
            for link in links(value) where link.relations.contains(rel.lowercased()) {
                guard let url = URL(string: link.target, relativeTo: base)?.absoluteURL,
                    let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
                else { continue }
                return url
            }
        }
        return nil
    }

    /// Each `<target>; parameters` of one field value, with its lowercased relation types.
    private static func links(_ value: String) -> [(target: String, relations: Set<String>)] {
        var links: [(target: String, relations: Set<String>)] = []
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let target = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            // The parameters run to the next comma outside a quoted string.
            var end = rest.endIndex
            var quoted = false
            for index in rest.indices {
                if rest[index] == "\"" { quoted.toggle() }
                if rest[index] == ",", !quoted {
                    end = index
                    break
                }
            }
            links.append((target, relations(in: rest[..<end])))
            rest = rest[end...]
        }
        return links
    }

    /// The relation types of a link's parameters (`; rel="next last"`); a `;` inside a quoted
    /// string (`title="a;rel=next"`) does not end a parameter.
    private static func relations(in parameters: Substring) -> Set<String> {
        var pieces: [Substring] = []
        var start = parameters.startIndex
        var quoted = false
        for index in parameters.indices {
            if parameters[index] == "\"" { quoted.toggle() }
            if parameters[index] == ";", !quoted {
                pieces.append(parameters[start..<index])
                start = parameters.index(after: index)
            }
        }
        pieces.append(parameters[start...])
        for parameter in pieces {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return Set(value.lowercased().split(separator: " ").map(String.init))
        }
        return []
    }
}
