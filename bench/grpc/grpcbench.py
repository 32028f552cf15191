#!/usr/bin/env python3
"""bench/grpc driver (issue 42): unary gRPC calls per second, apitest against grpcio's own client, same run.

Run through bench/grpc/run. One grpcio server (server.py, its own process, grpcio's thread pool of 16 workers) on
127.0.0.1 answers bench.Users/GetUser with a real protobuf message; both tools make the same N calls with 50 in
flight and check the answer's name:

  apitest  a suite of N tests, each one `grpc:` unary step with `expect.grpc.status: OK` and one JSONPath check,
           run as `apitest run suite.yaml --jobs 50`
  grpcio   client.py: grpc.aio over one channel, 50 coroutines, dynamic stubs from the descriptor set

in paired rounds whose order alternates (apitest first in odd rounds), each under GNU time (`%e %U %S %M`). With
--tls the same runs follow over TLS (ALPN h2) on a second port of the same server, with a self-signed certificate
openssl makes in the run's temporary folder: apitest trusts it through the suite's `security: {caFile: ...}`, the
client through `grpc.ssl_channel_credentials(root_certificates=...)`; both tables are printed. A run
counts only when it exits 0 and the server's call counter grew by at least N. Before the rounds, apitest validates
the suite and runs a sanity suite whose check cannot hold, which must exit 1 (the client gets the same test);
otherwise that tool is reported as failed and not measured. It reports and does not gate: exit 0; 2 when a tool is
missing (with the install hint), the server does not start or an option is wrong; 130 on Ctrl-C.
"""

import argparse
import glob
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TIME = "/usr/bin/time"
PINS = ["grpcio==1.85.1", "protobuf==6.33.6"]  # scripts/install-deps.sh's pins
VENV = os.path.join(ROOT, "bench/out/grpc/venv")
RUNNING = []  # the process group of the measured run under way (its own session: Ctrl-C does not reach it)


def say(*parts):
    print(*parts, file=sys.stderr, flush=True)


def die(message, code=2):
    say("grpc: " + message)
    sys.exit(code)


# MARK: - Options


def parse_options():
    p = argparse.ArgumentParser(
        prog="bench/grpc/run",
        description="Unary gRPC calls per second: apitest against grpcio's own Python client (issue 42).",
        epilog="Needs protoc (apt: protobuf-compiler), GNU time (apt: time), and grpcio + protobuf for python3 "
        "(scripts/install-deps.sh, or bench/grpc/run --install: a venv in bench/out/grpc/venv with "
        + " ".join(PINS) + ").",
    )
    p.add_argument("--count", type=int, help="calls per run: tests in apitest's suite (default 2000)")
    p.add_argument("--rounds", type=int, help="paired rounds (default 3)")
    p.add_argument("--jobs", type=int, default=50, help="calls in flight: apitest --jobs, client coroutines (50)")
    p.add_argument("--workers", type=int, default=16, help="the server's thread pool (default 16)")
    p.add_argument("--quick", action="store_true", help="a smoke run: 200 calls, 1 round")
    p.add_argument("--tls", action="store_true", help="after the plaintext (h2c) runs, the same over TLS (a "
                   "self-signed certificate made with openssl) and print both")
    p.add_argument("--apitest", help="this apitest binary (default: .build-static's release binary if present, "
                   "else scripts/build-release.sh builds one)")
    p.add_argument("--build", action="store_true", help="build with scripts/build-release.sh even if one exists")
    p.add_argument("--install", action="store_true", help="make the venv with " + " ".join(PINS) + ", then go on")
    p.add_argument("--out", default=os.path.join(ROOT, "bench/out/grpc"), help="logs (default bench/out/grpc)")
    o = p.parse_args()
    o.count = o.count if o.count is not None else (200 if o.quick else 2000)
    o.rounds = o.rounds if o.rounds is not None else (1 if o.quick else 3)
    if o.count < 1 or o.rounds < 1 or o.jobs < 1 or o.workers < 1:
        p.error("--count, --rounds, --jobs and --workers must be at least 1")
    return o


# MARK: - Tools


