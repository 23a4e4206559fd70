// SPDX-License-Identifier: MIT
/*
 * `usbperf report --fleet`: many boards in one table, from the history in
 * one query (store_points), each row a board's headline figure of a device
 * against its first in the range, with its ceiling, compare's verdict and a
 * trend (report/fleet.h); text, JSON or CSV, or an HTML page (--html).
 */
#include "cmd/report_fleet.h"
#include "render/fleet_html.h"
#include "render/spark.h"
#include "report/fleet.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/utctime.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* each row's series as a sparkline, for the text table */
static void add_trends(struct fleet *f)
{
	bool utf8 = text_utf8();

	for (size_t i = 0; i < f->nrows; i++) {
		struct fleet_row *r = &f->rows[i];
		struct strbuf sb = STRBUF_INIT;
		double *v = calloc(r->runs, sizeof(*v));

		if (!v)
			abort();
		for (size_t k = 0; k < r->runs; k++)
			v[k] = r->points[k].value;
		/* the last 24 runs: a row stays a row */
		if (r->runs > 1)
			text_sparkline(&sb, v + (r->runs > 24 ? r->runs - 24 : 0),
				       r->runs > 24 ? 24 : r->runs, 0, utf8);
		free(v);
		r->trend = sb.len ? strbuf_detach(&sb) : NULL;
		strbuf_release(&sb);
	}
}

static int write_page(const char *path, const struct fleet *f, const struct fleet_opts *o)
{
	char now[UTC_TIME_LEN + 1];
	struct strbuf out = STRBUF_INIT;
	struct fleet_page page = {f, now, o->since, o->until, o->board};
	int r;

	utc_time_format(time(NULL), now);
	html_fleet(&out, &page);
	r = write_file_atomic(path, out.buf, out.len);
	if (r < 0)
		log_error("cannot write '%s': %s", path, strerror(-r));
	strbuf_release(&out);
	return r;
}

static int emit(const struct global_opts *g, struct fleet *f)
{
	static char *const none[] = {"no run in the history matches: no board to show"};
	char title[128];
	struct report rep = {.command = "report"};

	snprintf(title, sizeof(title),
		 "fleet: %zu board%s, %zu device%s, each figure's latest against its first in the "
		 "range",
		 f->boards, f->boards == 1 ? "" : "s", f->devices, f->devices == 1 ? "" : "s");
	if (g->format == FORMAT_TEXT)
		add_trends(f);
	report_add_table(&rep, "fleet", title, &fleet_row_desc, f->rows, f->nrows,
			 sizeof(*f->rows));
	if (g->format == FORMAT_JSON)
		report_add_table(&rep, "points", NULL, &fleet_point_desc, f->points, f->npoints,
				 sizeof(*f->points));
	if (!f->nrows) {
		rep.warnings = (char **)none;
		rep.nwarnings = 1;
	}
	return emit_report(g, &rep) < 0 ? EXIT_RUNTIME : EXIT_OK;
}

int report_fleet(const struct global_opts *g, const struct fleet_opts *o)
{
	struct store_filter filter = {.since = o->since, .until = o->until, .board = o->board};
	const char *const *keys = fleet_metric_keys();
	struct store_point *pts;
	struct fleet f;
	struct store *s;
	size_t n = 0, nkeys = 0;
	int r, status;

	while (keys[nkeys])
		nkeys++;
	r = db_open(o->db, DB_READ, &s);
	if (r < 0)
		return db_exit_status(r);
	r = store_points(s, &filter, keys, nkeys, &pts, &n);
	if (r < 0) {
		status = db_failed(s, r);
		store_close(s);
		return status;
	}
	store_close(s);
	fleet_build(pts, n, o->threshold_pct, &f);
	if (o->html)
		status = write_page(o->html, &f, o) < 0 ? EXIT_RUNTIME : EXIT_OK;
	else
		status = emit(g, &f);
	fleet_release(&f);
	return status;
}
