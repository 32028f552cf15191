import ArgumentParser

// MARK: - Help

extension LoadCommand {
    /// The command's name, abstract and `--help` text.
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Run the tests of suites as a load test: an arrival rate or virtual users, percentiles, thresholds.",
        discussion: """
            Picks the selected tests over and over (each as often as its weight; every test weighs 1) and runs each \
            as `apitest run` runs it: its steps, captures, checks and auth. Each suite's setup runs once before the \
            load starts and its teardown once after it ends (also after Ctrl-C).

            Open model (--rate, --stage): iterations arrive on a schedule whatever the server does; an iteration's \
            latency counts from the moment it was meant to start, so a server that stalls shows in the percentiles \
            (no coordinated omission), and iterations that could not start on time are counted as late. Closed model \
            (--vus): each virtual user starts its next iteration when its last one ends.

            Examples:
              apitest load suites/ --rate 2000/s --duration 60s --threshold 'p95<20ms' --threshold 'errors<0.1%'
              apitest load suites/ --stage 30s:500/s --stage 60s:2000/s --stage 10s:0/s
              apitest load suites/ --vus 50 --duration 30s --tag smoke
              apitest load suites/ --rate 4000/s --duration 60s --shard 2/4 --report-json load-2.json
              apitest load suites/ --rate 500/s --duration 60s --baseline main.json --threshold 'p99<+10%'

            Thresholds: pNN (p95, p99.9), max, min, mean against a latency (us, ms, s); errors against a share of \
            the completed iterations (%, or a fraction); rate against the completed iterations per second. \
            --abort-on-fail stops the run the second a latency or errors threshold fails.

            --baseline FILE compares with an earlier load JSON report, side by side. Thresholds may then be \
            relative, a signed change from the baseline: p99<+10%, p95<+5ms, rate>-5%, errors<+1% (percentage \
            points); one fails only when its change passes the bound and a two-sample test finds it significant \
            (p < 0.01; see docs/load.md).

            Without any threshold (--threshold or a suite's load: thresholds), errors<=0 applies: every iteration \
            must pass.

            Exit codes: 0 every threshold held, 1 a threshold failed, 2 a usage error or invalid suites, \
            3 a report could not be written, 4 no selected test can be picked, 130 interrupted.
            """)
}
