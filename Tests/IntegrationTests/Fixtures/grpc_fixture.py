"""The start-up the grpcio test servers share (grpc_test_server.py, grpc_step_server.py, grpc_reflection_server.py):
the --cert and --key flags, and serving a built server on 127.0.0.1 (TLS with that certificate and key, else
plaintext h2c) on a free port that is printed on one line only once the server listens (grpc's start() returns after
bind and listen). A server imports it from its own folder, which Python puts first on its path.
"""

import sys

import grpc


def add_tls_arguments(parser):
    """--cert PATH --key PATH: serve TLS with this certificate and key instead of plaintext (h2c)."""
    parser.add_argument("--cert")
    parser.add_argument("--key")


def serve(server, arguments):
    """Binds `server` to 127.0.0.1:0 as `arguments` say (add_tls_arguments), starts it, prints its port and serves
    until the process is stopped; exits 1 with "could not bind" when it cannot bind."""
    if arguments.cert:
        with open(arguments.cert, "rb") as f:
            cert = f.read()
        with open(arguments.key, "rb") as f:
            key = f.read()
        port = server.add_secure_port("127.0.0.1:0", grpc.ssl_server_credentials(((key, cert),)))
    else:
        port = server.add_insecure_port("127.0.0.1:0")
    if port == 0:
        print("could not bind", file=sys.stderr)
        sys.exit(1)
    server.start()
    print(port, flush=True)
    server.wait_for_termination()
