#!/usr/bin/env python3
"""Records a WebSocket conversation of headless Chromium as HAR 1.2 through the DevTools protocol
(--remote-debugging-pipe), as DevTools' "Save all as HAR" writes it: the page's document entry, then the WebSocket's
entry (`_resourceType: websocket`, the handshake's request and 101 response, the frames in `_webSocketMessages`:
`{type: send|receive, time, opcode, data}`, binary data in base64).

    python3 ../../../IntegrationTests/Fixtures/websocket_servers.py --mode echo --port 18765 &
    python3 record-chromium-websocket.py http://127.0.0.1:18765 chromium-websocket.har
"""
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from chromium_pipe import Chromium, header_list, request_cookies, started, write_har  # noqa: E402

base = sys.argv[1]          # the echo server of websocket_servers.py, e.g. http://127.0.0.1:18765
out = sys.argv[2]
browser = Chromium()
session = browser.open_page()
# The echo server answers a plain GET with 426 (Upgrade Required): a page of that origin to open the socket from.
browser.send("Page.navigate", {"url": base + "/"}, session); browser.settle(1.5)
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
browser.evaluate(script, session)
browser.settle(1.5)
browser.close()
reqs = {}; order = []
def item(rid):
    if rid not in reqs: order.append(rid)
    return reqs.setdefault(rid, {"frames": []})
for m in browser.events:
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
    cookies = request_cookies(headers)
    entry = {
        "_resourceType": r["type"].lower(),
        "startedDateTime": started(r.get("wallTime")),
        "time": 1, "request": {"method": req["method"], "url": req["url"], "httpVersion": "HTTP/1.1",
            "headers": header_list(headers), "queryString": [], "cookies": cookies,
            "headersSize": -1, "bodySize": 0},
        "response": {"status": resp.get("status", 0), "statusText": resp.get("statusText", ""), "httpVersion": "HTTP/1.1",
            "headers": header_list(r.get("extraResponseHeaders") or resp.get("headers", {})),
            "cookies": [], "content": {"size": 0, "mimeType": resp.get("mimeType", "x-unknown")}, "redirectURL": "",
            "headersSize": -1, "bodySize": -1},
        "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0}}
    if r["frames"]:
        entry["_webSocketMessages"] = r["frames"]
    entries.append(entry)
write_har(out, "apitest record-chromium-websocket.py (Chromium DevTools protocol)", entries)
