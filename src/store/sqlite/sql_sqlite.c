// SPDX-License-Identifier: MIT
/*
 * The SQLite back end: struct sql_ops on sqlite3_*, SQLite's result codes
 * as errno values, and what is SQLite's own about a history that is one
 * file (sql_sqlite.h). The only file of the store that includes sqlite3.h.
 */
#include "store/sql_backend.h"
#include "store/sqlite/sql_sqlite.h"
#include "util/strbuf.h"
#include "util/xdg.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/magic.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#define BUSY_TIMEOUT_MS 10000

struct sqlite_conn {
	struct sql_conn base;
	sqlite3 *db;
	/* read mode: holds SQLite's shared lock while the file is read as immutable */
	int lock_fd;
	bool immutable;
};

struct sqlite_stmt {
	struct sql_stmt base;
	sqlite3_stmt *st;
};

static const struct sql_ops sqlite_ops;

static struct sqlite_conn *conn_of(struct sql_conn *c)
{
	return container_of(c, struct sqlite_conn, base);
}

static sqlite3_stmt *stmt_of(struct sql_stmt *st)
{
	return container_of(st, struct sqlite_stmt, base)->st;
}

static sqlite3 *db_of(struct sql_stmt *st)
{
	return conn_of(st->conn)->db;
}

/* SQLite's result code as a negative errno (store.h lists them) */
static int sqlite_err(sqlite3 *db, int rc)
{
	int sys = db ? sqlite3_system_errno(db) : 0;

	switch (rc & 0xff) {
	case SQLITE_OK:
		return 0;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_READONLY:
		return -EROFS;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_NOTADB:
		return -EBADMSG;
	case SQLITE_CORRUPT:
		return -EUCLEAN;
	case SQLITE_CONSTRAINT:
		/* a run id stored twice; anything else breaks the schema's rules */
		if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
			return -EEXIST;
		return -EINVAL;
	case SQLITE_CANTOPEN:
		return sys ? -sys : -EACCES;
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	}
	return sys ? -sys : -EIO;
}

static int check(sqlite3 *db, int rc)
{
	return rc == SQLITE_OK ? 0 : sqlite_err(db, rc);
}

/* ---- the ops ---- */

static void sqlite_close(struct sql_conn *c)
{
	struct sqlite_conn *sc = conn_of(c);

	sqlite3_close_v2(sc->db);
	if (sc->lock_fd >= 0)
		close(sc->lock_fd);
	free(sc);
}

static int sqlite_exec(struct sql_conn *c, const char *sql)
{
	sqlite3 *db = conn_of(c)->db;

	return check(db, sqlite3_exec(db, sql, NULL, NULL, NULL));
}

static int sqlite_prepare(struct sql_conn *c, const char *sql, struct sql_stmt **ret)
{
	sqlite3 *db = conn_of(c)->db;
	struct sqlite_stmt *st = calloc(1, sizeof(*st));
	int rc;

	if (!st)
		return -ENOMEM;
	rc = sqlite3_prepare_v2(db, sql, -1, &st->st, NULL);
	if (rc != SQLITE_OK) {
		free(st);
		return sqlite_err(db, rc);
	}
	st->base.conn = c;
	*ret = &st->base;
	return 0;
}

static int sqlite_bind_text(struct sql_stmt *st, int idx, const char *v)
{
	return check(db_of(st), sqlite3_bind_text(stmt_of(st), idx, v, -1, SQLITE_STATIC));
}

static int sqlite_bind_int64(struct sql_stmt *st, int idx, int64_t v)
{
	return check(db_of(st), sqlite3_bind_int64(stmt_of(st), idx, v));
}

static int sqlite_bind_double(struct sql_stmt *st, int idx, double v)
{
	return check(db_of(st), sqlite3_bind_double(stmt_of(st), idx, v));
}

static int sqlite_bind_null(struct sql_stmt *st, int idx)
{
	return check(db_of(st), sqlite3_bind_null(stmt_of(st), idx));
}

