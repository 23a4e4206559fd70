// SPDX-License-Identifier: MIT
/* store: the SQLite history, on real files in a scratch directory. */
#include "unit.h"
#include "run_sample.h"
#include "store_fixture.h"

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
	return scratch_setup("store");
}

static void save_sample(struct store *s, const char *id, const char *at)
{
	struct run_record r;
	int ret;

	sample_run(&r, id, at);
	ret = store_save_run(s, &r);
	if (ret < 0)
		fail_msg("save %s: %s (%s)", id, strerror(-ret), store_errmsg(s));
	run_record_release(&r);
}

static struct store_stats stats(struct store *s)
{
	struct store_stats st;

	assert_int_equal(store_check(s, &st), 0);
	return st;
}

static void test_round_trip(void **state)
{
	struct store *s = open_new("rt.db");
	struct run_record a, b;
	struct store_stats st;

	(void)state;
	sample_run(&a, "20261130T051200Z-3f2a", "2026-11-30T05:12:00Z");
	assert_int_equal(store_save_run(s, &a), 0);
	assert_int_equal(store_load_run(s, "20261130T051200Z-3f2a", &b), 0);
	assert_true(sample_runs_eq(&a, &b));
	assert_string_equal(b.findings.v[0].severity, "warn");
	run_record_release(&b);
	/* the same id again: refused, nothing added */
	assert_int_equal(store_save_run(s, &a), -EEXIST);
	st = stats(s);
	assert_true(st.ok);
	assert_string_equal(st.integrity, "ok");
	assert_string_equal(st.journal_mode, "wal");
	assert_int_equal(st.runs, 1);
	assert_int_equal(st.devices, 2);
	assert_int_equal(st.metrics, 3);
	assert_int_equal(st.findings, 2);
	store_stats_release(&st);
	/* invalid records are refused whole */
	free(a.id);
	a.id = strdup("other");
	a.metrics[1].repeats = 0;
	assert_int_equal(store_save_run(s, &a), -EINVAL);
	st = stats(s);
	assert_int_equal(st.runs, 1);
	assert_int_equal(st.metrics, 3);
	store_stats_release(&st);
	run_record_release(&a);
	store_close(s);
	store_close(NULL);
}

