// SPDX-License-Identifier: MIT
/* The self-contained HTML report: setup, topology, per-device charts, findings, comparison. */
#include "render/html.h"
#include "render/html_priv.h"
#include "run/class.h"
#include "platform/usb/speed.h"
#include "render/render.h"
#include "render/svg.h"
#include "version.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char css[] =
	":root{--fg:#1b1b1b;--mut:#5b5b5b;--line:#d0d0d0;--bg:#fff;--warn:#a33a00;--ok:#1d6b2f}"
	"*{box-sizing:border-box}"
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--fg);"
	"background:var(--bg);max-width:1000px;margin:0 auto;padding:12px 16px}"
	"h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.25em;margin:1.4em 0 .4em;"
	"border-bottom:2px solid var(--line)}h3{font-size:1.05em;margin:1em 0 .3em}"
	".mut{color:var(--mut)}.scroll{overflow-x:auto}"
	"table{border-collapse:collapse;margin:.3em 0 .8em;font-variant-numeric:tabular-nums}"
	"th,td{border-bottom:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}"
	"td.n,th.n{text-align:right;white-space:nowrap}"
	"svg.chart{width:100%;height:auto;max-width:760px;display:block}figure{margin:1em 0}"
	"table.figures td:not(.n){white-space:nowrap}"
	"svg .grid{stroke:#e4e4e4}svg .frame{stroke:#888}"
	"svg text{font:13px system-ui,sans-serif;fill:#333}svg .axis{fill:#555}"
	/* a chart's text is at least 11 px: 13 units of 640 from 542 px wide, 20 below */
	"@media (max-width:600px){svg.chart text{font-size:20px}}"
	"svg .mark.impossible{fill:#fff;stroke-width:2.5}svg .impossible-x{stroke:#b00020;"
	"stroke-width:2}svg text.impossible{fill:#b00020;font-weight:600}"
	"svg rect.impossible{fill-opacity:.35;stroke:#b00020;stroke-width:2;stroke-dasharray:5 3}"
	"svg .cut{stroke:#b00020;stroke-width:2.5;fill:none}"
	"svg .ceiling{stroke:#b00020;stroke-width:1.5;stroke-dasharray:6 4}"
	"svg .ceillabel{fill:#b00020}svg rect.ref{fill:#3a9d5d;opacity:.16}"
	"svg line.ref{stroke:#3a9d5d;stroke-width:1.5;stroke-dasharray:2 3}"
	"svg .reflabel{fill:#2a7444}svg .err{stroke-width:1.3;fill:none}"
	".legend{list-style:none;padding:0;margin:.2em 0 .6em;display:flex;flex-wrap:wrap;gap:4px 16px}"
	".legend svg{vertical-align:middle}"
	"ul.tree,ul.tree ul{list-style:none;padding-left:1.2em;margin:.1em 0}"
	"ul.tree li{margin:.15em 0}ul.tree>li{padding-left:0}"
	".tag{display:inline-block;border:1px solid var(--line);border-radius:3px;padding:0 4px;"
	"font-size:.85em;margin-left:4px}"
	".sev-warn{color:#fff;background:var(--warn);border-color:var(--warn)}"
	".sev-info{background:#eef}"
	".v-worse{color:var(--warn);font-weight:600}.v-better{color:var(--ok);font-weight:600}"
	".r-fail,.r-missing{color:var(--warn);font-weight:600}.r-pass{color:var(--ok)}"
	".bar{display:inline-block;width:90px;height:.7em;background:#e8e8e8;vertical-align:middle}"
	".bar>span{display:block;height:100%;background:#1f5fa8}"
	".bar.impossible{background:repeating-linear-gradient(135deg,#fff 0 4px,#f3c3c3 4px 8px);"
	"outline:2px dashed #b00020}.bar.impossible>span{background:none}"
	".impossible{color:#b00020;font-weight:600}"
	".finding{margin:.5em 0 .8em}.finding p{margin:.1em 0 .1em 1em}"
	"code{font:13px ui-monospace,monospace;background:#f4f4f4;padding:0 3px;overflow-wrap:anywhere}"
	"footer{margin-top:2em;font-size:.9em;color:var(--mut)}"
	"@media (max-width:600px){body{font-size:14px;padding:8px}th,td{padding:2px 4px}"
	"figure{margin:0}"
	/* at a glance on a phone: a block per device, its figures labelled, nothing sideways */
	"table.glance,table.glance tbody{display:block}table.glance tr:first-child{display:none}"
	"table.glance tr{display:flex;flex-wrap:wrap;border-bottom:1px solid var(--line);"
	"padding:4px 0}table.glance td{border:0;text-align:left;white-space:normal;"
	"padding:1px 8px 1px 0}"
	/* the driver's cell is wide enough that each figure starts a line, its share beside it */
	"table.glance td:nth-last-child(5){flex:1 0 60%}table.glance td:nth-last-child(4),"
	"table.glance td:nth-last-child(2){flex:0 0 55%}table.glance td:nth-last-child(3),"
	"table.glance td:nth-last-child(1){flex:0 0 45%}"
	"table.glance td:nth-last-child(4)::before{content:'best read ';color:var(--mut)}"
	"table.glance td:nth-last-child(2)::before{content:'best write ';color:var(--mut)}"
	/* nothing of that kind measured: no label over an empty cell */
	"table.glance td:empty{display:none}table.glance td.rate::before{content:'best '}}"
	"@media print{body{max-width:none;font-size:11pt}section.device,figure,.finding"
	"{break-inside:avoid}h2{break-after:avoid}.scroll{overflow:visible}"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}";

