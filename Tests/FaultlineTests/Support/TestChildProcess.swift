import Foundation

/// Re-runs this test binary as a child process that runs only the test
/// `filter` names, with `variable` set to `value` (the child test does its work
/// only when the variable is set): the way the tests get a second process on
/// a store, or a fresh process for a value that must not depend on this one.
enum TestChildProcess {
    static func start(filter: String, variable: String, value: String) throws -> Process {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        var environment = ProcessInfo.processInfo.environment
        environment[variable] = value
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        return child
    }
}
