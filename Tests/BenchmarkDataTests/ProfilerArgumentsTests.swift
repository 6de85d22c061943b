import BenchmarkData
import Testing

@Suite("The Faulting suite's command line")
struct ProfilerArgumentsTests {
    @Test("Profiler flags are taken off and kept as given; the rest goes to the harness")
    func strips() throws {
        let parsed = try ProfilerArguments(parsing: [
            "--iterations", "5", "--graph", "1000x100x10", "--touch=0.2", "--keypaths", "books,books.chapters",
            "--order", "sequential", "--quiet",
        ])
        #expect(parsed.remaining == ["--iterations", "5", "--quiet"])
        // What the --instructions child gets again, as given.
        #expect(parsed.own == ["--graph", "1000x100x10", "--touch=0.2", "--keypaths", "books,books.chapters", "--order", "sequential"])
        let profile = try #require(parsed.profiles.first)
        #expect(parsed.profiles.count == 1)
        #expect(profile.shape == (try GraphShape(parsing: "1000x100x10")))
        #expect(profile.pattern.fraction == 0.2)
        #expect(profile.pattern.order == .sequential)
        #expect(profile.pattern.keyPaths == ["books", "books.chapters"])
    }

    @Test("No profiler flag: the quick default profiles; one flag: defaults for the others")
    func defaults() throws {
        let quick = try ProfilerArguments(parsing: ["--iterations", "5"])
        #expect(quick.profiles.map(\.shape.description) == ["1000x100", "200x20x10"])
        let one = try ProfilerArguments(parsing: ["--graph", "50x5"])
        #expect(one.profiles.first?.pattern.keyPaths == ["books"])
        #expect(one.profiles.first?.pattern.order == .random)
    }

    @Test("Missing values and key paths deeper than the graph are errors", arguments: [
        ["--graph"], ["--graph", "--touch", "0.1"], ["--graph", "100x10", "--keypaths", "books.chapters"],
        ["--touch", "2"], ["--order", "backwards"], ["--graph", "10"],
    ])
    func refuses(_ arguments: [String]) {
        #expect(throws: ObjectGraphInputError.self) { try ProfilerArguments(parsing: arguments) }
    }

    @Test("A profiler flag given twice is refused, not replaced by the second", arguments: [
        ["--graph", "10x2", "--graph", "20x2"], ["--touch", "0.1", "--touch=0.5"], ["--order", "random", "--order", "sequential"],
    ])
    func givenTwice(_ arguments: [String]) {
        #expect(throws: ObjectGraphInputError("\(arguments[0]) given twice")) { try ProfilerArguments(parsing: arguments) }
    }
}
