"""grpc_test_server.py's test.Echo methods on grpcio's server, each call recording the client's address
(context.peer(): "ipv4:127.0.0.1:PORT", one per TCP connection), for the h2c connection reuse tests
(GRPCConnectionReuseTests). Prints its port on one line only once the server listens (grpc_fixture.serve; TLS with
--cert and --key).

With --max-age-ms N the server ends each connection N ms after it opened (grpc.max_connection_age_ms: a GOAWAY,
then the close once its calls are done), as servers behind load balancers do (not used by the tests: a call sent
just as a connection ends can end without a status, see docs/grpc.md).

Extra method of /test.Echo/:
  Peers   answers "calls,peers": the calls of the other methods so far and their distinct client addresses.
"""

import argparse
import os
import sys
import threading
from concurrent import futures

import grpc

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grpc_fixture  # noqa: E402
import grpc_test_server as echo  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-age-ms", type=int)
    grpc_fixture.add_tls_arguments(parser)
    arguments = parser.parse_args()
    lock = threading.Lock()
    calls = [0]
    peers = set()

    def counted(handler):
        def wrapped(request, context):
            with lock:
                calls[0] += 1
                peers.add(context.peer())
            return handler(request, context)

        return wrapped

    def peers_method(request, context):
        with lock:
            return f"{calls[0]},{len(peers)}".encode("ascii")

    ser = dict(request_deserializer=echo.identity, response_serializer=echo.identity)
    handlers = {
        "Unary": grpc.unary_unary_rpc_method_handler(counted(echo.unary), **ser),
        "ServerStream": grpc.unary_stream_rpc_method_handler(counted(echo.server_stream), **ser),
        "ClientStream": grpc.stream_unary_rpc_method_handler(counted(echo.client_stream), **ser),
        "Bidi": grpc.stream_stream_rpc_method_handler(counted(echo.bidi), **ser),
        "Fail": grpc.unary_unary_rpc_method_handler(counted(echo.fail), **ser),
        "Sleep": grpc.unary_unary_rpc_method_handler(counted(echo.sleep), **ser),
        "TrailersOnly": grpc.unary_unary_rpc_method_handler(counted(echo.trailers_only), **ser),
        "Peers": grpc.unary_unary_rpc_method_handler(peers_method, **ser),
    }
    options = []
    if arguments.max_age_ms:
        options = [("grpc.max_connection_age_ms", arguments.max_age_ms),
                   ("grpc.max_connection_age_grace_ms", 60000)]
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16), options=options)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("test.Echo", handlers),))
    grpc_fixture.serve(server, arguments)


if __name__ == "__main__":
    main()
