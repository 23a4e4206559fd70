// SPDX-License-Identifier: MIT
#include "cmd/db.h"
#include "run/class.h"
#include "util/strbuf.h"
#include "util/utctime.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *db_given(const char *db)
{
	const char *env = getenv("USBPERF_DB");

	return db ? db : env && *env ? env : NULL;
}

int db_date_option(const char *opt, const char *arg, bool end, char *ret)
{
	time_t t;
	bool day;

	if (utc_date_parse(arg, &t, &day) < 0) {
		log_error("invalid %s '%s': expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ", opt, arg);
		return -EINVAL;
	}
	utc_time_format(end && day ? t + 86400 : t, ret);
	return 0;
}

int board_option(const char *arg, const char **ret)
{
	if (!*arg || strlen(arg) > 256) {
		log_error("invalid --board '%s': 1 to 256 characters", arg);
		return -EINVAL;
	}
	*ret = arg;
	return 0;
}

int db_option(const char *arg, const char **ret)
{
	if (!*arg) {
		log_error("invalid --db '': empty path");
		return -EINVAL;
	}
	*ret = arg;
	return 0;
}

/* an explicit path: its directory must be there already, and writable */
static int check_parent(const char *path)
{
	char *copy = strdup(path), *dir;
	struct stat sb;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	dir = dirname(copy); /* "." for a bare name: not in copy */
	if (strlen(path) >= PATH_MAX)
		r = -ENAMETOOLONG;
	else if (stat(dir, &sb) < 0)
		r = -errno;
	else if (!S_ISDIR(sb.st_mode))
		r = -ENOTDIR;
	else if (access(dir, W_OK) < 0)
		r = -errno;
	free(copy);
	return r;
}

/* the default path: its nearest existing ancestor must be a writable directory */
static int check_ancestor(const char *path)
{
	char *copy = strdup(path), *dir = copy;
	struct stat sb;
	int r;

	if (!copy)
		return -ENOMEM;
	do {
		dir = dirname(dir);
		r = stat(dir, &sb) < 0 ? -errno : 0;
	} while (r == -ENOENT && strcmp(dir, "/") && strcmp(dir, "."));
	if (r == 0 && !S_ISDIR(sb.st_mode))
		r = -ENOTDIR;
	else if (r == 0 && access(dir, W_OK) < 0)
		r = -errno;
	free(copy);
	return r;
}

/* a server's history: what its server said, the password never shown */
static bool describe_server_error(struct strbuf *sb, const char *uri, int r)
{
	char *shown = store_display_name(uri);
	const char *said = store_open_error(uri);

	switch (r) {
	case -ENOENT: /* there, with no history's schema in it */
		strbuf_addf(sb,
			    "no history yet at '%s': 'usbperf run' and 'usbperf import' save "
			    "runs there",
			    shown);
		break;
	case -ECONNREFUSED:
		strbuf_addf(sb, "cannot reach the history's server '%s': %s", shown, said);
		break;
	case -EKEYREJECTED:
		strbuf_addf(sb, "the history's server '%s' refused usbperf: %s", shown, said);
		break;
	case -ENXIO:
		strbuf_addf(sb, "no history database '%s' on its server: %s", shown, said);
		break;
	case -ECONNRESET:
		strbuf_addf(sb, "the history's server '%s' went away: %s", shown, said);
		break;
	case -EOPNOTSUPP:
		strbuf_addf(sb,
			    "the history '%s' has an older schema: a command that writes to it "
			    "('usbperf run', 'usbperf import') brings it up to date",
			    shown);
		break;
	case -EPROTONOSUPPORT:
		if (*said) { /* a build without libpq */
			strbuf_addf(sb, "cannot open the history '%s': %s", shown, said);
			break;
		}
		/* fall through */
	default:
		free(shown);
		return false;
	}
	free(shown);
	return true;
}

