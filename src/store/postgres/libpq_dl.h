/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * libpq, loaded when a command first names a server history, not when
 * usbperf starts: libpq and what it needs (OpenSSL, GSSAPI, Kerberos, LDAP:
 * 22 shared libraries on Debian 12) cost every other command about 3.5 ms
 * of CPU and 7 ms before main() (usbperf --version, 2026-12-07). The calls
 * go through pq.NAME with libpq's own prototypes.
 */
#include <libpq-fe.h>

#define PQ_FUNCS(X)                                                                              \
	X(PQclear)                                                                               \
	X(PQcmdTuples)                                                                           \
	X(PQconnectdbParams)                                                                     \
	X(PQconnectionNeedsPassword)                                                             \
	X(PQerrorMessage)                                                                        \
	X(PQexec)                                                                                \
	X(PQexecParams)                                                                          \
	X(PQfinish)                                                                              \
	X(PQgetisnull)                                                                           \
	X(PQgetvalue)                                                                            \
	X(PQnfields)                                                                             \
	X(PQntuples)                                                                             \
	X(PQresultErrorField)                                                                    \
	X(PQresultStatus)                                                                        \
	X(PQstatus)

struct pq_api {
#define PQ_MEMBER(f) __typeof__(f) *f;
	PQ_FUNCS(PQ_MEMBER)
#undef PQ_MEMBER
};

extern struct pq_api pq;

/*
 * libpq.so.5 loaded and every call above found (once; later calls say the
 * same): 0, or -EPROTONOSUPPORT with why (dlerror's words and the package
 * to install) in err
 */
int pq_load(char *err, size_t errlen);
