import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Notices a database file written in place by something other than SQLite: its first 100 bytes (the
/// database header) are no longer those of an SQLite database of the page size the connection opened,
/// or, in WAL mode, the file was written (its header, size or modification time changed) while no
/// checkpoint ran.
///
/// In WAL mode only a checkpoint writes the database file, and a checkpoint first records in the
/// WAL index (the `-shm` file) how far it will copy (`nBackfillAttempted`), then how far it did
/// (`nBackfill`), or restarts the `-wal` with new salts: so a file written while the WAL index's
/// checkpoint state stayed the same was written by another program: bytes overwritten in place,
/// another database copied over the file, even one of the same size and page size (whose header may
/// be byte for byte the same). The header and the WAL index are read through the connection's own
/// file (SQLite's descriptor and its mapping of the `-shm`), never by opening the file again, which
/// would drop this process's locks on it when closed. Not noticed: a write in the same clock tick as
/// a checkpoint; and a file whose modification time alone is changed (`touch`) is taken as written.
///
/// Related SQLite documentation: <https://www.sqlite.org/fileformat2.html#the_database_header>,
/// <https://www.sqlite.org/walformat.html#the_wal_index_file_format>
struct HeaderWatch {
    /// The file (its header, size and modification time) and the WAL index's checkpoint state at the
    /// last look that found nothing wrong.
    private var written: Written?
    private var checkpointState: [UInt32]?

    private struct Written: Equatable {
        let header: [UInt8]
        let size: Int
        let modified: Int
    }
    private let pageSize: Int

    init(pageSize: Int) {
        self.pageSize = pageSize
    }

    /// What happened to the file of `db`'s connection, if it was written by another program since the
    /// last call; nil when nothing was, or when its header cannot be read (left to the next look).
    mutating func change(_ db: Database, path: String) -> DatabaseFileError? {
        guard let file = Self.file(of: db), let header = Self.header(of: file) else { return nil }
        let magic = Array("SQLite format 3\0".utf8)
        let headerPageSize = Int(header[16]) << 8 | Int(header[17])
        guard header.starts(with: magic), (headerPageSize == 1 ? 65_536 : headerPageSize) == pageSize else {
            return .unreadable(path: path, reason: "its header is no longer that of this database (overwritten in place)")
        }
        // Bytes 18 and 19, the file format's write and read versions, are 2 in WAL mode: only then does
        // the connection map the -shm (asking for it otherwise would create one).
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        let written = Written(
            header: header, size: Int(info.st_size), modified: Int(modified.tv_sec) * 1_000_000_000 + Int(modified.tv_nsec))
        guard header[18] == 2, header[19] == 2, let state = Self.checkpointState(of: file) else {
            self.written = written
            checkpointState = nil
            return nil
        }
        // nBackfillAttempted past nBackfill: a checkpoint is writing the file now.
        if state[3] != state[2] { return nil }
        if let previous = self.written, previous != written, checkpointState == state {
            return .unreadable(path: path, reason: "it was written while no checkpoint ran (overwritten in place)")
        }
        self.written = written
        checkpointState = state
        return nil
    }

    private static func file(of db: Database) -> UnsafeMutablePointer<sqlite3_file>? {
        guard let handle = db.sqliteConnection else { return nil }
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
              file?.pointee.pMethods != nil else { return nil }
        return file
    }

    /// The first 100 bytes of the file, read with SQLite's descriptor.
    private static func header(of file: UnsafeMutablePointer<sqlite3_file>) -> [UInt8]? {
        guard let read = file.pointee.pMethods.pointee.xRead else { return nil }
        var bytes = [UInt8](repeating: 0, count: 100)
        let code = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, 100, 0) }
        return code == SQLITE_OK ? bytes : nil
    }

    /// From the connection's mapping of the WAL index: the `-wal`'s two salts, `nBackfill` and
    /// `nBackfillAttempted`, which every checkpoint changes; nil when it is not mapped.
    private static func checkpointState(of file: UnsafeMutablePointer<sqlite3_file>) -> [UInt32]? {
        guard file.pointee.pMethods.pointee.iVersion >= 2, let map = file.pointee.pMethods.pointee.xShmMap else { return nil }
        var region: UnsafeMutableRawPointer?
        guard map(file, 0, 32_768, 0, &region) == SQLITE_OK, let region else { return nil }
        // WalIndexHdr: aSalt at 32 and 36 (new salts: the -wal restarted); WalCkptInfo after two copies
        // of the 48-byte header: nBackfill at 96, nBackfillAttempted at 128.
        return [32, 36, 96, 128].map { region.load(fromByteOffset: $0, as: UInt32.self) }
    }
}