void html_esc(struct strbuf *out, const char *s)
{
	html_escape(out, s ? s : "-");
}

void html_opt(struct strbuf *out, const char *before, const char *s, const char *after)
{
	if (!s)
		return;
	strbuf_adds(out, before);
	html_escape(out, s);
	strbuf_adds(out, after);
}

void html_num(struct strbuf *out, double v, int prec)
{
	if (isnan(v))
		strbuf_adds(out, "-");
	else
		strbuf_addf(out, "%.*f", prec, v);
}

int html_prec(double v)
{
	return metric_prec(v);
}

const char *html_speed_label(const char *name)
{
	enum usb_speed s;

	return name && usb_speed_parse(name, &s) == 0 ? usb_speed_label(s) : name;
}

void html_run_heading(struct strbuf *out, const struct report_model *m, size_t i)
{
	if (m->nruns > 1)
		strbuf_addf(out, "<span class=\"tag\" style=\"border-color:%s;color:%s\">run %zu</span> ",
			    svg_run_color(i), svg_run_color(i), i + 1);
	strbuf_adds(out, "<code>");
	html_esc(out, m->runs[i].id);
	strbuf_adds(out, "</code>");
}

/* ---- at a glance ---- */

/* the best point of a device's sweeps in one run and role (read or write), or NULL */
static const struct run_metric *best_of(const struct rm_device *d, size_t run,
					enum sweep_role role)
{
	const struct run_metric *best = NULL;

	for (size_t i = 0; i < d->nsweeps; i++) {
		const struct rm_series *s = &d->sweeps[i];

		for (size_t j = 0; s->run == run && s->role == role && j < s->npts; j++)
			if (!best || s->pts[j].m->value > best->value)
				best = s->pts[j].m;
	}
	return best;
}

/* the device's best rate in run that is no sweep's point (a network's, a camera's), or NULL */
static const struct run_metric *best_rate(const struct report_model *m, const struct rm_device *d,
					  size_t run)
{
	const struct run_metric *best = NULL;

	for (size_t i = 0; i < d->nrates; i++) {
		const struct run_metric *x = d->rates[i];

		if (report_model_run_of(m, x) != run ||
		    !(report_unit_is(x, "MB/s") || report_unit_is(x, "Mbit/s")))
			continue;
		if (!best || x->value > best->value)
			best = x;
	}
	return best;
}

