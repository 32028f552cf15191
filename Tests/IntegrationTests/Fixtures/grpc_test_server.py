"""A grpcio server for the gRPC transport tests: generic handlers with identity (bytes) serializers, so no generated
code is needed. Prints its port on one line only once the server listens (grpc's start() returns after bind/listen).

Methods of /test.Echo/:
  Unary            echoes the request bytes; echoes request metadata key `x-echo` (and `x-echo-bin`) as initial
                   metadata and `x-trailer` as trailing metadata.
  ServerStream     request is ASCII "n,size,size,...": answers with messages of those sizes (byte i of message k is
                   (k + i) % 251).
  ClientStream     answers one message: the decimal sum of the lengths of the request messages, then ",count".
  Bidi             echoes each request message as it arrives.
  Fail             fails with status INVALID_ARGUMENT, message "bad 100% ünïcode", details-bin b"\\x00\\x01details\\xff"
                   and trailing metadata x-fail: yes.
  Sleep            sleeps 30 s, then answers (the client's deadline is shorter).
  TrailersOnly     aborts with NOT_FOUND before sending anything: a trailers-only response.
  Metadata         answers the received metadata as "key=value\\n" lines (binary values as hex), grpc-timeout absent
                   from Python's view (grpc consumes it), with the remaining time as "deadline=yes" when one was set.
"""

import argparse
import sys
import time
from concurrent import futures

import grpc

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from grpc_fixture import add_tls_arguments, serve  # noqa: E402 (beside this file)


def identity(value):
    return value


def unary(request, context):
    received = dict(context.invocation_metadata())
    initial = []
    if "x-echo" in received:
        initial.append(("x-echo", received["x-echo"]))
    if "x-echo-bin" in received:
        initial.append(("x-echo-bin", received["x-echo-bin"]))
    if initial:
        context.send_initial_metadata(tuple(initial))
    if "x-trailer" in received:
        context.set_trailing_metadata((("x-trailer", received["x-trailer"]),))
    return request


def server_stream(request, context):
    parts = request.decode("ascii").split(",")
    sizes = [int(part) for part in parts[1:]]
    for k, size in enumerate(sizes):
        yield bytes((k + i) % 251 for i in range(size))


def client_stream(request_iterator, context):
    total = 0
    count = 0
    for message in request_iterator:
        total += len(message)
        count += 1
    return f"{total},{count}".encode("ascii")


def bidi(request_iterator, context):
    for message in request_iterator:
        yield message


def fail(request, context):
    context.set_trailing_metadata((("x-fail", "yes"), ("grpc-status-details-bin", b"\x00\x01details\xff")))
    context.abort(grpc.StatusCode.INVALID_ARGUMENT, "bad 100% \u00fcn\u00efcode")


def sleep(request, context):
    for _ in range(300):
        if not context.is_active():
            return b""
        time.sleep(0.1)
    return request


def trailers_only(request, context):
    context.abort(grpc.StatusCode.NOT_FOUND, "no such thing")


def metadata(request, context):
    lines = []
    for key, value in context.invocation_metadata():
        if isinstance(value, bytes):
            value = "hex:" + value.hex()
        lines.append(f"{key}={value}")
    if context.time_remaining() is not None:
        lines.append("deadline=yes")
    return ("\n".join(lines)).encode("utf-8")


def main():
    parser = argparse.ArgumentParser()
    add_tls_arguments(parser)
    arguments = parser.parse_args()
    ser = dict(request_deserializer=identity, response_serializer=identity)
    handlers = {
        "Unary": grpc.unary_unary_rpc_method_handler(unary, **ser),
        "ServerStream": grpc.unary_stream_rpc_method_handler(server_stream, **ser),
        "ClientStream": grpc.stream_unary_rpc_method_handler(client_stream, **ser),
        "Bidi": grpc.stream_stream_rpc_method_handler(bidi, **ser),
        "Fail": grpc.unary_unary_rpc_method_handler(fail, **ser),
        "Sleep": grpc.unary_unary_rpc_method_handler(sleep, **ser),
        "TrailersOnly": grpc.unary_unary_rpc_method_handler(trailers_only, **ser),
        "Metadata": grpc.unary_unary_rpc_method_handler(metadata, **ser),
    }
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=16),
        options=[("grpc.max_receive_message_length", 64 * 1024 * 1024),
                 ("grpc.max_send_message_length", 64 * 1024 * 1024)])
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("test.Echo", handlers),))
    serve(server, arguments)


if __name__ == "__main__":
    main()
