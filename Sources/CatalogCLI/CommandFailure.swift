import ArgumentParser
import Catalog
import FetchedResults
import PostgreSQLStore
import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Failures of the CLI itself, beside those of the library.
enum CommandFailure: Error, CustomStringConvertible {
    /// A read-only command was pointed at a file that does not exist.
    case noDatabase(String)
    /// A command that must not write a schema (`check`) was pointed at an empty (0-byte) file.
    case emptyDatabase(String)
    /// The database at `path` does not exist and cannot be created there, for `reason` (its folder is
    /// missing, say): nothing was done.
    case databaseNotCreatable(path: String, reason: String)
    /// A backup's destination exists, and `--force` was not given.
    case destinationExists(String)
    /// The command line or the environment asks for something that cannot be done (exit 64): one
    /// sentence, without the usage text.
    case usage(String)
    /// Writing a command's output failed with the `errno` value `code`: to the file at `path` (which is
    /// then left as it was), or to standard output when `path` is nil.
    case outputNotWritten(path: String?, code: Int32)
    /// The file a command writes whole (``OutputFile``) cannot be created at `path`, for `reason`:
    /// nothing was done.
    case outputNotCreatable(path: String, reason: String)
    /// The command committed what `written` says, but closing the database could not copy it from the
    /// `-wal` into the database file at `path` (`cause`: a full disk): it is kept in the `-wal`.
    case keptInWAL(written: String, path: String, cause: DatabaseError)
    /// `watch` could not reach the PostgreSQL server for ``ServerCommits/reconnectLimit``, the last
    /// attempt failing with `cause`, and stopped following it.
    case serverLost(PostgreSQLError)

    var description: String {
        switch self {
        case .noDatabase(let path): "no database at \(path)"
        case .emptyDatabase(let path): "\(path) is an empty file (0 bytes), not a catalog database; nothing was checked"
        case .databaseNotCreatable(let path, let reason): "cannot create the database \(path): \(reason)"
        case .destinationExists(let path): "\(path) already exists; give --force to replace it"
        case .usage(let message): message
        case .outputNotCreatable(let path, let reason): "cannot write \(path): \(reason)"
        case .keptInWAL(let written, let path, let cause):
            "\(ResultCode.SQLITE_FULL ~= cause.resultCode ? "the disk is full" : "cannot write \(path): \(cause.message)"); "
                + "\(written), but is kept only in \(path)-wal, not yet in \(path): keep the two together "
                + "(the next write copies it, once there is room) (\(cause.resultCode.name))"
        case .serverLost(let cause):
            "the PostgreSQL server could not be reached for \(ServerCommits.reconnectLimit.components.seconds) seconds, "
                + "so watch stopped following it: \(cause.message) (\(cause.sqlState))"
        case .outputNotWritten(let path, let code):
            switch (path, code == ENOSPC || code == EDQUOT) {
            case (let path?, true): "the disk is full; \(path) was not written"
            case (let path?, false): "cannot write \(path): \(String(cString: strerror(code))); it was not written"
            case (nil, true): "the disk is full; standard output could not be written"
            case (nil, false): "cannot write standard output: \(String(cString: strerror(code)))"
            }
        }
    }
}

/// The exit codes of `catalog`, documented in the "Exit codes and errors" article of its documentation.
enum ExitStatus: Int32 {
    /// Something else failed.
    case failure = 1
    /// No record has that id, or no row is at that index path.
    case notFound = 3
    /// A record with that name already exists (also one of a file imported with its ids), or a backup's
    /// destination does (without `--force`).
    case conflict = 4
    /// The database stayed locked by another process for the whole busy timeout.
    case busy = 5
    /// The database cannot be used: not a database, damaged, newer than this program, changed
    /// migrations, read-only, missing, or not creatable where it is named.
    case unusableDatabase = 6
    /// The database file `watch` was watching was deleted, replaced or overwritten.
    case databaseFileChanged = 7
    /// The PostgreSQL server cannot be reached, or the connection to it was lost.
    case serverUnreachable = 8
    /// The command (or the part of it asked for) works on a database file, and the database is on a
    /// PostgreSQL server.
    case fileOnly = 9
    /// The command line or the environment is malformed, such as an index path (EX_USAGE).
    case usage = 64
    /// Bad input: an invalid value of a record's field, or a malformed file (EX_DATAERR).
    case invalidInput = 65
    /// An input file does not exist or cannot be read (EX_NOINPUT), or an output file cannot be created.
    case noInput = 66
}

/// Runs a command's body; a failure becomes one line on standard error and the exit code for its kind.
func reportingFailures(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch {
        throw reported(error)
    }
}

/// Runs an async command's body; a failure becomes one line on standard error and the exit code for its kind.
func reportingFailures(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        throw reported(error)
    }
}

/// The error to end the command with: usage errors and exit codes as they are; any other error is
/// written as one line on standard error and becomes the exit code for its kind.
private func reported(_ error: any Error) -> any Error {
    if error is ExitCode || error is ValidationError { return error }
    let (message, status) = explain(error)
    Terminal.note("error: " + Terminal.oneLine(message))
    return ExitCode(status.rawValue)
}

/// What a rejected seed or import file's line ends with.
let rolledBack = "; no record of the input was written"

/// What a line of a write rolled back says was not written: the command's own change, since
/// opening may have committed before it (a default database created and seeded, a pending
/// migration applied), so "nothing was written" would not be true.
let commandNotWritten = "this command's change was not written"