static void describe_file_error(struct strbuf *sb, const char *path, bool explicit,
				enum db_mode mode, int r)
{
	switch (r) {
	case -ENOENT:
		if (!explicit) {
			strbuf_addf(sb,
				    "no history yet at '%s': 'usbperf run' and 'usbperf import' "
				    "save runs there",
				    path);
			break;
		}
		if (mode == DB_CREATE)
			strbuf_addf(sb, "cannot create the history '%s': %s", path, strerror(-r));
		else
			strbuf_addf(sb, "no history '%s': %s", path, strerror(-r));
		break;
	case -EISDIR:
	case -ENODEV:
		strbuf_addf(sb, "'%s' is not a regular file", path);
		break;
	case -ENAMETOOLONG:
		strbuf_addf(sb,
			    "cannot open the history '%.64s...': file name too long (%zu bytes)",
			    path, strlen(path));
		break;
	case -EBADMSG:
		strbuf_addf(sb, "'%s' is not a usbperf history database", path);
		break;
	case -EPROTONOSUPPORT:
		strbuf_addf(sb,
			    "'%s' was written by a newer usbperf (schema newer than version %d)",
			    path, store_schema_version());
		break;
	case -EBUSY:
		strbuf_addf(sb, "the history '%s' is locked by another process", path);
		break;
	case -EACCES:
	case -EROFS:
	case -EPERM:
		if (mode != DB_READ) {
			strbuf_addf(sb, "cannot write the history '%s': %s", path, strerror(-r));
			break;
		}
		/* fall through */
	default:
		strbuf_addf(sb, "cannot read the history '%s': %s", path,
			    r == -EUCLEAN ? "database disk image is malformed" : strerror(-r));
		break;
	}
}

static void describe_open_error(struct strbuf *sb, const char *path, bool explicit,
				enum db_mode mode, int r)
{
	char *shown;

	if (!store_is_server(path)) {
		describe_file_error(sb, path, explicit, mode, r);
		return;
	}
	if (describe_server_error(sb, path, r))
		return;
	/* the rest as a file's, by its shown name */
	shown = store_display_name(path);
	describe_file_error(sb, shown, explicit, mode, r);
	free(shown);
}

static void log_open_error(const char *path, bool explicit, enum db_mode mode, int r)
{
	struct strbuf sb = STRBUF_INIT;

	describe_open_error(&sb, path, explicit, mode, r);
	log_error("%s", sb.buf);
	strbuf_release(&sb);
}

static int default_path(char **ret)
{
	int r = store_default_path(ret);

	if (r < 0)
		log_error("no home directory for the history: use --db PATH");
	return r;
}

int db_open_quiet(const char *db, enum db_mode mode, struct store **ret, struct strbuf *why)
{
	static const unsigned flags[] = {
	    [DB_READ] = STORE_OPEN_READ,
	    [DB_WRITE] = STORE_OPEN_EXISTING,
	    [DB_CREATE] = 0,
	};
	char *dflt = NULL;
	int r;

	db = db_given(db);
	if (!db) {
		r = store_default_path(&dflt);
		if (r < 0) {
			strbuf_adds(why, "no home directory for the history: use --db PATH");
			return r;
		}
	} else if (mode == DB_CREATE && !store_is_server(db) && access(db, F_OK) < 0 &&
		   errno == ENOENT) {
		r = check_parent(db);
		if (r < 0) {
			describe_open_error(why, db, true, mode, r);
			return r;
		}
	}
	r = store_open_flags(db ? db : dflt, flags[mode], ret);
	if (r < 0)
		describe_open_error(why, db ? db : dflt, db != NULL, mode, r);
	free(dflt);
	return r;
}

int db_open(const char *db, enum db_mode mode, struct store **ret)
{
	struct strbuf why = STRBUF_INIT;
	int r = db_open_quiet(db, mode, ret, &why);

	if (r < 0)
		log_error("%s", why.buf);
	strbuf_release(&why);
	return r;
}

int db_prepare_save(const char *db, struct store **ret)
{
	char *dflt = NULL;
	const char *path;
	int r;

	db = db_given(db);
	path = db;
	if (!db) {
		r = default_path(&dflt);
		if (r < 0)
			return r;
		path = dflt;
	}
	/* a server's database is there or not: opened now, its schema made if new */
	if (store_is_server(path)) {
		r = db_open(db, DB_CREATE, ret);
		/* a role that may only read learns it now, not after the measurement */
		if (r == 0 && (r = store_check_writable(*ret)) < 0) {
			log_error("cannot write the history '%s': %s", store_path(*ret),
				  store_errmsg(*ret));
			store_close(*ret);
			*ret = NULL;
		}
	} else if (access(path, F_OK) == 0 || errno != ENOENT) {
		r = db_open(db, DB_WRITE, ret);
		/* a damaged history is found now, not after the measurement it was to keep */
		if (r == 0 && (r = store_quick_check(*ret)) < 0) {
			db_failed(*ret, r);
			store_close(*ret);
			*ret = NULL;
		}
	} else {
		r = db ? check_parent(path) : check_ancestor(path);
		if (r < 0)
			log_open_error(path, db != NULL, DB_CREATE, r);
		else
			*ret = NULL;
	}
	free(dflt);
	return r;
}

