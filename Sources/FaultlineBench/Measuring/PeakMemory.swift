import Foundation

/// The process's peak resident memory (Linux `VmHWM`), with the high-water
/// mark reset before each measured iteration by writing 5 to
/// `/proc/self/clear_refs`.
///
/// What is measured: the highest resident set size the *whole process* reached
/// during the iteration (not the growth), since the kernel tracks no other
/// peak. Where the reset is refused, the figure is the peak since process start;
/// `PeakMemory.canReset` says which.
enum PeakMemory {
    static let canReset: Bool = reset()

    @discardableResult
    static func reset() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    /// `VmHWM` in bytes, or nil when /proc is unavailable.
    static func highWaterMarkBytes() -> UInt64? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return nil
        }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.dropFirst("VmHWM:".count).filter(\.isNumber)
            return UInt64(digits).map { $0 * 1024 }
        }
        return nil
    }
}