/* x: a read or write sweep's best point (sweep), else another rate */
static void glance_cell(struct strbuf *out, const struct rm_device *d, const struct run_metric *x,
			bool sweep)
{
	const char *sp = x ? strchr(x->name, ' ') : NULL;
	double share;

	sweep = sweep && sp;

	/* a rate that is no read sweep's point is labelled 'best', not 'best read' */
	strbuf_adds(out, x && !sweep ? "<td class=\"n rate\">" : "<td class=\"n\">");
	if (!x) {
		/* nothing of this kind was measured: an empty cell, not a "-" to puzzle over */
		strbuf_adds(out, "</td><td></td>");
		return;
	}
	html_num(out, x->value, html_prec(x->value));
	strbuf_adds(out, " <small>");
	html_esc(out, report_unit(x));
	/* a sweep's point by its block size, another rate by its pass */
	strbuf_adds(out, sweep ? " at " : ", ");
	html_esc(out, sweep ? sp + 1 : x->name);
	strbuf_adds(out, "</small></td><td>");
	if (!isnan(d->ceiling_mb_s) && d->ceiling_mb_s > 0 && report_unit_is(x, "MB/s")) {
		share = 100 * x->value / d->ceiling_mb_s;
		if (svg_impossible(x->value, d->ceiling_mb_s))
			strbuf_adds(out, "<span class=\"bar impossible\" title=\"above the bus "
					 "ceiling\"><span></span></span> <span class=\"impossible\">"
					 "anomaly: above the ceiling \u2014 not the bus's figure</span>");
		else
			strbuf_addf(out,
				    "<span class=\"bar\"><span style=\"width:%.0f%%\"></span>"
				    "</span> %.0f%%",
				    share, share);
	}
	strbuf_adds(out, "</td>");
}

/* one line per device and run: how it is attached and its best sequential figures */
static void glance(struct strbuf *out, const struct report_model *m)
{
	strbuf_adds(out, "<section id=\"summary\"><h2>At a glance</h2>\n");
	html_glance_verdicts(out, m);
	strbuf_adds(out, "<div class=\"scroll\"><table class=\"glance\"><tr>");
	if (m->nruns > 1)
		strbuf_adds(out, "<th>run</th>");
	strbuf_adds(out, "<th>device</th><th>speed</th><th>driver</th><th class=\"n\">best read"
			 "</th><th>of bus ceiling</th><th class=\"n\">best write</th>"
			 "<th>of bus ceiling</th></tr>\n");
	for (size_t k = 0; k < m->ndevices; k++) {
		const struct rm_device *d = &m->devices[k];

		for (size_t i = 0; i < m->nruns; i++) {
			const struct run_device *rd = d->dev[i];
			const struct run_metric *read;

			if (!rd)
				continue;
			strbuf_adds(out, "<tr>");
			if (m->nruns > 1)
				strbuf_addf(out, "<td>%zu</td>", i + 1);
			strbuf_addf(out, "<td><a href=\"#device-%zu\">", k + 1);
			html_esc(out, rd->port_path ? rd->port_path : rd->key);
			strbuf_adds(out, "</a> ");
			if (rd->product)
				html_esc(out, rd->product);
			strbuf_adds(out, "</td><td>");
			/* off USB: where it is, not "-" for a speed and a driver it has none of */
			if (!rd->speed)
				strbuf_adds(out, "<span class=\"mut\">not on USB</span>");
			else
				html_esc(out, html_speed_label(rd->speed));
			if (rd->capable_speed && rd->speed && strcmp(rd->capable_speed, rd->speed)) {
				strbuf_adds(out, " <span class=\"tag sev-warn\">capable of ");
				html_esc(out, html_speed_label(rd->capable_speed));
				strbuf_adds(out, "</span>");
			}
			strbuf_adds(out, "</td><td>");
			if (rd->driver) {
				html_esc(out, rd->driver);
			} else if (rd->kind) {
				strbuf_adds(out, "<span class=\"mut\">");
				html_esc(out, rd->kind);
				strbuf_adds(out, "</span>");
			}
			strbuf_adds(out, "</td>");
			/* no read sweep (a network, a camera): its best rate, by its pass */
			read = best_of(d, i, SWEEP_READ);
			glance_cell(out, d, read ? read : best_rate(m, d, i), read != NULL);
			glance_cell(out, d, best_of(d, i, SWEEP_WRITE), true);
			strbuf_adds(out, "</tr>\n");
		}
	}
	strbuf_adds(out, "</table></div>\n");
	html_glance_notes(out, m);
	strbuf_adds(out, "</section>\n");
}

