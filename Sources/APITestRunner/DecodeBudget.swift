/// The memory that decoded response bodies may hold at once across a run, shared by its concurrent tests.
///
/// A step reserves what checking its body can cost (``cost(ofBody:buildsTree:)``: the body's decoded form, at most
/// 2.5 times its size as a `JSONTape`, which JSONPath queries and JSON Schema checks read in place, and its text;
/// far more when a property list is decoded into a `JSONValue` tree) before any check decodes it, and gives it
/// back when its checks and captures are done. Reservations wait in arrival order while the budget is spent, so
/// `--jobs 20` large bodies are decoded a few at a time, not all at once. A body whose cost alone exceeds the budget waits until
/// nothing else is reserved, then runs alone. Small bodies (under ``smallBody``) are not counted.
actor DecodeBudget {
    /// The bytes that may be reserved at once.
    let capacity: Int
    /// Bodies smaller than this reserve nothing.
    static let smallBody = 1 << 20

    private var reserved = 0
    private var waiting: [(cost: Int, resume: CheckedContinuation<Void, Never>)] = []
    /// The most bytes reserved at once so far.
    private(set) var peak = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// What checking a body of `size` bytes may cost, capped at the budget; 0 for small bodies. A tape costs at
    /// most 2.5× the body, and text views one more copy: 4×. A `JSONValue` tree (`buildsTree`: a property list)
    /// costs up to ~24× the body for dense data: 32×, so such bodies are mostly checked alone.
    nonisolated func cost(ofBody size: Int, buildsTree: Bool = false) -> Int {
        guard size >= Self.smallBody else { return 0 }
        let (cost, overflow) = size.multipliedReportingOverflow(by: buildsTree ? 32 : 4)
        return overflow ? capacity : min(capacity, cost)
    }

    /// Reserves `cost` bytes, waiting (in arrival order) until they fit.
    func reserve(_ cost: Int) async {
        guard cost > 0 else { return }
        if waiting.isEmpty && reserved + cost <= capacity {
            take(cost)
            return
        }
        await withCheckedContinuation { continuation in
            waiting.append((cost, continuation))
        }
    }

    /// Gives back `cost` bytes and lets waiting reservations in, first come first served.
    func release(_ cost: Int) {
        guard cost > 0 else { return }
        reserved -= cost
        while let next = waiting.first, reserved + next.cost <= capacity {
            waiting.removeFirst()
            take(next.cost)
            next.resume.resume()
        }
    }

    private func take(_ cost: Int) {
        reserved += cost
        peak = max(peak, reserved)
    }
}
