// SPDX-License-Identifier: MIT
/*
 * store (issue 28.3): reserved ids, a run loaded by its exact id, the schema
 * checked whole, a killed writer's -wal recovered; util/leftovers: a killed
 * process's files removed, and only those.
 */
#include "unit.h"
#include "run_sample.h"
#include "store_fixture.h"
#include "util/leftovers.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


static int setup(void **state)
{
	(void)state;
	if (scratch_setup("store-guard") < 0)
		return -1;
	/* the journal of this test's files, not the machine's */
	setenv("XDG_STATE_HOME", dir, 1);
	return 0;
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static void test_reserved(void **state)
{
	static const struct {
		const char *id;
		bool reserved;
	} t[] = {
	    {"last", true},    {"last~0", true},
	    {"last~12", true}, {"lastly", false},
	    {"Last", false},   {"last~", false},
	    {"last~x", false}, {"20261130T051200Z-3f2a", false},
	    {"x.json", false}, /* a file name to the RUN operands, not to the store */
	};
	struct store *s = open_new("reserved.db");
	struct run_record r, b;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_int_equal(store_run_id_reserved(t[i].id), t[i].reserved);
	sample_run(&r, "last", "2026-11-30T05:12:00Z");
	assert_int_equal(store_save_run(s, &r), -EINVAL);
	assert_non_null(strstr(store_errmsg(s), "reserved"));
	free(r.id);
	r.id = strdup("newer");
	free(r.started_at);
	r.started_at = strdup("2026-12-30T05:12:00Z");
	assert_int_equal(store_save_run(s, &r), 0);
	run_record_release(&r);
	/* a history written before: a run under the reserved word, older than another */
	assert_int_equal(store_exec(s, "INSERT INTO runs (id, started_at) VALUES"
				       " ('last', '2020-01-01T00:00:00Z')"),
			 0);
	assert_int_equal(store_load_run(s, "last", &b), 0);
	assert_string_equal(b.id, "newer"); /* "last" names the newest */
	run_record_release(&b);
	assert_int_equal(store_load_run_id(s, "last", &b), 0);
	assert_string_equal(b.id, "last"); /* the exact id: what export goes by */
	run_record_release(&b);
	assert_int_equal(store_load_run_id(s, "new", &b), -ENOENT); /* never a prefix */
	store_close(s);
}

static void check_missing(const char *sql, const char *want)
{
	struct store *s = open_new("schema.db");
	struct store_stats st;

	if (sql)
		assert_int_equal(store_exec(s, sql), 0);
	assert_int_equal(store_check(s, &st), 0);
	assert_string_equal(st.schema, want);
	assert_int_equal(st.schema_ok, !sql);
	assert_int_equal(st.ok, !sql);
	store_stats_release(&st);
	store_close(s);
	unlink(path_in("schema.db"));
	unlink(path_in("schema.db-wal"));
	unlink(path_in("schema.db-shm"));
}

static void test_schema(void **state)
{
	(void)state;
	check_missing(NULL, "ok");
	check_missing("DROP TABLE verdicts", "table 'verdicts'");
	check_missing("ALTER TABLE metrics DROP COLUMN ceiling", "column 'metrics.ceiling'");
	check_missing("DROP INDEX baselines_by_run", "index 'baselines_by_run'");
	check_missing("DROP TABLE notes; ALTER TABLE runs DROP COLUMN board",
		      "column 'runs.board', table 'notes'");
	{
		char want[64];

		snprintf(want, sizeof(want), "schema version 9, not %d", store_schema_version());
		check_missing("PRAGMA user_version = 9", want);
	}
}

/* a writer killed with SIGKILL: the -wal and -shm stay until the history is opened */
static void test_recover(void **state)
{
	char wal[300], shm[300];
	pid_t pid;
	int status;

	(void)state;
	snprintf(wal, sizeof(wal), "%s-wal", path_in("rec.db"));
	snprintf(shm, sizeof(shm), "%s-shm", path_in("rec.db"));
	store_close(open_new("rec.db"));
	assert_false(exists(wal));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct store *c;
		struct run_record r;

		if (store_open(path_in("rec.db"), &c) < 0)
			_exit(1);
		sample_run(&r, "in-the-wal", "2026-11-30T05:13:00Z");
		_exit(store_save_run(c, &r) < 0 ? 2 : 0); /* no close: as SIGKILL leaves it */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(exists(wal) && exists(shm));
	assert_int_equal(store_recover(path_in("rec.db")), 0);
	assert_false(exists(wal));
	assert_false(exists(shm));
	/* what the WAL held is in the file now */
	{
		struct store *s;
		struct run_record r;

		assert_int_equal(store_open_flags(path_in("rec.db"), STORE_OPEN_READ, &s), 0);
		assert_int_equal(store_load_run_id(s, "in-the-wal", &r), 0);
		run_record_release(&r);
		store_close(s);
	}
	/* not a history: refused, nothing made */
	assert_int_equal(store_recover(path_in("none.db")), -ENOENT);
	close(open(path_in("empty.db"), O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
	assert_int_equal(store_recover(path_in("empty.db")), -EBADMSG);
}

/*
 * Children that each create a file (PID in the name: theirs), record it and
 * die without cleaning up. All are alive while they record: the first
 * record of a process sweeps, and would take a dead sibling's files first.
 */
static void killed_with(const char *const *names, size_t n, pid_t *ret)
{
	int ready[2], go[2];
	char c;

	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	for (size_t i = 0; i < n; i++) {
		ret[i] = fork();
		assert_true(ret[i] >= 0);
		if (ret[i] == 0) {
			char p[300];
			const char *at = strstr(names[i], "PID");
			int fd;

			snprintf(p, sizeof(p), "%s/%.*s%ld%s", dir, (int)(at - names[i]), names[i],
				 (long)getpid(), at + 3);
			fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
			if (fd < 0)
				_exit(1);
			leftovers_add(p, fd);
			close(go[1]);
			(void)!write(ready[1], "r", 1);
			(void)!read(go[0], &c, 1);
			_exit(0); /* _exit: no atexit, as SIGKILL */
		}
	}
	close(go[0]);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(read(ready[0], &c, 1), 1);
	close(go[1]);
	for (size_t i = 0; i < n; i++) {
		int status;

		assert_int_equal(waitpid(ret[i], &status, 0), ret[i]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	close(ready[0]);
	close(ready[1]);
}

static void test_leftovers(void **state)
{
	static const char *const names[] = {"usbperf-PID-0000abcd.tmp",
					    "usbperf-copy-PID-0000abcd.tmp", "out.json.tmp-PID"};
	struct leftover *v;
	size_t n;
	char p[300], q[300];
	pid_t pids[3];

	(void)state;
	killed_with(names, 3, pids);
	/* the second's file replaced since by another under its name: not usbperf's any more */
	snprintf(p, sizeof(p), "%s/usbperf-copy-%ld-0000abcd.tmp", dir, (long)pids[1]);
	snprintf(q, sizeof(q), "%s/moved", dir);
	assert_int_equal(rename(p, q), 0);
	close(open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
	assert_int_equal(leftovers_sweep(&v, &n), 0);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++) {
		bool replaced = !strcmp(v[i].path, p);

		assert_int_equal(v[i].removed, !replaced);
		assert_int_equal(exists(v[i].path), replaced);
	}
	assert_true(exists(p) && exists(q));
	leftovers_free(v, n);
	/* the journals went with them: a second sweep finds nothing */
	assert_int_equal(leftovers_sweep(&v, &n), 0);
	assert_int_equal(n, 0);
	leftovers_free(v, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_reserved),
	    cmocka_unit_test(test_schema),
	    cmocka_unit_test(test_recover),
	    cmocka_unit_test(test_leftovers),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
