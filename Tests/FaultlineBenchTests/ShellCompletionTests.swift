import Foundation
import Testing

/// The completion scripts the built `faultline` prints, run by the shells
/// themselves: what each offers after a partial command line. A shell that
/// is not installed is skipped with one line saying so.
@Suite("faultline completion scripts complete commands, subcommands and flags in bash, zsh and fish")
struct ShellCompletionTests {
    static let tool = ExecutableHelpTests.folder.appendingPathComponent("faultline").path

    /// Each partial line (its last word being completed) and the words every shell must offer.
    static let cases: [(line: [String], offers: [String])] = [
        (["faultline", ""], ["model", "store", "predicate", "bench", "completion"]),
        (["faultline", "mo"], ["model"]),
        (["faultline", "model", ""], ["inspect", "diff", "generate", "validate"]),
        (["faultline", "bench", "g"], ["gate"]),
        (["faultline", "bench", "gate", "a.json", "--f"], ["--format"]),
        (["faultline", "store", "inspect", "x.sqlite", "--m"], ["--model"]),
        (["faultline", "completion", ""], ["bash", "zsh", "fish"]),
    ]

    private func shell(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private func output(_ shell: String, _ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    private func words(_ line: [String]) -> String { line.map { "'\($0)'" }.joined(separator: " ") }

    private func check(_ shell: String, offers: (_ line: [String]) throws -> String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.tool), "\(Self.tool) is not built")
        for (line, expected) in Self.cases {
            let offered = Set(try offers(line).split(whereSeparator: \.isWhitespace).map(String.init))
            for word in expected { #expect(offered.contains(word), "\(shell) \(line): offered \(offered.sorted())") }
            if let last = line.last, !last.isEmpty {
                #expect(offered.allSatisfy { $0.hasPrefix(last) }, "\(shell) \(line): offered \(offered.sorted())")
            }
        }
    }

    @Test("bash")
    func bash() throws {
        guard let bash = shell("bash") else { print("bash is not installed: skipped"); return }
        try check("bash") { line in
            try output(bash, """
                source <('\(Self.tool)' completion bash)
                COMP_WORDS=(\(words(line))); COMP_CWORD=\(line.count - 1); _faultline; echo "${COMPREPLY[*]}"
                """)
        }
    }

    @Test("zsh, through bashcompinit, as its completion system calls the function")
    func zsh() throws {
        guard let zsh = shell("zsh") else { print("zsh is not installed: skipped"); return }
        try check("zsh") { line in
            // bashcompinit calls the function under sh emulation (0-based arrays)
            // and filters the candidates itself, so only the expected words are checked.
            try output(zsh, """
                source <('\(Self.tool)' completion zsh)
                emulate -L sh; setopt kshglob noshglob braceexpand
                COMP_WORDS=(\(words(line))); COMP_CWORD=\(line.count - 1); _faultline
                for w in "${COMPREPLY[@]}"; do case "$w" in "${COMP_WORDS[$COMP_CWORD]}"*) echo "$w";; esac; done
                """)
        }
    }

    @Test("fish")
    func fish() throws {
        guard let fish = shell("fish") else { print("fish is not installed: skipped"); return }
        try check("fish") { line in
            let script = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-\(UUID().uuidString).fish")
            defer { try? FileManager.default.removeItem(at: script) }
            _ = try output(fish, "'\(Self.tool)' completion fish > '\(script.path)'")
            let commandLine = line.joined(separator: " ")
            // fish prints each candidate with its description after a tab.
            return try output(fish, "source '\(script.path)'; complete -C '\(commandLine)'")
                .split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) ?? "" }.joined(separator: " ")
        }
    }
}
