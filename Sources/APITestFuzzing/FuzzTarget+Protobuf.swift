import APITestJSON
import APITestProtobuf

// MARK: - The protobuf codec

extension FuzzTarget {
    /// The message types the codec is fuzzed with, picked by the input's second byte.
    static let protobufTypes = [
        "acme.codec.User", "acme.codec.WellKnown", "acme.codec.Envelope", "acme.codec.Scalars", "acme.legacy.Legacy",
        "acme.legacy.WithGroup", "google.protobuf.Struct", "google.protobuf.Any",
    ]

    /// Runs the protobuf layer on `bytes`; the first byte picks the path: 0, the bytes as a `FileDescriptorSet` (and
    /// then as a message of each type it declares); 1, the rest as JSON encoded to the picked type (and the bytes
    /// decoded back); anything else, the rest as message bytes of the picked type (and the JSON encoded back).
    static func runProtobuf(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        let rest = Array(bytes.dropFirst(min(2, bytes.count)))
        let limits = ProtoCodecLimits(maximumDepth: 100, maximumSize: 1 << 20)
        if mode == 0 {
            let payload = Array(bytes.dropFirst())
            guard let schema = try? ProtoSchema(fileDescriptorSet: payload) else { return }
            for name in schema.messages.keys.sorted().prefix(8) {
                _ = try? schema.decode(payload, as: name, limits: limits)
            }
            for method in schema.allMethods.prefix(4) { _ = try? schema.method(method.path) }
            return
        }
        guard let schema = protobufSchema, bytes.count >= 2 else { return }
        let type = protobufTypes[Int(bytes[1]) % protobufTypes.count]
        if mode == 1 {
            guard let json = try? JSONParser.parse(rest),
                let encoded = try? schema.encode(json, as: type, limits: limits)
            else { return }
            _ = try? schema.decode(encoded, as: type, limits: limits)
        } else {
            guard let json = try? schema.decode(rest, as: type, limits: limits) else { return }
            _ = try? schema.encode(json, as: type, limits: limits)
        }
    }