int db_exit_status(int r)
{
	switch (r) {
	case -ENOENT:
	case -ENOTDIR:
	case -EISDIR:
	case -ENODEV:
	case -EACCES:
	case -EPERM:
	case -EROFS:
	case -ELOOP:
	case -ENAMETOOLONG:
	case -EBADMSG:
	case -EINVAL:
	case -EEXIST:
		return EXIT_USAGE;
	}
	return EXIT_RUNTIME;
}

int db_failed(struct store *s, int r)
{
	if (r == -ENOMEM)
		log_error("out of memory");
	else if (r == -ECONNRESET)
		log_error("the history's server '%s' went away: %s", store_path(s),
			  store_errmsg(s));
	else if (r == -EBADMSG)
		log_error("'%s' is not a usbperf history database", store_path(s));
	else
		log_error("cannot read the history '%s': %s", store_path(s), store_errmsg(s));
	return r == -EBADMSG ? EXIT_USAGE : EXIT_RUNTIME;
}

static void log_run_error(struct store *s, const char *arg, int r)
{
	uint64_t n = 0;

	if (r == -ENOENT && !strcmp(arg, STORE_RUN_LAST))
		log_error("no run in the history yet (see 'usbperf run')");
	else if (r == -ENOENT && !strncmp(arg, STORE_RUN_LAST "~", strlen(STORE_RUN_LAST "~")) &&
		 store_count_runs(s, &n) == 0)
		log_error("no run '%s' in the history (it holds %" PRIu64 " run%s)", arg, n,
			  n == 1 ? "" : "s");
	else if (r == -ENOENT)
		log_error("no run '%s' in the history", arg);
	else if (r == -EINVAL)
		log_error("run '%s' is ambiguous: more than one id starts with it", arg);
	else
		db_failed(s, r);
}

int db_resolve_run(struct store *s, const char *arg, char **ret_id)
{
	int r = store_resolve_run(s, arg, ret_id);

	if (r < 0)
		log_run_error(s, arg, r);
	return r;
}

int db_load_run(struct store *s, const char *arg, struct run_record *ret)
{
	int r = store_load_run(s, arg, ret);

	if (r < 0)
		log_run_error(s, arg, r);
	else
		run_record_upgrade_units(ret);
	return r;
}

/* ---- no output over an input ---- */

int db_inputs_add_db(struct inputs *in, const char *db)
{
	static const char *const beside[] = {"", "-wal", "-shm", "-journal"};
	struct strbuf p = STRBUF_INIT;
	char *dflt = NULL;
	int r = 0;

	db = db_given(db);
	if (!db && store_default_path(&dflt) < 0)
		return 0; /* no default: nothing to protect */
	if (store_is_server(db))
		return 0; /* no file of this machine's */
	for (size_t i = 0; r == 0 && i < sizeof(beside) / sizeof(beside[0]); i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s%s", db ? db : dflt, beside[i]);
		r = inputs_add(in, p.buf, "the history database being read");
	}
	strbuf_release(&p);
	free(dflt);
	return r;
}

int db_refuse_output_db(const char *db, const char *output)
{
	struct inputs in = {0};

	return inputs_check_output(&in, output ? db_inputs_add_db(&in, db) : 0, "--output", output);
}

static int db_only_option(int c, const char *arg, void *ctx)
{
	return c == OPT_DB ? db_option(arg, ctx) : -ENOENT;
}

int db_parse_args(int argc, char **argv, struct global_opts *g, const char *cmd,
		  const struct cmd_opt *table, void (*usage)(void), const char **ret_db)
{
	return parse_table(argc, argv, g, cmd, table, usage, db_only_option, ret_db);
}
