// SPDX-License-Identifier: MIT
/*
 * The schema, as the list of steps that built it. A released step is never
 * edited: a change is a new step at the end. Column names are the keys of
 * the field tables (record_fields.h, finding_desc); store_record.c builds
 * its statements from those tables, and a unit test checks that every key
 * has its column. runs.pk is the internal key the per-run tables hang on;
 * runs.id is the run's public id. In findings, "id" is the finding's id.
 */
#include "store/store_priv.h"
#include "util/utctime.h"
#include "version.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <time.h>

static const char schema_v1[] =
	"PRAGMA application_id = 1970499686;\n"
	"CREATE TABLE migrations (\n"
	"  version INTEGER PRIMARY KEY,\n"
	"  applied_at TEXT NOT NULL,\n"
	"  usbperf_version TEXT NOT NULL\n"
	");\n"
	"CREATE TABLE runs (\n"
	"  pk INTEGER PRIMARY KEY,\n"
	"  id TEXT NOT NULL UNIQUE,\n"
	"  started_at TEXT NOT NULL,\n"
	"  duration_s REAL,\n"
	"  command_line TEXT,\n"
	"  hostname TEXT,\n"
	"  board TEXT,\n"
	"  kernel TEXT,\n"
	"  kernel_build TEXT,\n"
	"  preempt TEXT,\n"
	"  governor TEXT,\n"
	"  usbperf_version TEXT\n"
	");\n"
	"CREATE INDEX runs_by_time ON runs (started_at, id);\n"
	"CREATE TABLE devices (\n"
	"  run INTEGER NOT NULL REFERENCES runs (pk) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL,\n"
	"  \"key\" TEXT NOT NULL,\n"
	"  kind TEXT,\n"
	"  target TEXT,\n"
	"  vid_pid TEXT,\n"
	"  serial TEXT,\n"
	"  product TEXT,\n"
	"  port_path TEXT,\n"
	"  speed TEXT,\n"
	"  driver TEXT,\n"
	"  ceiling_mb_s REAL,\n"
	"  PRIMARY KEY (run, seq)\n"
	");\n"
	"CREATE TABLE metrics (\n"
	"  run INTEGER NOT NULL REFERENCES runs (pk) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL,\n"
	"  device_key TEXT NOT NULL,\n"
	"  test TEXT NOT NULL,\n"
	"  name TEXT NOT NULL,\n"
	"  metric TEXT NOT NULL,\n"
	"  unit TEXT,\n"
	"  value REAL,\n"
	"  stdev REAL,\n"
	"  min REAL,\n"
	"  max REAL,\n"
	"  repeats INTEGER,\n"
	"  higher_is_better INTEGER NOT NULL,\n"
	"  PRIMARY KEY (run, seq)\n"
	");\n"
	"CREATE TABLE findings (\n"
	"  run INTEGER NOT NULL REFERENCES runs (pk) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL,\n"
	"  severity TEXT NOT NULL,\n"
	"  subject TEXT,\n"
	"  message TEXT NOT NULL,\n"
	"  evidence TEXT,\n"
	"  fix TEXT,\n"
	"  id TEXT NOT NULL,\n"
	"  PRIMARY KEY (run, seq)\n"
	");\n"
	"CREATE TABLE baselines (\n"
	"  name TEXT PRIMARY KEY,\n"
	"  run INTEGER NOT NULL REFERENCES runs (pk) ON DELETE CASCADE,\n"
	"  set_at TEXT NOT NULL\n"
	");\n"
	"CREATE INDEX baselines_by_run ON baselines (run);\n";

/* how each device hangs off its controller: for the report's topology */
static const char schema_v2[] =
	"ALTER TABLE devices ADD COLUMN capable_speed TEXT;\n"
	"ALTER TABLE devices ADD COLUMN controller TEXT;\n"
	"ALTER TABLE devices ADD COLUMN via TEXT;\n";

/*
 * The spread within each pass, from its interval rate samples, and the CPU
 * pressure and busy time while it ran (issue 14.2): unknown (NULL) and 0 samples for the
 * runs saved before
 */
static const char schema_v3[] =
	"ALTER TABLE metrics ADD COLUMN sample_mean REAL;\n"
	"ALTER TABLE metrics ADD COLUMN sample_stdev REAL;\n"
	"ALTER TABLE metrics ADD COLUMN sample_min REAL;\n"
	"ALTER TABLE metrics ADD COLUMN samples INTEGER NOT NULL DEFAULT 0;\n"
	"ALTER TABLE metrics ADD COLUMN cpu_pressure_pct REAL;\n"
	"ALTER TABLE metrics ADD COLUMN cpu_busy_pct REAL;\n";

/*
 * Verdicts, notes and unmeasured devices are part of the record (issue 14):
 * what limits each device, the run's caveats, what was found and not
 * measured with why; and whose figures each finding bears on.
 */
