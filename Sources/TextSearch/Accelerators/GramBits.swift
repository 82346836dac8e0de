/// The bits of ``SearchDescription/gramBitsTable`` for a set of 1-scalar grams, collected from rows'
/// scalars (``RowScalars``) in Swift by ``SearchDescription/refreshGramBits(_:)`` and a bulk build:
/// per gram, the words of the chunk being filled, and those of the chunks filled before.
///
/// Rows in id order fill each chunk once; rows in any other order (a bulk build reads them in
/// rowid order, which puts the scope first) may fill one twice, and ``rows()`` merges them.
final class GramBits {
    /// The grams' scalars' values, ascending: the order of their UTF-8 bytes, the table's order.
    private let grams: [UInt32]
    /// Per scalar value below 65,536, the index of its gram in ``grams`` plus 1 (0: not held).
    private var basicIndex: [UInt16]
    /// Per scalar value from 65,536, the index of its gram in ``grams``.
    private var supplementaryIndex: [UInt32: Int] = [:]
    /// Per gram, the chunk being filled (nil: none yet).
    private var currentChunk: [Int64?]
    /// Per gram, the words of its current chunk (``SearchDescription/gramBitsWords`` a gram).
    private var currentWords: [UInt64]
    /// Per gram, the chunks filled before the current one.
    private var filled: [[(chunk: Int64, words: [UInt64])]]

    /// Bits of the grams of `scalars` (values of 1-scalar grams).
    init(grams scalars: [UInt32]) {
        grams = Array(Set(scalars)).sorted()
        basicIndex = Array(repeating: 0, count: Int(Self.basicScalars))
        currentChunk = Array(repeating: nil, count: grams.count)
        currentWords = Array(repeating: 0, count: grams.count * SearchDescription.gramBitsWords)
        filled = Array(repeating: [], count: grams.count)
        precondition(grams.count < Int(UInt16.max), "at most 65,534 grams")
        for (index, value) in grams.enumerated() {
            if value < Self.basicScalars { basicIndex[Int(value)] = UInt16(index + 1) } else { supplementaryIndex[value] = index }
        }
    }

    /// Whether no gram is collected.
    var isEmpty: Bool { grams.isEmpty }

    /// Sets the bit of the row of id `id` for each held gram among `values` (a row's scalars, each
    /// text followed by ``RowScalars/textEnd``; repeats set the same bit).
    func add(id: Int64, _ values: [UInt32]) {
        guard !grams.isEmpty else { return }
        let chunk = id >> SearchDescription.gramBitsChunkShift
        let word = Int((id >> 6) & Int64(SearchDescription.gramBitsWords - 1))
        let bit = UInt64(1) << UInt64(id & 63)
        for value in values where value != RowScalars.textEnd {
            let index: Int
            if value < Self.basicScalars {
                let stored = basicIndex[Int(value)]
                guard stored > 0 else { continue }
                index = Int(stored) - 1
            } else {
                guard let stored = supplementaryIndex[value] else { continue }
                index = stored
            }
            let first = index * SearchDescription.gramBitsWords
            if currentChunk[index] != chunk {
                if let open = currentChunk[index] {
                    filled[index].append((open, Array(currentWords[first..<first + SearchDescription.gramBitsWords])))
                    for word in first..<first + SearchDescription.gramBitsWords { currentWords[word] = 0 }
                }
                currentChunk[index] = chunk
            }
            currentWords[first + word] |= bit
        }
    }

    /// The rows to write, in the table's order (gram, then chunk), each chunk once.
    func rows() -> [(gram: String, chunk: Int64, words: [UInt64])] {
        var rows: [(gram: String, chunk: Int64, words: [UInt64])] = []
        for (index, value) in grams.enumerated() {
            let gram = String(Unicode.Scalar(value)!)
            let first = index * SearchDescription.gramBitsWords
            var chunks = filled[index]
            if let open = currentChunk[index] { chunks.append((open, Array(currentWords[first..<first + SearchDescription.gramBitsWords]))) }
            chunks.sort { $0.chunk < $1.chunk }
            for entry in chunks {
                if let last = rows.last, last.gram == gram, last.chunk == entry.chunk {
                    rows[rows.count - 1].words = zip(last.words, entry.words).map { $0 | $1 }
                } else {
                    rows.append((gram, entry.chunk, entry.words))
                }
            }
        }
        return rows
    }

    /// The scalar values looked up in an array rather than a dictionary: the Basic Multilingual Plane.
    private static let basicScalars: UInt32 = 0x1_0000
}