static int sqlite_step(struct sql_stmt *st)
{
	int rc = sqlite3_step(stmt_of(st));

	if (rc == SQLITE_ROW)
		return SQL_ROW;
	if (rc == SQLITE_DONE)
		return SQL_DONE;
	return sqlite_err(db_of(st), rc);
}

static const char *sqlite_column_text(struct sql_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(stmt_of(st), col);
}

static int64_t sqlite_column_int64(struct sql_stmt *st, int col)
{
	return sqlite3_column_int64(stmt_of(st), col);
}

static double sqlite_column_double(struct sql_stmt *st, int col)
{
	return sqlite3_column_double(stmt_of(st), col);
}

static bool sqlite_column_is_null(struct sql_stmt *st, int col)
{
	return sqlite3_column_type(stmt_of(st), col) == SQLITE_NULL;
}

static int sqlite_column_count(struct sql_stmt *st)
{
	return sqlite3_column_count(stmt_of(st));
}

static int sqlite_reset(struct sql_stmt *st)
{
	return check(db_of(st), sqlite3_reset(stmt_of(st)));
}

static void sqlite_finalize(struct sql_stmt *st)
{
	sqlite3_finalize(stmt_of(st));
	free(container_of(st, struct sqlite_stmt, base));
}

static int sqlite_begin(struct sql_conn *c, enum sql_tx tx)
{
	return sqlite_exec(c, tx == SQL_TX_WRITE ? "BEGIN IMMEDIATE" : "BEGIN");
}

static int sqlite_commit(struct sql_conn *c)
{
	return sqlite_exec(c, "COMMIT");
}

static int sqlite_rollback(struct sql_conn *c)
{
	return sqlite_exec(c, "ROLLBACK");
}

static int64_t sqlite_changes(struct sql_conn *c)
{
	return sqlite3_changes(conn_of(c)->db);
}

static int64_t sqlite_last_insert_id(struct sql_conn *c)
{
	return sqlite3_last_insert_rowid(conn_of(c)->db);
}

static const char *sqlite_errmsg(struct sql_conn *c)
{
	return sqlite3_errmsg(conn_of(c)->db);
}

/* SQLite's own words for what sqlite_err() maps to err */
static const char *sqlite_strerror(struct sql_conn *c, int err)
{
	static const struct {
		int err, rc;
	} words[] = {
	    {-EBUSY, SQLITE_BUSY},	  {-ENOMEM, SQLITE_NOMEM},   {-EROFS, SQLITE_READONLY},
	    {-ENOSPC, SQLITE_FULL},	  {-EBADMSG, SQLITE_NOTADB}, {-EUCLEAN, SQLITE_CORRUPT},
	    {-EEXIST, SQLITE_CONSTRAINT}, {-EINVAL, SQLITE_CONSTRAINT},
	};

	(void)c;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (words[i].err == err)
			return sqlite3_errstr(words[i].rc);
	return strerror(-err);
}

/* ---- the dialect ---- */

static int sqlite_identity(struct sql_conn *c, int64_t app_id, bool *ret_ours,
			   int64_t *ret_version, int64_t *ret_objects)
{
	int64_t app = 0;
	int r = sql_query_int(c, "PRAGMA application_id", &app);

	if (r == 0)
		r = sql_query_int(c, "PRAGMA user_version", ret_version);
	if (r == 0)
		r = sql_query_int(c, "SELECT count(*) FROM sqlite_master", ret_objects);
	*ret_ours = app == app_id;
	return r;
}

static int sqlite_set_version(struct sql_conn *c, int version)
{
	char pragma[64];

	/* a pragma takes no parameters: the number is ours, not input */
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", version);
	return sqlite_exec(c, pragma);
}

static int sqlite_has_object(struct sql_conn *c, const char *type, const char *name)
{
	return sql_exists(c, "SELECT 1 FROM sqlite_master WHERE type = ?1 AND name = ?2", type, name);
}

