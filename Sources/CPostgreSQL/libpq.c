#include "CPostgreSQL.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#ifdef __APPLE__
#define LIBPQ "libpq.5.dylib"
#else
#define LIBPQ "libpq.so.5"
#endif

// Each function this project calls: its result type, name, parameters, and the call's arguments;
// V for those that return nothing.
#define LIBPQ_FUNCTIONS(F, V) \
    F(int, PQbackendPID, (const PGconn *conn), (conn)) \
    F(int, PQcancel, (PGcancel *cancel, char *errbuf, int errbufsize), (cancel, errbuf, errbufsize)) \
    V(PQclear, (PGresult *res), (res)) \
    F(char *, PQcmdStatus, (PGresult *res), (res)) \
    F(char *, PQcmdTuples, (PGresult *res), (res)) \
    F(PGconn *, PQconnectdb, (const char *conninfo), (conninfo)) \
    F(PostgresPollingStatusType, PQconnectPoll, (PGconn *conn), (conn)) \
    F(PGconn *, PQconnectStart, (const char *conninfo), (conninfo)) \
    F(PQconninfoOption *, PQconninfo, (PGconn *conn), (conn)) \
    V(PQconninfoFree, (PQconninfoOption *connOptions), (connOptions)) \
    F(int, PQconsumeInput, (PGconn *conn), (conn)) \
    F(int, PQenterPipelineMode, (PGconn *conn), (conn)) \
    F(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
    F(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query)) \
    F(int, PQexitPipelineMode, (PGconn *conn), (conn)) \
    F(PGresult *, PQexecParams, \
        (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, \
            const int *paramLengths, const int *paramFormats, int resultFormat), \
        (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    V(PQfinish, (PGconn *conn), (conn)) \
    F(char *, PQfname, (const PGresult *res, int field_num), (res, field_num)) \
    V(PQfreeCancel, (PGcancel *cancel), (cancel)) \
    V(PQfreemem, (void *ptr), (ptr)) \
    F(Oid, PQftype, (const PGresult *res, int field_num), (res, field_num)) \
    F(PGcancel *, PQgetCancel, (PGconn *conn), (conn)) \
    F(PGresult *, PQgetResult, (PGconn *conn), (conn)) \
    F(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    F(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    F(int, PQnfields, (const PGresult *res), (res)) \
    F(PGnotify *, PQnotifies, (PGconn *conn), (conn)) \
    F(int, PQntuples, (const PGresult *res), (res)) \
    F(int, PQpipelineSync, (PGconn *conn), (conn)) \
    F(int, PQputCopyData, (PGconn *conn, const char *buffer, int nbytes), (conn, buffer, nbytes)) \
    F(int, PQputCopyEnd, (PGconn *conn, const char *errormsg), (conn, errormsg)) \
    F(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
    F(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
    F(int, PQsendQuery, (PGconn *conn, const char *query), (conn, query)) \
    F(int, PQsendQueryParams, \
        (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, \
            const int *paramLengths, const int *paramFormats, int resultFormat), \
        (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    F(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *conn, PQnoticeProcessor proc, void *arg), (conn, proc, arg)) \
    F(int, PQsetSingleRowMode, (PGconn *conn), (conn)) \
    F(int, PQsocket, (const PGconn *conn), (conn)) \
    F(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
    F(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn)) \
    F(unsigned char *, PQunescapeBytea, (const unsigned char *strtext, size_t *retbuflen), (strtext, retbuflen))

// libpq's functions, once loaded.
static struct {
#define POINTER(Result, name, parameters, arguments) Result(*name) parameters;
#define VOID_POINTER(name, parameters, arguments) POINTER(void, name, parameters, arguments)
    LIBPQ_FUNCTIONS(POINTER, VOID_POINTER)
} libpq;

static pthread_once_t loading = PTHREAD_ONCE_INIT;
static char failure[512];

static void load(void) {
    void *library = dlopen(LIBPQ, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(failure, sizeof failure, "cannot load libpq, PostgreSQL's client library: %s", dlerror());
        return;
    }
#define LOOK_UP(Result, name, parameters, arguments) \
    if ((libpq.name = (Result(*) parameters)dlsym(library, #name)) == NULL) { \
        snprintf(failure, sizeof failure, "cannot load libpq: %s has no %s", LIBPQ, #name); \
        return; \
    }
#define VOID_LOOK_UP(name, parameters, arguments) LOOK_UP(void, name, parameters, arguments)
    LIBPQ_FUNCTIONS(LOOK_UP, VOID_LOOK_UP)
}

const char *CPostgreSQLLoadFailure(void) {
    pthread_once(&loading, load);
    return failure[0] == 0 ? NULL : failure;
}

#define FORWARD(Result, name, parameters, arguments) \
    Result name parameters { \
        pthread_once(&loading, load); \
        return libpq.name arguments; \
    }
#define VOID_FORWARD(name, parameters, arguments) \
    void name parameters { \
        pthread_once(&loading, load); \
        libpq.name arguments; \
    }
LIBPQ_FUNCTIONS(FORWARD, VOID_FORWARD)
