import Testing

@testable import APITestHTTP

/// The loop keeps the text of the last peer address: a response to the same IP address and port takes it, any other
/// gets its own.
@Suite struct RemoteAddressCacheTests {
    @Test func onlyTheSameAddressAndPortTakeTheCachedText() {
        let empty = RemoteAddressCache()
        #expect("127.0.0.1".withCString { empty.text(ip: $0, port: 80) } == nil)
        let cache = "127.0.0.1".withCString { RemoteAddressCache(ip: $0, port: 8080, text: "127.0.0.1:8080") }
        #expect("127.0.0.1".withCString { cache.text(ip: $0, port: 8080) } == "127.0.0.1:8080")
        #expect("127.0.0.1".withCString { cache.text(ip: $0, port: 8081) } == nil)
        #expect("127.0.0.2".withCString { cache.text(ip: $0, port: 8080) } == nil)
        #expect("127.0.0.10".withCString { cache.text(ip: $0, port: 8080) } == nil)
        #expect("127.0.0.".withCString { cache.text(ip: $0, port: 8080) } == nil)
    }
}
