"""What the HAR recorders share (record-chromium.py, record-chromium-websocket.py): headless Chromium driven through
the DevTools protocol over --remote-debugging-pipe (commands on fd 3, answers and events on fd 4, each message ended
by a NUL), every event kept in `events`, and the pieces of a HAR 1.2 file they write alike. A recorder imports it
from its own folder, which Python puts first on its path.
"""
import json, os, select, subprocess, sys, tempfile, time


class Chromium:
    """A headless Chromium with a fresh profile; `events` holds every event read so far, in order."""

    def __init__(self):
        r_cmd, w_cmd = os.pipe()    # we write commands -> chromium reads fd 3
        r_evt, w_evt = os.pipe()    # chromium writes fd 4 -> we read
        profile = tempfile.mkdtemp()
        def child():
            os.dup2(r_cmd, 3); os.dup2(w_evt, 4)
        self.proc = subprocess.Popen(
            ["chromium", "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--user-data-dir=" + profile, "about:blank"],
            pass_fds=(3, 4), preexec_fn=child, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(r_cmd); os.close(w_evt)
        self.w_cmd, self.r_evt = w_cmd, r_evt
        self.buf = b""; self.next_id = 0; self.events = []

    def send(self, method, params=None, session=None):
        """Sends a command (to `session`, a page's) and returns its result; events read meanwhile are kept."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session: msg["sessionId"] = session
        os.write(self.w_cmd, json.dumps(msg).encode() + b"\0")
        return self.wait_for(self.next_id)

    def read_messages(self, timeout):
        ready, _, _ = select.select([self.r_evt], [], [], timeout)
        if not ready: return []
        chunk = os.read(self.r_evt, 1 << 20)
        if not chunk: raise SystemExit("chromium closed the pipe")
        self.buf += chunk
        msgs = []
        while b"\0" in self.buf:
            raw, self.buf = self.buf.split(b"\0", 1)
            msgs.append(json.loads(raw))
        return msgs

    def wait_for(self, id, timeout=20):
        end = time.time() + timeout
        while time.time() < end:
            for m in self.read_messages(0.5):
                if m.get("id") == id:
                    if "error" in m: raise SystemExit(f"CDP error: {m}")
                    return m.get("result", {})
                self.events.append(m)
        raise SystemExit(f"no answer to {id}")

    def settle(self, seconds):
        """Keeps the events of the next `seconds`."""
        end = time.time() + seconds
        while time.time() < end:
            self.events.extend(self.read_messages(0.2))

    def open_page(self):
        """A blank page with its network and page events on; returns its session."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Network.enable", {}, session); self.send("Page.enable", {}, session)
        return session

    def evaluate(self, script, session):
        """Runs `script` in the page, awaiting its promise, and prints its result to standard error."""
        print(self.send("Runtime.evaluate", {"expression": script, "awaitPromise": True}, session).get("result"),
              file=sys.stderr)

    def close(self):
        self.proc.terminate()


def request_cookies(headers):
    """The cookies of a request's `Cookie` header, as HAR lists them."""
    cookies = []
    for h, v in headers.items():
        if h.lower() == "cookie":
            for pair in v.split("; "):
                n, _, val = pair.partition("="); cookies.append({"name": n, "value": val})
    return cookies


def header_list(headers):
    """Header fields as HAR lists them."""
    return [{"name": k, "value": v} for k, v in headers.items()]


def started(wall_time):
    """A HAR `startedDateTime` of a DevTools wall time (seconds; the epoch when unknown)."""
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(wall_time or 0))


def write_har(out, creator, entries):
    """Writes `entries` as a HAR 1.2 file of Chromium 156 made by `creator`."""
    har = {"log": {"version": "1.2", "creator": {"name": creator, "version": "1"},
                   "browser": {"name": "Chromium", "version": "156"}, "pages": [], "entries": entries}}
    json.dump(har, open(out, "w"), indent=2)
    print(f"{len(entries)} entries", file=sys.stderr)
