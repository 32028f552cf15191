import Synchronization

// MARK: - Cookies outside transfers

extension SessionManager {
    /// Adds `lines` (`CURLINFO_COOKIELIST` lines) to `jar` and returns every cookie it then holds, on the loop that
    /// holds the jar's cookies (chosen here as a first transfer would choose it, with the parent's cookies copied
    /// from another loop): a WebSocket upgrade sends the jar's cookies and stores those its answer sets.
    public func cookies(of jar: CookieJar, adding lines: [String]) async -> [String] {
        var loop = loops[0]
        var seed: [String]?
        if loops.count > 1 {
            let caller = loops.firstIndex { $0.isOnLoopThread } ?? 0
            let (chosen, earlier) = jar.home.compareExchange(
                expected: -1, desired: caller, ordering: .acquiringAndReleasing)
            loop = loops[chosen ? caller : earlier]
            if chosen, let parent = jar.parent {
                let parentHome = parent.home.load(ordering: .acquiring)
                if parentHome >= 0, parentHome != caller { seed = await loops[parentHome].cookieLines(of: parent) }
            }
        }
        return await loop.jarCookies(jar, seed: seed, adding: lines)
    }
}

extension CurlMultiLoop {
    /// The jar's cookies after adding `lines` (see ``SessionManager/cookies(of:adding:)``); none once the loop
    /// stopped.
    func jarCookies(_ jar: CookieJar, seed: [String]?, adding lines: [String]) async -> [String] {
        await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            if !submit(.jarCookies(jar: jar, seed: seed, adding: lines, continuation: continuation)) {
                continuation.resume(returning: [])
            }
        }
    }

    /// On the loop thread: seeds the jar, adds `lines` to its share (made on first use) and reads it back.
    func jarCookies(_ jar: CookieJar, seed: [String]?, adding lines: [String]) -> [String] {
        assertOnLoopThread()
        if let seed { _ = seedJar(jar, with: seed) }
        guard case .success(let share) = share(for: jar) else { return [] }
        _ = importCookies(lines, into: share)
        return (try? cookieLines(of: share).get()) ?? []
    }
}
