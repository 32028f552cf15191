/// One shard of a sharded run: `--shard K/N`, with K 1-based like GitLab's `CI_NODE_INDEX`.
///
/// The selected tests are put in a canonical order (see `TestSelection`) and cut into N contiguous blocks whose
/// sizes differ by at most one; shard K runs block K. The N shards are disjoint, together hold every selected test,
/// and a test (with all its steps) is always in exactly one of them.
package struct ShardSpec: Sendable, Hashable, CustomStringConvertible {
    /// Which shard, from 1 to `count`.
    package let index: Int
    /// How many shards the run is split into.
    package let count: Int

    /// A bad `--shard` value, with a sentence saying what is wrong.
    package struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// Shard `index` of `count` (1-based).
    ///
    /// - Throws: `ParseError` unless `1 <= index <= count`.
    package init(index: Int, count: Int) throws(ParseError) {
        guard count >= 1 else {
            throw ParseError(message: "--shard \(index)/\(count): the number of shards N must be at least 1")
        }
        guard index >= 1 && index <= count else {
            throw ParseError(
                message: "--shard \(index)/\(count): K is 1-based and must be between 1 and \(count)")
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`, e.g. `2/4`.
    ///
    /// - Throws: `ParseError` for anything but two whole numbers with `1 <= K <= N`.
    package init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) })
        else {
            throw ParseError(
                message: "--shard expects K/N with whole numbers 1 <= K <= N (e.g. 2/4), got '\(text)'")
        }
        try self.init(index: index, count: count)
    }

    /// The positions, in canonical order, of this shard's tests among `total` selected tests: the K-th of N
    /// contiguous blocks. Every block holds `total / N` tests and the first `total % N` blocks one more, so sizes
    /// differ by at most one and, with fewer tests than shards, the last shards are the empty ones.
    package func range(ofTotal total: Int) -> Range<Int> {
        let position = index - 1
        let (size, extra) = total.quotientAndRemainder(dividingBy: count)
        let lower = position * size + min(position, extra)
        return lower..<(lower + size + (position < extra ? 1 : 0))
    }

    /// `K/N`.
    package var description: String { "\(index)/\(count)" }
}
