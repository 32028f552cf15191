import Foundation
import Testing

/// The demo API's cookies, authentication, ETags, encodings and images (the rest of `DemoAPITests`).
extension DemoAPITests {
    // MARK: - Cookies, authentication, ETags

    @Test func cookiesRoundTrip() async throws {
        try await withDemo { demo in
            let jar = try temporaryFile("jar.txt", Data()).path
            let set = try await curl(demo, "/cookies/set?session=abc&theme=dark", ["-c", jar])
            #expect(set.values("Set-Cookie") == ["session=abc; Path=/", "theme=dark; Path=/"])
            #expect(try set.json()["set"] as? [String: String] == ["session": "abc", "theme": "dark"])
            let sent = try await curl(demo, "/cookies", ["-b", jar]).json()
            #expect(sent["cookies"] as? [String: String] == ["session": "abc", "theme": "dark"])
            let deleted = try await curl(demo, "/cookies/delete?session", ["-b", jar, "-c", jar])
            #expect(deleted.header("Set-Cookie")?.contains("Max-Age=0") == true)
            let after = try await curl(demo, "/cookies", ["-b", jar]).json()
            #expect(after["cookies"] as? [String: String] == ["theme": "dark"])
        }
    }

    @Test func basicAndBearerAuthentication() async throws {
        try await withDemo { demo in
            let good = try await curl(demo, "/basic-auth/ann/s3cret", ["-u", "ann:s3cret"])
            #expect(good.status == 200)
            #expect(good.text == #"{"authenticated":true,"user":"ann"}"#)
            for options in [["-u", "ann:wrong"], []] {
                let bad = try await curl(demo, "/basic-auth/ann/s3cret", options)
                #expect(bad.status == 401)
                #expect(bad.header("WWW-Authenticate") == #"Basic realm="apitest-demo""#)
                #expect(bad.text == #"{"authenticated":false}"#)
            }
            let bearer = try await curl(demo, "/bearer", ["-H", "Authorization: Bearer tok-123"])
            #expect(bearer.text == #"{"token":"tok-123"}"#)
            #expect(try await curl(demo, "/bearer").status == 401)
            #expect(try await curl(demo, "/bearer", ["-H", "Authorization: Basic eDp5"]).status == 401)
        }
    }

    @Test func headersIPUserAgentAndETags() async throws {
        try await withDemo { demo in
            let headers = try await curl(demo, "/headers", ["-H", "X-Trace: 1", "-H", "X-Trace: 2"]).json()
            let fields = try #require(headers["headers"] as? [String: String])
            #expect(fields["X-Trace"] == "1, 2")
            #expect(fields["Host"] == "127.0.0.1:\(demo.port)")
            #expect(try await curl(demo, "/ip").json()["origin"] as? String == "127.0.0.1")
            let agent = try await curl(demo, "/user-agent", ["-A", "apitest-tests/1.0"]).json()
            #expect(agent["userAgent"] as? String == "apitest-tests/1.0")

            let fresh = try await curl(demo, "/etag/v1")
            #expect(fresh.status == 200)
            #expect(fresh.header("ETag") == #""v1""#)
            #expect(try await curl(demo, "/etag/v1", ["-H", #"If-None-Match: "v0", "v1""#]).status == 304)
            #expect(try await curl(demo, "/etag/v1", ["-H", #"If-None-Match: "v2""#]).status == 200)
        }
    }

    // MARK: - Encodings and images

    @Test func gzipAndDeflateAreRealZlibStreams() async throws {
        try await withDemo { demo in
            let decoded = try await curl(demo, "/gzip", ["--compressed"])
            #expect(decoded.header("Content-Encoding") == "gzip")
            #expect(try decoded.json()["gzipped"] as? Bool == true)
            let raw = try await curl(demo, "/gzip")
            #expect(raw.body.starts(with: [0x1F, 0x8B]), "gzip magic without Accept-Encoding too")
            let deflated = try await curl(demo, "/deflate", ["--compressed"])
            #expect(deflated.header("Content-Encoding") == "deflate")
            #expect(try deflated.json()["deflated"] as? Bool == true)
            let script =
                "import sys, zlib, json; print(json.loads(zlib.decompress(open(sys.argv[1], 'rb').read()))['deflated'])"
            let rawDeflate = try await curl(demo, "/deflate")
            #expect(try await python(script, [try temporaryFile("d", rawDeflate.body).path]).stdout == "True\n")
        }
    }

    @Test func pngHasValidChunksAndDecompressibleImageData() async throws {
        try await withDemo { demo in
            let png = try await curl(demo, "/image/png?width=300&height=200")
            #expect(png.header("Content-Type") == "image/png")
            let bytes = [UInt8](png.body)
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            #expect(Array(bytes[12..<16]) == Array("IHDR".utf8))
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 300 && height == 200)
            let check = try await python(
                """
                import sys, zlib, struct
                d = open(sys.argv[1], 'rb').read(); p = 8; idat = b''; names = []
                while p < len(d):
                    n, = struct.unpack('>I', d[p:p+4]); t = d[p+4:p+8]; body = d[p+8:p+8+n]
                    assert zlib.crc32(t + body) == struct.unpack('>I', d[p+8+n:p+12+n])[0], t
                    names.append(t.decode()); idat += body if t == b'IDAT' else b''; p += 12 + n
                w, h = struct.unpack('>II', d[16:24])
                print(names[0], names[-1], len(zlib.decompress(idat)) == h * (1 + 3 * w))
                """, [try temporaryFile("i.png", png.body).path])
            #expect(check.stdout == "IHDR IEND True\n")
            #expect(try await curl(demo, "/image/png").body.count > 100)
            #expect(try await curl(demo, "/image/png?width=0").status == 400)
            #expect(try await curl(demo, "/image/png?width=4097").status == 400)
        }
    }

    @Test func gifDecodesToTheStatedSize() async throws {
        try await withDemo { demo in
            let gif = try await curl(demo, "/image/gif?width=33&height=17")
            #expect(gif.header("Content-Type") == "image/gif")
            let check = try await python(Self.gifDecoder, [try temporaryFile("i.gif", gif.body).path])
            #expect(check.stdout == "33 17 561\n")
        }
    }

    /// Prints width, height and the number of pixels that LZW-decoding the first image yields.
    static let gifDecoder = """
        import sys
        d = open(sys.argv[1], 'rb').read()
        assert d[:6] == b'GIF89a' and d[-1] == 0x3B
        w, h = int.from_bytes(d[6:8], 'little'), int.from_bytes(d[8:10], 'little')
        p = 13 + (3 * (2 << (d[10] & 7)) if d[10] & 0x80 else 0)
        assert d[p] == 0x2C; p += 10
        mcs = d[p]; p += 1; data = b''
        while d[p]: data += d[p + 1:p + 1 + d[p]]; p += 1 + d[p]
        clear, eoi = 1 << mcs, (1 << mcs) + 1
        def fresh(): return [[i] for i in range(clear)] + [None, None]
        table, size, prev, bit, out = fresh(), mcs + 1, None, 0, []
        while bit + size <= len(data) * 8:
            code = sum(((data[(bit + i) // 8] >> ((bit + i) % 8)) & 1) << i for i in range(size)); bit += size
            if code == clear: table, size, prev = fresh(), mcs + 1, None; continue
            if code == eoi: break
            entry = table[code] if code < len(table) else prev + [prev[0]]
            out += entry
            if prev is not None:
                table.append(prev + [entry[0]])
                if len(table) == 1 << size and size < 12: size += 1
            prev = entry
        print(w, h, len(out))
        """
}
