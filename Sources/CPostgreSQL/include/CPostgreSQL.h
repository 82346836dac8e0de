// libpq's API as libpq-fe.h declares it. Nothing links libpq: libpq.c defines the functions this
// project calls, each forwarding to libpq's own, which it loads with dlopen on the first call, so a
// command on a database file never loads libpq and its dozens of libraries.
#ifndef CPOSTGRESQL_H
#define CPOSTGRESQL_H

#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h> // Debian's libpq-dev
#else
#include <libpq-fe.h>
#endif

/// NULL once libpq is loaded (loading it on the first call); else why it cannot be, on one line.
/// Call it before PQconnectdb: without libpq, the other functions are never reached.
const char *CPostgreSQLLoadFailure(void);

#endif