def python_with_grpc(o):
    """The interpreter that runs this driver, the server and the client: this one if it imports grpcio and protobuf,
    else the venv's (made by --install). Re-executes the driver under the venv's interpreter when needed."""
    def imports(python):
        return subprocess.run([python, "-c", "import grpc, google.protobuf"], capture_output=True).returncode == 0

    if imports(sys.executable):
        return sys.executable
    venv_python = os.path.join(VENV, "bin/python3")
    if o.install and not os.path.exists(venv_python):
        say(f"grpc: making {os.path.relpath(VENV, ROOT)} ({' '.join(PINS)})")
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([os.path.join(VENV, "bin/pip"), "install", "-q", *PINS], check=True)
    if os.path.exists(venv_python) and imports(venv_python):
        os.execv(venv_python, [venv_python, os.path.abspath(__file__), *sys.argv[1:]])
    die("python3 cannot import grpc and google.protobuf: run scripts/install-deps.sh, or bench/grpc/run --install "
        f"(python3 -m venv bench/out/grpc/venv && bench/out/grpc/venv/bin/pip install {' '.join(PINS)})")


def choose_apitest(o, work):
    """The apitest binary, copied into the work folder so that a rebuild during the run cannot change it."""
    path = o.apitest
    if path is None and not o.build:
        found = sorted(glob.glob(os.path.join(ROOT, ".build-static/*/release/apitest")), key=os.path.getmtime)
        path = found[-1] if found else None
    if path is None:
        log = os.path.join(o.out, "build.log")
        say(f"grpc: building apitest (scripts/build-release.sh); log: {log}")
        with open(log, "w") as f:
            built = subprocess.run([os.path.join(ROOT, "scripts/build-release.sh")], stdout=subprocess.PIPE,
                                   stderr=f, text=True)
        if built.returncode == 0 and built.stdout.strip():
            path = built.stdout.strip().splitlines()[-1]
        elif os.path.exists(os.path.join(ROOT, ".build/debug/apitest")):
            path = os.path.join(ROOT, ".build/debug/apitest")
            say("grpc: the release build failed; using .build/debug/apitest")
        else:
            die(f"the release build failed and there is no .build/debug/apitest (see {log})")
    if not os.access(path, os.X_OK):
        die(f"--apitest {path}: not an executable file")
    copy = os.path.join(work, "apitest")
    shutil.copy2(path, copy)
    debug = "/debug/" in os.path.realpath(path)
    if debug:
        say("grpc: " + "!" * 100)
        say(f"grpc: {path} is a DEBUG build: its figures mean nothing (build a release binary with "
            "scripts/build-release.sh, or pass one with --apitest)")
        say("grpc: " + "!" * 100)
    return copy, path, debug


# MARK: - Server


class Server:
    """server.py in its own process; its port is read from its first line, printed once it listens."""

    def __init__(self, python, descriptor_set, workers, work, certificate=None):
        self.err_path = os.path.join(work, "server.err")
        command = [python, os.path.join(HERE, "server.py"), "--descriptor-set", descriptor_set, "--workers",
                   str(workers)]
        if certificate:
            command += ["--cert", certificate[0], "--key", certificate[1]]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=open(self.err_path, "w"), text=True,
                                        start_new_session=True)
        ports = self.process.stdout.readline().split()
        if not ports or not all(p.isdigit() for p in ports) or len(ports) != (2 if certificate else 1):
            self.stop()
            die("the grpcio server did not start: " + open(self.err_path).read().strip()[-2000:])
        self.port = int(ports[0])
        self.tls_port = int(ports[1]) if certificate else None
        import grpc
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

        files = descriptor_pb2.FileDescriptorSet()
        with open(descriptor_set, "rb") as f:
            files.ParseFromString(f.read())
        pool = descriptor_pool.DescriptorPool()
        for file in files.file:
            pool.Add(file)
        reply = message_factory.GetMessageClass(pool.FindMessageTypeByName("bench.CallsReply"))
        self.request = message_factory.GetMessageClass(pool.FindMessageTypeByName("bench.CallsRequest"))
        self.channel = grpc.insecure_channel(f"127.0.0.1:{self.port}")
        self.calls_method = self.channel.unary_unary(
            "/bench.Users/Calls", request_serializer=self.request.SerializeToString,
            response_deserializer=reply.FromString)

    def calls(self, reset=False):
        """(GetUser calls the server has answered so far, distinct client addresses of those since the last reset);
        reset forgets the addresses after answering."""
        reply = self.calls_method(self.request(reset=reset), timeout=30)
        return reply.calls, reply.peers

    def cpu(self):
        """The server's user + system CPU seconds so far (/proc/PID/stat)."""
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# MARK: - Runs


