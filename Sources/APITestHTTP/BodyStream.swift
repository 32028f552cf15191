import APITestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Streams a request body from memory and from files, in order, with its exact length known before the first byte
/// is sent: AFNetworking's AFMultipartBodyStream.
///
/// Files are read while the request is sent, a buffer at a time, so memory does not grow with their size. A file
/// that shrinks or grows after its size was taken fails the transfer with a message saying so.
final class BodyStream {
    /// A piece of the body.
    enum Segment {
        case bytes(Data)
        case file(path: String, size: Int64)
    }

    /// The exact number of bytes the stream delivers.
    let length: Int64
    /// Bytes handed to libcurl so far.
    private(set) var sent: Int64 = 0
    /// Why the stream stopped early, when it did.
    private(set) var failure: HTTPError?

    private let segments: [Segment]
    private var index = 0
    private var offset: Int64 = 0
    private var descriptor: Int32 = -1

    init(segments: [Segment]) {
        self.segments = segments
        self.length = segments.reduce(0) { total, segment in
            switch segment {
            case .bytes(let data): return total + Int64(data.count)
            case .file(_, let size): return total + size
            }
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The stream for `body`, taking the size of each file now; `nil` for no body.
    static func make(for body: HTTPRequest.Body) throws(HTTPError) -> BodyStream? {
        switch body {
        case .none:
            return nil
        case .data(let data):
            return BodyStream(segments: [.bytes(data)])
        case .file(let path):
            return BodyStream(segments: [.file(path: path, size: try fileSize(path))])
        case .multipart(let form):
            return BodyStream(segments: try form.segments())
        }
    }

    /// The size of the regular file at `path`, checked as every file apitest reads is (`ReadableFile`): a FIFO or a
    /// device is refused before it is opened. Not recorded among the files read: this runs for every request that
    /// sends the file, and the suite's load recorded it already (the output guard runs before anything is sent).
    static func fileSize(_ path: String) throws(HTTPError) -> Int64 {
        if let problem = ReadableFile.problem(at: path, recording: false) {
            throw HTTPError(.bodyFileUnreadable(path: path, problem: .refused(problem)))
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw HTTPError(.bodyFileUnreadable(path: path, problem: .statFailed(errno: errno)))
        }
        return Int64(info.st_size)
    }

    // MARK: - Reading

    /// Fills `buffer` with the next bytes; 0 at the end, `nil` when the transfer must be aborted (see `failure`).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard failure == nil, let base = buffer.baseAddress else { return nil }
        var filled = 0
        while filled < buffer.count, index < segments.count {
            let room = buffer.count - filled
            switch segments[index] {
            case .bytes(let data):
                let count = min(room, data.count - Int(offset))
                data.withUnsafeBytes { source in
                    if let start = source.baseAddress {
                        (base + filled).copyMemory(from: start + Int(offset), byteCount: count)
                    }
                }
                filled += count
                offset += Int64(count)
                if offset == Int64(data.count) { advance() }
            case .file(let path, let size):
                guard let count = readFile(path: path, size: size, into: base + filled, room: room) else { return nil }
                filled += count
                if offset == size {
                    guard checkUnchanged(path: path, size: size) else { return nil }
                    advance()
                }
            }
        }
        sent += Int64(filled)
        return filled
    }

    /// Starts the body over from its first byte, for libcurl to send it again (a redirect that keeps the method,
    /// a retry on a fresh connection). Sizes announced at the start still hold.
    func rewind() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        index = 0
        offset = 0
        sent = 0
        failure = nil
    }

    private func advance() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        index += 1
        offset = 0
    }

    private func readFile(path: String, size: Int64, into destination: UnsafeMutableRawPointer, room: Int) -> Int? {
        if descriptor < 0 {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                failure = HTTPError(.bodyFileUnreadable(path: path, problem: .openFailed(errno: errno)))
                return nil
            }
        }
        let wanted = Int(min(Int64(room), size - offset))
        var got = 0
        while got < wanted {
            let n = Glibc.read(descriptor, destination + got, wanted - got)
            if n < 0 {
                if errno == EINTR { continue }
                failure = HTTPError(.bodyFileUnreadable(path: path, problem: .readFailed(errno: errno)))
                return nil
            }
            if n == 0 {
                failure = HTTPError(.bodyFileShrank(path: path, announced: size, read: offset + Int64(got)))
                return nil
            }
            got += n
        }
        offset += Int64(got)
        return got
    }

    /// After the last announced byte of a file: it must still have exactly the announced size.
    private func checkUnchanged(path: String, size: Int64) -> Bool {
        var info = stat()
        if fstat(descriptor, &info) == 0, Int64(info.st_size) != size {
            failure = HTTPError(.bodyFileChangedSize(path: path, announced: size, now: Int64(info.st_size)))
            return false
        }
        return true
    }
}
