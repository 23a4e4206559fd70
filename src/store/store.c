// SPDX-License-Identifier: MIT
/* Opening the history: where it lives, checking it is ours, migrating it. */
#include "store/store_priv.h"
#include "util/strbuf.h"
#include "util/xdg.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

/* ---- helpers shared by the store's files ---- */

int store_err(struct store *s, int rc)
{
	int sys = s && s->db ? sqlite3_system_errno(s->db) : 0;

	if (s && s->db && rc != SQLITE_OK) {
		strbuf_reset(&s->errmsg);
		strbuf_adds(&s->errmsg, sqlite3_errmsg(s->db));
	}
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

int store_prepare(struct store *s, const char *sql, sqlite3_stmt **ret)
{
	int rc = sqlite3_prepare_v2(s->db, sql, -1, ret, NULL);

	return rc == SQLITE_OK ? 0 : store_err(s, rc);
}

int store_exec(struct store *s, const char *sql)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : store_err(s, rc);
}

int store_step(struct store *s, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return store_err(s, rc);
}

char *store_column_strdup(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	char *d;

	if (!t)
		return NULL;
	d = strdup((const char *)t);
	if (!d)
		abort();
	return d;
}

const char *store_errmsg(const struct store *s)
{
	return s && s->errmsg.len ? s->errmsg.buf : "no error";
}

const char *store_path(const struct store *s)
{
	return s->path;
}

/* ---- where it lives ---- */

int store_default_path(char **ret)
{
	struct strbuf p = STRBUF_INIT;
	int r = xdg_path("XDG_DATA_HOME", ".local/share", "history.db", &p);

	if (r < 0)
		return r;
	*ret = strbuf_detach(&p);
	return 0;
}

/* ---- opening ---- */

int store_query_int(struct store *s, const char *sql, int64_t *ret)
{
	sqlite3_stmt *st;
	int r = store_prepare(s, sql, &st);

	if (r < 0)
		return r;
	r = store_step(s, st);
	if (r > 0)
		*ret = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return r < 0 ? r : 0;
}

/*
 * Ours, or refused before anything is written to it. *ret_version: the
 * schema's version, 0 for a new empty file (write mode makes it ours).
 */
static int check_identity(struct store *s, int64_t *ret_version)
{
	int64_t app = 0, version = 0, objects = 0;
	int r;

	/* one read transaction: another process may be creating the schema right now */
	r = store_exec(s, "BEGIN");
	if (r < 0)
		return r;
	r = store_query_int(s, "PRAGMA application_id", &app);
	if (r == 0)
		r = store_query_int(s, "PRAGMA user_version", &version);
	if (r == 0)
		r = store_query_int(s, "SELECT count(*) FROM sqlite_master", &objects);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	if (r < 0)
		return r;
	if (app != STORE_APPLICATION_ID && (app != 0 || objects != 0))
		return -EBADMSG;
	if (version > store_schema_version())
		return -EPROTONOSUPPORT;
	*ret_version = app == STORE_APPLICATION_ID ? version : 0;
	return 0;
}

/*
 * The switch to WAL of a new file takes an exclusive lock for which SQLite
 * does not call the busy handler: two processes creating the history at
 * once would see "database is locked". Wait as the busy timeout would.
 */
static int set_wal(struct store *s)
{
	for (int waited_ms = 0;; waited_ms += 5) {
		int r = store_exec(s, "PRAGMA journal_mode = WAL");

		if (r != -EBUSY || waited_ms >= STORE_BUSY_TIMEOUT_MS)
			return r;
		usleep(5000);
	}
}

static int configure_write(struct store *s)
{
	int64_t version = 0;
	int r;

	r = check_identity(s, &version);
	/*
	 * WAL: a reader never blocks the writer, and a process killed mid-write
	 * leaves uncommitted frames that the next opener ignores. NORMAL sync is
	 * safe in WAL mode: a power cut can only lose the last commits.
	 */
	if (r == 0)
		r = set_wal(s);
	if (r == 0)
		r = store_exec(s, "PRAGMA synchronous = NORMAL");
	if (r == 0)
		r = store_exec(s, "PRAGMA foreign_keys = ON");
	if (r == 0)
		r = store_migrate(s, store_migrations, store_nmigrations);
	return r;
}

/* an older schema, read: copied into memory and migrated there, the file untouched */
static int migrate_in_memory(struct store *s)
{
	sqlite3_backup *b;
	sqlite3 *mem;
	int rc;

	rc = sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		sqlite3_close(mem);
		return -ENOMEM;
	}
	b = sqlite3_backup_init(mem, "main", s->db, "main");
	rc = b ? sqlite3_backup_step(b, -1) : sqlite3_errcode(mem);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		sqlite3_close(mem);
		return store_err(s, rc);
	}
	sqlite3_close_v2(s->db);
	s->db = mem;
	sqlite3_extended_result_codes(s->db, 1);
	return store_migrate(s, store_migrations, store_nmigrations);
}

