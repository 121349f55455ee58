import ArgumentParser
import HTTPTypes
import SculptShared
import SculptTesting

/// The names a team redacts beside Sculpt's own: what `record` redacts and what `check` looks for
/// under, given the same way to both.
struct RedactionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Also redact this header (repeatable).", valueName: "name"))
    var redactHeader: [String] = []

    @Option(help: ArgumentHelp("Also redact this query parameter or form field (repeatable).", valueName: "name"))
    var redactParameter: [String] = []

    @Option(help: ArgumentHelp("Also redact this JSON member, at any depth (repeatable).", valueName: "name"))
    var redactField: [String] = []

    func validate() throws {
        for name in redactHeader where HTTPField.Name(name) == nil {
            throw ValidationError("--redact-header \"\(PrintableText.value(name, limit: 256))\" is not a header name")
        }
    }

    /// Sculpt's redaction with these names added.
    var redaction: Redaction {
        Redaction(headers: redactHeader.compactMap { HTTPField.Name($0) }, queryParameters: redactParameter, bodyFields: redactField)
    }
}
