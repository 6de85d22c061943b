#if canImport(Glibc)
import Glibc
#endif

/// Wall and CPU clocks of this process.
enum ProcessClock {
    /// Monotonic wall-clock time in nanoseconds (`CLOCK_MONOTONIC`).
    @inline(__always)
    static func wallNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// User and system CPU time of the whole process, in nanoseconds
    /// (`getrusage`, microsecond resolution), and its page faults so far:
    /// minor ones — pages of fresh heap touched for the first time, the cost
    /// of memory a time alone does not explain — and major ones, which waited
    /// for the disk (a database file not in the page cache, memory swapped out).
    static func usage() -> (user: UInt64, system: UInt64, minorFaults: UInt64, majorFaults: UInt64) {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func nanoseconds(_ time: timeval) -> UInt64 {
            UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_usec) &* 1_000
        }
        return (nanoseconds(usage.ru_utime), nanoseconds(usage.ru_stime), UInt64(max(0, usage.ru_minflt)),
                UInt64(max(0, usage.ru_majflt)))
    }
}
