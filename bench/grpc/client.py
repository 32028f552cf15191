"""bench/grpc's peer: grpcio's own asyncio client (grpc.aio) making N unary bench.Users/GetUser calls over one
channel with J in flight, each message a real protobuf message from the FileDescriptorSet protoc made of bench.proto
(descriptor pool, generic channel.unary_unary with SerializeToString / FromString), over TLS with --root-cert (the
server's self-signed certificate as the one root) or plaintext (h2c), checking the status (an error
status raises) and the answer's name ("Ada u<n>", or --expect-name for the sanity run). Exits 0 when every call
passed, 1 when one failed its check or its status, 2 on a usage error.
"""

import argparse
import asyncio
import sys

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory


async def run(arguments, User, GetUserRequest):
    failures = []
    if arguments.root_cert:
        with open(arguments.root_cert, "rb") as f:
            credentials = grpc.ssl_channel_credentials(root_certificates=f.read())
        channel = grpc.aio.secure_channel(arguments.target, credentials)
    else:
        channel = grpc.aio.insecure_channel(arguments.target)
    async with channel:
        get_user = channel.unary_unary(
            "/bench.Users/GetUser",
            request_serializer=GetUserRequest.SerializeToString,
            response_deserializer=User.FromString,
        )
        next_call = iter(range(1, arguments.count + 1))

        async def worker():
            for n in next_call:
                try:
                    answer = await get_user(GetUserRequest(id=f"u{n}"), timeout=30)
                except grpc.aio.AioRpcError as error:
                    failures.append(f"call {n}: {error.code().name}: {error.details()}")
                    continue
                wanted = arguments.expect_name or f"Ada u{n}"
                if answer.name != wanted:
                    failures.append(f"call {n}: $.name is {answer.name!r}, expected {wanted!r}")

        await asyncio.gather(*(worker() for _ in range(arguments.jobs)))
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--descriptor-set", required=True)
    parser.add_argument("--target", required=True, help="host:port")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--jobs", type=int, default=50)
    parser.add_argument("--expect-name", help="the name every answer must have (default: Ada u<n>)")
    parser.add_argument("--root-cert", help="TLS: trust this PEM certificate (default: plaintext, h2c)")
    arguments = parser.parse_args()
    files = descriptor_pb2.FileDescriptorSet()
    with open(arguments.descriptor_set, "rb") as f:
        files.ParseFromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)
    User = message_factory.GetMessageClass(pool.FindMessageTypeByName("bench.User"))
    GetUserRequest = message_factory.GetMessageClass(pool.FindMessageTypeByName("bench.GetUserRequest"))
    failures = asyncio.run(run(arguments, User, GetUserRequest))
    for failure in failures[:5]:
        print(failure, file=sys.stderr)
    if failures:
        print(f"{len(failures)} of {arguments.count} calls failed", file=sys.stderr)
        sys.exit(1)
    print(f"{arguments.count} calls passed")


if __name__ == "__main__":
    main()
