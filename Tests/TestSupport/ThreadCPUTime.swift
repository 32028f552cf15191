import Foundation

/// The CPU time the calling thread has used, in seconds: what a synchronous piece of work costs, whatever else the
/// machine runs. Timing tests assert on it (the other tests and builds sharing a CI machine inflate wall time many
/// times over, not the work's own CPU time) and keep only a generous wall-clock bound against hangs.
public func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
