/// The Faulting suite's own flags, taken off the command line before the rest
/// goes to `BenchmarkSuite.run`:
///
///     --graph 1000x100x10   the shape (PARENTSxFANOUT[xFANOUT])
///     --touch 0.1           the fraction of parents touched; a list (0.01,0.1,0.5,1)
///                           sweeps it: one profile per fraction, and the suite
///                           reports where the cheapest strategy changes
///     --keypaths books      key paths walked from each touched parent (comma-separated)
///     --order random        random (seeded) or sequential
///
/// With none of them the default quick profile runs; with any, one profile of
/// that shape (missing values from `ProfilerArguments.defaults`).
public struct ProfilerArguments: Equatable {
    public struct Profile: Equatable, Sendable {
        public let shape: GraphShape
        public let pattern: AccessPattern
    }

    public static let flags = ["--graph", "--touch", "--keypaths", "--order"] + ModelProfileRequest.flags
    public static let defaults = (touch: "0.1", order: "random", keyPaths: "books")

    /// Profiles of generated graphs; empty when `--model` asks for a model profile.
    public let profiles: [Profile]
    public let modelProfile: ModelProfileRequest?
    /// The arguments left for `BenchmarkSuite.run`.
    public let remaining: [String]
    /// The profiler's own flags as given: what a child running the suite again
    /// (`--instructions`) needs to declare the same lines.
    public let own: [String]

    public static let usage = """
        Faulting flags: --graph PARENTSxFANOUT[xFANOUT] (e.g. 1000x100x10), --touch FRACTION (0, 1]
          or a sweep FRACTION,FRACTION,… (e.g. 0.01,0.1,0.5,1: one profile each, and where the
          cheapest strategy changes), --keypaths books|books.chapters[,…], --order random|sequential
        Your own model: --model PATH (.xcdatamodeld, .xcdatamodel or contents) [--version NAME]
          --entity NAME --keypaths a,b.c [--touch F] [--order O], and either --store STORE
          (a Core Data SQLite store; a copy is profiled) or synthetic data: [--objects N]
          objects of the entity (default 1000) with [--fanout F] per to-many (default 10).
          --store without --model uses the model Core Data cached in the store.
        """

    public init(parsing arguments: [String]) throws(ObjectGraphInputError) {
        var values: [String: String] = [:]
        var remaining: [String] = []
        var own: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let flag = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            guard Self.flags.contains(flag) else {
                remaining.append(argument)
                index += 1
                continue
            }
            guard values[flag] == nil else { throw ObjectGraphInputError("\(flag) given twice") }
            if flag != argument {
                values[flag] = String(argument.dropFirst(flag.count + 1))
                own.append(argument)
                index += 1
            } else {
                guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else {
                    throw ObjectGraphInputError("\(flag) needs a value")
                }
                values[flag] = arguments[index + 1]
                own += [argument, arguments[index + 1]]
                index += 2
            }
        }
        self.remaining = remaining
        self.own = own
        if values["--model"] != nil || values["--store"] != nil {
            guard !(values["--touch"] ?? "").contains(",") else {
                // One copy of the user's store (or one synthetic data set) per run; a sweep would need one per fraction.
                throw ObjectGraphInputError("a --touch sweep profiles the generated graph; with --model or --store give one fraction per run")
            }
            guard values["--graph"] == nil else {
                throw ObjectGraphInputError("--graph profiles the generated graph; with --model or --store the model gives the shape")
            }
            modelProfile = try ModelProfileRequest(values)
            profiles = []
            return
        }
        for flag in ModelProfileRequest.flags where values[flag] != nil {
            throw ObjectGraphInputError("\(flag) needs --model or --store")
        }
        modelProfile = nil
        if values.isEmpty {
            profiles = try Self.defaultProfiles()
            return
        }
        let shape = try GraphShape(parsing: values["--graph"] ?? "1000x100")
        let fractions = (values["--touch"] ?? Self.defaults.touch).split(separator: ",", omittingEmptySubsequences: false)
        var profiles: [Profile] = []
        for fraction in fractions {
            let pattern = try AccessPattern(
                touch: String(fraction),
                order: values["--order"] ?? Self.defaults.order,
                keyPaths: values["--keypaths"] ?? Self.defaults.keyPaths)
            try Self.check(shape, pattern)
            guard !profiles.contains(where: { $0.pattern.fraction == pattern.fraction }) else {
                throw ObjectGraphInputError("--touch names \(fraction) twice")
            }
            profiles.append(Profile(shape: shape, pattern: pattern))
        }
        self.profiles = profiles.sorted { $0.pattern.fraction < $1.pattern.fraction }
    }

    /// The quick profile: 1,000 × 100 with 10 % touched through `books`, and a
    /// smaller three-level graph walked through `books.chapters`.
    public static func defaultProfiles() throws(ObjectGraphInputError) -> [Profile] {
        [
            Profile(shape: try GraphShape(parents: 1_000, fanOuts: [100]),
                    pattern: try AccessPattern(fraction: 0.1, order: .random, keyPaths: ["books"])),
            Profile(shape: try GraphShape(parents: 200, fanOuts: [20, 10]),
                    pattern: try AccessPattern(fraction: 0.1, order: .random, keyPaths: ["books.chapters"])),
        ]
    }

    static func check(_ shape: GraphShape, _ pattern: AccessPattern) throws(ObjectGraphInputError) {
        guard pattern.depth < shape.depth else {
            throw ObjectGraphInputError(
                "--keypaths \(pattern.keyPaths.joined(separator: ",")) needs a graph of \(pattern.depth + 1) levels; --graph \(shape) has \(shape.depth)")
        }
    }
}
