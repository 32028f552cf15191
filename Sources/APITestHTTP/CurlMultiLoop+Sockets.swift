import CCurlShim
import Foundation

// MARK: - libcurl's socket interface

extension CurlMultiLoop {

    /// libcurl asks to watch `socket` for `what` (`CURL_POLL_IN`, `_OUT`, `_INOUT`), or to stop (`_REMOVE`).
    ///
    /// libcurl stops watching a kept-alive connection when its transfer ends and watches it again for the next
    /// transfer on it. Taking it out of the epoll set and putting it back would cost two system calls per
    /// transfer, so it stays in the set, parked: unchanged when it is watched again for the same events, taken out
    /// only if it reports an event while parked (the server closed it). When libcurl closes a socket, it does so
    /// through `closeSocket(_:)`, which forgets it: its number may come back as another socket, which must be
    /// added to the set afresh.
    func watch(_ socket: Int32, what: Int32) {
        assertOnLoopThread()
        guard pollFD >= 0 else { return }
        if what == CURL_POLL_REMOVE {
            watchedSockets[socket]?.parked = true
            return
        }
        if let current = watchedSockets[socket], current.what == what {
            watchedSockets[socket]?.parked = false
            return
        }
        let readable: Int32 = what & CURL_POLL_IN != 0 ? 1 : 0
        let writable: Int32 = what & CURL_POLL_OUT != 0 ? 1 : 0
        let known = watchedSockets[socket] != nil
        if apitest_poll_watch(pollFD, socket, readable, writable, known ? 1 : 0) != 0 {
            // The entry was out of date (a descriptor closed and its number reused): try the other operation.
            _ = apitest_poll_watch(pollFD, socket, readable, writable, known ? 0 : 1)
        }
        watchedSockets[socket] = (what, false)
    }

    /// Closes a socket for libcurl (its `CURLOPT_CLOSESOCKETFUNCTION`), forgetting it first: the kernel drops a
    /// closed descriptor from the epoll set, and a new socket may get its number.
    func closeSocket(_ socket: Int32) -> Int32 {
        assertOnLoopThread()
        watchedSockets.removeValue(forKey: socket)
        h2cConnections.closed(socket)
        return close(socket)
    }

    /// Takes a parked socket that reported an event out of the epoll set; `true` when it was parked (libcurl does
    /// not want its events).
    func unparkIfParked(_ socket: Int32) -> Bool {
        guard watchedSockets[socket]?.parked == true else { return false }
        watchedSockets.removeValue(forKey: socket)
        _ = apitest_poll_unwatch(pollFD, socket)
        return true
    }

    /// libcurl's next timeout: in `milliseconds` (0: at once, due from the round's start with no reading of the
    /// clock), or none (-1).
    func setTimer(milliseconds: Int) {
        switch milliseconds {
        case ..<0: timerDeadline = nil
        case 0: timerDeadline = roundStart
        default: timerDeadline = clock.now + .milliseconds(milliseconds)
        }
    }
}

// MARK: - Socket and timer callbacks

/// libcurl's `CURLMOPT_SOCKETFUNCTION`: hands the request to the loop's `watch(_:what:)`.
let socketCallback: apitest_socket_callback = { _, socket, what, userdata, _ in
    guard let userdata else { return -1 }
    Unmanaged<CurlMultiLoop>.fromOpaque(userdata).takeUnretainedValue().watch(socket, what: what)
    return 0
}

/// The easy handles' `CURLOPT_CLOSESOCKETFUNCTION`: closes through the loop's `closeSocket(_:)`.
let closeSocketCallback: apitest_closesocket_callback = { userdata, socket in
    guard let userdata else { return close(socket) }
    return Unmanaged<CurlMultiLoop>.fromOpaque(userdata).takeUnretainedValue().closeSocket(socket)
}

/// libcurl's `CURLMOPT_TIMERFUNCTION`: hands the timeout to the loop's `setTimer(milliseconds:)`.
let timerCallback: apitest_timer_callback = { _, milliseconds, userdata in
    guard let userdata else { return -1 }
    Unmanaged<CurlMultiLoop>.fromOpaque(userdata).takeUnretainedValue().setTimer(milliseconds: milliseconds)
    return 0
}