/* ---- setup ---- */

static void setup_row(struct strbuf *out, const struct report_model *m, const char *what,
		      size_t off)
{
	strbuf_adds(out, "<tr><th>");
	strbuf_adds(out, what);
	strbuf_adds(out, "</th>");
	for (size_t i = 0; i < m->nruns; i++) {
		const char *v = *(char *const *)((const char *)&m->runs[i] + off);

		html_td(out, v);
	}
	strbuf_adds(out, "</tr>\n");
}

static void setup(struct strbuf *out, const struct report_model *m)
{
	static const struct {
		const char *what;
		size_t off;
	} rows[] = {
		{"started (UTC)", offsetof(struct run_record, started_at)},
		{"host", offsetof(struct run_record, env.hostname)},
		{"board", offsetof(struct run_record, env.board)},
		{"kernel", offsetof(struct run_record, env.kernel)},
		{"kernel build", offsetof(struct run_record, env.kernel_build)},
		{"preemption", offsetof(struct run_record, env.preempt)},
		{"CPU governor", offsetof(struct run_record, env.governor)},
		{"usbperf", offsetof(struct run_record, env.usbperf_version)},
		{"command", offsetof(struct run_record, command_line)},
	};

	strbuf_adds(out, "<section id=\"setup\"><h2>Setup</h2><div class=\"scroll\"><table>"
			 "<tr><th>run</th>");
	for (size_t i = 0; i < m->nruns; i++) {
		strbuf_adds(out, "<td>");
		html_run_heading(out, m, i);
		strbuf_adds(out, "</td>");
	}
	strbuf_adds(out, "</tr>\n");
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
		setup_row(out, m, rows[r].what, rows[r].off);
	strbuf_adds(out, "<tr><th>took</th>");
	for (size_t i = 0; i < m->nruns; i++) {
		strbuf_adds(out, "<td>");
		html_num(out, m->runs[i].duration_s, 1);
		strbuf_adds(out, " s</td>");
	}
	strbuf_adds(out, "</tr></table></div></section>\n");
}

/* ---- topology: buses and ports from the port paths ---- */

static void device_line(struct strbuf *out, const struct run_device *d)
{
	strbuf_adds(out, "<b>");
	html_esc(out, d->port_path ? d->port_path : d->key);
	strbuf_adds(out, "</b> ");
	if (d->product)
		html_esc(out, d->product);
	html_opt(out, " <code>", d->vid_pid, "</code>");
	html_opt(out, "<span class=\"tag\">", html_speed_label(d->speed), "</span>");
	if (d->capable_speed && d->speed && strcmp(d->capable_speed, d->speed)) {
		strbuf_adds(out, "<span class=\"tag sev-warn\">capable of ");
		html_esc(out, html_speed_label(d->capable_speed));
		strbuf_adds(out, "</span>");
	}
	html_opt(out, "<span class=\"tag\">driver ", d->driver, "</span>");
	strbuf_adds(out, " <span class=\"mut\">");
	html_esc(out, d->kind);
	strbuf_adds(out, ", ");
	html_esc(out, d->target);
	if (!isnan(d->ceiling_mb_s)) {
		strbuf_adds(out, ", ");
		ceiling_format(out, d->ceiling_mb_s, "MB/s");
	}
	strbuf_adds(out, "</span>");
}