static int sqlite_has_column(struct sql_conn *c, const char *table, const char *column)
{
	return sql_exists(c, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", table, column);
}

static int sqlite_setup_reader(struct sql_conn *c)
{
	return sqlite_exec(c, "PRAGMA query_only = ON");
}

/* ---- a file's own ---- */

static int open_memory(struct sqlite_conn **ret)
{
	struct sqlite_conn *sc = calloc(1, sizeof(*sc));
	int rc;

	if (!sc)
		return -ENOMEM;
	sc->base.ops = &sqlite_ops;
	sc->lock_fd = -1;
	rc = sqlite3_open_v2(":memory:", &sc->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
			     NULL);
	if (rc != SQLITE_OK) {
		sqlite_close(&sc->base);
		return -ENOMEM;
	}
	sqlite3_extended_result_codes(sc->db, 1);
	*ret = sc;
	return 0;
}

int sql_sqlite_open_memory(struct sql_conn **ret)
{
	struct sqlite_conn *sc;
	int r = open_memory(&sc);

	if (r < 0)
		return r;
	*ret = &sc->base;
	return 0;
}

/* an older schema, read: copied into memory and migrated there, the file untouched */
static int sqlite_copy_private(struct sql_conn *c)
{
	struct sqlite_conn *sc = conn_of(c), *mem;
	sqlite3_backup *b;
	int rc, r;

	r = open_memory(&mem);
	if (r < 0)
		return r;
	b = sqlite3_backup_init(mem->db, "main", sc->db, "main");
	rc = b ? sqlite3_backup_step(b, -1) : sqlite3_errcode(mem->db);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		sqlite_close(&mem->base);
		return sqlite_err(sc->db, rc);
	}
	/* the copy in place of the file; the shared lock and what it says of the file stay */
	sqlite3_close_v2(sc->db);
	sc->db = mem->db;
	mem->db = NULL;
	sqlite_close(&mem->base);
	return 0;
}

/*
 * WAL: a reader never blocks the writer, and a process killed mid-write
 * leaves uncommitted frames that the next opener ignores. NORMAL sync is
 * safe in WAL mode: a power cut can only lose the last commits.
 *
 * The switch to WAL of a new file takes an exclusive lock for which SQLite
 * does not call the busy handler: two processes creating the history at
 * once would see "database is locked". Wait as the busy timeout would.
 */
static int sqlite_setup_writer(struct sql_conn *c)
{
	int r;

	for (int waited_ms = 0;; waited_ms += 5) {
		r = sqlite_exec(c, "PRAGMA journal_mode = WAL");
		if (r != -EBUSY || waited_ms >= BUSY_TIMEOUT_MS)
			break;
		usleep(5000);
	}
	if (r == 0)
		r = sqlite_exec(c, "PRAGMA synchronous = NORMAL");
	if (r == 0)
		r = sqlite_exec(c, "PRAGMA foreign_keys = ON");
	return r;
}

static int sqlite_checkpoint(struct sql_conn *c)
{
	return sqlite_exec(c, "PRAGMA wal_checkpoint(TRUNCATE)");
}

/*
 * Read as immutable, SQLite reports the journal mode "delete": the file's
 * header says what it is (bytes 18 and 19, the read and write versions: 2
 * for WAL).
 */
static int sqlite_file_journal_mode(struct sql_conn *c, char **ret)
{
	struct sqlite_conn *sc = conn_of(c);
	unsigned char v[2];
	char *t;

	if (!sc->immutable)
		return -EOPNOTSUPP;
	if (pread(sc->lock_fd, v, sizeof(v), 18) != sizeof(v))
		return -EIO;
	t = strdup(v[0] == 2 && v[1] == 2 ? "wal" : "delete");
	if (!t)
		return -ENOMEM;
	*ret = t;
	return 0;
}

