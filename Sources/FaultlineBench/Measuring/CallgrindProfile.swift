/// The instructions callgrind attributes to each function itself (its self
/// cost, not what it calls), read from a `callgrind.out` file, and the phases
/// of a line's work they add up to.
struct CallgrindProfile: Equatable {
    /// Self instructions by function name as callgrind writes it (Swift
    /// symbols stay mangled).
    private(set) var selfInstructions: [String: Double] = [:]
    /// The file (executable or shared library) each function was in.
    private(set) var objects: [String: String] = [:]

    /// Reads the file's cost lines. With callgrind's default compression a
    /// name is written once as `fn=(7) name` (or `cfn=`) and then as `fn=(7)`;
    /// the cost line after `calls=` is the call's inclusive cost, counted by
    /// the callee itself, so it is skipped.
    init(callgrindOutput text: String) {
        var names: [String: String] = [:], objectNames: [String: String] = [:]
        var function = "", object = ""
        var skipCallCost = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let first = line.first else { continue }
            let field = String(line.drop { $0 != "=" }.dropFirst())
            if line.hasPrefix("fn=") || line.hasPrefix("cfn=") {
                let name = Self.name(field, &names)
                if line.hasPrefix("fn=") {
                    function = name
                    objects[name] = object
                }
            } else if line.hasPrefix("ob=") || line.hasPrefix("cob=") {
                let name = Self.name(field, &objectNames)
                if line.hasPrefix("ob=") { object = name }
            } else if line.hasPrefix("calls=") {
                skipCallCost = true
            } else if first.isNumber || first == "+" || first == "-" || first == "*" {
                if skipCallCost { skipCallCost = false; continue }
                guard let cost = line.split(separator: " ").last.flatMap({ Double($0) }) else { continue }
                selfInstructions[function, default: 0] += cost
            }
        }
    }

    /// `(id) name` defines an id, `(id)` uses one, a bare name is itself.
    private static func name(_ field: String, _ names: inout [String: String]) -> String {
        guard field.hasPrefix("("), let close = field.firstIndex(of: ")") else { return field }
        let id = String(field[field.index(after: field.startIndex)..<close])
        let rest = field[field.index(after: close)...].drop { $0 == " " }
        if rest.isEmpty { return names[id] ?? "(\(id))" }
        names[id] = String(rest)
        return String(rest)
    }

    var total: Double { selfInstructions.values.reduce(0, +) }

    /// Self instructions summed by phase.
    var phases: [InstructionPhase: Double] {
        var sums: [InstructionPhase: Double] = [:]
        for (function, cost) in selfInstructions {
            sums[InstructionPhase(function: function, object: objects[function] ?? ""), default: 0] += cost
        }
        return sums
    }
}

/// Where a read's instructions go, told apart by the function's name: what a
/// profile of the fault path needs to say which part to make cheaper.
public enum InstructionPhase: String, CaseIterable, Sendable {
    /// SQLite itself: stepping statements, the B-tree, the pager.
    case sqlite
    /// Turning result columns into values: SQLite's column accessors and
    /// FaultlineSQLite, the wrapper that reads them.
    case decoding
    /// Faultline's object graph: fetching, faulting and materialising objects.
    case objects
    /// The context's registry of objects by ID, with its lookup-or-create
    /// (`object(owned:)`, into which the compiler inlines the table's probe
    /// and the making of a fault).
    case registry
    /// The coordinator's row cache.
    case rowCache
    /// The Swift runtime and standard library (what is not specialised into
    /// the caller), the allocator, libc: retains, releases, allocations, copies.
    case runtime
    /// The benchmark's own code, Foundation.
    case other

    /// `object` is the file callgrind found the function in: SQLite's static
    /// functions have no symbol (`0x…`) but are in libsqlite3.
    init(function name: String, object: String = "") {
        let modules = Self.faultlineModules(in: name)
        let file = object.split(separator: "/").last.map(String.init) ?? ""
        if name.hasPrefix("sqlite3_column_") || name.hasPrefix("sqlite3_value_") || modules.contains("FaultlineSQLite") {
            self = .decoding
        } else if name.hasPrefix("sqlite3") || file.hasPrefix("libsqlite3") {
            self = .sqlite
        } else if name.contains("RowCache") {
            self = .rowCache
        } else if name.contains("ObjectRegistry") || name.contains("ObjectIDTable")
                    || name.contains("20ManagedObjectContextC6object5owned") {
            self = .registry
        } else if !modules.isEmpty {
            self = .objects
        } else if ["libswiftCore", "libc.so", "libc-", "libjemalloc", "ld-linux", "libstdc++"].contains(where: file.hasPrefix)
                    || (!name.hasPrefix("$s") && (name.hasPrefix("swift_") || name.hasPrefix("je_") || name.contains("malloc")
                        || name.contains("free") || name.hasPrefix("mem") || name.hasPrefix("__mem"))) {
            self = .runtime
        } else {
            self = .other
        }
    }

    /// The Faultline modules a mangled Swift symbol names: each identifier
    /// is its length in digits, then its characters, so `15FaultlineSQLite`
    /// is one and `19FaultlineModelFiles` is not `Faultline`.
    static func faultlineModules(in name: String) -> Set<String> {
        guard name.hasPrefix("$s") else { return [] }
        let characters = Array(name.utf8)
        var modules: Set<String> = []
        var index = 0
        while index < characters.count {
            guard characters[index].isDigit, index == 0 || !characters[index - 1].isDigit else { index += 1; continue }
            var end = index
            var length = 0
            while end < characters.count, characters[end].isDigit, length < 1_000 {
                length = length * 10 + Int(characters[end] - UInt8(ascii: "0"))
                end += 1
            }
            if end + length <= characters.count,
               let identifier = String(bytes: characters[end..<(end + length)], encoding: .utf8),
               identifier.hasPrefix("Faultline") {
                modules.insert(identifier)
            }
            index = end
        }
        return modules
    }

    /// The metric each phase's instructions per item are reported under.
    public var metric: String { "instructionsPerItem.\(rawValue)" }
    /// Not `count/item`: a phase's share moves with how the compiler inlined
    /// one function into another, so the gate reads the total, not the split.
    public static let unit = "instructions/item"
}

private extension UInt8 {
    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
}