/* "2-1.10" after "2-1.9": bus, then ports, numerically */
static int cmp_port(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;

	while (*a && *b) {
		unsigned long na = strtoul(a, (char **)&a, 10), nb = strtoul(b, (char **)&b, 10);

		if (na != nb)
			return na < nb ? -1 : 1;
		if (*a != *b)
			return *a ? (*b ? *a - *b : 1) : -1;
		if (*a)
			a++, b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static bool usb_path(const char *pp)
{
	return pp && strchr(pp, '-') && strspn(pp, "0123456789-.") == strlen(pp);
}

/* every port on the way to a measured device: its hubs appear even unmeasured */
static size_t port_nodes(const struct run_record *r, char ***ret)
{
	char **v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->ndevices + r->nunmeasured; i++) {
		/* and those found but not measured */
		const char *pp =
		    i < r->ndevices ? r->devices[i].port_path : r->unmeasured[i - r->ndevices].key;

		if (!usb_path(pp))
			continue;
		for (const char *c = strchr(pp, '-') + 1;; c++) {
			if (*c != '.' && *c)
				continue;
			char *node = strndup(pp, (size_t)(c - pp));
			bool dup = false;

			for (size_t j = 0; node && j < n && !dup; j++)
				dup = !strcmp(v[j], node);
			if (!node || !(v = realloc(v, (n + 1) * sizeof(*v))))
				abort();
			if (dup)
				free(node);
			else
				v[n++] = node;
			if (!*c)
				break;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_port);
	*ret = v;
	return n;
}

/* what a device's "via" says of the hub at path: "2-1 05e3:0610 high > ..." */
static void hub_facts(struct strbuf *out, const struct run_record *r, const char *path)
{
	size_t n = strlen(path);

	for (size_t i = 0; i < r->ndevices; i++) {
		const char *v = r->devices[i].via;

		for (; v && *v; v = strstr(v, " > ") ? strstr(v, " > ") + 3 : NULL) {
			char vid[16], speed[16];

			if (strncmp(v, path, n) || v[n] != ' ' ||
			    sscanf(v + n + 1, "%15s %15s", vid, speed) != 2)
				continue;
			strbuf_adds(out, " ");
			if (strcmp(vid, "-")) {
				strbuf_adds(out, "<code>");
				html_esc(out, vid);
				strbuf_adds(out, "</code> ");
			}
			if (strcmp(speed, "-")) {
				strbuf_adds(out, "<span class=\"tag\">");
				html_esc(out, html_speed_label(speed));
				strbuf_adds(out, "</span>");
			}
			return;
		}
	}
}

static void port_node(struct strbuf *out, const struct run_record *r, const char *path)
{
	for (size_t i = 0; i < r->ndevices; i++) {
		if (r->devices[i].port_path && !strcmp(r->devices[i].port_path, path)) {
			device_line(out, &r->devices[i]);
			return;
		}
	}
	if (html_unmeasured_node(out, r, path))
		return;
	strbuf_adds(out, "<b>");
	html_esc(out, path);
	strbuf_adds(out, "</b> <span class=\"mut\">hub");
	hub_facts(out, r, path);
	strbuf_adds(out, " (not measured)</span>");
}

/* the controller of bus b, as a device on it recorded it */
static void bus_controller(struct strbuf *out, const struct run_record *r, long b)
{
	for (size_t i = 0; i < r->ndevices; i++) {
		const struct run_device *d = &r->devices[i];

		if (usb_path(d->port_path) && strtol(d->port_path, NULL, 10) == b && d->controller) {
			strbuf_adds(out, " <span class=\"mut\">");
			html_esc(out, d->controller);
			strbuf_adds(out, "</span>");
			return;
		}
	}
}

static void topology_run(struct strbuf *out, const struct run_record *r)
{
	char **nodes;
	size_t n = port_nodes(r, &nodes), depth = 0;
	long bus = -1;
	bool other = false;

	strbuf_adds(out, "<ul class=\"tree\">");
	for (size_t i = 0; i < n; i++) {
		long b = strtol(nodes[i], NULL, 10);
		size_t d = 1;

		for (const char *c = nodes[i]; *c; c++)
			d += *c == '.';
		if (b != bus) {
			for (; depth > 0; depth--)
				strbuf_adds(out, "</li></ul>");
			if (bus >= 0)
				strbuf_adds(out, "</li>\n");
			strbuf_addf(out, "<li>USB bus <b>%ld</b>", b);
			bus_controller(out, r, b);
			bus = b;
		}
		if (d > depth)
			strbuf_adds(out, "<ul>");
		else
			strbuf_adds(out, "</li>");
		for (; depth > d; depth--)
			strbuf_adds(out, "</ul></li>");
		depth = d;
		strbuf_adds(out, "<li>");
		port_node(out, r, nodes[i]);
		free(nodes[i]);
	}
	for (; depth > 0; depth--)
		strbuf_adds(out, "</li></ul>");
	if (bus >= 0)
		strbuf_adds(out, "</li>\n");
	free(nodes);
	for (size_t i = 0; i < r->ndevices; i++) {
		if (usb_path(r->devices[i].port_path))
			continue;
		strbuf_adds(out, other ? "<li>" : "<li>not on USB<ul><li>");
		other = true;
		device_line(out, &r->devices[i]);
		strbuf_adds(out, "</li>");
	}
	html_unmeasured_off_usb(out, r, usb_path, &other);
	if (other)
		strbuf_adds(out, "</ul></li>");
	strbuf_adds(out, "</ul>\n");
}

static void topology(struct strbuf *out, const struct report_model *m)
{
	strbuf_adds(out, "<section id=\"topology\"><h2>Topology</h2>"
			 "<p class=\"mut\">What was measured, where it is attached: negotiated "
			 "speed, bound driver, and the bulk payload ceiling of that link; and "
			 "what was found but not measured, and why.</p>\n");
	for (size_t i = 0; i < m->nruns; i++) {
		if (m->nruns > 1) {
			strbuf_adds(out, "<h3>");
			html_run_heading(out, m, i);
			strbuf_adds(out, "</h3>");
		}
		topology_run(out, &m->runs[i]);
	}
	strbuf_adds(out, "</section>\n");
}

/* ---- per device ---- */

static void legend(struct strbuf *out, const struct report_model *m, const struct rm_device *d)
{
	strbuf_adds(out, "<ul class=\"legend\">");
	for (size_t i = 0; i < d->nsweeps; i++) {
		const struct rm_series *s = &d->sweeps[i];
		struct svg_style st = svg_series_style(m->nruns, s->run, s->role);

		strbuf_addf(out,
			    "<li><svg width=\"28\" height=\"12\" aria-hidden=\"true\"><line x1=\"0\" "
			    "x2=\"28\" y1=\"6\" y2=\"6\" stroke=\"%s\" stroke-width=\"2\"",
			    st.color);
		if (st.dash)
			strbuf_addf(out, " stroke-dasharray=\"%s\"", st.dash);
		strbuf_adds(out, "/>");
		/* the mark's shape as on the chart */
		svg_mark_open(out, st.marker, 14, 6, 4, st.color, NULL, NULL);
		svg_mark_close(out, st.marker);
		strbuf_adds(out, "</svg> ");
		if (m->nruns > 1)
			strbuf_addf(out, "run %zu ", s->run + 1);
		html_esc(out, s->label);
		strbuf_adds(out, "</li>");
	}
	strbuf_adds(out, "</ul>\n");
}

static void figures_caption(struct strbuf *out, const struct rm_device *d)
{
	strbuf_adds(out, "<figcaption class=\"mut\">Mean of the repeats; error bars span the "
			 "fastest and slowest repeat (the standard deviation when only it is "
			 "known).");
	if (!isnan(d->ceiling_mb_s)) {
		strbuf_adds(out, " Dashed red: the bulk payload ceiling of the negotiated speed, ");
		ceiling_format(out, d->ceiling_mb_s, "MB/s");
		html_opt(out, " (", d->ceiling_how, ")");
		strbuf_adds(out, "; a hollow red-crossed mark above it is no figure this bus can "
				 "carry (an emulated or misreported link).");
	}
	if (d->ref && !strcmp(d->ref->kind, "usb-storage")) {
		strbuf_adds(out, " Green: what boards are typically seen to reach, ");
		html_esc(out, d->ref->range);
		strbuf_adds(out, " (");
		html_esc(out, d->ref->what);
		strbuf_adds(out, "; a field reference from vendor bring-up guides, not a limit).");
	}
	for (size_t i = 0; i < d->nsweeps; i++)
		if (d->sweeps[i].npts && d->sweeps[i].pts[0].m->ceiling > 0) {
			strbuf_addf(out,
				    " Thin dashed, in a series' colour: its own ceiling at "
				    "each %s.",
				    d->axis ? d->axis : RM_AXIS_BLOCK);
			break;
		}
	strbuf_addf(out,
		    " The throughput axis is logarithmic when the figures span more "
		    "than 20\u00d7; lines join only neighbouring measured %ss.",
		    d->axis ? d->axis : RM_AXIS_BLOCK);
	strbuf_adds(out, "</figcaption>\n");
}

/* the ceiling every bar's figure carries (a HID endpoint's reports/s), NaN if they differ */
static double common_ceiling(const struct svg_bar *bars, size_t n)
{
	double c = n ? bars[0].m->ceiling : NAN;

	for (size_t i = 1; i < n && c > 0; i++)
		if (bars[i].m->ceiling != c)
			return NAN;
	return c > 0 ? c : NAN;
}

/* a chart's title by what it counts: throughputs together, other rates by their unit */
static const char *rates_title(const char *unit, struct strbuf *sb)
{
	static const struct {
		const char *unit, *title;
	} titles[] = {
	    {"MB/s", "Other passes: throughput"},    {"MiB/s", "Other passes: throughput"},
	    {"Mbit/s", "Other passes: throughput"},  {"IOPS", "I/O operations per second"},
	    {"reports/s", "HID reports per second"}, {"msg/s", "Messages per second"},
	};

	for (size_t i = 0; i < sizeof(titles) / sizeof(titles[0]); i++)
		if (!strcmp(unit, titles[i].unit))
			return titles[i].title;
	strbuf_addf(sb, "Other passes: %s", unit);
	return sb->buf;
}

/*
 * CPU use, one chart per quantity (usbperf's own, the whole machine's: class.h's
 * cpu_use), each pass once per run, in % of one CPU on an axis from 0 to at
 * least 100 (one CPU busy), further when the machine kept more than one busy
 */
static void cpu_charts(struct strbuf *out, const struct report_model *m, const struct rm_device *d,
		       struct svg_bar *bars)
{
	for (size_t k = 0; k < d->ncpu; k++) {
		const char *whose = report_cpu_use(d->cpu[k]);
		struct strbuf title = STRBUF_INIT;
		double top = 100;
		size_t n = 0;
		bool seen = false;

		for (size_t j = 0; j < k && !seen; j++)
			seen = !strcmp(d->cpu[j]->metric, d->cpu[k]->metric);
		if (seen)
			continue;
		for (size_t i = 0; i < d->ncpu; i++) {
			if (strcmp(d->cpu[i]->metric, d->cpu[k]->metric))
				continue;
			bars[n++] = (struct svg_bar){d->cpu[i]->name,
						     report_model_run_of(m, d->cpu[i]), d->cpu[i]};
			top = fmax(top, d->cpu[i]->value);
		}
		strbuf_addf(&title, "CPU use during each pass: %s", whose);
		strbuf_adds(out, "<figure><h3>");
		html_esc(out, title.buf);
		strbuf_adds(out, "</h3><div class=\"scroll\">");
		svg_bar_chart(out, title.buf, bars, n, m->nruns, UNIT_PCT_ONE_CPU, NAN, NULL, top);
		strbuf_adds(out, "</div></figure>\n");
		strbuf_release(&title);
	}
}

/* a bar chart per unit of the device's rates (class.h's CLASS_RATE), in the order they come */
static void rates_charts(struct strbuf *out, const struct report_model *m,
			 const struct rm_device *d)
{
	struct svg_bar *bars = calloc(d->nrates + d->ncpu + 1, sizeof(*bars));
	size_t n;

	if (!bars)
		abort();
	for (size_t u = 0; u < d->nrates; u++) {
		const char *unit = report_unit(d->rates[u]);
		struct strbuf title = STRBUF_INIT;
		double limit = NAN;
		char label[64] = "";
		bool seen = false;

		for (size_t k = 0; k < u && !seen; k++)
			seen = report_same_unit(d->rates[k], d->rates[u]);
		if (seen)
			continue;
		n = 0;
		for (size_t i = 0; i < d->nrates; i++)
			if (report_same_unit(d->rates[i], d->rates[u]))
				bars[n++] = (struct svg_bar){d->rates[i]->name,
							     report_model_run_of(m, d->rates[i]),
							     d->rates[i]};
		if (!isnan(d->ceiling_mb_s) && !strcmp(unit, "MB/s"))
			limit = d->ceiling_mb_s;
		if (!isnan(d->ceiling_mb_s) && !strcmp(unit, "Mbit/s"))
			limit = d->ceiling_mb_s * 8;
		if (isnan(limit))
			limit = common_ceiling(bars, n);
		if (!isnan(limit)) {
			struct strbuf l = STRBUF_INIT;

			ceiling_format(&l, limit, unit);
			snprintf(label, sizeof(label), "%s", l.buf);
			strbuf_release(&l);
		}
		strbuf_adds(out, "<figure><h3>");
		html_esc(out, rates_title(unit, &title));
		strbuf_adds(out, "</h3><div class=\"scroll\">");
		svg_bar_chart(out, unit, bars, n, m->nruns, unit, limit, label, NAN);
		strbuf_adds(out, "</div>");
		strbuf_adds(out, "</figure>\n");
		strbuf_release(&title);
	}
	cpu_charts(out, m, d, bars);
	free(bars);
}

static void device(struct strbuf *out, const struct report_model *m, size_t idx)
{
	const struct rm_device *d = &m->devices[idx];

	strbuf_addf(out, "<section class=\"device\" id=\"device-%zu\"><h2>", idx + 1);
	html_esc(out, d->first->port_path ? d->first->port_path : d->first->key);
	html_opt(out, " \u2014 ", d->first->product, "");
	strbuf_adds(out, "</h2><p>");
	device_line(out, d->first);
	strbuf_adds(out, "</p>\n");
	if (d->nsweeps) {
		strbuf_addf(out, "<figure><h3>Throughput against %s</h3>",
			    d->axis ? d->axis : RM_AXIS_BLOCK);
		legend(out, m, d);
		strbuf_adds(out, "<div class=\"scroll\">");
		svg_sweep_chart(out, m, d);
		strbuf_adds(out, "</div>");
		figures_caption(out, d);
		strbuf_adds(out, "</figure>\n");
	}
	rates_charts(out, m, d);
	/* the classes' own charts (a camera's frame rates) */
	for (size_t k = 0; k < run_nclasses; k++)
		if (run_classes[k]->html_section)
			run_classes[k]->html_section(out, m, d);
	html_wire_section(out, m, d);
	strbuf_adds(out, "<h3>Figures</h3>");
	html_figures_table(out, m, d);
	strbuf_adds(out, "</section>\n");
}

void html_report(struct strbuf *out, const struct html_input *in)
{
	const struct report_model *m = in->model;

	strbuf_adds(out, HTML_DOC_START "usbperf report: ");
	html_esc(out, m->runs[0].env.hostname);
	strbuf_adds(out, " ");
	html_esc(out, m->runs[0].id);
	if (m->nruns > 1)
		strbuf_addf(out, " and %zu more", m->nruns - 1);
	strbuf_addf(out, "</title><style>%s</style></head><body>\n<header><h1>usbperf report</h1>"
			 "<p class=\"mut\">",
		    css);
	strbuf_addf(out, "%zu run%s", m->nruns, m->nruns > 1 ? "s" : "");
	strbuf_adds(out, " \u00b7 generated ");
	html_esc(out, in->generated_at);
	strbuf_adds(out, " by usbperf " USBPERF_VERSION " \u00b7 MB/s = 10<sup>6</sup> B/s, "
			 "Mbit/s = 10<sup>6</sup> bit/s</p></header>\n");
	glance(out, m);
	setup(out, m);
	topology(out, m);
	for (size_t i = 0; i < m->ndevices; i++)
		device(out, m, i);
	if (in->checks)
		html_checks(out, m, in->checks);
	html_findings(out, m);
	if (m->nruns > 1 && in->cmp)
		html_comparison(out, m, in->cmp);
	strbuf_adds(out, "<footer>Figures are what was measured on the runs above: the mean of "
			 "the repeats, the standard deviation and the range between the slowest "
			 "and fastest repeat. Ceilings are protocol limits of the negotiated "
			 "link, not promises; field references are typical published figures. "
			 "Page cache, CPU frequency scaling and a device on a slower port than it "
			 "supports can all distort a figure: see the findings.</footer>\n"
			 "</body></html>\n");
}
