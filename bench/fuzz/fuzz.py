#!/usr/bin/env python3
"""bench/fuzz driver (issue 39): `apitest fuzz` beside Schemathesis on two services with seeded faults.

Run through bench/fuzz/run. The services are the demo's petstore (`apitest-demo --seeded-faults`, its document
examples/.openapi/petstore-faults.yaml) and a FastAPI service (bench/fuzz/books_service.py, its document FastAPI's
/openapi.json). Both tools run on the same document, base URL, credentials, seed and `--max-examples` (cases of the
fuzzing phase per operation), each on a freshly started service, in paired rounds whose order alternates; the wall
time of a tool is its whole process (start-up included). Each tool's findings are matched to the seeded faults by
check and operation; the ratio is apitest's time over Schemathesis's, the median of the per-round ratios with their
spread. It reports and does not gate: exit 0; 2 when a tool is missing or an option is wrong; 130 on Ctrl-C.
"""

import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PINS = ["schemathesis==4.32.5", "fastapi==0.163.2", "uvicorn==0.54.0"]
VENV = os.path.join(ROOT, "bench/out/fuzz/venv")

# Schemathesis's failure codes, by the check that raises them (`st explain CODE`).
ST_CODES = {
    "ST101": "not_a_server_error",
    "ST103": "status_code_conformance",
    "ST105": "content_type_conformance",
    "ST107": "response_headers_conformance",
    "ST108": "response_schema_conformance",
    "ST201": "negative_data_rejection",
    "ST202": "positive_data_acceptance",
    "ST203": "missing_required_header",
    "ST204": "unsupported_method",
    "ST205": "allow_header_conformance",
    "ST301": "use_after_free",
    "ST302": "ensure_resource_availability",
    "ST401": "ignored_auth",
}

# The stateful checks report a sequence, not one operation: any operation counts.
ANY = None

# MARK: - Services

SERVICES = {
    "demo": {
        "title": "apitest-demo --seeded-faults, /petstore (examples/.openapi/petstore-faults.yaml)",
        "key": "petstore-key",
        "operation_ids": {"findPets": "GET /pets", "addPet": "POST /pets", "find pet by id": "GET /pets/{id}",
                          "deletePet": "DELETE /pets/{id}", "getStats": "GET /stats"},
        "faults": [
            # (fault, check that should find it, operation, what the service does)
            ("server-error", "not_a_server_error", "GET /pets", "limit over 1000: 500"),
            ("undeclared-status", "status_code_conformance", "POST /pets", "duplicate name: 409"),
            ("content-type", "content_type_conformance", "GET /pets/{id}", "absent pet: 404 text/plain"),
            ("response-schema", "response_schema_conformance", "GET /pets", "ids listed as strings"),
            ("required-header", "response_headers_conformance", "GET /pets", "no X-Total-Count"),
            ("invalid-accepted", "negative_data_rejection", "POST /pets", "non-string name: 200"),
            ("valid-rejected", "positive_data_acceptance", "POST /pets", "empty name: 400"),
            ("use-after-delete", "use_after_free", ANY, "deleted pet still read"),
            ("created-unavailable", "ensure_resource_availability", ANY, "untagged pet never stored"),
            ("unsupported-method", "unsupported_method", "/pets", "PUT /pets: 200"),
            ("ignored-auth", "ignored_auth", ANY, "GET /stats without a key: 200"),
        ],
    },
    "books": {
        "title": "FastAPI 0.163.2 books service (bench/fuzz/books_service.py, /openapi.json)",
        "key": "books-key",
        "operation_ids": {"listBooks": "GET /books", "addBook": "POST /books", "getBook": "GET /books/{book_id}",
                          "deleteBook": "DELETE /books/{book_id}"},
        "faults": [
            ("server-error", "not_a_server_error", "GET /books", "limit=0: 500"),
            ("undeclared-status", "status_code_conformance", "POST /books", "duplicate title: 409"),
            ("content-type", "content_type_conformance", "GET /books/{book_id}", "absent book: 404 text/plain"),
            ("response-schema", "response_schema_conformance", "GET /books", "years listed as strings"),
            ("invalid-accepted", "negative_data_rejection", "POST /books", "title over maxLength: 201"),
            ("valid-rejected", "positive_data_acceptance", "GET /books", "limit=100 (the maximum): 422"),
            ("use-after-delete", "use_after_free", ANY, "deleted book still read"),
            ("created-unavailable", "ensure_resource_availability", ANY, "book without isbn never stored"),
            ("unsupported-method", "unsupported_method", "/books", "PUT /books: 200"),
            ("ignored-auth", "ignored_auth", ANY, "DELETE without X-API-Key: 204"),
        ],
    },
}