static const char schema_verdicts[] =
	"ALTER TABLE findings ADD COLUMN about TEXT;\n"
	"CREATE TABLE verdicts (\n"
	"  run INTEGER NOT NULL REFERENCES runs (pk) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL,\n"
	"  device_key TEXT NOT NULL,\n"
	"  limiter TEXT NOT NULL,\n"
	"  evidence TEXT,\n"
	"  share_pct REAL,\n"
	"  PRIMARY KEY (run, seq)\n"
	");\n"
	"CREATE TABLE notes (\n"
	"  run INTEGER NOT NULL REFERENCES runs (pk) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL,\n"
	"  text TEXT NOT NULL,\n"
	"  PRIMARY KEY (run, seq)\n"
	");\n"
	"CREATE TABLE unmeasured (\n"
	"  run INTEGER NOT NULL REFERENCES runs (pk) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL,\n"
	"  \"key\" TEXT NOT NULL,\n"
	"  kind TEXT,\n"
	"  name TEXT,\n"
	"  vid_pid TEXT,\n"
	"  product TEXT,\n"
	"  speed TEXT,\n"
	"  controller TEXT,\n"
	"  via TEXT,\n"
	"  why TEXT NOT NULL,\n"
	"  PRIMARY KEY (run, seq)\n"
	");\n";

/*
 * Each figure's ceiling in its own unit (issue 15: measurement classes): a
 * camera's nominal frame rate, a network's goodput after framing, a disk's
 * link ceiling. Unknown (NULL) for the runs saved before.
 */
static const char schema_ceiling[] = "ALTER TABLE metrics ADD COLUMN ceiling REAL;\n";

/*
 * Each figure's spread from within its pass (batches, robust to bursts) and
 * the pass's own evidence of leaning on the CPU (issue 29): unknown (NULL)
 * for the runs saved before, which compare judges as it did.
 */
static const char schema_pass_spread[] = "ALTER TABLE metrics ADD COLUMN pass_spread REAL;\n"
					 "ALTER TABLE metrics ADD COLUMN cpu_wait_pct REAL;\n"
					 "ALTER TABLE metrics ADD COLUMN cpu_io_pct REAL;\n";

/*
 * The machine a run was made on, whatever its hostname (issue 31: many
 * boards in one history): unknown (NULL) for the runs saved before.
 */
static const char schema_machine[] = "ALTER TABLE runs ADD COLUMN machine TEXT;\n";

const struct migration store_migrations[] = {
	{1, schema_v1},
	{2, schema_v2},
	{3, schema_v3},
	{4, schema_verdicts},
	{5, schema_ceiling},
	{6, schema_pass_spread},
	{7, schema_machine},
};
const size_t store_nmigrations = sizeof(store_migrations) / sizeof(store_migrations[0]);

int store_schema_version(void)
{
	return store_migrations[store_nmigrations - 1].version;
}

static int log_migration(struct store *s, int version)
{
	char now[UTC_TIME_LEN + 1];
	struct sql_stmt *st = NULL;
	int r;

	utc_time_format(time(NULL), now);
	r = store_prepare(s, "INSERT INTO migrations (version, applied_at, usbperf_version) "
			     "VALUES (?, ?, ?)", &st);
	if (r < 0)
		return r;
	sql_bind_int64(st, 1, version);
	sql_bind_text(st, 2, now);
	sql_bind_text(st, 3, USBPERF_VERSION);
	r = store_step(s, st);
	sql_finalize(st);
	return r < 0 ? r : 0;
}

static int apply(struct store *s, const struct migration *m)
{
	int64_t v = 0;
	char *sql;
	int r;

	/*
	 * the write lock now (SQLite: IMMEDIATE): two processes opening a new
	 * database migrate one after the other
	 */
	r = store_begin(s, SQL_TX_WRITE);
	if (r < 0)
		return r;
	r = store_version(s, &v);
	if (r == 0 && v >= m->version)
		return store_commit(s); /* another process did it meanwhile */
	if (r == 0 && v != m->version - 1)
		r = -EBADMSG;
	if (r == 0) {
		/* written in SQLite's words, said in the back end's */
		sql = sql_translate_ddl(s->conn, m->sql);
		r = sql ? store_exec(s, sql) : -ENOMEM;
		free(sql);
	}
	if (r == 0)
		r = log_migration(s, m->version);
	if (r == 0)
		r = store_err(s, sql_set_version(s->conn, m->version));
	if (r == 0)
		r = store_commit(s);
	if (r < 0)
		sql_rollback(s->conn);
	return r;
}

int store_migrate(struct store *s, const struct migration *m, size_t n)
{
	int64_t v = 0;
	int r;

	r = store_version(s, &v);
	for (size_t i = 0; r == 0 && i < n; i++)
		if (m[i].version > v)
			r = apply(s, &m[i]);
	return r;
}