static const struct sql_ops sqlite_ops = {
	.name = "sqlite",
	.close = sqlite_close,
	.exec = sqlite_exec,
	.prepare = sqlite_prepare,
	.bind_text = sqlite_bind_text,
	.bind_int64 = sqlite_bind_int64,
	.bind_double = sqlite_bind_double,
	.bind_null = sqlite_bind_null,
	.step = sqlite_step,
	.column_text = sqlite_column_text,
	.column_int64 = sqlite_column_int64,
	.column_double = sqlite_column_double,
	.column_is_null = sqlite_column_is_null,
	.column_count = sqlite_column_count,
	.reset = sqlite_reset,
	.finalize = sqlite_finalize,
	.begin = sqlite_begin,
	.commit = sqlite_commit,
	.rollback = sqlite_rollback,
	.changes = sqlite_changes,
	.last_insert_id = sqlite_last_insert_id,
	.errmsg = sqlite_errmsg,
	.strerror = sqlite_strerror,
	.identity = sqlite_identity,
	.set_version = sqlite_set_version,
	.has_object = sqlite_has_object,
	.has_column = sqlite_has_column,
	.setup_reader = sqlite_setup_reader,
	.file_checks = true,
	.copy_private = sqlite_copy_private,
	.setup_writer = sqlite_setup_writer,
	.checkpoint = sqlite_checkpoint,
	.file_journal_mode = sqlite_file_journal_mode,
};

/* ---- opening a file ---- */

/* /proc/self/mem and its kind: regular files to stat(2), whose reads fail (EIO) */
static bool kernel_file(const char *path)
{
	struct statfs sf;

	if (statfs(path, &sf) < 0)
		return false;
	return sf.f_type == PROC_SUPER_MAGIC || sf.f_type == SYSFS_MAGIC ||
	       sf.f_type == DEBUGFS_MAGIC;
}

/* SQLite's unix VFS refuses a full path name of this many bytes */
#define SQLITE_MAX_PATHNAME 512

/*
 * What is at path, stat(2)'d before SQLite opens it: SQLite opens the name
 * itself, and a FIFO would block its open(2) (a device would be opened,
 * with whatever that does). lock_shared() checks again, with O_NONBLOCK,
 * the file it opens; what remains is the window between that and SQLite's
 * own open, open only to someone who can rename in the history's
 * directory, and so could as well replace the history itself.
 */
static int check_path(const char *path, bool write)
{
	char cwd[PATH_MAX], *dir;
	size_t len = strlen(path);
	struct stat sb;
	int r = 0;

	if (path[0] != '/' && getcwd(cwd, sizeof(cwd)))
		len += strlen(cwd) + 1;
	if (len >= SQLITE_MAX_PATHNAME)
		return -ENAMETOOLONG;
	if (stat(path, &sb) < 0)
		return -errno;
	if (S_ISDIR(sb.st_mode))
		return -EISDIR;
	if (!S_ISREG(sb.st_mode) || kernel_file(path))
		return -ENODEV;
	if (!write)
		return access(path, R_OK) < 0 ? -errno : 0;
	/* SQLite would open a read-only file read-only, and fail at the first write */
	if (access(path, R_OK | W_OK) < 0)
		return -errno;
	/* the -wal and -shm are made beside it */
	dir = strdup(path);
	if (!dir)
		return -ENOMEM;
	if (access(dirname(dir), W_OK) < 0)
		r = -errno;
	free(dir);
	return r;
}

static bool exists_beside(const char *path, const char *suffix)
{
	struct strbuf p = STRBUF_INIT;
	struct stat sb;
	bool r;

	strbuf_addf(&p, "%s%s", path, suffix);
	r = stat(p.buf, &sb) == 0 || errno != ENOENT;
	strbuf_release(&p);
	return r;
}

