"""bench/grpc's server: bench.Users of bench.proto on grpcio's synchronous server with its default thread pool
(max_workers 16), dynamic messages from the FileDescriptorSet protoc made of bench.proto (no generated code).
Binds 127.0.0.1:0 and prints the port on one line only once the server listens; with --cert and --key it also
serves TLS on a second port of 127.0.0.1 (the same methods and counters), printed after the first on that line.

  GetUser  {id, name: "Ada <id>", role: ADMIN, visits: 9000000000, tags: [bench, grpc]}
  Calls    how many GetUser calls it has answered so far, and from how many client addresses (host:port: one
           a TCP connection) since the last call with reset
"""

import argparse
import sys
import threading
from concurrent import futures

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--descriptor-set", required=True)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--cert", help="a PEM certificate for the TLS port (with --key)")
    parser.add_argument("--key", help="its PEM private key")
    arguments = parser.parse_args()
    files = descriptor_pb2.FileDescriptorSet()
    with open(arguments.descriptor_set, "rb") as f:
        files.ParseFromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)

    def cls(name):
        return message_factory.GetMessageClass(pool.FindMessageTypeByName(name))

    User, GetUserRequest = cls("bench.User"), cls("bench.GetUserRequest")
    CallsRequest, CallsReply = cls("bench.CallsRequest"), cls("bench.CallsReply")
    lock = threading.Lock()
    answered = [0]
    peers = set()

    def get_user(request, context):
        peer = context.peer()
        with lock:
            answered[0] += 1
            peers.add(peer)
        return User(id=request.id, name="Ada " + request.id, role=1, visits=9000000000, tags=["bench", "grpc"])

    def calls(request, context):
        with lock:
            reply = CallsReply(calls=answered[0], peers=len(peers))
            if request.reset:
                peers.clear()
            return reply

    def codec(request_class, response_class):
        return dict(request_deserializer=request_class.FromString, response_serializer=response_class.SerializeToString)

    handlers = {
        "GetUser": grpc.unary_unary_rpc_method_handler(get_user, **codec(GetUserRequest, User)),
        "Calls": grpc.unary_unary_rpc_method_handler(calls, **codec(CallsRequest, CallsReply)),
    }
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=arguments.workers))
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("bench.Users", handlers),))
    port = server.add_insecure_port("127.0.0.1:0")
    ports = [port]
    if arguments.cert and arguments.key:
        with open(arguments.cert, "rb") as f:
            cert = f.read()
        with open(arguments.key, "rb") as f:
            key = f.read()
        ports.append(server.add_secure_port("127.0.0.1:0", grpc.ssl_server_credentials(((key, cert),))))
    if 0 in ports:
        print("server: could not bind 127.0.0.1:0", file=sys.stderr)
        sys.exit(1)
    server.start()
    print(" ".join(str(p) for p in ports), flush=True)
    server.wait_for_termination()


if __name__ == "__main__":
    main()
