#!/usr/bin/env python3
"""Records a HAR 1.2 file with headless Chromium through the DevTools protocol (--remote-debugging-pipe)."""
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from chromium_pipe import Chromium, header_list, request_cookies, started, write_har  # noqa: E402

base = sys.argv[1]          # e.g. http://127.0.0.1:18080
out = sys.argv[2]
browser = Chromium()
session = browser.open_page()
browser.send("Page.navigate", {"url": base + "/cookies/set?session=5f2b8c1e9a&theme=dark"}, session)
browser.settle(1.5)
browser.events.clear()
browser.send("Page.navigate", {"url": base + "/html"}, session); browser.settle(1.5)
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
browser.evaluate(script, session)
browser.settle(1.5)
browser.close()
# HAR from the Network events.
reqs = {}; order = []
for m in browser.events:
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
    cookies = request_cookies(headers)
    url = req["url"]
    query = []
    if "?" in url:
        for pair in url.split("?", 1)[1].split("&"):
            n, _, val = pair.partition("="); query.append({"name": n, "value": val})
    entry = {
        "_resourceType": r["type"].lower(), "startedDateTime": started(r.get("wallTime")),
        "time": 1, "request": {"method": req["method"], "url": url, "httpVersion": resp.get("protocol", "http/1.1"),
            "headers": header_list(headers), "queryString": query, "cookies": cookies,
            "headersSize": -1, "bodySize": len(req.get("postData", ""))},
        "response": {"status": resp.get("status", 0), "statusText": resp.get("statusText", ""), "httpVersion": resp.get("protocol", ""),
            "headers": header_list(r.get("extraResponseHeaders") or resp.get("headers", {})),
            "cookies": [], "content": {"size": 0, "mimeType": resp.get("mimeType", "x-unknown")}, "redirectURL": "",
            "headersSize": -1, "bodySize": -1, "_error": r.get("failed")},
        "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0}}
    if "postData" in req:
        ct = next((v for k, v in headers.items() if k.lower() == "content-type"), "")
        entry["request"]["postData"] = {"mimeType": ct, "text": req["postData"]}
    entries.append(entry)
write_har(out, "apitest record.py (Chromium DevTools protocol)", entries)
