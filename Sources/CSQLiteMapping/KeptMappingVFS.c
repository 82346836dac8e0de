// The VFS of CSQLiteMapping.h: SQLite's default VFS, each file wrapped so that xUnfetch(0, NULL), the
// request to drop the whole mapping, is followed only when the file's size changed.

#include "CSQLiteMapping.h"

#include <pthread.h>
#include <sqlite3.h>
#include <string.h>

/// A file of this VFS: the wrapped file's methods, what the mapping was checked against, then the
/// wrapped VFS's own file structure (`szOsFile` bytes).
typedef struct KeptMappingFile {
    sqlite3_file base;
    /// The wrapped file, stored right after this structure.
    sqlite3_file *wrapped;
    /// The file's size when its mapping was last dropped (or first checked); -1 before that.
    sqlite3_int64 checkedSize;
} KeptMappingFile;

static sqlite3_vfs *wrappedVFS;
static sqlite3_vfs keptMappingVFS;
static sqlite3_io_methods keptMappingMethods;
static pthread_once_t registration = PTHREAD_ONCE_INIT;
static int registered;

/// The first of the WAL's read-mark locks in the `-shm` file (`WAL_READ_LOCK(0)` in SQLite's wal.c): a
/// reader takes one of them, shared, when its read transaction starts.
static const int firstReadMarkLock = 3;

static sqlite3_file *wrapped(sqlite3_file *file) { return ((KeptMappingFile *)file)->wrapped; }

/// Drops the wrapped file's mapping if the file's size is not the one last checked: the next page
/// read maps it again, at its new size. Called only where no page of the mapping is in use.
static void dropMappingIfResized(sqlite3_file *file) {
    KeptMappingFile *kept = (KeptMappingFile *)file;
    sqlite3_file *inner = kept->wrapped;
    if (inner->pMethods->iVersion < 3) return;
    sqlite3_int64 size = -1;
    if (inner->pMethods->xFileSize(inner, &size) == SQLITE_OK && size == kept->checkedSize) return;
    kept->checkedSize = size;
    inner->pMethods->xUnfetch(inner, 0, NULL);
}

static int keptClose(sqlite3_file *f) { return wrapped(f)->pMethods->xClose(wrapped(f)); }
static int keptRead(sqlite3_file *f, void *buffer, int amount, sqlite3_int64 offset) {
    return wrapped(f)->pMethods->xRead(wrapped(f), buffer, amount, offset);
}
static int keptWrite(sqlite3_file *f, const void *buffer, int amount, sqlite3_int64 offset) {
    return wrapped(f)->pMethods->xWrite(wrapped(f), buffer, amount, offset);
}
static int keptTruncate(sqlite3_file *f, sqlite3_int64 size) { return wrapped(f)->pMethods->xTruncate(wrapped(f), size); }
static int keptSync(sqlite3_file *f, int flags) { return wrapped(f)->pMethods->xSync(wrapped(f), flags); }
static int keptFileSize(sqlite3_file *f, sqlite3_int64 *size) { return wrapped(f)->pMethods->xFileSize(wrapped(f), size); }
static int keptLock(sqlite3_file *f, int lock) { return wrapped(f)->pMethods->xLock(wrapped(f), lock); }
static int keptUnlock(sqlite3_file *f, int lock) { return wrapped(f)->pMethods->xUnlock(wrapped(f), lock); }
static int keptCheckReservedLock(sqlite3_file *f, int *out) {
    return wrapped(f)->pMethods->xCheckReservedLock(wrapped(f), out);
}
static int keptFileControl(sqlite3_file *f, int op, void *argument) {
    return wrapped(f)->pMethods->xFileControl(wrapped(f), op, argument);
}
static int keptSectorSize(sqlite3_file *f) { return wrapped(f)->pMethods->xSectorSize(wrapped(f)); }
static int keptDeviceCharacteristics(sqlite3_file *f) {
    return wrapped(f)->pMethods->xDeviceCharacteristics(wrapped(f));
}
static int keptShmMap(sqlite3_file *f, int region, int size, int extend, void volatile **out) {
    if (wrapped(f)->pMethods->iVersion < 2) return SQLITE_IOERR_SHMMAP;
    return wrapped(f)->pMethods->xShmMap(wrapped(f), region, size, extend, out);
}
static int keptShmLock(sqlite3_file *f, int offset, int count, int flags) {
    if (wrapped(f)->pMethods->iVersion < 2) return SQLITE_IOERR_SHMLOCK;
    // A read transaction starts: no page of the mapping is in use.
    if (flags == (SQLITE_SHM_LOCK | SQLITE_SHM_SHARED) && offset >= firstReadMarkLock) dropMappingIfResized(f);
    return wrapped(f)->pMethods->xShmLock(wrapped(f), offset, count, flags);
}
static void keptShmBarrier(sqlite3_file *f) {
    if (wrapped(f)->pMethods->iVersion >= 2) wrapped(f)->pMethods->xShmBarrier(wrapped(f));
}
static int keptShmUnmap(sqlite3_file *f, int deleteFlag) {
    if (wrapped(f)->pMethods->iVersion < 2) return SQLITE_OK;
    return wrapped(f)->pMethods->xShmUnmap(wrapped(f), deleteFlag);
}
static int keptFetch(sqlite3_file *f, sqlite3_int64 offset, int amount, void **out) {
    *out = NULL;
    if (wrapped(f)->pMethods->iVersion < 3) return SQLITE_OK;
    return wrapped(f)->pMethods->xFetch(wrapped(f), offset, amount, out);
}
static int keptUnfetch(sqlite3_file *f, sqlite3_int64 offset, void *page) {
    if (wrapped(f)->pMethods->iVersion < 3) return SQLITE_OK;
    // The whole mapping: kept while the file keeps its size.
    if (page == NULL) {
        dropMappingIfResized(f);
        return SQLITE_OK;
    }
    return wrapped(f)->pMethods->xUnfetch(wrapped(f), offset, page);
}

