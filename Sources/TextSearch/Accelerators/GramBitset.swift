/// One gram's rows of ``SearchDescription/gramBitsTable``, in chunk order: the ids of the rows whose
/// texts hold the gram.
struct GramBitset {
    /// The chunks, ascending.
    var chunks: [Int64] = []
    /// Each chunk's words, ``SearchDescription/gramBitsWords`` a chunk.
    var words: [UInt64] = []

    /// Whether the bit of the row of id `id` is set (a chunk not read: no).
    func contains(_ id: Int64) -> Bool {
        let chunk = id >> SearchDescription.gramBitsChunkShift
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if chunks[middle] < chunk { low = middle + 1 } else { high = middle }
        }
        guard low < chunks.count, chunks[low] == chunk else { return false }
        let word = words[low * SearchDescription.gramBitsWords + Int((id >> 6) & Int64(SearchDescription.gramBitsWords - 1))]
        return word & (1 << UInt64(id & 63)) != 0
    }

    /// How many ids have their bit set in every one of `bitsets` (0 for none): the rows whose texts
    /// hold every one of their grams. Each chunk is merged once, in chunk order.
    static func intersectionCount(_ bitsets: [GramBitset]) -> Int {
        guard let first = bitsets.first else { return 0 }
        let width = SearchDescription.gramBitsWords
        var positions = Array(repeating: 0, count: bitsets.count)
        var total = 0
        for (index, chunk) in first.chunks.enumerated() {
            var words = Array(first.words[index * width..<(index + 1) * width])
            var held = true
            for other in 1..<bitsets.count {
                let bitset = bitsets[other]
                var position = positions[other]
                while position < bitset.chunks.count, bitset.chunks[position] < chunk { position += 1 }
                positions[other] = position
                guard position < bitset.chunks.count, bitset.chunks[position] == chunk else { held = false; break }
                for word in 0..<width { words[word] &= bitset.words[position * width + word] }
            }
            if held { total += words.reduce(0) { $0 + $1.nonzeroBitCount } }
        }
        return total
    }
}
