"""A grpcio server for the grpc: step tests: acme.Users of grpc_step/users.proto, with dynamic messages built from
the FileDescriptorSet protoc made of users.proto and status.proto (no generated code). Prints its port on one line
only once the server listens.

  GetUser    id "missing": NOT_FOUND "user missing not found", details google.rpc.Status with an acme.ErrorInfo
             {reason: USER_MISSING, domain: acme} and a google.rpc.ErrorInfo {reason: STANDARD, domain:
             googleapis.com}, trailing metadata x-trace: t-1. id "whoami": the name is the
             request's x-api-key metadata. Else {id, name: "Ada <id>", role: ADMIN, visits: 9000000000}, with
             initial metadata x-served-by: step-server and trailing metadata x-trace: t-1.
  ListUsers  count users u0, u1, ... (name "User <i>").
  Upload     the count of users sent and their ids.
  Chat       each user back as it arrives, its name upper-cased.
  Slow       sleeps up to 30 s (the client's deadline is shorter), then answers.
"""

import argparse
import sys
import time
from concurrent import futures

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from grpc_fixture import add_tls_arguments, serve  # noqa: E402 (beside this file)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--descriptor-set", required=True)
    add_tls_arguments(parser)
    arguments = parser.parse_args()
    files = descriptor_pb2.FileDescriptorSet()
    with open(arguments.descriptor_set, "rb") as f:
        files.ParseFromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)

    def cls(name):
        return message_factory.GetMessageClass(pool.FindMessageTypeByName(name))

    User, GetUserRequest, ListUsersRequest = cls("acme.User"), cls("acme.GetUserRequest"), cls("acme.ListUsersRequest")
    UploadSummary, ErrorInfo, Status = cls("acme.UploadSummary"), cls("acme.ErrorInfo"), cls("teststatus.Status")

    def get_user(request, context):
        if request.id == "missing":
            info = ErrorInfo(reason="USER_MISSING", domain="acme")
            status = Status(code=5, message="user missing not found")
            detail = status.details.add()
            detail.type_url = "type.googleapis.com/acme.ErrorInfo"
            detail.value = info.SerializeToString()
            # The same fields as google.rpc.ErrorInfo (reason 1, domain 2), under its type: a detail of a standard
            # type the suite's .proto files do not declare.
            standard = status.details.add()
            standard.type_url = "type.googleapis.com/google.rpc.ErrorInfo"
            standard.value = ErrorInfo(reason="STANDARD", domain="googleapis.com").SerializeToString()
            context.set_trailing_metadata(
                (("x-trace", "t-1"), ("grpc-status-details-bin", status.SerializeToString())))
            context.abort(grpc.StatusCode.NOT_FOUND, "user missing not found")
        if request.id == "whoami":
            received = dict(context.invocation_metadata())
            return User(id="whoami", name=received.get("x-api-key", ""))
        context.send_initial_metadata((("x-served-by", "step-server"),))
        context.set_trailing_metadata((("x-trace", "t-1"),))
        return User(id=request.id, name="Ada " + request.id, role=1, visits=9000000000)

    def list_users(request, context):
        for i in range(request.count):
            yield User(id=f"u{i}", name=f"User {i}")

    def upload(requests, context):
        summary = UploadSummary()
        for user in requests:
            summary.count += 1
            summary.ids.append(user.id)
        return summary

    def chat(requests, context):
        for user in requests:
            yield User(id=user.id, name=user.name.upper())

    def slow(request, context):
        for _ in range(300):
            if not context.is_active():
                return User()
            time.sleep(0.1)
        return User(id=request.id)

    def codec(request_class, response_class):
        return dict(request_deserializer=request_class.FromString, response_serializer=response_class.SerializeToString)

    handlers = {
        "GetUser": grpc.unary_unary_rpc_method_handler(get_user, **codec(GetUserRequest, User)),
        "ListUsers": grpc.unary_stream_rpc_method_handler(list_users, **codec(ListUsersRequest, User)),
        "Upload": grpc.stream_unary_rpc_method_handler(upload, **codec(User, UploadSummary)),
        "Chat": grpc.stream_stream_rpc_method_handler(chat, **codec(User, User)),
        "Slow": grpc.unary_unary_rpc_method_handler(slow, **codec(GetUserRequest, User)),
    }
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("acme.Users", handlers),))
    serve(server, arguments)


if __name__ == "__main__":
    main()
