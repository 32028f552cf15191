// MARK: - LoadShapeProblem

/// What is wrong with the shape of a load as the command line gave it (`LoadShape`); its sentence names the flags.
package struct LoadShapeProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problem, with what their sentence shows.
    package enum Kind: Sendable, Hashable {
        /// `--vus` with `--rate` or `--stage`.
        case virtualUsersWithOpenModel
        /// `--vus` outside 1...100000.
        case virtualUsersOutOfRange
        /// `--vus` without `--duration`.
        case virtualUsersWithoutDuration
        /// Neither `--rate`, `--stage` nor `--vus`.
        case noModel
        /// `--rate` without `--duration` or `--stage`.
        case rateWithoutDuration
        /// A `--duration` of zero.
        case zeroDuration
        /// `--rate` and `--duration` that start no iteration (the texts as written).
        case rateStartsNoIteration(rate: String, duration: String)
        /// `--duration` with `--stage`.
        case durationWithStages
        /// A rate that is not one (`flag` is `--rate` or `--stage`).
        case invalidRate(flag: String, text: String)
        /// A `--stage` that is not `DURATION:RATE`.
        case invalidStage(String)
        /// Stages that last no time.
        case stagesLastNoTime
        /// Stages that start no iteration.
        case stagesStartNoIteration
        /// A `--threshold` that is not a rule, with the parser's sentence.
        case invalidThreshold(String)
        /// `--max-in-flight` outside 1...100000.
        case maxInFlightOutOfRange
    }

    /// What is wrong.
    package var kind: Kind

    /// A problem of `kind`.
    package init(_ kind: Kind) {
        self.kind = kind
    }

    /// The sentence the command line shows.
    package var description: String {
        switch kind {
        case .virtualUsersWithOpenModel: "--vus (closed model) cannot be used with --rate or --stage (open model)"
        case .virtualUsersOutOfRange: "--vus must be between 1 and 100000"
        case .virtualUsersWithoutDuration: "--vus needs --duration"
        case .noModel: "give --rate RATE --duration D, --stage D:RATE (repeat), or --vus N --duration D"
        case .rateWithoutDuration: "--rate needs --duration (or --stage)"
        case .zeroDuration: "--duration must be more than 0"
        case .rateStartsNoIteration(let rate, let duration): "--rate \(rate) for \(duration) starts no iteration"
        case .durationWithStages:
            "--duration and --stage cannot be used together: the stages make the duration"
        case .invalidRate(let flag, let text):
            "\(flag) '\(text)': expected iterations per second, such as 2000/s, 120/m or 3/h "
                + "(0, or at least 1/h and at most 1000000/s)"
        case .invalidStage(let text): "--stage '\(text)': expected DURATION:RATE, such as 30s:100/s"
        case .stagesLastNoTime: "--stage: the stages last no time"
        case .stagesStartNoIteration: "--stage: the stages start no iteration"
        case .invalidThreshold(let message): message
        case .maxInFlightOutOfRange: "--max-in-flight must be between 1 and 100000"
        }
    }
}