/* "file:" URI of path with immutable=1, every byte but [A-Za-z0-9/._~-] %-escaped */
static void immutable_uri(const char *path, struct strbuf *out)
{
	strbuf_adds(out, path[0] == '/' ? "file://" : "file:");
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		/* not isalnum(): a locale could count bytes of UTF-8 in */
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || strchr("/._~-", *c))
			strbuf_addf(out, "%c", *c);
		else
			strbuf_addf(out, "%%%02X", *c);
	}
	strbuf_adds(out, "?immutable=1");
}

/*
 * SQLite's shared lock (unix VFS: a read lock on the 510 bytes after the
 * pending byte), taken as an open file description lock of our own: a
 * writer that starts meanwhile cannot take the exclusive lock it needs to
 * checkpoint its WAL into the file on close, so the file does not change
 * under an immutable reader. A checkpoint while writing (beyond 1000 WAL
 * pages, e.g. a big import) does not take it: that race remains.
 */
static int lock_shared(const char *path, int *ret_fd)
{
	struct flock fl = {
	    .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 0x40000002, .l_len = 510};
	struct stat sb;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	/* swapped for something else since check_path() */
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return -ENODEV;
	}
	for (int waited_ms = 0; fcntl(fd, F_OFD_SETLK, &fl) < 0; waited_ms += 5) {
		if (errno != EAGAIN && errno != EACCES)
			break; /* no OFD locks: read without */
		if (waited_ms >= BUSY_TIMEOUT_MS) {
			close(fd);
			return -EBUSY;
		}
		usleep(5000);
	}
	*ret_fd = fd;
	return 0;
}

/*
 * Read mode. With a -wal (or -journal) beside the file a writer may be
 * at work: a plain read-only open, which uses them. Without one the file
 * is whole, and a plain read-only open would create a -wal and -shm (and
 * cannot in a directory it cannot write): read it as immutable instead.
 */
static int open_read(struct sqlite_conn *sc, const char *path)
{
	struct strbuf uri = STRBUF_INIT;
	int r, rc;

	if (exists_beside(path, "-wal") || exists_beside(path, "-journal")) {
		rc = sqlite3_open_v2(path, &sc->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
				     NULL);
		return check(sc->db, rc);
	}
	r = lock_shared(path, &sc->lock_fd);
	if (r < 0)
		return r;
	sc->immutable = true;
	immutable_uri(path, &uri);
	rc = sqlite3_open_v2(uri.buf, &sc->db,
			     SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, NULL);
	strbuf_release(&uri);
	return check(sc->db, rc);
}

int sql_sqlite_open(const char *path, enum sql_open mode, struct sql_conn **ret)
{
	int oflags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	struct sqlite_conn *sc;
	int r;

	r = check_path(path, mode != SQL_OPEN_READ);
	if (r == -ENOENT && mode == SQL_OPEN_CREATE) {
		r = xdg_make_parents(path);
		oflags |= SQLITE_OPEN_CREATE;
	}
	if (r < 0)
		return r;
	sc = calloc(1, sizeof(*sc));
	if (!sc)
		return -ENOMEM;
	sc->base.ops = &sqlite_ops;
	sc->lock_fd = -1;
	if (mode == SQL_OPEN_READ) {
		r = open_read(sc, path);
	} else {
		int rc = sqlite3_open_v2(path, &sc->db, oflags, NULL);

		r = check(sc->db, rc);
	}
	if (r < 0) {
		sqlite_close(&sc->base);
		return r;
	}
	sqlite3_extended_result_codes(sc->db, 1);
	sqlite3_busy_timeout(sc->db, BUSY_TIMEOUT_MS);
	*ret = &sc->base;
	return 0;
}

/* a history file: any name no other back end takes */
const struct sql_backend sql_backend_sqlite = {
    .name = "sqlite",
    .open = sql_sqlite_open,
};

struct sqlite3 *sql_sqlite_handle(struct sql_conn *c)
{
	return c->ops == &sqlite_ops ? conn_of(c)->db : NULL;
}
