#!/usr/bin/env python3
"""An HTTP server that echoes a request's secret back in the encodings real servers use (standard library only).

Prints "echo-encodings listening on <port>" once ready. GET /FORM answers with the value of the request's
X-Secret header (or, for the echo forms, its Authorization header) written as:
  raw            as is (text/plain)
  python-json    {"t": ...} from Python's json.dumps (\\u00e4 for non-ASCII, \\" for quotes)
  php-json       the same with / written \\/ (PHP's json_encode)
  mixed          spaces percent-encoded and quotes JSON-escaped in one value (ab%20cd\\"ef)
  percent        percent-encoded (urllib.parse.quote, nothing safe)
  form           form-encoded (spaces as +)
  xml            <t>...</t> with XML character references for quotes and non-ASCII
  base64         base64 of the value
  json-in-json   {"body": "<python-json of the value, as a JSON string>"}
  auth-echo      {"headers": {"Authorization": ...}} as httpbin's /headers (the Basic credentials, base64)
Every answer also carries the value percent-encoded in an X-Echo header.
"""
import base64
import json
import socketserver
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler


def xml_escape(text):
    out = []
    for ch in text:
        if ch in "&<>\"'" or ord(ch) > 127:
            out.append("&#%d;" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        form = self.path.lstrip("/").split("?")[0]
        # http.server reads header bytes as Latin-1; the client sent UTF-8.
        secret = self.headers.get("X-Secret", "").encode("latin-1").decode("utf-8", "replace")
        auth = self.headers.get("Authorization", "")
        ctype = "application/json"
        if form == "raw":
            body, ctype = secret, "text/plain; charset=utf-8"
        elif form == "python-json":
            body = json.dumps({"t": secret})
        elif form == "php-json":
            body = json.dumps({"t": secret}).replace("/", "\\/")
        elif form == "mixed":
            body = '{"t": "%s"}' % secret.replace(" ", "%20").replace('"', '\\"')
        elif form == "percent":
            body, ctype = urllib.parse.quote(secret, safe=""), "text/plain"
        elif form == "form":
            body, ctype = urllib.parse.quote_plus(secret), "application/x-www-form-urlencoded"
        elif form == "xml":
            body, ctype = "<t>%s</t>" % xml_escape(secret), "application/xml"
        elif form == "base64":
            body, ctype = base64.b64encode(secret.encode()).decode(), "text/plain"
        elif form == "json-in-json":
            body = json.dumps({"body": json.dumps({"t": secret})})
        elif form == "auth-echo":
            body = json.dumps({"headers": {"Authorization": auth}})
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-Echo", urllib.parse.quote(secret or auth, safe=""))
        self.end_headers()
        self.wfile.write(data)


class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print("echo-encodings listening on %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
