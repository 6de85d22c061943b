/// The shell completion a tool's command table describes: command names first,
/// then a command's subcommands (or a group's commands), then the flags its
/// usage names, and file names wherever an operand may stand.
public enum CompletionScript {
    public enum Shell: String, CaseIterable, Sendable { case bash, zsh, fish }

    public static func script(for tool: CommandTool, shell: Shell) -> String {
        switch shell {
        case .bash: bash(tool)
        // zsh runs the bash script through bashcompinit, which needs compinit's compdef.
        case .zsh:
            "(( $+functions[compdef] )) || { autoload -U +X compinit && compinit; }\n"
                + "autoload -U +X bashcompinit && bashcompinit\n" + bash(tool)
        case .fish: fish(tool)
        }
    }

    private static func function(_ tool: CommandTool) -> String {
        "_" + tool.name.map { $0.isLetter || $0.isNumber ? $0 : "_" }.map(String.init).joined()
    }

    private static func words(_ list: [String]) -> String { list.joined(separator: " ") }

    /// One `case` per command: the words offered at the second position, and
    /// after it; a group's children get a nested `case` on the third word.
    private static func bash(_ tool: CommandTool) -> String {
        var cases: [String] = []
        for command in tool.commands {
            let second = command.subcommands.isEmpty ? command.flags : command.subcommands + ["--help"]
            var body = "            if [[ $COMP_CWORD -eq 2 ]]; then words=\"\(words(second))\"\n"
            if command.children.isEmpty {
                body += "            else words=\"\(words(command.flags))\"; files=1; fi\n"
            } else {
                body += "            else case \"${COMP_WORDS[2]}\" in\n"
                for child in command.children {
                    body += "                \(child.name)) words=\"\(words(child.flags))\"; files=1 ;;\n"
                }
                body += "            esac; fi\n"
            }
            cases.append("        \(command.name))\n\(body)            ;;")
        }
        let name = function(tool)
        return """
            # \(tool.name) completion for bash: source it, or save it where bash-completion looks
            \(name)() {
                local cur=${COMP_WORDS[COMP_CWORD]} words="" files=0
                if [[ $COMP_CWORD -eq 1 ]]; then
                    words="\(words(tool.commands.map(\.name) + ["--help"]))"
                else
                    case "${COMP_WORDS[1]}" in
            \(cases.joined(separator: "\n"))
                    esac
                fi
                COMPREPLY=($(compgen -W "$words" -- "$cur"))
                if [[ $files -eq 1 && $cur != -* ]]; then COMPREPLY+=($(compgen -f -- "$cur")); fi
            }
            complete -o filenames -F \(name) \(tool.name)

            """
    }

    private static func fish(_ tool: CommandTool) -> String {
        var lines = ["# \(tool.name) completion for fish: save as ~/.config/fish/completions/\(tool.name).fish"]
        let top = words(tool.commands.map(\.name))
        lines.append("complete -c \(tool.name) -f -n '__fish_use_subcommand' -a '\(top)'")
        for command in tool.commands {
            let after = "__fish_seen_subcommand_from \(command.name)"
            if !command.subcommands.isEmpty {
                let subcommands = words(command.subcommands)
                lines.append("complete -c \(tool.name) -f -n '\(after); and not __fish_seen_subcommand_from \(subcommands)' -a '\(subcommands)'")
            }
            for child in command.children {
                for flag in child.flags {
                    lines.append("complete -c \(tool.name) -n '\(after); and __fish_seen_subcommand_from \(child.name)' -l \(flag.dropFirst(2))")
                }
            }
            for flag in command.flags where command.children.isEmpty {
                lines.append("complete -c \(tool.name) -n '\(after)' -l \(flag.dropFirst(2))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension CompletionScript {
    /// `PROGRAM completion bash|zsh|fish`: the script completing `commands`
    /// and this command itself.
    public static func command(completing commands: [ToolCommand], of programName: String) -> ToolCommand {
        let usage = """
            usage: \(programName) completion bash|zsh|fish
              prints the shell completion script for \(programName): its commands, their
              subcommands and flags, and file names where a command takes a path
                bash   source <(\(programName) completion bash), or save it in
                       /usr/share/bash-completion/completions/\(programName)
                zsh    source <(\(programName) completion zsh) in ~/.zshrc (bash completion
                       through zsh's bashcompinit)
                fish   \(programName) completion fish > ~/.config/fish/completions/\(programName).fish
            \(CommandLineHelp.usageLine)
            exit status: 0 success, 2 bad usage
            """
        let summary = "prints a shell completion script (bash, zsh or fish)"
        let shells = Shell.allCases.map(\.rawValue)
        let listed = ToolCommand(name: "completion", summary: summary, usage: usage, subcommands: shells) { _, _ in 0 }
        let tool = CommandTool(name: programName, commands: commands + [listed])
        return ToolCommand(name: "completion", summary: summary, usage: usage, subcommands: shells) { arguments, write in
            if let status = CommandLineHelp.answer(arguments, usage: usage, write: write) { return status }
            guard arguments.count == 1, let shell = Shell(rawValue: arguments[0]) else {
                let problem: UsageError = arguments.isEmpty
                    ? UsageError("no shell given")
                    : arguments.count > 1 ? UsageError("one shell only, got \(arguments.count) arguments")
                    : .unknownValue(arguments[0], for: "completion", kind: "shell", allowed: shells)
                return CommandFailure.report(problem, usage: usage, write: write)
            }
            write(script(for: tool, shell: shell))
            return 0
        }
    }
}