def say(*parts):
    print(*parts, file=sys.stderr, flush=True)


def die(message, code=2):
    say("fuzz: " + message)
    sys.exit(code)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Service:
    """One freshly started service on a free port of 127.0.0.1, stopped with `stop()`."""

    def __init__(self, name, tools, out, clean=False):
        self.name = name
        self.port = free_port()
        log = open(os.path.join(out, f"service-{name}{'-clean' if clean else ''}.log"), "a")
        if name == "demo":
            arguments = [tools["apitest-demo"], "--port", str(self.port)] + ([] if clean else ["--seeded-faults"])
            self.base = f"http://127.0.0.1:{self.port}/petstore"
            env = None
        else:
            arguments = [os.path.join(VENV, "bin/python"), "-m", "uvicorn", "books_service:app", "--app-dir", HERE,
                         "--port", str(self.port), "--log-level", "warning"]
            self.base = f"http://127.0.0.1:{self.port}"
            # No __pycache__ beside books_service.py in the repository.
            env = dict(os.environ, BOOKS_FAULTS="none" if clean else "all", PYTHONDONTWRITEBYTECODE="1")
        self.process = subprocess.Popen(arguments, stdout=log, stderr=log, stdin=subprocess.DEVNULL, env=env,
                                        start_new_session=True)
        log.close()
        probe = self.base + ("/pets" if name == "demo" else "/openapi.json")
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(probe, timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                die(f"the {name} service did not start; see {log.name}", code=1)
            time.sleep(0.05)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# MARK: - Options and tools


def parse_options():
    p = argparse.ArgumentParser(
        prog="bench/fuzz/run",
        description="apitest fuzz beside Schemathesis on the demo's petstore and a FastAPI service, both with "
        "seeded faults (issue 39).",
        epilog="Schemathesis, FastAPI and uvicorn come from bench/out/fuzz/venv (bench/fuzz/run --install makes it: "
        + " ".join(PINS) + ").",
    )
    p.add_argument("--rounds", type=int, help="paired rounds per service (default 3)")
    p.add_argument("--max-examples", type=int, help="cases of the fuzzing phase per operation, both tools (30)")
    p.add_argument("--seed", type=int, default=1, help="the first round's seed; round r uses seed+r-1 (1)")
    p.add_argument("--services", default="demo,books", help="demo, books or both (default demo,books)")
    p.add_argument("--st-workers", default="1", help="Schemathesis's --workers (default 1, its own default)")
    p.add_argument("--no-sanity", action="store_true", help="skip the one run of each tool on the clean services")
    p.add_argument("--apitest", help="this apitest binary (default: a release build if there is one, else debug)")
    p.add_argument("--demo", help="this apitest-demo binary (default: the debug build's)")
    p.add_argument("--out", default=os.path.join(ROOT, "bench/out/fuzz"), help="logs (default bench/out/fuzz)")
    p.add_argument("--quick", action="store_true", help="a smoke run: 1 round, 10 examples, no sanity runs")
    p.add_argument("--install", action="store_true", help="make the venv (pip, pinned versions), then go on")
    p.add_argument("--json", action="store_true", help="print every figure as JSON on stdout (report on stderr)")
    o = p.parse_args()
    defaults = {"rounds": 3, "max_examples": 30}
    if o.quick:
        defaults = {"rounds": 1, "max_examples": 10}
        o.no_sanity = True
    for name, value in defaults.items():
        if getattr(o, name) is None:
            setattr(o, name, value)
    for name, value, high in [("rounds", o.rounds, 99), ("max-examples", o.max_examples, 10_000)]:
        if not 1 <= value <= high:
            die(f"--{name} must be from 1 to {high}, got {value}")
    o.service_list = [s for s in o.services.split(",") if s]
    unknown = set(o.service_list) - set(SERVICES)
    if unknown or not o.service_list:
        die(f"--services takes demo and books, got '{o.services}'")
    if o.st_workers != "auto" and not (o.st_workers.isdigit() and 1 <= int(o.st_workers) <= 64):
        die(f"--st-workers takes 1 to 64 or auto, got '{o.st_workers}'")
    o.out = os.path.abspath(o.out)
    os.makedirs(o.out, exist_ok=True)
    return o


def find_tools(o):
    hint = f"bench/fuzz/run --install (python3 -m venv bench/out/fuzz/venv; pip install {' '.join(PINS)})"
    if o.install:
        if not os.path.exists(os.path.join(VENV, "bin/python")):
            say("fuzz: making bench/out/fuzz/venv")
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        say("fuzz: pip install " + " ".join(PINS))
        subprocess.run([os.path.join(VENV, "bin/pip"), "install", "-q", *PINS], check=True)
    tools = {"st": os.path.join(VENV, "bin/st")}
    if not os.access(tools["st"], os.X_OK):
        die("Schemathesis is missing; install it: " + hint)
    version = subprocess.run([tools["st"], "--version"], capture_output=True, text=True).stdout.strip()
    if "4.32.5" not in version:
        die(f"bench/fuzz pins Schemathesis 4.32.5, the venv has '{version}': " + hint)
    tools["st-version"] = version
    if "books" in o.service_list:
        check = subprocess.run([os.path.join(VENV, "bin/python"), "-c", "import fastapi, uvicorn; print(fastapi.__version__)"],
                               capture_output=True, text=True)
        if check.returncode != 0 or check.stdout.strip() != "0.163.2":
            die("FastAPI 0.163.2 and uvicorn are missing from the venv; install them: " + hint)

    def binary(option, name, candidates):
        if option:
            if not os.access(option, os.X_OK):
                die(f"--{name} {option}: not an executable file")
            return os.path.abspath(option)
        for path in candidates:
            if os.access(path, os.X_OK):
                return path
        die(f"{name} is not built; build it (swift build --product {name}) or pass --{name} PATH")

    bins = [os.path.join(ROOT, d) for d in [".build-static/x86_64-unknown-linux-gnu/release", ".build-static/release",
                                              ".build/release", ".build/debug"]]
    tools["apitest"] = binary(o.apitest, "apitest", [os.path.join(b, "apitest") for b in bins])
    tools["apitest-demo"] = binary(o.demo, "apitest-demo", [os.path.join(b, "apitest-demo") for b in bins[2:][::-1]])
    if "/debug/" in tools["apitest"]:
        say("fuzz: note: apitest is a debug build; its times are not what a release build does")
    if "demo" in o.service_list:
        usage = subprocess.run([tools["apitest-demo"], "--help"], capture_output=True, text=True).stdout
        if "--seeded-faults" not in usage:
            die(f"{tools['apitest-demo']} has no --seeded-faults; rebuild it (swift build --product apitest-demo)")
    fuzz_help = subprocess.run([tools["apitest"], "fuzz", "--help"], capture_output=True, text=True)
    tools["fuzz"] = fuzz_help.returncode == 0 and "apitest fuzz" in fuzz_help.stdout
    if not tools["fuzz"]:
        say(f"fuzz: note: {tools['apitest']} has no `fuzz` command yet: apitest's column is 'not available'")
    return tools


# MARK: - Running the tools


def spec_for(name, service, out):
    """The document both tools read: the demo's file, or the FastAPI service's /openapi.json saved to a file."""
    if name == "demo":
        return os.path.join(ROOT, "examples/.openapi/petstore-faults.yaml")
    path = os.path.join(out, "books-openapi.json")
    with urllib.request.urlopen(service.base + "/openapi.json", timeout=10) as reply:
        data = reply.read()
    with open(path, "wb") as f:
        f.write(data)
    return path


def run_timed(arguments, log):
    """Runs a tool in the folder of its log (Schemathesis keeps a .schemathesis cache in its working directory)."""
    start = time.monotonic()
    with open(log, "w") as f:
        done = subprocess.run(arguments, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                              cwd=os.path.dirname(log), env=dict(os.environ, NO_COLOR="1"))
    return time.monotonic() - start, done.returncode


def run_schemathesis(o, tools, name, service, spec, seed, tag):
    report = os.path.join(o.out, f"st-{name}-{tag}.json")
    if os.path.exists(report):
        os.remove(report)
    # Every run starts as a first run: no Hypothesis example database or Schemathesis cache from an earlier one
    # (a database replays earlier failing examples, which the same seed alone would not).
    for cache in [".hypothesis", ".schemathesis"]:
        subprocess.run(["rm", "-rf", "--", os.path.join(o.out, cache)], check=True)
    arguments = [tools["st"], "run", spec, "--url", service.base, "--seed", str(seed),
                 "--max-examples", str(o.max_examples), "--workers", o.st_workers, "--continue-on-failure",
                 "-H", f"X-API-Key: {SERVICES[name]['key']}", "--report", "json", "--report-json-path", report]
    seconds, status = run_timed(arguments, os.path.join(o.out, f"st-{name}-{tag}.log"))
    findings, cases = [], None
    try:
        with open(report) as f:
            data = json.load(f)
        cases = data.get("test_cases", {}).get("generated")
        for failure in data.get("failures", []):
            check = ST_CODES.get(failure.get("code"), failure.get("type", "?"))
            for operation in failure.get("operations", []):
                findings.append((check, operation))
    except (OSError, ValueError) as error:
        say(f"fuzz: Schemathesis wrote no report ({error}); see {report.replace('.json', '.log')}")
        return {"seconds": seconds, "status": status, "findings": None, "cases": None}
    return {"seconds": seconds, "status": status, "findings": findings, "cases": cases}


def walk(value):
    """Every dict inside a JSON value."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


# `apitest fuzz`'s console lists each finding as `  1. CHECK on NAME (METHOD /path): message`.
FINDING_LINE = re.compile(r"^\s+\d+\. ([a-z_]+) on .* \(([A-Z]+) (\S+)\): ", re.M)


def run_apitest(o, tools, name, service, spec, seed, tag):
    if not tools["fuzz"]:
        return None
    report = os.path.join(o.out, f"apitest-{name}-{tag}.json")
    log = os.path.join(o.out, f"apitest-{name}-{tag}.log")
    findings_dir = os.path.join(o.out, f"findings-{name}-{tag}")
    for path in [report]:
        if os.path.exists(path):
            os.remove(path)
    if os.path.isdir(findings_dir):
        subprocess.run(["rm", "-rf", "--", findings_dir], check=True)
    arguments = [tools["apitest"], "fuzz", spec, "--base-url", service.base, "--seed", str(seed),
                 "--max-examples", str(o.max_examples), "--header", f"X-API-Key: {SERVICES[name]['key']}",
                 "--report-json", report, "--findings", findings_dir, "--no-color"]
    seconds, status = run_timed(arguments, log)
    with open(log, errors="replace") as f:
        text = f.read()
    findings = {(check, f"{method} {path}") for check, method, path in FINDING_LINE.findall(text)}
    # The JSON report has one test per operation and check, named `NAME › CHECK`, NAME the operationId if any.
    try:
        with open(report) as f:
            data = json.load(f)
    except (OSError, ValueError) as error:
        say(f"fuzz: apitest fuzz wrote no report ({error}); see {log}")
        return {"seconds": seconds, "status": status, "findings": None, "cases": None}
    aliases = SERVICES[name]["operation_ids"]
    for entry in walk(data):
        test_name = entry.get("name")
        if entry.get("status") == "failed" and isinstance(test_name, str) and " › " in test_name:
            operation, check = test_name.rsplit(" › ", 1)
            findings.add((check, aliases.get(operation, operation)))
    sent = re.search(r"(\d+) requests? sent", text)
    return {"seconds": seconds, "status": status, "findings": sorted(findings),
            "cases": int(sent.group(1)) if sent else None}


# MARK: - Matching findings to faults


def path_of(operation):
    m = re.match(r"^\s*([A-Za-z]+)\s+(\S+)", operation or "")
    return (m.group(1).upper(), m.group(2).rstrip("/")) if m else (None, (operation or "").rstrip("/"))


def matches(fault, finding):
    _, check, operation, _ = fault
    found_check, found_operation = finding
    if found_check != check:
        return False
    # Schemathesis names a failure of its stateful phase "Stateful tests", whatever the operation.
    if operation is ANY or found_operation == "Stateful tests":
        return True
    want_method, want_path = path_of(operation)
    method, path = path_of(found_operation)
    # A document's server prefix (/petstore) may lead the path a report names.
    if not path.endswith(want_path):
        return False
    return want_method is None or method == want_method


def seeded(name, findings):
    """The faults of `name` that `findings` show, and the findings no fault explains."""
    faults = SERVICES[name]["faults"]
    found = {fault[0] for fault in faults for finding in findings if matches(fault, finding)}
    other = sorted({f"{check} on {operation}" for check, operation in findings
                    if not any(matches(fault, (check, operation)) for fault in faults)})
    return found, other


# MARK: - Report


def spread(values):
    return f"{min(values):.2f}-{max(values):.2f}" if values else "-"


def report(o, tools, results, sanity):
    lines = []
    lines.append(f"bench/fuzz: {o.rounds} paired round(s) per service, --max-examples {o.max_examples}, seeds "
                 f"{o.seed}..{o.seed + o.rounds - 1}; {tools['st-version']} (--workers {o.st_workers}, "
                 f"--continue-on-failure); apitest {tools['apitest']}")
    for name in o.service_list:
        rounds = results[name]
        faults = SERVICES[name]["faults"]
        lines.append("")
        lines.append(SERVICES[name]["title"])
        lines.append(f"  {'round':>5}  {'seed':>4}  {'Schemathesis s':>14}  {'cases':>6}  {'apitest s':>9}  "
                     f"{'cases':>6}  {'ratio':>6}")
        ratios = []
        for r in rounds:
            st, ap = r["st"], r["apitest"]
            usable = ap and ap["findings"] is not None and st["findings"] is not None
            ratio = ap["seconds"] / st["seconds"] if usable and st["seconds"] else None
            if ratio is not None:
                ratios.append(ratio)
            lines.append(f"  {r['round']:>5}  {r['seed']:>4}  {st['seconds']:>14.2f}  {str(st['cases'] or '?'):>6}  "
                         + (f"{ap['seconds']:>9.2f}  {str(ap['cases'] or '?'):>6}  "
                            + (f"{ratio:>6.3f}" if ratio is not None else f"{'error':>6}") if ap else
                            f"{'n/a':>9}  {'':>6}  {'':>6}"))
        st_times = [r["st"]["seconds"] for r in rounds]
        lines.append(f"  Schemathesis wall time: median {statistics.median(st_times):.2f} s ({spread(st_times)})")
        if ratios:
            ap_times = [r["apitest"]["seconds"] for r in rounds if r["apitest"]["findings"] is not None]
            lines.append(f"  apitest wall time: median {statistics.median(ap_times):.2f} s ({spread(ap_times)})")
            lines.append(f"  apitest / Schemathesis: median {statistics.median(ratios):.3f} ({spread(ratios)}); "
                         f"target at most 0.200")
        elif rounds[0]["apitest"] is None:
            lines.append("  apitest / Schemathesis: not available (no `apitest fuzz`)")
        else:
            lines.append("  apitest / Schemathesis: no usable round (apitest fuzz wrote no report; see its logs)")
        lines.append(f"  {'seeded fault':<20} {'check that should find it':<29} {'Schemathesis':>12} {'apitest':>13}"
                     "  what the service does")
        for fault in faults:
            st_hits = sum(1 for r in rounds if fault[0] in r["st"]["found"])
            if rounds[0]["apitest"] is None:
                ap_cell = "not available"
            else:
                ap_cell = f"{sum(1 for r in rounds if fault[0] in r['apitest']['found'])}/{len(rounds)}"
            lines.append(f"  {fault[0]:<20} {fault[1]:<29} {f'{st_hits}/{len(rounds)}':>12} {ap_cell:>13}  {fault[3]}")
        for tool, label in [("st", "Schemathesis"), ("apitest", "apitest")]:
            other = sorted({item for r in rounds if r[tool] for item in r[tool]["other"]})
            if other:
                lines.append(f"  {label} also reported: " + "; ".join(other))
        if name in sanity:
            for tool, label in [("st", "Schemathesis"), ("apitest", "apitest")]:
                run = sanity[name].get(tool)
                if run is None:
                    continue
                seen = sorted({f"{c} on {op}" for c, op in run["findings"] or []})
                lines.append(f"  sanity, clean service, {label}: " + ("; ".join(seen) if seen else "no finding"))
    return "\n".join(lines)


def main():
    o = parse_options()
    tools = find_tools(o)
    results, sanity = {}, {}
    for name in o.service_list:
        rounds = []
        for index in range(o.rounds):
            seed = o.seed + index
            order = ["st", "apitest"] if index % 2 == 0 else ["apitest", "st"]
            runs = {}
            for tool in order:
                service = Service(name, tools, o.out)
                try:
                    spec = spec_for(name, service, o.out)
                    run = (run_schemathesis if tool == "st" else run_apitest)(
                        o, tools, name, service, spec, seed, f"round{index + 1}")
                finally:
                    service.stop()
                if run is not None:
                    run["found"], run["other"] = seeded(name, run["findings"] or [])
                runs[tool] = run
            say(f"fuzz: {name} round {index + 1}: Schemathesis {runs['st']['seconds']:.2f} s, "
                + (f"apitest {runs['apitest']['seconds']:.2f} s" if runs["apitest"] else "apitest n/a"))
            rounds.append({"round": index + 1, "seed": seed, **runs})
        results[name] = rounds
        if not o.no_sanity:
            sanity[name] = {}
            for tool in ["st", "apitest"]:
                service = Service(name, tools, o.out, clean=True)
                try:
                    spec = spec_for(name, service, o.out)
                    sanity[name][tool] = (run_schemathesis if tool == "st" else run_apitest)(
                        o, tools, name, service, spec, o.seed, "clean")
                finally:
                    service.stop()
    text = report(o, tools, results, sanity)
    with open(os.path.join(o.out, "results.json"), "w") as f:
        json.dump({"results": results, "sanity": sanity}, f, indent=1, default=list)
    if o.json:
        say(text)
        print(json.dumps({"results": results, "sanity": sanity}, indent=1, default=list))
    else:
        print(text)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        say("fuzz: interrupted")
        sys.exit(130)
