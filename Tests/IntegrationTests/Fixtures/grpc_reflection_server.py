"""A grpcio server with gRPC server reflection (grpcio-reflection) for the reflection client's tests: it serves the
services of a FileDescriptorSet made by protoc (--include_imports), with dynamic messages (no generated code). Prints
its port on one line only once the server listens.

  --descriptor-set PATH   the FileDescriptorSet of the services (their imports included).
  --reflection MODE       v1alpha: grpcio-reflection as it comes (it serves grpc.reflection.v1alpha only);
                          v1: its servicer under grpc.reflection.v1.ServerReflection only (the two versions'
                          messages are the same on the wire, as grpc-go serves both); both: the two; none: no
                          reflection (every reflection call is UNIMPLEMENTED); junk: a v1 service that answers
                          every request with bytes that are no protobuf message.
  --shallow               answer a file request with that file only, not its imports (a server may do so; the
                          client then asks for each import by name).
  --cert PATH --key PATH  serve TLS with this certificate and key instead of plaintext (h2c).

Each unary method answers a message of its output type whose fields of the same name and type as the request's are
copied from it; a server-streaming method answers that twice.
"""

import argparse
import sys
from concurrent import futures

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from grpc_reflection.v1alpha import _base, reflection, reflection_pb2

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from grpc_fixture import add_tls_arguments, serve  # noqa: E402 (beside this file)


def answer_of(request, output_class):
    out = output_class()
    for field in request.DESCRIPTOR.fields:
        other = out.DESCRIPTOR.fields_by_name.get(field.name)
        if other is None or other.type != field.type or field.label == field.LABEL_REPEATED:
            continue
        if field.type == field.TYPE_MESSAGE:
            if other.message_type.full_name == field.message_type.full_name and request.HasField(field.name):
                getattr(out, field.name).CopyFrom(getattr(request, field.name))
        else:
            setattr(out, field.name, getattr(request, field.name))
    return out


def method_handler(pool, method):
    input_class = message_factory.GetMessageClass(pool.FindMessageTypeByName(method.input_type.lstrip(".")))
    output_class = message_factory.GetMessageClass(pool.FindMessageTypeByName(method.output_type.lstrip(".")))
    codec = dict(request_deserializer=input_class.FromString, response_serializer=output_class.SerializeToString)
    if method.client_streaming and method.server_streaming:
        return grpc.stream_stream_rpc_method_handler(
            lambda requests, context: (answer_of(r, output_class) for r in requests), **codec)
    if method.client_streaming:
        return grpc.stream_unary_rpc_method_handler(
            lambda requests, context: output_class(), **codec)
    if method.server_streaming:
        return grpc.unary_stream_rpc_method_handler(
            lambda request, context: iter([answer_of(request, output_class)] * 2), **codec)
    return grpc.unary_unary_rpc_method_handler(lambda request, context: answer_of(request, output_class), **codec)


class ShallowReflectionServicer(reflection.ReflectionServicer):
    """Answers a file request with the one file asked for, without its imports."""

    def _one_file(self, descriptor, request):
        proto = descriptor_pb2.FileDescriptorProto()
        descriptor.CopyToProto(proto)
        return reflection_pb2.ServerReflectionResponse(
            file_descriptor_response=reflection_pb2.FileDescriptorResponse(
                file_descriptor_proto=[proto.SerializeToString()]),
            original_request=request)

    def _file_by_filename(self, request, filename):
        try:
            return self._one_file(self._pool.FindFileByName(filename), request)
        except KeyError:
            return _base._not_found_error(request)

    def _file_containing_symbol(self, request, fully_qualified_name):
        try:
            return self._one_file(self._pool.FindFileContainingSymbol(fully_qualified_name), request)
        except KeyError:
            return _base._not_found_error(request)


def junk(requests, context):
    for _ in requests:
        yield b"\xff\xff\xff"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--descriptor-set", required=True)
    parser.add_argument("--reflection", choices=["v1", "v1alpha", "both", "none", "junk"], default="both")
    parser.add_argument("--shallow", action="store_true")
    add_tls_arguments(parser)
    arguments = parser.parse_args()

    with open(arguments.descriptor_set, "rb") as f:
        files = descriptor_pb2.FileDescriptorSet.FromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    service_names = []
    for file in files.file:
        pool.Add(file)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    for file in files.file:
        for service in file.service:
            full_name = (file.package + "." if file.package else "") + service.name
            service_names.append(full_name)
            handlers = {method.name: method_handler(pool, method) for method in service.method}
            server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(full_name, handlers),))

    mode = arguments.reflection
    served = {"v1": ["v1"], "v1alpha": ["v1alpha"], "both": ["v1", "v1alpha"], "none": [], "junk": []}[mode]
    names = service_names + [f"grpc.reflection.{version}.ServerReflection" for version in served]
    servicer_class = ShallowReflectionServicer if arguments.shallow else reflection.ReflectionServicer
    servicer = servicer_class(names, pool=pool)
    codec = dict(request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
                 response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString)
    for version in served:
        if version == "v1alpha" and not arguments.shallow:
            reflection.enable_server_reflection(names, server, pool=pool)
            continue
        handler = grpc.stream_stream_rpc_method_handler(servicer.ServerReflectionInfo, **codec)
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
            f"grpc.reflection.{version}.ServerReflection", {"ServerReflectionInfo": handler}),))
    if mode == "junk":
        handler = grpc.stream_stream_rpc_method_handler(junk)
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
            "grpc.reflection.v1.ServerReflection", {"ServerReflectionInfo": handler}),))

    serve(server, arguments)


if __name__ == "__main__":
    main()