static int configure_read(struct store *s)
{
	int64_t version = 0;
	int r;

	r = check_identity(s, &version);
	if (r == 0 && version == 0) /* an empty file is no history: nothing is made of it */
		r = -EBADMSG;
	if (r == 0 && version < store_schema_version())
		r = migrate_in_memory(s);
	if (r == 0)
		r = store_exec(s, "PRAGMA query_only = ON");
	return r;
}

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
		if (waited_ms >= STORE_BUSY_TIMEOUT_MS) {
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
static int open_read(struct store *s)
{
	struct strbuf uri = STRBUF_INIT;
	int r, rc;

	if (exists_beside(s->path, "-wal") || exists_beside(s->path, "-journal")) {
		rc = sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
				     NULL);
		return rc == SQLITE_OK ? 0 : store_err(s, rc);
	}
	r = lock_shared(s->path, &s->lock_fd);
	if (r < 0)
		return r;
	s->immutable = true;
	immutable_uri(s->path, &uri);
	rc = sqlite3_open_v2(uri.buf, &s->db,
			     SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, NULL);
	strbuf_release(&uri);
	return rc == SQLITE_OK ? 0 : store_err(s, rc);
}

int store_open_flags(const char *path, unsigned flags, struct store **ret)
{
	bool read = flags & STORE_OPEN_READ;
	int oflags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	struct store *s;
	int r, rc;

	if (!path || !*path)
		return -EINVAL;
	r = check_path(path, !read);
	if (r == -ENOENT && !read && !(flags & STORE_OPEN_EXISTING)) {
		r = xdg_make_parents(path);
		oflags |= SQLITE_OPEN_CREATE;
	}
	if (r < 0)
		return r;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path))) {
		free(s);
		return -ENOMEM;
	}
	s->lock_fd = -1;
	strbuf_init(&s->errmsg);
	if (read) {
		r = open_read(s);
	} else {
		rc = sqlite3_open_v2(path, &s->db, oflags, NULL);
		r = rc == SQLITE_OK ? 0 : store_err(s, rc);
	}
	if (r == 0) {
		sqlite3_extended_result_codes(s->db, 1);
		sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
		r = read ? configure_read(s) : configure_write(s);
	}
	if (r < 0) {
		store_close(s);
		return r;
	}
	*ret = s;
	return 0;
}

int store_open(const char *path, struct store **ret)
{
	return store_open_flags(path, 0, ret);
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_close_v2(s->db);
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	strbuf_release(&s->errmsg);
	free(s->path);
	free(s);
}

