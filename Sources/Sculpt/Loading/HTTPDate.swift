import Foundation

/// Dates as HTTP writes them (RFC 9110, section 5.6.7): IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), and the obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`)
/// and asctime (`Sun Nov  6 08:49:37 1994`) forms, which a recipient must also read.
///
/// ```swift
/// HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")   // 1994-11-06 08:49:37 +0000
/// ```
enum HTTPDate {
    /// The date, or `nil` when `text` is in none of the three forms.
    static func parse(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        switch words.count {
        case 5 where words[1].contains("-"):
            // RFC 850: weekday, DD-Mon-YY, time, GMT.
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3, words[3] == "GMT", let year = Int(parts[2]), parts[2].count == 2 else { return nil }
            // Two-digit years: RFC 9110 reads one more than 50 years ahead as the past century.
            let current = calendar.component(.year, from: Date())
            var full = current / 100 * 100 + year
            if full > current + 50 { full -= 100 }
            return date(day: parts[0], month: parts[1], year: full, time: words[2])
        case 6 where words[5] == "GMT":
            // IMF-fixdate: weekday, DD, Mon, YYYY, time, GMT.
            guard let year = Int(words[3]), words[3].count == 4 else { return nil }
            return date(day: words[1], month: words[2], year: year, time: words[4])
        case 5:
            // asctime: weekday, Mon, D, time, YYYY.
            guard let year = Int(words[4]), words[4].count == 4 else { return nil }
            return date(day: words[2], month: words[1], year: year, time: words[3])
        default:
            return nil
        }
    }

    /// The Gregorian calendar in UTC, as HTTP dates are.
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func date(day: String, month: String, year: Int, time: String) -> Date? {
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard let day = Int(day), (1...31).contains(day), let month = months.firstIndex(of: month.lowercased()),
            clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        let components = DateComponents(year: year, month: month + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2])
        return calendar.date(from: components)
    }
}