static int keptOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    (void)vfs;
    KeptMappingFile *kept = (KeptMappingFile *)file;
    memset(kept, 0, sizeof *kept);
    kept->wrapped = (sqlite3_file *)&kept[1];
    kept->checkedSize = -1;
    int code = wrappedVFS->xOpen(wrappedVFS, name, kept->wrapped, flags, outFlags);
    // A file whose open failed has no methods, and SQLite does not close it.
    kept->base.pMethods = kept->wrapped->pMethods != NULL ? &keptMappingMethods : NULL;
    if (code != SQLITE_OK && kept->wrapped->pMethods != NULL) {
        kept->wrapped->pMethods->xClose(kept->wrapped);
        kept->base.pMethods = NULL;
    }
    return code;
}

static void registerVFS(void) {
    wrappedVFS = sqlite3_vfs_find(NULL);
    if (wrappedVFS == NULL) return;
    keptMappingVFS = *wrappedVFS;
    keptMappingVFS.pNext = NULL;
    keptMappingVFS.zName = "sqlitestore-kept-mapping";
    keptMappingVFS.szOsFile = (int)sizeof(KeptMappingFile) + wrappedVFS->szOsFile;
    keptMappingVFS.xOpen = keptOpen;
    keptMappingMethods = (sqlite3_io_methods){
        .iVersion = 3,
        .xClose = keptClose,
        .xRead = keptRead,
        .xWrite = keptWrite,
        .xTruncate = keptTruncate,
        .xSync = keptSync,
        .xFileSize = keptFileSize,
        .xLock = keptLock,
        .xUnlock = keptUnlock,
        .xCheckReservedLock = keptCheckReservedLock,
        .xFileControl = keptFileControl,
        .xSectorSize = keptSectorSize,
        .xDeviceCharacteristics = keptDeviceCharacteristics,
        .xShmMap = keptShmMap,
        .xShmLock = keptShmLock,
        .xShmBarrier = keptShmBarrier,
        .xShmUnmap = keptShmUnmap,
        .xFetch = keptFetch,
        .xUnfetch = keptUnfetch,
    };
    registered = sqlite3_vfs_register(&keptMappingVFS, 0) == SQLITE_OK;
}

const char *csqlite_kept_mapping_vfs_name(void) {
    pthread_once(&registration, registerVFS);
    return registered ? keptMappingVFS.zName : NULL;
}