    /// The schema of the codec tests' `.proto` files (Tests/APITestProtobufTests/Fixtures/protos, with the
    /// well-known types): a `FileDescriptorSet` as `protoc --include_imports` wrote it, so the fuzzer needs no
    /// `protoc`.
    static let protobufSchema: ProtoSchema? = {
        let text = """
            CsgBChFhY21lL2NvbW1vbi5wcm90bxILYWNtZS5jb21tb24iZgoFTW9uZXkSMQoIY3VycmVuY3kYASABKA4yFS5hY21lLmNvbW1vbi5DdXJy
            ZW5jeVIIY3VycmVuY3kSFAoFdW5pdHMYAiABKANSBXVuaXRzEhQKBW5hbm9zGAMgASgFUgVuYW5vcyo2CghDdXJyZW5jeRIYChRDVVJSRU5D
            WV9VTlNQRUNJRklFRBAAEgcKA0VVUhABEgcKA1VTRBACYgZwcm90bzMKbAoZZ29vZ2xlL3Byb3RvYnVmL2FueS5wcm90bxIPZ29vZ2xlLnBy
            b3RvYnVmIjYKA0FueRIZCgh0eXBlX3VybBgBIAEoCVIHdHlwZVVybBIUCgV2YWx1ZRgCIAEoDFIFdmFsdWViBnByb3RvMwp1Ch5nb29nbGUv
            cHJvdG9idWYvZHVyYXRpb24ucHJvdG8SD2dvb2dsZS5wcm90b2J1ZiI6CghEdXJhdGlvbhIYCgdzZWNvbmRzGAEgASgDUgdzZWNvbmRzEhQK
            BW5hbm9zGAIgASgFUgVuYW5vc2IGcHJvdG8zCj8KG2dvb2dsZS9wcm90b2J1Zi9lbXB0eS5wcm90bxIPZ29vZ2xlLnByb3RvYnVmIgcKBUVt
            cHR5YgZwcm90bzMKXgogZ29vZ2xlL3Byb3RvYnVmL2ZpZWxkX21hc2sucHJvdG8SD2dvb2dsZS5wcm90b2J1ZiIhCglGaWVsZE1hc2sSFAoF
            cGF0aHMYASADKAlSBXBhdGhzYgZwcm90bzMK4QQKHGdvb2dsZS9wcm90b2J1Zi9zdHJ1Y3QucHJvdG8SD2dvb2dsZS5wcm90b2J1ZiKYAQoG
            U3RydWN0EjsKBmZpZWxkcxgBIAMoCzIjLmdvb2dsZS5wcm90b2J1Zi5TdHJ1Y3QuRmllbGRzRW50cnlSBmZpZWxkcxpRCgtGaWVsZHNFbnRy
            eRIQCgNrZXkYASABKAlSA2tleRIsCgV2YWx1ZRgCIAEoCzIWLmdvb2dsZS5wcm90b2J1Zi5WYWx1ZVIFdmFsdWU6AjgBIrICCgVWYWx1ZRI7
            CgpudWxsX3ZhbHVlGAEgASgOMhouZ29vZ2xlLnByb3RvYnVmLk51bGxWYWx1ZUgAUgludWxsVmFsdWUSIwoMbnVtYmVyX3ZhbHVlGAIgASgB
            SABSC251bWJlclZhbHVlEiMKDHN0cmluZ192YWx1ZRgDIAEoCUgAUgtzdHJpbmdWYWx1ZRIfCgpib29sX3ZhbHVlGAQgASgISABSCWJvb2xW
            YWx1ZRI8CgxzdHJ1Y3RfdmFsdWUYBSABKAsyFy5nb29nbGUucHJvdG9idWYuU3RydWN0SABSC3N0cnVjdFZhbHVlEjsKCmxpc3RfdmFsdWUY
            BiABKAsyGi5nb29nbGUucHJvdG9idWYuTGlzdFZhbHVlSABSCWxpc3RWYWx1ZUIGCgRraW5kIjsKCUxpc3RWYWx1ZRIuCgZ2YWx1ZXMYASAD
            KAsyFi5nb29nbGUucHJvdG9idWYuVmFsdWVSBnZhbHVlcyobCglOdWxsVmFsdWUSDgoKTlVMTF9WQUxVRRAAYgZwcm90bzMKdwofZ29vZ2xl
            L3Byb3RvYnVmL3RpbWVzdGFtcC5wcm90bxIPZ29vZ2xlLnByb3RvYnVmIjsKCVRpbWVzdGFtcBIYCgdzZWNvbmRzGAEgASgDUgdzZWNvbmRz
            EhQKBW5hbm9zGAIgASgFUgVuYW5vc2IGcHJvdG8zCoADCh5nb29nbGUvcHJvdG9idWYvd3JhcHBlcnMucHJvdG8SD2dvb2dsZS5wcm90b2J1
            ZiIjCgtEb3VibGVWYWx1ZRIUCgV2YWx1ZRgBIAEoAVIFdmFsdWUiIgoKRmxvYXRWYWx1ZRIUCgV2YWx1ZRgBIAEoAlIFdmFsdWUiIgoKSW50
            NjRWYWx1ZRIUCgV2YWx1ZRgBIAEoA1IFdmFsdWUiIwoLVUludDY0VmFsdWUSFAoFdmFsdWUYASABKARSBXZhbHVlIiIKCkludDMyVmFsdWUS
            FAoFdmFsdWUYASABKAVSBXZhbHVlIiMKC1VJbnQzMlZhbHVlEhQKBXZhbHVlGAEgASgNUgV2YWx1ZSIhCglCb29sVmFsdWUSFAoFdmFsdWUY
            ASABKAhSBXZhbHVlIiMKC1N0cmluZ1ZhbHVlEhQKBXZhbHVlGAEgASgJUgV2YWx1ZSIiCgpCeXRlc1ZhbHVlEhQKBXZhbHVlGAEgASgMUgV2
            YWx1ZWIGcHJvdG8zCt0dChBhY21lL2NvZGVjLnByb3RvEgphY21lLmNvZGVjGhFhY21lL2NvbW1vbi5wcm90bxoZZ29vZ2xlL3Byb3RvYnVm
            L2FueS5wcm90bxoeZ29vZ2xlL3Byb3RvYnVmL2R1cmF0aW9uLnByb3RvGhtnb29nbGUvcHJvdG9idWYvZW1wdHkucHJvdG8aIGdvb2dsZS9w
            cm90b2J1Zi9maWVsZF9tYXNrLnByb3RvGhxnb29nbGUvcHJvdG9idWYvc3RydWN0LnByb3RvGh9nb29nbGUvcHJvdG9idWYvdGltZXN0YW1w
            LnByb3RvGh5nb29nbGUvcHJvdG9idWYvd3JhcHBlcnMucHJvdG8ingMKB1NjYWxhcnMSGQoIZl9kb3VibGUYASABKAFSB2ZEb3VibGUSFwoH
            Zl9mbG9hdBgCIAEoAlIGZkZsb2F0EhcKB2ZfaW50MzIYAyABKAVSBmZJbnQzMhIXCgdmX2ludDY0GAQgASgDUgZmSW50NjQSGQoIZl91aW50
            MzIYBSABKA1SB2ZVaW50MzISGQoIZl91aW50NjQYBiABKARSB2ZVaW50NjQSGQoIZl9zaW50MzIYByABKBFSB2ZTaW50MzISGQoIZl9zaW50
            NjQYCCABKBJSB2ZTaW50NjQSGwoJZl9maXhlZDMyGAkgASgHUghmRml4ZWQzMhIbCglmX2ZpeGVkNjQYCiABKAZSCGZGaXhlZDY0Eh0KCmZf
            c2ZpeGVkMzIYCyABKA9SCWZTZml4ZWQzMhIdCgpmX3NmaXhlZDY0GAwgASgQUglmU2ZpeGVkNjQSFQoGZl9ib29sGA0gASgIUgVmQm9vbBIZ
            CghmX3N0cmluZxgOIAEoCVIHZlN0cmluZxIXCgdmX2J5dGVzGA8gASgMUgZmQnl0ZXMi+woKBFVzZXISFwoHdXNlcl9pZBgBIAEoCVIGdXNl
            cklkEhoKDGRpc3BsYXlfbmFtZRgCIAEoCVIEbmljaxImCgVyb2xlcxgDIAMoDjIQLmFjbWUuY29kZWMuUm9sZVIFcm9sZXMSLAoEaG9tZRgE
            IAEoCzIYLmFjbWUuY29kZWMuVXNlci5BZGRyZXNzUgRob21lEjYKCWFkZHJlc3NlcxgFIAMoCzIYLmFjbWUuY29kZWMuVXNlci5BZGRyZXNz
            UglhZGRyZXNzZXMSOgoIY291bnRlcnMYBiADKAsyHi5hY21lLmNvZGVjLlVzZXIuQ291bnRlcnNFbnRyeVIIY291bnRlcnMSOwoJYnlfbnVt
            YmVyGAcgAygLMh4uYWNtZS5jb2RlYy5Vc2VyLkJ5TnVtYmVyRW50cnlSCGJ5TnVtYmVyEjEKBWZsYWdzGAggAygLMhsuYWNtZS5jb2RlYy5V
            c2VyLkZsYWdzRW50cnlSBWZsYWdzEhYKBWVtYWlsGAkgASgJSABSBWVtYWlsEhYKBXBob25lGAogASgJSABSBXBob25lEjIKBnBvc3RhbBgL
            IAEoCzIYLmFjbWUuY29kZWMuVXNlci5BZGRyZXNzSABSBnBvc3RhbBIVCgNhZ2UYDCABKAVIAVIDYWdliAEBEi8KBnN0YXR1cxgNIAEoDjIX
            LmFjbWUuY29kZWMuVXNlci5TdGF0dXNSBnN0YXR1cxIWCgZzY29yZXMYDiADKAVSBnNjb3JlcxIQCgNiaWcYDyADKANSA2JpZxISCgR0YWdz
            GBAgAygJUgR0YWdzEhYKBnJhdGlvcxgRIAMoAVIGcmF0aW9zEiwKB2JhbGFuY2UYEiABKAsyEi5hY21lLmNvbW1vbi5Nb25leVIHYmFsYW5j
            ZRItCgdzY2FsYXJzGBMgASgLMhMuYWNtZS5jb2RlYy5TY2FsYXJzUgdzY2FsYXJzEh4KCHVucGFja2VkGBQgAygRQgIQAFIIdW5wYWNrZWQS
            PAoKcm9sZV9ieV9pZBgVIAMoCzIeLmFjbWUuY29kZWMuVXNlci5Sb2xlQnlJZEVudHJ5Ughyb2xlQnlJZBI2CgxtYW55X3NjYWxhcnMYFiAD
            KAsyEy5hY21lLmNvZGVjLlNjYWxhcnNSC21hbnlTY2FsYXJzEigKDW5pY2tuYW1lX2hpbnQYFyABKAlIAlIMbmlja25hbWVIaW50iAEBEhYK
            BmZsb2F0cxgYIAMoAlIGZmxvYXRzEhQKBWJvb2xzGBkgAygIUgVib29scxo+CgdBZGRyZXNzEhYKBnN0cmVldBgBIAEoCVIGc3RyZWV0EhsK
            CWNpdHlfbmFtZRgCIAEoCVIIY2l0eU5hbWUaOwoNQ291bnRlcnNFbnRyeRIQCgNrZXkYASABKAlSA2tleRIUCgV2YWx1ZRgCIAEoA1IFdmFs
            dWU6AjgBGlUKDUJ5TnVtYmVyRW50cnkSEAoDa2V5GAEgASgFUgNrZXkSLgoFdmFsdWUYAiABKAsyGC5hY21lLmNvZGVjLlVzZXIuQWRkcmVz
            c1IFdmFsdWU6AjgBGjgKCkZsYWdzRW50cnkSEAoDa2V5GAEgASgIUgNrZXkSFAoFdmFsdWUYAiABKAlSBXZhbHVlOgI4ARpNCg1Sb2xlQnlJ
            ZEVudHJ5EhAKA2tleRgBIAEoBFIDa2V5EiYKBXZhbHVlGAIgASgOMhAuYWNtZS5jb2RlYy5Sb2xlUgV2YWx1ZToCOAEiNQoGU3RhdHVzEhIK
            DlNUQVRVU19VTktOT1dOEAASCgoGQUNUSVZFEAESCwoHQkxPQ0tFRBACQgkKB2NvbnRhY3RCBgoEX2FnZUIQCg5fbmlja25hbWVfaGludCLs
            CQoJV2VsbEtub3duEjkKCmNyZWF0ZWRfYXQYASABKAsyGi5nb29nbGUucHJvdG9idWYuVGltZXN0YW1wUgljcmVhdGVkQXQSKwoDdHRsGAIg
            ASgLMhkuZ29vZ2xlLnByb3RvYnVmLkR1cmF0aW9uUgN0dGwSNwoKYXR0cmlidXRlcxgDIAEoCzIXLmdvb2dsZS5wcm90b2J1Zi5TdHJ1Y3RS
            CmF0dHJpYnV0ZXMSMgoIYW55dGhpbmcYBCABKAsyFi5nb29nbGUucHJvdG9idWYuVmFsdWVSCGFueXRoaW5nEi4KBGxpc3QYBSABKAsyGi5n
            b29nbGUucHJvdG9idWYuTGlzdFZhbHVlUgRsaXN0EjQKB25vdGhpbmcYBiABKA4yGi5nb29nbGUucHJvdG9idWYuTnVsbFZhbHVlUgdub3Ro
            aW5nEjcKCHdfZG91YmxlGAcgASgLMhwuZ29vZ2xlLnByb3RvYnVmLkRvdWJsZVZhbHVlUgd3RG91YmxlEjQKB3dfZmxvYXQYCCABKAsyGy5n
            b29nbGUucHJvdG9idWYuRmxvYXRWYWx1ZVIGd0Zsb2F0EjQKB3dfaW50NjQYCSABKAsyGy5nb29nbGUucHJvdG9idWYuSW50NjRWYWx1ZVIG
            d0ludDY0EjcKCHdfdWludDY0GAogASgLMhwuZ29vZ2xlLnByb3RvYnVmLlVJbnQ2NFZhbHVlUgd3VWludDY0EjQKB3dfaW50MzIYCyABKAsy
            Gy5nb29nbGUucHJvdG9idWYuSW50MzJWYWx1ZVIGd0ludDMyEjcKCHdfdWludDMyGAwgASgLMhwuZ29vZ2xlLnByb3RvYnVmLlVJbnQzMlZh
            bHVlUgd3VWludDMyEjEKBndfYm9vbBgNIAEoCzIaLmdvb2dsZS5wcm90b2J1Zi5Cb29sVmFsdWVSBXdCb29sEjcKCHdfc3RyaW5nGA4gASgL
            MhwuZ29vZ2xlLnByb3RvYnVmLlN0cmluZ1ZhbHVlUgd3U3RyaW5nEjQKB3dfYnl0ZXMYDyABKAsyGy5nb29nbGUucHJvdG9idWYuQnl0ZXNW
            YWx1ZVIGd0J5dGVzEi4KBG1hc2sYECABKAsyGi5nb29nbGUucHJvdG9idWYuRmllbGRNYXNrUgRtYXNrEiwKBWVtcHR5GBEgASgLMhYuZ29v
            Z2xlLnByb3RvYnVmLkVtcHR5UgVlbXB0eRIuCgdwYXlsb2FkGBIgASgLMhQuZ29vZ2xlLnByb3RvYnVmLkFueVIHcGF5bG9hZBIwCghwYXls
            b2FkcxgTIAMoCzIULmdvb2dsZS5wcm90b2J1Zi5BbnlSCHBheWxvYWRzEjAKBXRpbWVzGBQgAygLMhouZ29vZ2xlLnByb3RvYnVmLlRpbWVz
            dGFtcFIFdGltZXMSOQoGdmFsdWVzGBUgAygLMiEuYWNtZS5jb2RlYy5XZWxsS25vd24uVmFsdWVzRW50cnlSBnZhbHVlcxI1Cgp2YWx1ZV9s
            aXN0GBYgAygLMhYuZ29vZ2xlLnByb3RvYnVmLlZhbHVlUgl2YWx1ZUxpc3QaUQoLVmFsdWVzRW50cnkSEAoDa2V5GAEgASgJUgNrZXkSLAoF
            dmFsdWUYAiABKAsyFi5nb29nbGUucHJvdG9idWYuVmFsdWVSBXZhbHVlOgI4ASKtAQoIRW52ZWxvcGUSJAoEdXNlchgBIAEoCzIQLmFjbWUu
            Y29kZWMuVXNlclIEdXNlchInCgN3a3QYAiABKAsyFS5hY21lLmNvZGVjLldlbGxLbm93blIDd2t0EiYKBXVzZXJzGAMgAygLMhAuYWNtZS5j
            b2RlYy5Vc2VyUgV1c2VycxIqCgVpbm5lchgEIAEoCzIULmFjbWUuY29kZWMuRW52ZWxvcGVSBWlubmVyKj8KBFJvbGUSFAoQUk9MRV9VTlNQ
            RUNJRklFRBAAEgkKBUFETUlOEAESCgoGRURJVE9SEAISCgoGVklFV0VSEAMyyQEKBVVzZXJzEi0KB0dldFVzZXISEC5hY21lLmNvZGVjLlVz
            ZXIaEC5hY21lLmNvZGVjLlVzZXISLQoFV2F0Y2gSEC5hY21lLmNvZGVjLlVzZXIaEC5hY21lLmNvZGVjLlVzZXIwARIyCgZVcGxvYWQSEC5h
            Y21lLmNvZGVjLlVzZXIaFC5hY21lLmNvZGVjLkVudmVsb3BlKAESLgoEQ2hhdBIQLmFjbWUuY29kZWMuVXNlchoQLmFjbWUuY29kZWMuVXNl
            cigBMAFiBnByb3RvMwrmAgoRYWNtZS9sZWdhY3kucHJvdG8SC2FjbWUubGVnYWN5It8BCgZMZWdhY3kSDgoCaWQYASACKAVSAmlkEhsKBG5h
            bWUYAiABKAk6B3VubmFtZWRSBG5hbWUSFgoGdmFsdWVzGAMgAygFUgZ2YWx1ZXMSNAoEa2luZBgEIAEoDjIYLmFjbWUubGVnYWN5LkxlZ2Fj
            eS5LaW5kOgZTRUNPTkRSBGtpbmQSJwoNcGFja2VkX3ZhbHVlcxgFIAMoBUICEAFSDHBhY2tlZFZhbHVlcxISCgR6ZXJvGAYgASgFUgR6ZXJv
            Ih0KBEtpbmQSCQoFRklSU1QQARIKCgZTRUNPTkQQAiJiCglXaXRoR3JvdXASDgoCaWQYASABKAVSAmlkEi8KBGl0ZW0YAiABKAoyGy5hY21l
            LmxlZ2FjeS5XaXRoR3JvdXAuSXRlbVIEaXRlbRoUCgRJdGVtEgwKAWEYAyABKAVSAWE=
            """
        guard let bytes = ProtoBase64.decode(String(text.filter { !$0.isWhitespace })) else { return nil }
        return try? ProtoSchema(fileDescriptorSet: bytes)
    }()
}
