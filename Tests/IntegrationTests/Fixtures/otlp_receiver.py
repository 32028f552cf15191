"""An OTLP/HTTP trace receiver for apitest's tracing tests, built on the OpenTelemetry project's own protobuf
definitions (PyPI's opentelemetry-proto): every body posted to /v1/traces is parsed into an
ExportTraceServiceRequest (protobuf with ParseFromString, JSON with google.protobuf.json_format.Parse after OTLP's
hex ids are turned into the base64 the protobuf JSON mapping expects), so a document the real definitions reject
fails the export with 400. Any other request is answered 200 as the tested service would, and its W3C trace
headers are recorded.

Usage: otlp_receiver.py PORT OUTPUT (PORT 0: one the system picks; the port is printed once listening). Writes one JSON object a line to OUTPUT, before answering:
  {"kind": "export", "contentType": ..., "authorization": ..., "resource": {...}, "spans": [...]}
  {"kind": "invalid", "error": ...}
  {"kind": "request", "method": ..., "path": ..., "traceparent": ..., "tracestate": ...}
"""

import base64
import binascii
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

LOCK = threading.Lock()
OUTPUT = sys.argv[2]


def record(entry):
    with LOCK, open(OUTPUT, "a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")
        out.flush()


def hex_ids_to_base64(node):
    """OTLP/JSON writes traceId, spanId and parentSpanId as hex (the spec's one change to the protobuf JSON
    mapping); json_format expects base64. A value that is not hex of the right length is an error."""
    if isinstance(node, list):
        for item in node:
            hex_ids_to_base64(item)
    elif isinstance(node, dict):
        for key, value in list(node.items()):
            if key in ("traceId", "spanId", "parentSpanId") and isinstance(value, str):
                size = 32 if key == "traceId" else 16
                if value == "" and key == "parentSpanId":
                    continue
                if len(value) != size or value.lower() != value:
                    raise ValueError(f"{key} {value!r} is not {size} lowercase hex digits")
                node[key] = base64.b64encode(binascii.unhexlify(value)).decode("ascii")
            else:
                hex_ids_to_base64(value)


def any_value(value):
    kind = value.WhichOneof("value")
    if kind == "string_value":
        return value.string_value
    if kind == "int_value":
        return value.int_value
    if kind == "bool_value":
        return value.bool_value
    if kind == "double_value":
        return value.double_value
    return json_format.MessageToDict(value)


def attributes(items):
    return {item.key: any_value(item.value) for item in items}


def summary(request):
    resources = []
    spans = []
    for resource_spans in request.resource_spans:
        resources.append(attributes(resource_spans.resource.attributes))
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                if len(span.trace_id) != 16 or len(span.span_id) != 8:
                    raise ValueError("a trace id is 16 bytes and a span id 8")
                if span.parent_span_id and len(span.parent_span_id) != 8:
                    raise ValueError("a parent span id is 8 bytes")
                if span.end_time_unix_nano < span.start_time_unix_nano or span.start_time_unix_nano == 0:
                    raise ValueError(f"span {span.name!r} has no valid start and end")
                spans.append(
                    {
                        "scope": scope_spans.scope.name,
                        "traceId": span.trace_id.hex(),
                        "spanId": span.span_id.hex(),
                        "parentSpanId": span.parent_span_id.hex(),
                        "traceState": span.trace_state,
                        "name": span.name,
                        "kind": span.kind,
                        "start": span.start_time_unix_nano,
                        "end": span.end_time_unix_nano,
                        "attributes": attributes(span.attributes),
                        "statusCode": span.status.code,
                        "statusMessage": span.status.message,
                    }
                )
    return resources, spans


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_POST(self):
        body = self.body()
        if self.path != "/v1/traces":
            return self.served(body)
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        try:
            request = ExportTraceServiceRequest()
            if content_type == "application/json":
                document = json.loads(body)
                hex_ids_to_base64(document)
                json_format.Parse(json.dumps(document), request)
            elif content_type == "application/x-protobuf":
                request.ParseFromString(body)
            else:
                raise ValueError(f"unexpected Content-Type {content_type!r}")
            resources, spans = summary(request)
        except Exception as error:  # noqa: BLE001 - every rejected document is recorded for the test
            record({"kind": "invalid", "contentType": content_type, "error": f"{type(error).__name__}: {error}"})
            return self.answer(400, str(error).encode(), "text/plain")
        record(
            {
                "kind": "export",
                "contentType": content_type,
                "authorization": self.headers.get("Authorization"),
                "resources": resources,
                "spans": spans,
            }
        )
        if content_type == "application/json":
            return self.answer(200, b"{}", "application/json")
        return self.answer(200, ExportTraceServiceResponse().SerializeToString(), "application/x-protobuf")

    def do_GET(self):
        self.served(b"")

    def served(self, body):
        record(
            {
                "kind": "request",
                "method": self.command,
                "path": self.path,
                "traceparent": self.headers.get("traceparent"),
                "tracestate": self.headers.get("tracestate"),
            }
        )
        self.answer(200, b'{"ok": true}', "application/json")


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
