import Testing

@testable import APITestHTTP

/// The book of shared h2c connections (`H2CConnections`): a call rides only on a known connection, from its opening
/// until its socket closes, and each idle one is promised to one call at a time.
struct H2CConnectionsTests {
    let first = H2CConnections.Address(localIP: "127.0.0.1", localPort: 40_001, peerIP: "127.0.0.1", peerPort: 50_051)
    let second = H2CConnections.Address(localIP: "127.0.0.1", localPort: 40_002, peerIP: "127.0.0.1", peerPort: 50_051)

    /// `connections.claim(origin)` (a mutating call cannot be an `#expect`'s operand).
    func claim(_ connections: inout H2CConnections, _ origin: String) -> Bool { connections.claim(origin) }

    /// `connections.take(address)`.
    func take(_ connections: inout H2CConnections, _ address: H2CConnections.Address) -> Bool {
        connections.take(address)
    }

    @Test func aConnectionCarriesOneCallAtATimeUntilItsSocketCloses() {
        var connections = H2CConnections()
        #expect(!claim(&connections, "a:1"))
        // The opener's call is on it: busy, nothing to promise.
        connections.add(first, socket: 7, origin: "a:1")
        #expect(!connections.isIdle(first))
        #expect(!claim(&connections, "a:1"))
        // libcurl may hand it to a rider before the loop heard the opener's call end: it stays busy until both end.
        #expect(take(&connections, first))
        connections.release(first)
        #expect(!connections.isIdle(first))
        connections.release(first)
        #expect(connections.isIdle(first))
        // One promise per idle connection, and none for another origin.
        #expect(!claim(&connections, "b:1"))
        #expect(claim(&connections, "a:1"))
        #expect(!claim(&connections, "a:1"))
        connections.settleClaim("a:1")
        #expect(take(&connections, first))
        #expect(!claim(&connections, "a:1"))
        connections.release(first)
        connections.release(first)
        connections.closed(8)
        #expect(connections.isIdle(first))
        connections.closed(7)
        #expect(!connections.isIdle(first))
        #expect(!take(&connections, first))
        #expect(!claim(&connections, "a:1"))
        #expect(connections.count == 0)
    }

    @Test func aPromiseSettledWithoutARideFreesTheConnectionForAnother() {
        var connections = H2CConnections()
        connections.add(first, socket: 7, origin: "a:1")
        connections.release(first)
        #expect(claim(&connections, "a:1"))
        connections.settleClaim("a:1")
        #expect(claim(&connections, "a:1"))
    }

    @Test func aSocketNumberUsedAgainNamesOnlyItsNewConnection() {
        var connections = H2CConnections()
        connections.add(first, socket: 7, origin: "a:1")
        connections.release(first)
        // Every close goes through the loop's closeSocket; should a number come back for another connection first,
        // the old entry goes.
        connections.add(second, socket: 7, origin: "a:1")
        #expect(!take(&connections, first))
        #expect(connections.count == 1)
        #expect(!claim(&connections, "a:1"))
        connections.release(second)
        #expect(claim(&connections, "a:1"))
        connections.settleClaim("a:1")
        connections.closed(7)
        #expect(connections.count == 0)
        #expect(!claim(&connections, "a:1"))
    }

    @Test func aConnectionNotAnsweredOverHTTP2IsForgotten() {
        var connections = H2CConnections()
        connections.add(first, socket: 7, origin: "a:1")
        connections.add(second, socket: 9, origin: "a:1")
        connections.release(second)
        connections.remove(first)
        connections.release(first)
        #expect(!take(&connections, first))
        #expect(claim(&connections, "a:1"))
        #expect(!claim(&connections, "a:1"))
        connections.settleClaim("a:1")
        connections.remove(second)
        #expect(!claim(&connections, "a:1"))
        #expect(connections.count == 0)
    }
}
