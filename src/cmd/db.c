// SPDX-License-Identifier: MIT
#include "cmd/db.h"
#include "util/strbuf.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int db_option(const char *arg, const char **ret)
{
	if (!*arg) {
		log_error("invalid --db '': empty path");
		return -EINVAL;
	}
	*ret = arg;
	return 0;
}

/* an explicit path: its directory must be there already */
static int check_parent(const char *path)
{
	char *copy = strdup(path);
	struct stat sb;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	if (stat(dirname(copy), &sb) < 0)
		r = -errno;
	else if (!S_ISDIR(sb.st_mode))
		r = -ENOTDIR;
	free(copy);
	return r;
}

static void log_open_error(const char *path, bool explicit, int r)
{
	switch (r) {
	case -ENOENT:
		if (!explicit) {
			log_error("no history yet at '%s': 'usbperf run' and 'usbperf import' "
				  "save runs there",
				  path);
			break;
		}
		/* fall through */
	default:
		log_error("cannot open the history '%s': %s", path, strerror(-r));
		break;
	case -EBADMSG:
		log_error("'%s' is not a usbperf history database", path);
		break;
	case -EPROTONOSUPPORT:
		log_error("'%s' was written by a newer usbperf (schema newer than version %d)",
			  path, store_schema_version());
		break;
	case -EBUSY:
		log_error("the history '%s' is locked by another process", path);
		break;
	}
}

int db_open(const char *db, bool create, struct store **ret)
{
	char *dflt = NULL;
	int r;

	if (!db) {
		r = store_default_path(&dflt);
		if (r < 0) {
			log_error("no home directory for the history: use --db PATH");
			return r;
		}
	} else if (create) {
		r = check_parent(db);
		if (r < 0) {
			log_error("cannot create the history '%s': %s", db, strerror(-r));
			return r;
		}
	}
	r = store_open_flags(db ? db : dflt, create ? 0 : STORE_OPEN_EXISTING, ret);
	if (r < 0)
		log_open_error(db ? db : dflt, db != NULL, r);
	free(dflt);
	return r;
}

int db_exit_status(int r)
{
	switch (r) {
	case -ENOENT:
	case -ENOTDIR:
	case -EISDIR:
	case -EACCES:
	case -EBADMSG:
	case -EPROTONOSUPPORT:
	case -EINVAL:
		return EXIT_USAGE;
	}
	return EXIT_RUNTIME;
}

static void log_run_error(struct store *s, const char *arg, int r)
{
	if (r == -ENOENT)
		log_error("no run '%s' in the history", arg);
	else if (r == -EINVAL)
		log_error("run '%s' is ambiguous: more than one id starts with it", arg);
	else
		log_error("cannot read run '%s': %s", arg, store_errmsg(s));
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
	return r;
}

static int db_only_option(int c, const char *arg, void *ctx)
{
	return c == OPT_DB ? db_option(arg, ctx) : -ENOENT;
}

int db_parse_args(int argc, char **argv, struct global_opts *g, const char *cmd,
		  void (*usage)(void), const char **ret_db)
{
	static const struct option longopts[] = {
		DB_LONG_OPTION,
		COMMON_LONG_OPTIONS,
		{NULL, 0, NULL, 0},
	};

	return parse_options(argc, argv, g, cmd, longopts, usage, db_only_option, ret_db);
}