/// The one-line message and exit status for an error.
func explain(_ error: any Error) -> (String, ExitStatus) {
    switch error {
    case let error as CatalogError:
        switch error {
        case .invalidValue: return (error.description, .invalidInput)
        case .notFound, .indexPathOutOfRange: return (error.description, .notFound)
        case .duplicateName: return (error.description, .conflict)
        case .inaccessibleFile: return (error.description, .noInput)
        // A rejected record rolls back its whole `seed` or `import`, every file of it: the line says so.
        // Not "nothing was written": opening may have committed before (see `commandNotWritten`).
        case .conflictingEntity: return (error.description + rolledBack, .conflict)
        case .invalidFile: return (error.description + rolledBack, .invalidInput)
        case .preBaselineDatabase: return (error.description, .unusableDatabase)
        case .notOnFile: return (error.description, .fileOnly)
        }
    case let error as ItemPathParseError:
        return (error.description, .usage)
    case let error as MigrationError:
        // A migration stopped by a full disk or an I/O error is that failure, not an unusable database.
        if case .migrationFailed(let set, let version, let name, let cause as DatabaseError) = error,
           [.SQLITE_FULL, .SQLITE_IOERR].contains(cause.resultCode.primaryResultCode) {
            let what = cause.resultCode.primaryResultCode == .SQLITE_FULL ? "the disk or database is full" : "input/output error on the database"
            return ("\(what)\(fileSizeLimitNote): \(set) migration \(version) (\(name)) was rolled back (\(cause.resultCode.name))", .failure)
        }
        return (error.description, .unusableDatabase)
    case let error as CommandFailure:
        switch error {
        case .noDatabase, .emptyDatabase, .databaseNotCreatable: return (error.description, .unusableDatabase)
        case .destinationExists: return (error.description, .conflict)
        case .usage: return (error.description, .usage)
        case .outputNotWritten: return (error.description, .failure)
        case .outputNotCreatable: return (error.description, .noInput)
        case .keptInWAL: return (error.description, .failure)
        case .serverLost: return (error.description, .serverUnreachable)
        }
    case let error as PostgreSQLError:
        return explain(error)
    case let error as DatabaseFileError:
        return (error.description, .databaseFileChanged)
    case let error as DatabaseError:
        return explain(error)
    default:
        return ("\(error)", .failure)
    }
}

/// Under a file size limit (`ulimit -f`), which SQLite reports as a full disk or an I/O error (a short
/// write, or EFBIG: `runMain()` ignores SIGXFSZ), the limit; else nothing.
private var fileSizeLimitNote: String {
    var limit = rlimit()
    #if os(Linux)
    let (resource, infinity) = (__rlimit_resource_t(RLIMIT_FSIZE.rawValue), rlim_t.max)
    #else
    let (resource, infinity) = (RLIMIT_FSIZE, RLIM_INFINITY)
    #endif
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur != infinity else { return "" }
    return ", or the file reached this process's file size limit (ulimit -f: \(limit.rlim_cur / 1024) KiB)"
}

extension PostgreSQLError {
    /// Whether the connection was lost (a connection exception, or the server shutting down or
    /// restarting: 57P01-57P03), not the statement refused.
    var isConnectionLoss: Bool { sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") }
}

private func explain(_ error: PostgreSQLError) -> (String, ExitStatus) {
    switch error.sqlState {
    case PostgreSQLError.cannotConnect:
        return ("\(error.message); nothing was done (\(error.sqlState))", .serverUnreachable)
    case "55P03":
        // Another session held a lock past the server's lock_timeout: a file's busy timeout, on a server.
        return ("the database is locked by another session past the server's lock_timeout; try again; "
            + "\(commandNotWritten) (\(error.sqlState))", .busy)
    case "25006":
        // A write on a read-only server: most often a replica's URL given as the database.
        return ("PostgreSQL: \(error.message) (\(error.sqlState)): the database URL names a read-only server, such as a "
            + "replica; give the primary's URL (replicas go in CATALOG_REPLICAS); nothing was written", .failure)
    case _ where error.isConnectionLoss:
        return ("lost the connection to the PostgreSQL server: \(error.message); "
            + "what this command had not committed was rolled back (\(error.sqlState))", .serverUnreachable)
    default:
        return ("PostgreSQL: \(error.message) (\(error.sqlState))", .failure)
    }
}

private func explain(_ error: DatabaseError) -> (String, ExitStatus) {
    let code = error.resultCode
    let detail = "(\(code.name))"
    switch code.primaryResultCode {
    case .SQLITE_BUSY, .SQLITE_LOCKED:
        return ("the database is locked by another process; try again \(detail)", .busy)
    case .SQLITE_NOTADB:
        // The message names the file when opening found it (`Database.init`), else SQLite's own.
        return ("\(error.message) \(detail)", .unusableDatabase)
    case .SQLITE_CORRUPT:
        return ("the database file is damaged: \(error.message) \(detail)", .unusableDatabase)
    case .SQLITE_CANTOPEN:
        return ("cannot open the database: \(error.message) \(detail)", .unusableDatabase)
    case .SQLITE_READONLY where code == .SQLITE_READONLY_DIRECTORY:
        return ("the database's folder is read-only: SQLite needs to create its -wal and -shm files beside the database \(detail)",
                .unusableDatabase)
    case .SQLITE_READONLY:
        return ("the database is read-only: \(error.message) \(detail)", .unusableDatabase)
    case let primary where primary == .SQLITE_FULL || code == .SQLITE_IOERR_SHMSIZE:
        // SQLite grows the -shm file (a connection's first use creates it) before anything is written:
        // a -shm that cannot grow is a full disk.
        return ("the disk or database is full\(fileSizeLimitNote); \(commandNotWritten) \(detail)", .failure)
    case .SQLITE_IOERR:
        return ("input/output error on the database\(fileSizeLimitNote): \(error.message) \(detail)", .failure)
    default:
        return (error.description, .failure)
    }
}
