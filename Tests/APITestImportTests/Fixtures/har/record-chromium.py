#!/usr/bin/env python3
"""Records a HAR 1.2 file with headless Chromium through the DevTools protocol (--remote-debugging-pipe)."""
import json, os, subprocess, sys, tempfile, time, select

base = sys.argv[1]          # e.g. http://127.0.0.1:18080
out = sys.argv[2]
r_cmd, w_cmd = os.pipe()    # we write commands -> chromium reads fd 3
r_evt, w_evt = os.pipe()    # chromium writes fd 4 -> we read
profile = tempfile.mkdtemp()
def child():
    os.dup2(r_cmd, 3); os.dup2(w_evt, 4)
proc = subprocess.Popen(["chromium", "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
                         "--no-first-run", "--user-data-dir=" + profile, "about:blank"],
                        pass_fds=(3, 4), preexec_fn=child, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(r_cmd); os.close(w_evt)
buf = b""; next_id = 0; events = []
def send(method, params=None, session=None):
    global next_id
    next_id += 1
    msg = {"id": next_id, "method": method, "params": params or {}}
    if session: msg["sessionId"] = session
    os.write(w_cmd, json.dumps(msg).encode() + b"\0")
    return wait_for(next_id)
def read_messages(timeout):
    global buf
    ready, _, _ = select.select([r_evt], [], [], timeout)
    if not ready: return []
    chunk = os.read(r_evt, 1 << 20)
    if not chunk: raise SystemExit("chromium closed the pipe")
    buf += chunk
    msgs = []
    while b"\0" in buf:
        raw, buf = buf.split(b"\0", 1)
        msgs.append(json.loads(raw))
    return msgs
def wait_for(id, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        for m in read_messages(0.5):
            if m.get("id") == id:
                if "error" in m: raise SystemExit(f"CDP error: {m}")
                return m.get("result", {})
            events.append(m)
    raise SystemExit(f"no answer to {id}")
def settle(seconds):
    end = time.time() + seconds
    while time.time() < end:
        events.extend(read_messages(0.2))
target = send("Target.createTarget", {"url": "about:blank"})["targetId"]
session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
send("Network.enable", {}, session); send("Page.enable", {}, session)
send("Page.navigate", {"url": base + "/cookies/set?session=5f2b8c1e9a&theme=dark"}, session); settle(1.5)
events.clear()
send("Page.navigate", {"url": base + "/html"}, session); settle(1.5)
script = """
(async () => {
  const auth = {Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.demo.c2lnbmF0dXJl', Accept: 'application/json'};
  await (await fetch('/api/users?role=admin', {headers: auth})).text();
  await (await fetch('/api/users', {method: 'POST', headers: {...auth, 'Content-Type': 'application/json'},
     body: JSON.stringify({name: 'dave', email: 'dave@example.com'})})).text();
  await (await fetch('/bearer', {headers: auth})).text();
  await (await fetch('/cookies', {headers: {Accept: 'application/json'}})).text();
  await (await fetch('/basic-auth/ann/s3cret', {headers: {Authorization: 'Basic ' + btoa('ann:s3cret')}})).text();
  await (await fetch('/echo/search?q=shoes&access_token=9c1d7e4f&page=2', {headers: {'X-Api-Key': 'k-8812-demo'}})).text();
  await (await fetch('/echo/login', {method: 'POST', headers: {'Content-Type': 'application/x-www-form-urlencoded'}, body: 'user=ann&remember=1'})).text();
  await (await fetch('/api/users/404404', {headers: auth})).text();
  await new Promise((resolve) => { const x = new XMLHttpRequest(); x.open('GET', '/json'); x.onload = resolve; x.send(); });
  const img = new Image(); img.src = '/image/png?width=16&height=16'; await img.decode().catch(() => {});
  return 'done';
})()
"""
print(send("Runtime.evaluate", {"expression": script, "awaitPromise": True}, session).get("result"), file=sys.stderr)
settle(1.5)
proc.terminate()
# HAR from the Network events.
reqs = {}; order = []
for m in events:
    method, p = m.get("method"), m.get("params", {})
    if method == "Network.requestWillBeSent":
        rid = p["requestId"]
        if rid not in reqs: order.append(rid)
        reqs.setdefault(rid, {})
        reqs[rid].update(request=p["request"], type=p.get("type", "Other"), wallTime=p.get("wallTime"))
    elif method == "Network.requestWillBeSentExtraInfo":
        reqs.setdefault(p["requestId"], {})["extraHeaders"] = p.get("headers", {})
    elif method == "Network.responseReceived":
        reqs.setdefault(p["requestId"], {})["response"] = p["response"]
    elif method == "Network.responseReceivedExtraInfo":
        reqs.setdefault(p["requestId"], {})["extraResponseHeaders"] = p.get("headers", {})
    elif method == "Network.loadingFailed":
        reqs.setdefault(p["requestId"], {})["failed"] = p.get("errorText")
entries = []
for rid in order:
    r = reqs[rid]; req = r["request"]; resp = r.get("response", {})
    headers = r.get("extraHeaders") or req.get("headers", {})
    cookies = []
    for h, v in headers.items():
        if h.lower() == "cookie":
            for pair in v.split("; "):
                n, _, val = pair.partition("=")
                cookies.append({"name": n, "value": val})
    url = req["url"]
    query = []
    if "?" in url:
        for pair in url.split("?", 1)[1].split("&"):
            n, _, val = pair.partition("="); query.append({"name": n, "value": val})
    entry = {
        "_resourceType": r["type"].lower(), "startedDateTime": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(r.get("wallTime") or 0)),
        "time": 1, "request": {"method": req["method"], "url": url, "httpVersion": resp.get("protocol", "http/1.1"),
            "headers": [{"name": k, "value": v} for k, v in headers.items()], "queryString": query, "cookies": cookies,
            "headersSize": -1, "bodySize": len(req.get("postData", ""))},
        "response": {"status": resp.get("status", 0), "statusText": resp.get("statusText", ""), "httpVersion": resp.get("protocol", ""),
            "headers": [{"name": k, "value": v} for k, v in (r.get("extraResponseHeaders") or resp.get("headers", {})).items()],
            "cookies": [], "content": {"size": 0, "mimeType": resp.get("mimeType", "x-unknown")}, "redirectURL": "",
            "headersSize": -1, "bodySize": -1, "_error": r.get("failed")},
        "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0}}
    if "postData" in req:
        ct = next((v for k, v in headers.items() if k.lower() == "content-type"), "")
        entry["request"]["postData"] = {"mimeType": ct, "text": req["postData"]}
    entries.append(entry)
har = {"log": {"version": "1.2", "creator": {"name": "apitest record.py (Chromium DevTools protocol)", "version": "1"},
               "browser": {"name": "Chromium", "version": "156"}, "pages": [], "entries": entries}}
json.dump(har, open(out, "w"), indent=2)
print(f"{len(entries)} entries", file=sys.stderr)
