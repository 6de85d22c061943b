/// The words of a command line taken from the front, with the rules every
/// command shares for a flag's value: it is the next word, it must be there,
/// and a word that is itself a flag is never taken as one (`--markdown --html
/// x` is a missing path, not a file named `--html`).
///
/// A command may also take some flags' values attached, `--flag=value`: the
/// word reads as the flag, then its value, taken as given even when it
/// starts with `--`. Only the flags it names (`attachable`), all of which take
/// a value: `--list=x` stays one unknown word rather than a flag whose value
/// nothing reads.
///
/// A flag's value is taken once: a second `--iterations` or `--output` is
/// refused ("given twice") rather than silently replacing the first. A flag
/// that gathers (a list, `--var NAME=VALUE`) reads through `list(for:)` or
/// `repeatedValue(for:)`, which may be given again.
public struct ArgumentScanner {
    private var remaining: ArraySlice<String>
    private let attachable: Set<String>
    /// The flags whose single value was taken.
    private var taken: Set<String> = []
    /// The value split off the last `--flag=value`, until `value(for:)` takes it.
    private var attached: String?

    public init(_ arguments: some Sequence<String>, attachable: Set<String> = []) {
        remaining = ArraySlice(arguments)
        self.attachable = attachable
    }

    public mutating func next() -> String? {
        // A value no case took (an attachable flag read as taking none) is
        // the next word, as it would have been given apart.
        if let value = attached {
            attached = nil
            return value
        }
        guard let word = remaining.popFirst() else { return nil }
        guard Self.isOption(word), let equals = word.firstIndex(of: "="),
              attachable.contains(String(word[..<equals]))
        else { return word }
        attached = String(word[word.index(after: equals)...])
        return String(word[..<equals])
    }

    public static func isOption(_ word: String) -> Bool { word.hasPrefix("--") && word != "--" }

    /// `word` as an operand (a file, a path), refused when it is an option no
    /// command case took: an unknown flag is never read as a file name.
    public static func operand(_ word: String) throws(UsageError) -> String {
        guard !isOption(word) else { throw .unknownOption(word) }
        return word
    }

    public mutating func value(for flag: String) throws(UsageError) -> String {
        guard taken.insert(flag).inserted else { throw UsageError("\(flag) given twice") }
        return try repeatedValue(for: flag)
    }

    /// The value of a flag that may be given more than once, each time adding one.
    public mutating func repeatedValue(for flag: String) throws(UsageError) -> String {
        if let value = attached {
            attached = nil
            guard !value.isEmpty else { throw UsageError("\(flag)= needs a value after the '='") }
            return value
        }
        guard let value = remaining.first else { throw UsageError("\(flag) needs a value") }
        guard !Self.isOption(value) else { throw UsageError("\(flag) needs a value, got the option '\(value)'") }
        remaining.removeFirst()
        return value
    }

    public mutating func integer(for flag: String, atLeast minimum: Int) throws(UsageError) -> Int {
        let text = try value(for: flag)
        guard let number = Int(text), number >= minimum else {
            throw UsageError("\(flag) needs an integer ≥ \(minimum), got '\(text)'")
        }
        return number
    }

    /// A finite number from `minimum` on, or above it when `inclusive` is false.
    public mutating func number(for flag: String, minimum: Double, inclusive: Bool = true) throws(UsageError) -> Double {
        let text = try value(for: flag)
        guard let number = Double(text), number.isFinite, inclusive ? number >= minimum : number > minimum else {
            throw UsageError("\(flag) needs a number \(inclusive ? "≥" : ">") \(minimum.formatted), got '\(text)'")
        }
        return number
    }

    /// A value that must be one of a closed set of names.
    public mutating func choice<Choice: CaseIterable & RawRepresentable<String>>(
        for flag: String, kind: String, as type: Choice.Type = Choice.self
    ) throws(UsageError) -> Choice {
        try Self.choice(try value(for: flag), for: flag, kind: kind, as: type)
    }

    /// A comma-separated list of names from a closed set.
    public mutating func choices<Choice: CaseIterable & RawRepresentable<String>>(
        for flag: String, kind: String, as type: Choice.Type = Choice.self
    ) throws(UsageError) -> [Choice] {
        try list(for: flag).map { name throws(UsageError) in try Self.choice(name, for: flag, kind: kind, as: type) }
    }

    private static func choice<Choice: CaseIterable & RawRepresentable<String>>(
        _ text: String, for flag: String, kind: String, as _: Choice.Type
    ) throws(UsageError) -> Choice {
        guard let choice = Choice(rawValue: text) else {
            throw .unknownValue(text, for: flag, kind: kind, allowed: Choice.allCases.map(\.rawValue))
        }
        return choice
    }

    /// A comma-separated list that names at least one item (`--metric ,` names none).
    public mutating func list(for flag: String) throws(UsageError) -> [String] {
        let text = try repeatedValue(for: flag)
        let items = text.split(separator: ",").map(String.init)
        guard !items.isEmpty else { throw UsageError("\(flag) needs at least one name, got '\(text)'") }
        return items
    }
}

extension Double {
    /// `5` rather than `5.0`, as a user would write it.
    fileprivate var formatted: String { rounded() == self && magnitude < 1e15 ? String(Int(self)) : String(self) }
}