int store_recover(const char *path)
{
	struct store s = {.path = (char *)path, .lock_fd = -1, .errmsg = STRBUF_INIT};
	int64_t version = 0;
	int r = check_path(path, true), rc;

	if (r < 0)
		return r;
	rc = sqlite3_open_v2(path, &s.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	r = rc == SQLITE_OK ? 0 : store_err(&s, rc);
	if (r == 0) {
		sqlite3_extended_result_codes(s.db, 1);
		sqlite3_busy_timeout(s.db, STORE_BUSY_TIMEOUT_MS);
		r = check_identity(&s, &version);
	}
	if (r == 0 && version == 0)
		r = -EBADMSG; /* an empty file: nothing of SQLite's to recover */
	if (r == 0)
		r = store_exec(&s, "PRAGMA wal_checkpoint(TRUNCATE)");
	sqlite3_close_v2(s.db);
	strbuf_release(&s.errmsg);
	return r;
}

/* ---- checking ---- */

static char *pragma_text(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	char *t = NULL;

	if (store_prepare(s, sql, &st) < 0)
		return NULL;
	if (store_step(s, st) > 0)
		t = store_column_strdup(st, 0);
	sqlite3_finalize(st);
	return t;
}

/*
 * A damaged file makes SQLite fail the statement itself (-EUCLEAN): that
 * is a finding of the check, noted, not a reason to stop checking.
 */
static int damage(struct store *s, int r, struct strbuf *problems)
{
	if (r != -EUCLEAN && r != -EBADMSG)
		return r;
	if (problems->len)
		strbuf_adds(problems, "; ");
	strbuf_adds(problems, store_errmsg(s));
	return 0;
}

static int count_rows(struct store *s, const char *table, uint64_t *ret, struct strbuf *problems)
{
	char sql[64];
	int64_t n = 0;
	int r;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	r = store_query_int(s, sql, &n);
	*ret = r == 0 ? (uint64_t)n : U64_UNKNOWN;
	return r == 0 ? 0 : damage(s, r, problems);
}

/* every row of a check pragma, "; "-joined; none means no problem */
static int check_rows(struct store *s, const char *sql, bool skip_ok, struct strbuf *out)
{
	sqlite3_stmt *st;
	int r = store_prepare(s, sql, &st);

	while (r == 0 && (r = store_step(s, st)) > 0) {
		int ncol = sqlite3_column_count(st);
		const char *t = (const char *)sqlite3_column_text(st, 0);

		r = 0;
		if (skip_ok && ncol == 1 && t && !strcmp(t, "ok"))
			continue;
		if (out->len)
			strbuf_adds(out, "; ");
		for (int c = 0; c < ncol; c++) {
			t = (const char *)sqlite3_column_text(st, c);
			strbuf_addf(out, "%s%s", c ? " " : "", t ? t : "-");
		}
	}
	sqlite3_finalize(st);
	return r < 0 ? damage(s, r, out) : 0;
}

/*
 * Read as immutable, SQLite reports the journal mode "delete": the file's
 * header says what it is (bytes 18 and 19, the read and write versions: 2
 * for WAL).
 */
static char *journal_mode(struct store *s)
{
	unsigned char v[2];

	if (!s->immutable)
		return pragma_text(s, "PRAGMA journal_mode");
	if (pread(s->lock_fd, v, sizeof(v), 18) != sizeof(v))
		return NULL;
	return strdup(v[0] == 2 && v[1] == 2 ? "wal" : "delete");
}

int store_quick_check(struct store *s)
{
	struct strbuf problems = STRBUF_INIT;
	int r = check_rows(s, "PRAGMA quick_check", true, &problems);

	if (r == 0 && problems.len) {
		/* SQLite's own words for a damaged file: what every command prints for one */
		strbuf_reset(&s->errmsg);
		strbuf_adds(&s->errmsg, sqlite3_errstr(SQLITE_CORRUPT));
		r = -EUCLEAN;
	}
	strbuf_release(&problems);
	return r;
}

/* SQLite's report has lines: one field */
static char *one_line(struct strbuf *sb)
{
	for (size_t i = 0; i < sb->len; i++)
		if ((unsigned char)sb->buf[i] < 0x20)
			sb->buf[i] = ' ';
	return strbuf_detach(sb);
}

int store_check(struct store *s, struct store_stats *ret)
{
	static const char *const tables[] = {"runs", "devices", "metrics", "findings", "baselines"};
	struct store_stats st = {.path = s->path};
	uint64_t *counts[] = {&st.runs, &st.devices, &st.metrics, &st.findings, &st.baselines};
	struct strbuf problems = STRBUF_INIT, missing = STRBUF_INIT;
	int64_t version = 0;
	int r;

	r = store_query_int(s, "PRAGMA user_version", &version);
	if (r == 0)
		r = store_schema_missing(s, &missing);
	if (r == 0)
		r = check_rows(s, "PRAGMA integrity_check", true, &problems);
	if (r == 0)
		r = check_rows(s, "PRAGMA foreign_key_check", false, &problems);
	for (size_t i = 0; r == 0 && i < sizeof(tables) / sizeof(tables[0]); i++) {
		*counts[i] = U64_UNKNOWN;
		if (store_has_table(s, tables[i]))
			r = count_rows(s, tables[i], counts[i], &problems);
	}
	if (r < 0) {
		strbuf_release(&problems);
		strbuf_release(&missing);
		return r;
	}
	st.schema_version = (uint64_t)version;
	st.journal_mode = journal_mode(s);
	st.schema_ok = missing.len == 0;
	st.ok = problems.len == 0 && st.schema_ok;
	if (!problems.len)
		strbuf_adds(&problems, "ok");
	if (!missing.len)
		strbuf_adds(&missing, "ok");
	st.integrity = one_line(&problems);
	st.schema = one_line(&missing);
	*ret = st;
	return 0;
}

void store_stats_release(struct store_stats *st)
{
	free(st->journal_mode);
	free(st->integrity);
	free(st->schema);
	st->journal_mode = st->integrity = st->schema = NULL;
}

#define S struct store_stats
static const struct field stats_fields[] = {
	FIELD(S, path, "path", "database", NULL, FT_STR, 0, FF_TEXT),
	FIELD(S, schema_version, "schema_version", "schema version", NULL, FT_U64, 0, FF_TEXT),
	FIELD(S, journal_mode, "journal_mode", "journal", NULL, FT_STR, 0, FF_TEXT),
	FIELD(S, schema, "schema", "schema", NULL, FT_STR, 0, FF_TEXT),
	FIELD(S, integrity, "integrity", "integrity", NULL, FT_STR, 0, FF_TEXT),
	FIELD(S, ok, "ok", "ok", NULL, FT_BOOL, 0, 0),
	FIELD(S, runs, "runs", "runs", NULL, FT_U64, 0, FF_TEXT),
	FIELD(S, devices, "devices", "devices", NULL, FT_U64, 0, FF_TEXT),
	FIELD(S, metrics, "metrics", "metrics", NULL, FT_U64, 0, FF_TEXT),
	FIELD(S, findings, "findings", "findings", NULL, FT_U64, 0, FF_TEXT),
	FIELD(S, baselines, "baselines", "baselines", NULL, FT_U64, 0, FF_TEXT),
};
#undef S
const struct record_desc store_stats_desc = RECORD_DESC("store_stats", stats_fields);