def timed(command, log, limit):
    """Runs command under GNU time; returns (exit code, wall s by the script's clock, user s, sys s, peak RSS KiB)."""
    stats = log + ".time"
    start = time.perf_counter_ns()
    with open(log, "w") as f:
        process = subprocess.Popen([TIME, "-f", "%e %U %S %M", "-o", stats, *command], stdout=f,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        RUNNING.append(process.pid)
        try:
            rc = process.wait(limit)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return ("timeout", (time.perf_counter_ns() - start) / 1e9, 0, 0, 0)
        finally:
            RUNNING.remove(process.pid)
    wall = (time.perf_counter_ns() - start) / 1e9
    try:
        _, user, system, rss = open(stats).read().strip().splitlines()[-1].split()
    except (OSError, ValueError):
        return (rc if rc else "no GNU time figures", wall, 0, 0, 0)
    return (rc, wall, float(user), float(system), int(rss))


def write_suite(path, port, count, name=None, ca_file=None):
    scheme = "https" if ca_file else "http"
    lines = ["name: grpc bench", f"baseURL: {scheme}://127.0.0.1:{port}", "grpc: {proto: [bench.proto]}"]
    if ca_file:
        lines.append(f"security: {{caFile: {ca_file}}}")
    lines.append("tests:")
    for n in range(1, count + 1):
        lines += [f"  - name: call {n}", "    steps:",
                  f"      - grpc: {{method: bench.Users/GetUser, message: {{id: u{n}}}}}",
                  f"        expect: {{grpc: {{status: OK}}, json: {{$.name: {name or f'Ada u{n}'}}}}}"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def median(values):
    return statistics.median(values) if values else float("nan")


def main():
    o = parse_options()
    python = python_with_grpc(o)
    for tool, hint in (("protoc", "apt-get install protobuf-compiler (scripts/install-deps.sh)"),
                       (TIME, "apt-get install time")):
        if shutil.which(tool) is None:
            die(f"{tool} is missing: {hint}")
    os.makedirs(o.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="apitest-grpc-bench.")
    server = None

    def cleanup():
        for group in RUNNING:
            try:
                os.killpg(group, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if server is not None:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)

    signal.signal(signal.SIGINT, lambda *_: (cleanup(), sys.exit(130)))
    signal.signal(signal.SIGTERM, lambda *_: (cleanup(), sys.exit(143)))
    try:
        apitest, apitest_source, debug = choose_apitest(o, work)
        shutil.copy(os.path.join(HERE, "bench.proto"), work)
        descriptor_set = os.path.join(work, "bench.pb")
        compiled = subprocess.run(["protoc", "--include_imports", f"--descriptor_set_out={descriptor_set}",
                                   f"--proto_path={work}", os.path.join(work, "bench.proto")],
                                  capture_output=True, text=True)
        if compiled.returncode != 0:
            die("protoc failed on bench.proto: " + compiled.stderr.strip())
        certificate = make_certificate(work) if o.tls else None
        server = Server(python, descriptor_set, o.workers, work, certificate)
        for mode in ("h2c", "tls") if o.tls else ("h2c",):
            if mode == "tls":
                print("", flush=True)
            load_before = os.getloadavg()
            report(o, python, apitest, apitest_source, debug, descriptor_set, server, work, load_before, mode,
                   certificate)
    finally:
        cleanup()
    return 0


def make_certificate(work):
    """A self-signed certificate for 127.0.0.1 and localhost in the work folder: (certificate path, key path)."""
    cert, key = os.path.join(work, "cert.pem"), os.path.join(work, "key.pem")
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                           "-days", "2", "-subj", "/CN=localhost",
                           "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], capture_output=True, text=True)
    if made.returncode != 0:
        die("openssl could not make the TLS certificate: " + made.stderr.strip()[-2000:])
    return cert, key


def report(o, python, apitest, apitest_source, debug, descriptor_set, server, work, load_before, mode="h2c",
           certificate=None):
    tls = mode == "tls"
    n, port = o.count, server.tls_port if tls else server.port
    ca_file = certificate[0] if tls else None
    suffix = "-tls" if tls else ""
    limit = 60 + n / 20
    suite = os.path.join(work, f"suite{suffix}.yaml")
    write_suite(suite, port, n, ca_file=ca_file)
    commands = {
        "apitest": [apitest, "run", suite, "--jobs", str(o.jobs), "--no-color"],
        "grpcio": [python, os.path.join(HERE, "client.py"), "--descriptor-set", descriptor_set,
                   "--target", f"127.0.0.1:{port}", "--count", str(n), "--jobs", str(o.jobs)],
    }
    if tls:
        # The options that end the command (--count N --jobs J) stay last: the sanity runs replace them.
        commands["grpcio"][4:4] = ["--root-cert", ca_file]
    failed = {}

    # Sanity: apitest validates the suite, passes a one-test suite and fails one whose check cannot hold; the client
    # passes and fails the same.
    sanity = os.path.join(o.out, f"apitest-sanity{suffix}.log")
    good, bad = os.path.join(work, f"good{suffix}.yaml"), os.path.join(work, f"bad{suffix}.yaml")
    write_suite(good, port, 1, ca_file=ca_file)
    write_suite(bad, port, 1, name="Bob", ca_file=ca_file)
    with open(sanity, "w") as f:
        steps = [("validate", [apitest, "validate", suite], 0), ("good", [apitest, "run", good, "--no-color"], 0),
                 ("bad", [apitest, "run", bad, "--no-color"], 1)]
        for label, command, wanted in steps:
            f.write(f"$ {' '.join(command)}\n")
            f.flush()
            try:
                rc = subprocess.run(command, stdout=f, stderr=subprocess.STDOUT, timeout=limit).returncode
            except subprocess.TimeoutExpired:
                rc = "timeout"
            if rc != wanted:
                failed["apitest"] = f"sanity: {label} exited {rc}, expected {wanted} (see {sanity})"
                break
    client_sanity = os.path.join(o.out, f"grpcio-sanity{suffix}.log")
    with open(client_sanity, "w") as f:
        base = commands["grpcio"][:-4] + ["--count", "1", "--jobs", "1"]
        for label, extra, wanted in (("good", [], 0), ("bad", ["--expect-name", "Bob"], 1)):
            rc = subprocess.run(base + extra, stdout=f, stderr=subprocess.STDOUT, timeout=limit).returncode
            if rc != wanted:
                failed["grpcio"] = f"sanity: {label} exited {rc}, expected {wanted} (see {client_sanity})"
                break

    results = {"apitest": [], "grpcio": []}
    server_cpu = {"apitest": [], "grpcio": []}
    rounds = []
    for r in range(1, o.rounds + 1):
        order = ["apitest", "grpcio"] if r % 2 else ["grpcio", "apitest"]
        row = {"first": order[0]}
        for tool in order:
            if tool in failed:
                continue
            log = os.path.join(o.out, f"{tool}-run{suffix}.log")
            (before, _), cpu_before = server.calls(reset=True), server.cpu()
            rc, wall, user, system, rss = timed(commands[tool], log, limit)
            (after, peers), cpu = server.calls(), server.cpu() - cpu_before
            grew = after - before
            if rc != 0 or grew < n:
                failed[tool] = f"round {r}: exit {rc}, server answered {grew} of {n} calls (see {log})"
                continue
            results[tool].append({"wall": wall, "user": user, "sys": system, "rss": rss, "rate": n / wall,
                                  "cpu_call": (user + system) / n,
                                  "conns": peers})
            server_cpu[tool].append(cpu / n)
            row[tool] = results[tool][-1]
        rounds.append(row)
        parts = [f"{t} {row[t]['rate']:.0f} calls/s" if t in row else f"{t} failed" for t in order]
        say(f"grpc: {mode}, {n} calls, round {r}/{o.rounds} ({order[0]} first): " + ", ".join(parts))
    load_after = os.getloadavg()

    import grpc

    out = []
    transport = "TLS (ALPN h2, self-signed certificate trusted by both)" if tls else "plaintext (h2c)"
    out.append(f"unary gRPC calls over {transport}: {n} calls of bench.Users/GetUser, {o.jobs} in flight, "
               f"{o.rounds} paired round(s)")
    out.append("  (apitest first in odd rounds, grpcio's client first in even ones; each run under GNU time)")
    out.append(f"  server: grpcio {grpc.__version__} (sync, {o.workers} worker threads, Python "
               f"{sys.version.split()[0]}) on 127.0.0.1; machine: {os.cpu_count()} cores, load average "
               f"{load_before[0]:.2f} before, {load_after[0]:.2f} after")
    out.append(f"  apitest: {apitest_source}" + ("  (DEBUG BUILD: THESE FIGURES MEAN NOTHING)" if debug else ""))
    out.append("")
    out.append("  round  first      apitest calls/s  grpcio calls/s  apitest/grpcio")
    for i, row in enumerate(rounds, 1):
        a = f"{row['apitest']['rate']:.0f}" if "apitest" in row else "-"
        g = f"{row['grpcio']['rate']:.0f}" if "grpcio" in row else "-"
        ratio = f"{row['apitest']['rate'] / row['grpcio']['rate']:.2f}x" if "apitest" in row and "grpcio" in row \
            else "-"
        out.append(f"  {i:>5}  {row['first']:<9} {a:>16} {g:>15} {ratio:>15}")
    out.append("")
    out.append("  tool     median calls/s  (spread)        CPU/call us (spread)        peak RSS   server CPU/call us"
               "  connections")
    for tool in ("apitest", "grpcio"):
        runs = results[tool]
        if tool in failed or not runs:
            out.append(f"  {tool:<8} failed: {failed.get(tool, 'not measured')}")
            continue
        rates = [x["rate"] for x in runs]
        cpus = [x["cpu_call"] * 1e6 for x in runs]
        rss = max(x["rss"] for x in runs) / 1024
        rate_spread, cpu_spread = f"({min(rates):.0f}-{max(rates):.0f})", f"({min(cpus):.0f}-{max(cpus):.0f})"
        out.append(f"  {tool:<8} {median(rates):>14.0f}  {rate_spread:<15} {median(cpus):>11.0f} {cpu_spread:<11}"
                   f"{rss:>8.1f} MiB {median(server_cpu[tool]) * 1e6:>20.0f}"
                   f"{median([x['conns'] for x in runs]):>13.0f}")
    out.append("  (calls/s: calls over the wall time of the whole process, start-up and suite loading included;")
    out.append("   CPU/call: the tool's user + sys over the calls; peak RSS: the highest of the rounds;")
    out.append("   server CPU/call: the grpcio server's user + sys during the run, over the calls;")
    out.append("   connections: the client addresses the server saw the run's calls come from, one a TCP connection;")
    out.append("   the median of the rounds)")
    paired = [row for row in rounds if "apitest" in row and "grpcio" in row]
    out.append("")
    if paired:
        speed = [row["apitest"]["rate"] / row["grpcio"]["rate"] for row in paired]
        cpu = [row["apitest"]["cpu_call"] / row["grpcio"]["cpu_call"] for row in paired]
        out.append("  ratio apitest / grpcio      median   (spread of the rounds)")
        out.append(f"  calls/s                     {median(speed):>5.2f}x   ({min(speed):.2f}-{max(speed):.2f})")
        out.append(f"  CPU per call                {median(cpu):>5.2f}x   ({min(cpu):.2f}-{max(cpu):.2f})"
                   "   (below 1: apitest spends less CPU per call)")
        out.append("  (the median of the per-round ratios)")
    else:
        out.append("  ratio apitest / grpcio: n/a (" + "; ".join(f"{t}: {w}" for t, w in failed.items()) + ")")
    print("\n".join(out), flush=True)


if __name__ == "__main__":
    sys.exit(main())