/* a failure half-way through a save leaves nothing of the run behind */
static void test_save_is_atomic(void **state)
{
	struct store *s = open_new("atomic.db");
	struct run_record r;
	struct store_stats st;

	(void)state;
	assert_int_equal(sqlite3_exec(store_db(s), "CREATE TEMP TRIGGER fail BEFORE INSERT ON findings"
					     " BEGIN SELECT RAISE(ABORT, 'injected'); END",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sample_run(&r, "half", "2026-11-30T05:12:00Z");
	assert_true(store_save_run(s, &r) < 0);
	assert_string_equal(store_errmsg(s), "injected");
	st = stats(s);
	assert_int_equal(st.runs + st.devices + st.metrics + st.findings, 0);
	store_stats_release(&st);
	assert_int_equal(store_load_run(s, "half", &r), -ENOENT);
	run_record_release(&r);
	store_close(s);
}

/* arg names exactly the run want */
static void resolves_to(struct store *s, const char *arg, const char *want)
{
	char *id = NULL;

	assert_int_equal(store_resolve_run(s, arg, &id), 0);
	assert_string_equal(id, want);
	free(id);
}

static void test_prefix(void **state)
{
	struct store *s = open_new("prefix.db");
	struct run_record r;
	char *id = (char *)"untouched";

	(void)state;
	save_sample(s, "20261130T051200Z-aaaa", "2026-11-30T05:12:00Z");
	save_sample(s, "20261130T051200Z-aabb", "2026-11-30T05:12:00Z");
	save_sample(s, "20261201T000000Z-0001", "2026-12-01T00:00:00Z");
	save_sample(s, "abc", "2026-12-02T00:00:00Z");
	save_sample(s, "abcd", "2026-12-02T00:00:00Z");
	assert_int_equal(store_resolve_run(s, "2026113", &id), -EINVAL);
	assert_int_equal(store_resolve_run(s, "20261130T051200Z-aa", &id), -EINVAL);
	assert_int_equal(store_resolve_run(s, "x", &id), -ENOENT);
	assert_int_equal(store_resolve_run(s, "", &id), -ENOENT);
	assert_int_equal(store_resolve_run(s, "abcde", &id), -ENOENT);
	assert_int_equal(store_resolve_run(s, "%", &id), -ENOENT);
	assert_string_equal(id, "untouched");
	resolves_to(s, "20261201", "20261201T000000Z-0001");
	resolves_to(s, "20261130T051200Z-aab", "20261130T051200Z-aabb");
	/* an exact id wins over the longer ids it is a prefix of */
	resolves_to(s, "abc", "abc");
	assert_int_equal(store_load_run(s, "2026120", &r), 0);
	assert_string_equal(r.id, "20261201T000000Z-0001");
	assert_int_equal(r.nmetrics, 3);
	run_record_release(&r);
	assert_int_equal(store_load_run(s, "2026", &r), -EINVAL);
	store_close(s);
}

/* 14.4: "last~N", the Nth run before the newest, in `history`'s order */
static void test_last_n(void **state)
{
	static const char *const bad[] = {"last~",	"last~-1", "last~+1", "last~1x",
					  "last~ 1",	"last~0x1", "last1",   "lastx",
					  "last~1~1", "Last",	    "last~99999999999999999999"};
	struct store *s = open_new("last_n.db");
	char *id = (char *)"untouched";
	uint64_t n = 7;

	(void)state;
	assert_int_equal(store_count_runs(s, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(store_resolve_run(s, "last~0", &id), -ENOENT);
	save_sample(s, "20261130T051200Z-aaaa", "2026-11-30T05:12:00Z");
	save_sample(s, "20261201T000000Z-0002", "2026-12-01T00:00:00Z");
	save_sample(s, "20261201T000000Z-0001", "2026-12-01T00:00:00Z");
	assert_int_equal(store_count_runs(s, &n), 0);
	assert_int_equal(n, 3);
	/* same start: the larger id is the newer, as history lists them */
	resolves_to(s, "last", "20261201T000000Z-0002");
	resolves_to(s, "last~0", "20261201T000000Z-0002");
	resolves_to(s, "last~1", "20261201T000000Z-0001");
	resolves_to(s, "last~2", "20261130T051200Z-aaaa");
	id = (char *)"untouched";
	assert_int_equal(store_resolve_run(s, "last~3", &id), -ENOENT);
	assert_int_equal(store_resolve_run(s, "last~9223372036854775807", &id), -ENOENT);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_not_equal(store_run_last_offset(bad[i], &n), 0);
		assert_int_equal(store_resolve_run(s, bad[i], &id), -ENOENT);
	}
	assert_string_equal(id, "untouched");
	assert_int_equal(store_run_last_offset("last~12", &n), 0);
	assert_int_equal(n, 12);
	assert_int_equal(store_run_last_offset("last", &n), 0);
	assert_int_equal(n, 0);
	store_close(s);
}

/* run i: its own device (VID:PID, serial, port) and date */
static void save_listed(struct store *s, int i)
{
	static const char *const vid[] = {"0781:5583", "0951:1666", "0781:5591"};
	static const char *const serial[] = {"4C5300AA", "XYZ_1", "4C5300BB"};
	static const char *const port[] = {"2-1", "1-3.2", "4-1"};
	char id[32], at[32];
	struct run_record r;

	snprintf(id, sizeof(id), "run%d", i);
	snprintf(at, sizeof(at), "2026-11-%02dT10:00:00Z", 10 + i);
	sample_run(&r, id, at);
	free(r.devices[0].vid_pid), free(r.devices[0].serial), free(r.devices[0].port_path);
	r.devices[0].vid_pid = strdup(vid[i]);
	r.devices[0].serial = strdup(serial[i]);
	r.devices[0].port_path = strdup(port[i]);
	assert_int_equal(store_save_run(s, &r), 0);
	run_record_release(&r);
}

static const struct {
	struct store_filter f;
	const char *want; /* ids, in order */
} filters[] = {
	{{0}, "run2 run1 run0"},
	{{.oldest_first = true}, "run0 run1 run2"},
	{{.limit = 2}, "run2 run1"},
	{{.limit = 2, .oldest_first = true}, "run0 run1"},
	{{.device = "0781"}, "run2 run0"},
	{{.device = "0781:5583"}, "run0"},
	{{.device = "4c5300"}, "run2 run0"}, /* serial, any case */
	{{.device = "1-3"}, "run1"},	     /* port path */
	{{.device = "_"}, "run1"},	     /* not a LIKE wildcard */
	{{.device = "%"}, ""},
	{{.device = "host"}, ""}, /* keys are not searched */
	{{.since = "2026-11-11T10:00:00Z"}, "run2 run1"},
	{{.until = "2026-11-11T10:00:00Z"}, "run0"},
	{{.since = "2026-11-11T00:00:00Z", .until = "2026-11-12T00:00:00Z"}, "run1"},
	{{.since = "2027-01-01T00:00:00Z"}, ""},
	{{.device = "0781", .since = "2026-11-11T00:00:00Z", .limit = 5}, "run2"},
};

static void test_list(void **state)
{
	struct store *s = open_new("list.db");

	(void)state;
	for (int i = 0; i < 3; i++)
		save_listed(s, i);
	assert_int_equal(store_baseline_set(s, "main", "run1"), 0);
	assert_int_equal(store_baseline_set(s, "alpha", "run1"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(filters); i++) {
		struct run_summary *v = NULL;
		struct strbuf ids = STRBUF_INIT;
		size_t n = 0;

		assert_int_equal(store_list_runs(s, &filters[i].f, &v, &n), 0);
		for (size_t j = 0; j < n; j++)
			strbuf_addf(&ids, "%s%s", j ? " " : "", v[j].id);
		if (strcmp(ids.buf, filters[i].want))
			fail_msg("filter %zu: '%s', wanted '%s'", i, ids.buf, filters[i].want);
		for (size_t j = 0; j < n; j++) {
			assert_int_equal(v[j].nmetrics, 3);
			assert_int_equal(v[j].nfindings, 2);
			assert_int_equal(v[j].nwarnings, 1);
			assert_string_equal(v[j].board, "Radxa ROCK 5B");
			if (!strcmp(v[j].id, "run1")) {
				/* lists (FF_LIST): a JSON array each */
				assert_string_equal(v[j].devices, "0951:1666@1-3.2\x1fhost");
				assert_string_equal(v[j].baselines, "alpha\x1fmain");
			} else {
				assert_null(v[j].baselines);
			}
		}
		run_summaries_free(v, n);
		strbuf_release(&ids);
	}
	store_close(s);
}

static void test_baselines(void **state)
{
	struct store *s = open_new("base.db");
	struct store_baseline *v;
	char *id = (char *)"untouched";
	size_t n;

	(void)state;
	save_sample(s, "20261130T051200Z-aaaa", "2026-11-30T05:12:00Z");
	save_sample(s, "20261201T000000Z-bbbb", "2026-12-01T00:00:00Z");
	assert_int_equal(store_baseline_get(s, "main", &id), -ENOENT);
	assert_int_equal(store_baseline_set(s, "main", "nope"), -ENOENT);
	assert_int_equal(store_baseline_set(s, "main", "2026"), -EINVAL);
	assert_int_equal(store_baseline_set(s, "bad name", "20261130"), -EINVAL);
	assert_int_equal(store_baseline_set(s, "main", "20261130"), 0);
	assert_int_equal(store_baseline_get(s, "main", &id), 0);
	assert_string_equal(id, "20261130T051200Z-aaaa");
	free(id);
	/* moving it */
	assert_int_equal(store_baseline_set(s, "main", "20261201T000000Z-bbbb"), 0);
	assert_int_equal(store_baseline_set(s, "v6.1", "20261130"), 0);
	assert_int_equal(store_list_baselines(s, &v, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].name, "main");
	assert_string_equal(v[0].run_id, "20261201T000000Z-bbbb");
	assert_string_equal(v[0].started_at, "2026-12-01T00:00:00Z");
	assert_int_equal(strlen(v[0].set_at), 20);
	assert_string_equal(v[1].name, "v6.1");
	store_baselines_free(v, n);
	assert_int_equal(store_baseline_delete(s, "v6.1"), 0);
	assert_int_equal(store_baseline_delete(s, "v6.1"), -ENOENT);
	assert_int_equal(store_list_baselines(s, &v, &n), 0);
	assert_int_equal(n, 1);
	store_baselines_free(v, n);
	store_close(s);
}

static int64_t query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static bool has_column(sqlite3 *db, const char *table, const char *column)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM pragma_table_info('%s') WHERE name = '%s'",
		 table, column);
	return query_int(db, sql) == 1;
}

/* every key of every field table has its column: a new field needs a migration */
static void test_columns_follow_field_tables(void **state)
{
	const struct {
		const char *table;
		const struct record_desc *d;
	} t[] = {
		{"runs", &run_info_desc},	{"runs", &run_env_desc},
		{"devices", &run_device_desc},	{"metrics", &run_metric_desc},
		{"findings", &finding_desc},	{"verdicts", &run_verdict_desc},
		{"notes", &run_note_desc},	{"unmeasured", &run_unmeasured_desc},
	};
	struct store *s = open_new("columns.db");

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		for (size_t j = 0; j < t[i].d->nfields; j++)
			if (!has_column(store_db(s), t[i].table, FIELD_COLUMN(&t[i].d->fields[j])))
				fail_msg("table %s has no column '%s'", t[i].table,
					 FIELD_COLUMN(&t[i].d->fields[j]));
	store_close(s);
}

static void test_migrations(void **state)
{
	static const char *const bad_tail = "CREATE TABLE t3 (x); SELECT nonsense FROM nowhere;";
	const int v = store_schema_version();
	struct migration m[16];
	struct store *s = open_new("migrate.db");
	size_t n = store_nmigrations;

	(void)state;
	/* a new file: at the current version, marked as ours, the step logged */
	assert_int_equal(query_int(store_db(s), "PRAGMA user_version"), store_schema_version());
	assert_int_equal(query_int(store_db(s), "PRAGMA application_id"), STORE_APPLICATION_ID);
	assert_int_equal(query_int(store_db(s), "SELECT count(*) FROM migrations"), store_nmigrations);
	assert_int_equal(query_int(store_db(s), "PRAGMA foreign_keys"), 1);
	save_sample(s, "keep", "2026-11-30T05:12:00Z");
	store_close(s);
	/* reopening changes nothing */
	s = open_new("migrate.db");
	assert_int_equal(query_int(store_db(s), "PRAGMA user_version"), store_schema_version());
	assert_int_equal(query_int(store_db(s), "SELECT count(*) FROM migrations"), store_nmigrations);
	assert_int_equal(query_int(store_db(s), "SELECT count(*) FROM runs"), 1);
	/* later steps apply in order, each whole or not at all */
	assert_true(n + 2 <= ARRAY_SIZE(m));
	memcpy(m, store_migrations, n * sizeof(*m));
	m[n] = (struct migration){v + 1, "CREATE TABLE extra (x);"};
	m[n + 1] = (struct migration){v + 2, bad_tail};
	assert_true(store_migrate(s, m, n + 2) < 0);
	assert_int_equal(query_int(store_db(s), "PRAGMA user_version"), v + 1);
	assert_int_equal(query_int(store_db(s), "SELECT count(*) FROM extra"), 0);
	assert_int_equal(query_int(store_db(s), "SELECT count(*) FROM sqlite_master WHERE name='t3'"), 0);
	assert_int_equal(query_int(store_db(s), "SELECT max(version) FROM migrations"), v + 1);
	/* a database from a newer usbperf is not touched */
	assert_int_equal(sqlite3_exec(store_db(s), "PRAGMA user_version = 99", NULL, NULL, NULL), 0);
	store_close(s);
	assert_int_equal(store_open(path_in("migrate.db"), &s), -EPROTONOSUPPORT);
}

/* a history written by the first release opens, upgrades, and its runs read back */
static void test_upgrade_from_v1(void **state)
{
	static const char run_v1[] =
		"PRAGMA user_version = 1;"
		"INSERT INTO migrations VALUES (1, '2026-11-01T00:00:00Z', '0.1.0');"
		"INSERT INTO runs (pk, id, started_at) VALUES (1, 'old', '2026-11-01T00:00:00Z');"
		"INSERT INTO devices (run, seq, \"key\", speed) VALUES (1, 0, '2-1', 'high');";
	struct run_record r;
	struct store *s;
	sqlite3 *db;

	(void)state;
	assert_int_equal(sqlite3_open(path_in("v1.db"), &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, store_migrations[0].sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, run_v1, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open(path_in("v1.db"), &s), 0);
	assert_int_equal(query_int(store_db(s), "PRAGMA user_version"), store_schema_version());
	assert_int_equal(store_load_run(s, "old", &r), 0);
	assert_int_equal(r.ndevices, 1);
	assert_string_equal(r.devices[0].speed, "high");
	assert_null(r.devices[0].capable_speed); /* added in v2: unknown for old runs */
	assert_null(r.devices[0].via);
	run_record_release(&r);
	/* and new runs, with every field, go in beside it */
	save_sample(s, "new", "2026-11-30T05:12:00Z");
	store_close(s);
}

/*
 * A history written by an older usbperf: the first VERSION migrations, then
 * SQL (its runs), then opened (and so upgraded) as this one opens it
 */
static struct store *old_history(const char *name, int version, const char *sql)
{
	struct store *s;
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path_in(name), &db), SQLITE_OK);
	for (int i = 0; i < version; i++)
		assert_int_equal(sqlite3_exec(db, store_migrations[i].sql, NULL, NULL, NULL),
				 SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open(path_in(name), &s), 0);
	assert_int_equal(query_int(store_db(s), "PRAGMA user_version"), store_schema_version());
	return s;
}

/*
 * A history of the fourth schema (before each figure's ceiling) opens,
 * upgrades, its runs read back with no ceiling, and a new run keeps its own.
 */
static void test_upgrade_from_v4(void **state)
{
	static const char run_v4[] =
		"PRAGMA user_version = 4;"
		"INSERT INTO runs (pk, id, started_at) VALUES (1, 'old', '2026-11-01T00:00:00Z');"
		"INSERT INTO metrics (run, seq, device_key, test, name, metric, unit, value, "
		"repeats, higher_is_better, samples) VALUES (1, 0, '2-1', 'net', 'tcp send', "
		"'mbit_s', 'Mbit/s', 300.5, 1, 1, 0);";
	struct run_record r, want;
	struct store *s;

	(void)state;
	s = old_history("v4.db", 4, run_v4);
	assert_true(has_column(store_db(s), "metrics", "ceiling"));
	assert_int_equal(store_load_run(s, "old", &r), 0);
	assert_int_equal(r.nmetrics, 1);
	assert_true(r.metrics[0].value == 300.5);
	assert_nan(r.metrics[0].ceiling); /* added in v5: not known for old runs */
	run_record_release(&r);
	save_sample(s, "new", "2026-11-30T05:12:00Z");
	assert_int_equal(store_load_run(s, "new", &r), 0);
	sample_run(&want, "new", "2026-11-30T05:12:00Z");
	assert_true(sample_runs_eq(&r, &want));
	assert_true(r.metrics[0].ceiling == 53.248);
	run_record_release(&r);
	run_record_release(&want);
	store_close(s);
}

/*
 * A history of the fifth schema (before the spread within each pass and its
 * CPU evidence) opens, upgrades, its runs read back without them (compare
 * judges them as it did), and a new run keeps its own.
 */
static void test_upgrade_from_v5(void **state)
{
	static const char run_v5[] =
		"PRAGMA user_version = 5;"
		"INSERT INTO runs (pk, id, started_at) VALUES (1, 'old', '2026-12-01T00:00:00Z');"
		"INSERT INTO metrics (run, seq, device_key, test, name, metric, unit, value, "
		"repeats, higher_is_better, samples, sample_stdev, cpu_pressure_pct, ceiling) "
		"VALUES (1, 0, '/dev/loop1', 'disk', 'seq-read 1M', 'mb_s', 'MB/s', 43.2, 1, 1, 29, "
		"2.5, 98.5, NULL);";
	struct run_record r, want;
	struct store *s;

	(void)state;
	s = old_history("v5.db", 5, run_v5);
	assert_true(has_column(store_db(s), "metrics", "pass_spread"));
	assert_true(has_column(store_db(s), "metrics", "cpu_wait_pct"));
	assert_true(has_column(store_db(s), "metrics", "cpu_io_pct"));
	assert_int_equal(store_load_run(s, "old", &r), 0);
	assert_int_equal(r.nmetrics, 1);
	assert_true(r.metrics[0].value == 43.2 && r.metrics[0].cpu_pressure_pct == 98.5);
	assert_nan(r.metrics[0].pass_spread); /* added in v6: not known for old runs */
	assert_nan(r.metrics[0].cpu_wait_pct);
	assert_nan(r.metrics[0].cpu_io_pct);
	run_record_release(&r);
	save_sample(s, "new", "2026-12-06T05:12:00Z");
	assert_int_equal(store_load_run(s, "new", &r), 0);
	sample_run(&want, "new", "2026-12-06T05:12:00Z");
	assert_true(sample_runs_eq(&r, &want));
	assert_true(r.metrics[0].pass_spread == 0.75 && r.metrics[0].cpu_wait_pct == 2.5 &&
		    r.metrics[0].cpu_io_pct == 12.125);
	run_record_release(&r);
	run_record_release(&want);
	store_close(s);
}

/*
 * A history of the second schema (before the sample columns, verdicts, notes
 * and unmeasured devices) opens, upgrades, its runs read back unsampled and
 * with none of the later parts, and a new run keeps them all.
 */
static void test_upgrade_from_v2(void **state)
{
	static const char run_v2[] =
		"PRAGMA user_version = 2;"
		"INSERT INTO migrations VALUES (1, '2026-11-01T00:00:00Z', '0.1.0');"
		"INSERT INTO migrations VALUES (2, '2026-11-02T00:00:00Z', '0.1.0');"
		"INSERT INTO runs (pk, id, started_at) VALUES (1, 'old', '2026-11-01T00:00:00Z');"
		"INSERT INTO devices (run, seq, \"key\", speed, via) VALUES (1, 0, '2-1', 'high', "
		"'2-1 05e3:0610 high');"
		"INSERT INTO findings (run, seq, severity, subject, message, id) VALUES "
		"(1, 0, 'warn', '2-1', 'slow', 'run.medium_bound');"
		"INSERT INTO metrics (run, seq, device_key, test, name, metric, unit, value, "
		"stdev, repeats, higher_is_better) VALUES (1, 0, '2-1', 'disk', 'seq-read 1M', "
		"'mb_s', 'MB/s', 512.5, 3.25, 3, 1);";
	struct run_record r, want;
	struct store *s;

	(void)state;
	s = old_history("v2.db", 2, run_v2);
	assert_true(has_column(store_db(s), "metrics", "sample_stdev"));
	assert_true(has_column(store_db(s), "metrics", "samples"));
	assert_int_equal(store_load_run(s, "old", &r), 0);
	assert_string_equal(r.devices[0].via, "2-1 05e3:0610 high");
	assert_int_equal(r.nmetrics, 1);
	assert_true(r.metrics[0].value == 512.5 && r.metrics[0].stdev == 3.25);
	assert_int_equal(r.metrics[0].repeats, 3);
	assert_int_equal(r.metrics[0].samples, 0); /* added in v3: not sampled */
	assert_nan(r.metrics[0].sample_mean);
	assert_nan(r.metrics[0].sample_stdev);
	assert_nan(r.metrics[0].sample_min);
	assert_int_equal(r.findings.n, 1);
	assert_null(r.findings.v[0].about); /* added in v4: not known for old runs */
	assert_int_equal(r.nverdicts, 0);
	assert_int_equal(r.nnotes, 0);
	assert_int_equal(r.nunmeasured, 0);
	run_record_release(&r);
	/* a new run keeps its samples and the later parts beside the old one */
	save_sample(s, "new", "2026-11-30T05:12:00Z");
	assert_int_equal(store_load_run(s, "new", &r), 0);
	sample_run(&want, "new", "2026-11-30T05:12:00Z");
	assert_true(sample_runs_eq(&r, &want));
	assert_int_equal(r.metrics[0].samples, 24);
	assert_true(r.metrics[0].sample_stdev == 1.0 / 7.0);
	assert_true(r.metrics[0].sample_min == 29.5);
	assert_string_equal(r.verdicts[0].limiter, "bus");
	assert_string_equal(r.notes[0].text, "passes lasted under 0.5 s (shortest 30 ms)");
	assert_string_equal(r.unmeasured[0].name, "eth1");
	assert_string_equal(r.findings.v[0].about, "2-1");
	run_record_release(&want);
	run_record_release(&r);
	store_close(s);
}

/* two processes creating one database at once: one migrates, the other waits */
static void test_concurrent_create(void **state)
{
	struct store *s;
	pid_t pid[4];
	int status;

	(void)state;
	for (int i = 0; i < 4; i++) {
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (pid[i] == 0) {
			char id[16];

			int r = store_open(path_in("race.db"), &s);

			if (r < 0) {
				fprintf(stderr, "child %d: %s\n", i, strerror(-r));
				_exit(1);
			}
			snprintf(id, sizeof(id), "race%d", i);
			save_sample(s, id, "2026-11-30T05:12:00Z");
			store_close(s);
			_exit(0);
		}
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(waitpid(pid[i], &status, 0), pid[i]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	s = open_new("race.db");
	assert_int_equal(query_int(store_db(s), "SELECT count(*) FROM runs"), 4);
	assert_int_equal(query_int(store_db(s), "SELECT count(*) FROM migrations"), store_nmigrations);
	store_close(s);
}

static bool exists(const char *p)
{
	struct stat sb;

	return stat(p, &sb) == 0;
}

static void write_file(const char *p, const char *text)
{
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* what is not ours is refused untouched, and nothing is created by a refusal */
static void test_refusals(void **state)
{
	static const char notes[] = "not a database, and longer than a header may be ..........."
				    "........................................................\n";
	struct store *s = (void *)&s;
	struct stat sb;
	sqlite3 *db;
	char other[300];

	(void)state;
	assert_int_equal(store_open_flags(path_in("missing.db"), STORE_OPEN_EXISTING, &s), -ENOENT);
	assert_false(exists(path_in("missing.db")));
	assert_int_equal(store_open(dir, &s), -EISDIR);
	/* a text file */
	write_file(path_in("notes.txt"), notes);
	assert_int_equal(store_open(path_in("notes.txt"), &s), -EBADMSG);
	assert_int_equal(stat(path_in("notes.txt"), &sb), 0);
	assert_int_equal(sb.st_size, strlen(notes));
	snprintf(other, sizeof(other), "%s-wal", path_in("notes.txt"));
	assert_false(exists(other));
	/* somebody else's SQLite database */
	assert_int_equal(sqlite3_open(path_in("other.db"), &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE runs (x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open(path_in("other.db"), &s), -EBADMSG);
	assert_true(s == (void *)&s);
	/* missing parents are made, private */
	s = open_new("a/b/history.db");
	store_close(s);
	assert_int_equal(stat(path_in("a/b"), &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
	assert_int_equal(stat(path_in("a"), &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
	write_file(path_in("file"), "x");
	assert_int_equal(store_open(path_in("file/history.db"), &s), -ENOTDIR);
}

static bool exists_beside(const char *p, const char *suffix)
{
	char b[300];

	snprintf(b, sizeof(b), "%s%s", p, suffix);
	return exists(b);
}

static int64_t file_size(const char *p)
{
	struct stat sb;

	return stat(p, &sb) == 0 ? (int64_t)sb.st_size : -1;
}

/* 12.5: read mode creates nothing, migrates nothing, writes nothing */
static void test_read_mode(void **state)
{
	struct store *s = (void *)&s;
	struct run_record r;
	char *id;
	sqlite3 *db;
	int fd;

	(void)state;
	assert_int_equal(store_open_flags(path_in("r-missing.db"), STORE_OPEN_READ, &s), -ENOENT);
	assert_false(exists(path_in("r-missing.db")));
	/* an empty file is not a history, and stays empty */
	fd = open(path_in("r-empty.db"), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(store_open_flags(path_in("r-empty.db"), STORE_OPEN_READ, &s), -EBADMSG);
	assert_int_equal(file_size(path_in("r-empty.db")), 0);
	assert_false(exists_beside(path_in("r-empty.db"), "-wal"));
	/* 12.19: a FIFO is refused without being opened (it would block) */
	assert_int_equal(mkfifo(path_in("r-fifo"), 0644), 0);
	assert_int_equal(store_open_flags(path_in("r-fifo"), STORE_OPEN_READ, &s), -ENODEV);
	assert_int_equal(store_open_flags(path_in("r-fifo"), 0, &s), -ENODEV);
	assert_int_equal(store_open_flags("/dev/null", STORE_OPEN_READ, &s), -ENODEV);
	assert_true(s == (void *)&s);
	/* a history at rest: read, 'last' resolved, no -wal or -shm left, no write */
	s = open_new("r.db");
	save_sample(s, "old", "2026-11-30T05:12:00Z");
	save_sample(s, "new", "2026-12-01T05:12:00Z");
	store_close(s);
	assert_false(exists_beside(path_in("r.db"), "-wal"));
	assert_int_equal(store_open_flags(path_in("r.db"), STORE_OPEN_READ, &s), 0);
	assert_int_equal(store_resolve_run(s, STORE_RUN_LAST, &id), 0);
	assert_string_equal(id, "new");
	free(id);
	assert_int_equal(store_load_run(s, "old", &r), 0);
	assert_int_equal(store_save_run(s, &r), -EROFS);
	run_record_release(&r);
	assert_false(exists_beside(path_in("r.db"), "-wal"));
	assert_false(exists_beside(path_in("r.db"), "-shm"));
	store_close(s);
	assert_false(exists_beside(path_in("r.db"), "-wal"));
	assert_false(exists_beside(path_in("r.db"), "-shm"));
	/* an older schema is read, migrated in memory only */
	assert_int_equal(sqlite3_open(path_in("r-v1.db"), &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, store_migrations[0].sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
				      "PRAGMA user_version = 1;"
				      "INSERT INTO runs (pk, id, started_at)"
				      " VALUES (1, 'v1run', '2026-11-01T00:00:00Z');",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open_flags(path_in("r-v1.db"), STORE_OPEN_READ, &s), 0);
	assert_int_equal(store_load_run(s, "last", &r), 0);
	assert_string_equal(r.id, "v1run");
	run_record_release(&r);
	store_close(s);
	assert_int_equal(sqlite3_open(path_in("r-v1.db"), &db), SQLITE_OK);
	assert_int_equal(query_int(db, "PRAGMA user_version"), 1);
	sqlite3_close(db);
}

/* 12.12: not SQLite is -EBADMSG, a damaged SQLite file -EUCLEAN, open or later */
static void test_damaged(void **state)
{
	static const char zeros[4096];
	struct store *s = open_new("damaged.db");
	struct run_summary *v;
	size_t n;
	int fd;

	(void)state;
	for (int i = 0; i < 20; i++) {
		char id[16];

		snprintf(id, sizeof(id), "run-%02d", i);
		save_sample(s, id, "2026-11-30T05:12:00Z");
	}
	store_close(s);
	fd = open(path_in("damaged.db"), O_WRONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	for (off_t page = 1; page * 4096 < file_size(path_in("damaged.db")); page++)
		assert_int_equal(pwrite(fd, zeros, sizeof(zeros), page * 4096), sizeof(zeros));
	close(fd);
	assert_int_equal(store_open_flags(path_in("damaged.db"), STORE_OPEN_READ, &s), 0);
	assert_int_equal(store_list_runs(s, &(struct store_filter){0}, &v, &n), -EUCLEAN);
	assert_non_null(strstr(store_errmsg(s), "malformed"));
	store_close(s);
}

/* WAL: another connection, and another process, see a committed run at once */
static void test_second_connection(void **state)
{
	struct store *s1 = open_new("wal.db"), *s2 = open_new("wal.db");
	struct run_record r;
	pid_t pid;
	int status;

	(void)state;
	save_sample(s1, "from-s1", "2026-11-30T05:12:00Z");
	assert_int_equal(store_load_run(s2, "from-s1", &r), 0);
	run_record_release(&r);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct store *c;

		if (store_open(path_in("wal.db"), &c) < 0)
			_exit(1);
		save_sample(c, "from-child", "2026-11-30T05:13:00Z");
		_exit(0); /* no close: no checkpoint, the run is only in the WAL */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(store_load_run(s1, "from-child", &r), 0);
	assert_int_equal(r.nmetrics, 3);
	run_record_release(&r);
	assert_int_equal(store_load_run(s2, "from-child", &r), 0);
	run_record_release(&r);
	store_close(s1);
	store_close(s2);
}

static void test_default_path(void **state)
{
	char *p = NULL;

	(void)state;
	setenv("XDG_DATA_HOME", "/data", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(store_default_path(&p), 0);
	assert_string_equal(p, "/data/usbperf/history.db");
	free(p);
	setenv("XDG_DATA_HOME", "relative", 1); /* invalid in the XDG spec */
	assert_int_equal(store_default_path(&p), 0);
	assert_string_equal(p, "/home/u/.local/share/usbperf/history.db");
	free(p);
	unsetenv("XDG_DATA_HOME");
	assert_int_equal(store_default_path(&p), 0);
	assert_string_equal(p, "/home/u/.local/share/usbperf/history.db");
	free(p);
	/* "/" or nothing: the password database's home, "/root" for root without one */
	setenv("HOME", "/", 1);
	assert_int_equal(store_default_path(&p), 0);
	assert_true(strncmp(p, "/", 1) == 0 && strncmp(p, "//", 2) != 0);
	assert_non_null(strstr(p, "/.local/share/usbperf/history.db"));
	if (geteuid() == 0)
		assert_string_equal(p, "/root/.local/share/usbperf/history.db");
	free(p);
	unsetenv("HOME");
	assert_int_equal(store_default_path(&p), 0);
	assert_non_null(strstr(p, "/.local/share/usbperf/history.db"));
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_save_is_atomic),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_last_n),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_baselines),
		cmocka_unit_test(test_columns_follow_field_tables),
		cmocka_unit_test(test_migrations),
		cmocka_unit_test(test_upgrade_from_v5),
		cmocka_unit_test(test_upgrade_from_v4),
		cmocka_unit_test(test_upgrade_from_v2),
		cmocka_unit_test(test_upgrade_from_v1),
		cmocka_unit_test(test_concurrent_create),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_read_mode),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_second_connection),
		cmocka_unit_test(test_default_path),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
