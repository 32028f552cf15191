#!/usr/bin/env python3
"""Records a WebSocket conversation of headless Chromium as HAR 1.2 through the DevTools protocol
(--remote-debugging-pipe), as DevTools' "Save all as HAR" writes it: the page's document entry, then the WebSocket's
entry (`_resourceType: websocket`, the handshake's request and 101 response, the frames in `_webSocketMessages`:
`{type: send|receive, time, opcode, data}`, binary data in base64).

    python3 ../../../IntegrationTests/Fixtures/websocket_servers.py --mode echo --port 18765 &
    python3 record-chromium-websocket.py http://127.0.0.1:18765 chromium-websocket.har
"""
import json, os, subprocess, sys, tempfile, time, select

base = sys.argv[1]          # the echo server of websocket_servers.py, e.g. http://127.0.0.1:18765
out = sys.argv[2]
r_cmd, w_cmd = os.pipe()
r_evt, w_evt = os.pipe()
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
# The echo server answers a plain GET with 426 (Upgrade Required): a page of that origin to open the socket from.
send("Page.navigate", {"url": base + "/"}, session); settle(1.5)
ws_url = base.replace("http://", "ws://") + "/greet"
script = """
(async () => {
  document.cookie = 'session=f00dcafe; path=/';
  const ws = new WebSocket('%s', ['superchat', 'chat']);
  ws.binaryType = 'arraybuffer';
  const queue = []; const waiting = [];
  ws.onmessage = (e) => { if (waiting.length) waiting.shift()(e.data); else queue.push(e.data); };
  const next = () => queue.length ? Promise.resolve(queue.shift()) : new Promise((r) => waiting.push(r));
  await new Promise((r) => { ws.onopen = r; });
  await next();                                   // {"type": "welcome", "id": 42}
  ws.send('hello'); await next();
  ws.send(JSON.stringify({op: 'add', values: [1, 2], sentAt: new Date().toISOString()})); await next();
  ws.send(new Uint8Array([0, 1, 2, 255, 128])); await next();
  ws.send('key: value\\n- item {{ env.HOME }} "quoted" \\u0007 # not a comment'); await next();
  await new Promise((r) => { ws.onclose = r; ws.close(1000, 'done'); });
  return 'done';
})()
""" % ws_url
print(send("Runtime.evaluate", {"expression": script, "awaitPromise": True}, session).get("result"), file=sys.stderr)
settle(1.5)
proc.terminate()
reqs = {}; order = []
def item(rid):
    if rid not in reqs: order.append(rid)
    return reqs.setdefault(rid, {"frames": []})
for m in events:
    method, p = m.get("method"), m.get("params", {})
    if method == "Network.requestWillBeSent":
        r = item(p["requestId"]); r.update(request=p["request"], type=p.get("type", "Other"), wallTime=p.get("wallTime"))
    elif method == "Network.requestWillBeSentExtraInfo":
        item(p["requestId"])["extraHeaders"] = p.get("headers", {})
    elif method == "Network.responseReceived":
        item(p["requestId"])["response"] = p["response"]
    elif method == "Network.responseReceivedExtraInfo":
        item(p["requestId"])["extraResponseHeaders"] = p.get("headers", {})
    elif method == "Network.webSocketCreated":
        r = item(p["requestId"]); r.update(request={"url": p["url"], "method": "GET", "headers": {}}, type="WebSocket")
    elif method == "Network.webSocketWillSendHandshakeRequest":
        r = item(p["requestId"]); r["request"]["headers"] = p["request"].get("headers", {}); r["wallTime"] = p.get("wallTime")
        r["start"] = p.get("timestamp")
    elif method == "Network.webSocketHandshakeResponseReceived":
        r = item(p["requestId"]); r["response"] = p["response"]
        if p["response"].get("requestHeaders"): r["extraHeaders"] = p["response"]["requestHeaders"]
    elif method in ("Network.webSocketFrameSent", "Network.webSocketFrameReceived"):
        frame = p["response"]
        item(p["requestId"])["frames"].append({
            "type": "send" if method.endswith("Sent") else "receive", "time": p.get("timestamp"),
            "opcode": frame["opcode"], "data": frame["payloadData"]})
entries = []
for rid in order:
    r = reqs[rid]; req = r["request"]; resp = r.get("response", {})
    headers = r.get("extraHeaders") or req.get("headers", {})
    cookies = []
    for h, v in headers.items():
        if h.lower() == "cookie":
            for pair in v.split("; "):
                n, _, val = pair.partition("="); cookies.append({"name": n, "value": val})
    entry = {
        "_resourceType": r["type"].lower(),
        "startedDateTime": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(r.get("wallTime") or 0)),
        "time": 1, "request": {"method": req["method"], "url": req["url"], "httpVersion": "HTTP/1.1",
            "headers": [{"name": k, "value": v} for k, v in headers.items()], "queryString": [], "cookies": cookies,
            "headersSize": -1, "bodySize": 0},
        "response": {"status": resp.get("status", 0), "statusText": resp.get("statusText", ""), "httpVersion": "HTTP/1.1",
            "headers": [{"name": k, "value": v} for k, v in (r.get("extraResponseHeaders") or resp.get("headers", {})).items()],
            "cookies": [], "content": {"size": 0, "mimeType": resp.get("mimeType", "x-unknown")}, "redirectURL": "",
            "headersSize": -1, "bodySize": -1},
        "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0}}
    if r["frames"]:
        entry["_webSocketMessages"] = r["frames"]
    entries.append(entry)
har = {"log": {"version": "1.2", "creator": {"name": "apitest record-chromium-websocket.py (Chromium DevTools protocol)",
               "version": "1"}, "browser": {"name": "Chromium", "version": "156"}, "pages": [], "entries": entries}}
json.dump(har, open(out, "w"), indent=2)
print(f"{len(entries)} entries", file=sys.stderr)
