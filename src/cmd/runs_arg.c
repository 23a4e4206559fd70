// SPDX-License-Identifier: MIT
/* The RUN operands: history ids, 'last', 'last~N', or JSON files. */
#include "cmd/runs_arg.h"
#include "cmd/db.h"
#include "run/record_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int runs_refuse_output(const char *db, char *const *args, size_t n, const char *output)
{
	struct inputs in = {0};
	bool reads_db = n == 0;
	int r = 0;

	for (size_t i = 0; r == 0 && i < n; i++) {
		if (!runs_arg_is_file(args[i]))
			reads_db = true;
		else if (strcmp(args[i], "-"))
			r = inputs_add(&in, args[i], "the run file being read");
	}
	if (r == 0 && reads_db)
		r = db_inputs_add_db(&in, db);
	return inputs_check_output(&in, r, "--output", output);
}

bool runs_arg_is_file(const char *a)
{
	size_t n = strlen(a);

	return !strcmp(a, "-") || strchr(a, '/') || (n > 5 && !strcmp(a + n - 5, ".json"));
}

bool runs_arg_id_reserved(const char *id, const char **ret_why)
{
	if (store_run_id_reserved(id)) {
		*ret_why = "it names the newest run (or one before it) wherever a run is named";
		return true;
	}
	if (runs_arg_is_file(id)) {
		*ret_why = "where a run is named it would be read as a file";
		return true;
	}
	return false;
}

struct runs_out {
	struct run_record **v;
	size_t *n;
};

static int parse_runs(const char *buf, size_t len, void *ctx, struct strbuf *err)
{
	struct runs_out *o = ctx;

	return run_document_parse(buf, len, o->v, o->n, err);
}

int runs_load_file(const char *file, struct run_record **ret, size_t *ret_n)
{
	struct runs_out o = {ret, ret_n};

	return load_input("run file", file, RUN_EXPORT_MAX_BYTES, parse_runs, &o);
}

static int append(struct run_record **all, size_t *nall, struct run_record *v, size_t n)
{
	struct run_record *grown = realloc(*all, (*nall + n + 1) * sizeof(**all));

	if (!grown)
		return -ENOMEM;
	memcpy(grown + *nall, v, n * sizeof(*v));
	*all = grown;
	*nall += n;
	return 0;
}

static const char *scope_board;

void runs_scope_board(const char *board)
{
	scope_board = board;
}

int runs_load(const char *db, char *const *args, size_t n, struct run_record **ret,
	      size_t *ret_n)
{
	struct run_record *all = NULL, *v, one;
	struct store *s = NULL;
	size_t nall = 0, nv;
	int r = 0;

	for (size_t i = 0; i < n && r == 0; i++) {
		if (runs_arg_is_file(args[i])) {
			r = runs_load_file(args[i], &v, &nv);
			if (r == 0) {
				r = append(&all, &nall, v, nv);
				if (r < 0)
					run_records_free(v, nv);
				else
					free(v);
			}
			continue;
		}
		if (!s && (r = db_open(db, DB_READ, &s)) == 0)
			r = store_scope_board(s, scope_board);
		if (r < 0)
			break;
		r = db_load_run(s, args[i], &one);
		if (r == 0) {
			r = append(&all, &nall, &one, 1);
			if (r < 0)
				run_record_release(&one);
		}
	}
	store_close(s);
	if (r == -ENOMEM)
		log_error("out of memory");
	if (r < 0) {
		run_records_free(all, nall);
		return r;
	}
	*ret = all;
	*ret_n = nall;
	return 0;
}

int runs_load_n(const char *db, char *const *args, size_t n, const char *cmd,
		struct run_record **ret)
{
	struct run_record *v;
	size_t nv;
	int r = runs_load(db, args, n, &v, &nv);

	if (r < 0)
		return r;
	if (nv != n) {
		log_error("%s: takes %zu run%s, the operands hold %zu (name one run per file)", cmd,
			  n, n == 1 ? "" : "s", nv);
		run_records_free(v, nv);
		return -EINVAL;
	}
	*ret = v;
	return 0;
}
