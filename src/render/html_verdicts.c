// SPDX-License-Identifier: MIT
/* The HTML report's verdicts: findings, the comparison against run 1, the checks. */
#include "render/html_priv.h"

#include <math.h>
#include <string.h>

/* ---- findings and comparison ---- */

static void html_finding(struct strbuf *out, const struct finding *f)
{
	strbuf_addf(out, "<div class=\"finding\" data-id=\"");
	html_esc(out, f->id);
	strbuf_addf(out, "\"><span class=\"tag sev-%s\">%s</span> <b>",
		    !strcmp(f->severity, "warn") ? "warn" : "info", f->severity);
	html_esc(out, f->subject);
	strbuf_adds(out, "</b>: ");
	html_esc(out, f->message);
	html_opt(out, "<p><span class=\"mut\">evidence:</span> <code>", f->evidence, "</code></p>");
	html_opt(out, "<p><span class=\"mut\">fix:</span> <code>", f->fix, "</code></p>");
	strbuf_adds(out, "</div>\n");
}

/* the findings about key (NULL: about none), in a group headed by heading */
static void finding_group(struct strbuf *out, const struct finding_list *fl, const char *key,
			  const char *group, const char *heading, const struct run_verdict *v)
{
	bool first = true;

	for (size_t j = 0; j < fl->n; j++) {
		const char *a = fl->v[j].about;

		if (key ? !a || strcmp(a, key) : a != NULL)
			continue;
		if (first) {
			strbuf_addf(out, "<div class=\"fgroup\" data-group=\"%s\"", group);
			html_opt(out, " data-device=\"", key, "\"");
			strbuf_adds(out, "><h4>");
			html_esc(out, heading);
			if (v) {
				strbuf_adds(out, " <span class=\"tag\">");
				html_esc(out, v->limiter);
				strbuf_adds(out, "</span>");
			}
			strbuf_adds(out, "</h4>\n");
		}
		first = false;
		html_finding(out, &fl->v[j]);
	}
	if (!first)
		strbuf_adds(out, "</div>\n");
}

/* by device under its verdict, the CPU's for all, those about no measured figure last */
void html_findings(struct strbuf *out, const struct report_model *m)
{
	strbuf_adds(out, "<section id=\"findings\"><h2>Findings</h2>\n");
	for (size_t i = 0; i < m->nruns; i++) {
		const struct run_record *r = &m->runs[i];
		const struct finding_list *fl = &r->findings;
		bool grouped = r->nverdicts > 0;

		if (m->nruns > 1) {
			strbuf_adds(out, "<h3>");
			html_run_heading(out, m, i);
			strbuf_adds(out, "</h3>");
		}
		if (!fl->n)
			strbuf_adds(out, "<p class=\"mut\">None.</p>\n");
		for (size_t j = 0; j < fl->n; j++)
			grouped |= fl->v[j].about != NULL;
		if (!grouped) {
			for (size_t j = 0; j < fl->n; j++)
				html_finding(out, &fl->v[j]);
			continue;
		}
		for (size_t j = 0; j < r->nverdicts; j++)
			finding_group(out, fl, r->verdicts[j].device_key, "device",
				      r->verdicts[j].device_key, &r->verdicts[j]);
		finding_group(out, fl, FINDING_ABOUT_ALL, "all", "every measured device", NULL);
		finding_group(out, fl, NULL, "unrelated", "not about this run's figures", NULL);
	}
	strbuf_adds(out, "</section>\n");
}

/* ---- at a glance: the verdicts and the notes ---- */

void html_glance_verdicts(struct strbuf *out, const struct report_model *m)
{
	struct rm_verdict_at at = {0};
	bool any = false;

	while (report_next_verdict(m, &at)) {
		if (!any)
			strbuf_adds(out, "<ul class=\"verdicts\">");
		any = true;
		strbuf_adds(out, "<li class=\"verdict\" data-limiter=\"");
		html_esc(out, at.v->limiter);
		strbuf_adds(out, "\">");
		if (m->nruns > 1)
			strbuf_addf(out, "run %zu: ", at.run + 1);
		strbuf_addf(out, "<a href=\"#device-%zu\">", at.device + 1);
		html_esc(out, at.where);
		strbuf_adds(out, "</a> <b>");
		html_esc(out, at.v->limiter);
		strbuf_adds(out, "</b>: ");
		html_esc(out, at.v->evidence);
		strbuf_adds(out, "</li>\n");
		/* an uncertain verdict: what to run next, once, under the newest run's */
		html_opt(out, "<li class=\"next\"><span class=\"mut\">next:</span> ", at.next,
			 "</li>\n");
	}
	if (any)
		strbuf_adds(out, "</ul>\n");
}

void html_glance_notes(struct strbuf *out, const struct report_model *m)
{
	for (size_t i = 0; i < m->nruns; i++) {
		const struct run_record *r = &m->runs[i];

		if (!r->nnotes)
			continue;
		strbuf_adds(out, "<ul class=\"notes\">");
		for (size_t j = 0; j < r->nnotes; j++) {
			strbuf_adds(out, "<li class=\"note\">");
			if (m->nruns > 1)
				strbuf_addf(out, "run %zu: ", i + 1);
			strbuf_adds(out, "<span class=\"mut\">note:</span> ");
			html_esc(out, r->notes[j].text);
			strbuf_adds(out, "</li>");
		}
		strbuf_adds(out, "</ul>\n");
	}
}

/* ---- topology: what was found and not measured ---- */

static void unmeasured_line(struct strbuf *out, const struct run_unmeasured *u)
{
	strbuf_adds(out, "<span class=\"unmeasured\"><b>");
	html_esc(out, u->key);
	strbuf_adds(out, "</b> ");
	if (u->product)
		html_esc(out, u->product);
	html_opt(out, " <code>", u->name, "</code>");
	html_opt(out, " <code>", u->vid_pid, "</code>");
	html_opt(out, "<span class=\"tag\">", html_speed_label(u->speed), "</span>");
	strbuf_adds(out, " <span class=\"mut\">not measured: ");
	html_esc(out, u->why);
	strbuf_adds(out, "</span></span>");
}

bool html_unmeasured_node(struct strbuf *out, const struct run_record *r, const char *path)
{
	for (size_t i = 0; i < r->nunmeasured; i++) {
		if (!strcmp(r->unmeasured[i].key, path)) {
			unmeasured_line(out, &r->unmeasured[i]);
			return true;
		}
	}
	return false;
}

void html_unmeasured_off_usb(struct strbuf *out, const struct run_record *r,
			     bool (*on_usb)(const char *), bool *other)
{
	for (size_t i = 0; i < r->nunmeasured; i++) {
		if (on_usb(r->unmeasured[i].key))
			continue;
		strbuf_adds(out, *other ? "<li>" : "<li>not on USB<ul><li>");
		*other = true;
		unmeasured_line(out, &r->unmeasured[i]);
		strbuf_adds(out, "</li>");
	}
}

static void comparison_one(struct strbuf *out, const struct report_model *m,
			   const struct compare_result *c, size_t b)
{
	strbuf_adds(out, "<h3>");
	html_run_heading(out, m, 0);
	strbuf_adds(out, " \u2192 ");
	html_run_heading(out, m, b);
	strbuf_addf(out,
		    "</h3><p>%llu better, %llu worse, %llu same, %llu within noise, "
		    "%llu spread unknown, %llu contended, %llu missing, %llu new (threshold "
		    "%.1f%%, and beyond 2 standard deviations of the difference): <b>%s</b></p>\n",
		    (unsigned long long)c->better, (unsigned long long)c->worse,
		    (unsigned long long)c->same, (unsigned long long)c->noise,
		    (unsigned long long)c->spread_unknown, (unsigned long long)c->contended,
		    (unsigned long long)c->missing, (unsigned long long)c->added, c->threshold_pct,
		    c->result);
	if (c->ncaveats) {
		strbuf_adds(out, "<p>Differences that may explain a change:</p><ul>");
		for (size_t i = 0; i < c->ncaveats; i++) {
			strbuf_adds(out, "<li>");
			html_esc(out, c->caveats[i].subject);
			strbuf_adds(out, " ");
			html_esc(out, c->caveats[i].what);
			strbuf_adds(out, ": ");
			html_esc(out, c->caveats[i].a);
			strbuf_adds(out, " \u2192 ");
			html_esc(out, c->caveats[i].b);
			strbuf_adds(out, "</li>");
		}
		strbuf_adds(out, "</ul>\n");
	}
	/* the verdict and the change first: on a phone they are what fits (29.2.10) */
	strbuf_adds(out, "<div class=\"scroll\"><table class=\"compare\"><tr><th>verdict</th>"
			 "<th class=\"n\">change</th><th>pass</th><th>metric</th><th class=\"n\">"
			 "run 1</th><th class=\"n\">this run</th><th>unit</th><th>device</th>"
			 "</tr>\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *r = &c->rows[i];

		strbuf_addf(out, "<tr class=\"v-%s\"><td class=\"verdict\">%s</td>", r->verdict,
			    r->verdict);
		strbuf_adds(out, "<td class=\"n\">");
		if (!isnan(r->change_pct))
			strbuf_addf(out, "%+.1f%%", r->change_pct);
		else
			strbuf_adds(out, "-");
		strbuf_adds(out, "</td>");
		html_td(out, r->name);
		html_td(out, metric_vocab(r->metric, r->unit).label);
		html_td_num(out, r->a);
		html_td_num(out, r->b);
		html_td(out, r->unit);
		html_td(out, r->device_key);
		strbuf_adds(out, "</tr>\n");
	}
	strbuf_adds(out, "</table></div>\n");
	if (c->spread_unknown)
		strbuf_adds(out, "<p class=\"next\"><span class=\"mut\">next:</span> a change past "
				 "the threshold whose spread is unknown is not judged: run each side "
				 "again with <code>usbperf run --repeat 3</code> on a machine without "
				 "other work, then compare those runs.</p>\n");
	if (c->contended)
		strbuf_adds(out, "<p class=\"next\"><span class=\"mut\">next:</span> a change past "
				 "the threshold in a figure that leans on the CPU, measured beside "
				 "other work, is not judged (contended): run each side again on a "
				 "machine without other work, then compare those runs.</p>\n");
}

void html_td(struct strbuf *out, const char *s)
{
	strbuf_adds(out, "<td>");
	html_esc(out, s);
	strbuf_adds(out, "</td>");
}

void html_td_num(struct strbuf *out, double v)
{
	strbuf_adds(out, "<td class=\"n\">");
	html_num(out, v, html_prec(v));
	strbuf_adds(out, "</td>");
}

void html_comparison(struct strbuf *out, const struct report_model *m,
		     const struct compare_result *cmp)
{
	strbuf_adds(out, "<section id=\"comparison\"><h2>Comparison</h2>"
			 "<p class=\"mut\">Every metric of each run against run 1, as "
			 "<code>usbperf compare</code> judges it.</p>\n");
	for (size_t i = 1; i < m->nruns; i++)
		comparison_one(out, m, &cmp[i - 1], i);
	strbuf_adds(out, "</section>\n");
}

void html_checks(struct strbuf *out, const struct report_model *m, const struct check_result *c)
{
	strbuf_addf(out, "<section id=\"checks\"><h2>Checks</h2><p>%llu checked: %llu passed, "
			 "%llu failed, %llu missing, %llu skipped: <b class=\"r-%s\">%s</b></p>\n",
		    (unsigned long long)c->checked, (unsigned long long)c->passed,
		    (unsigned long long)c->failed, (unsigned long long)c->missing,
		    (unsigned long long)c->skipped, c->result, c->result);
	strbuf_adds(out, "<div class=\"scroll\"><table class=\"checks\"><tr>");
	if (m->nruns > 1)
		strbuf_adds(out, "<th>run</th>");
	strbuf_adds(out, "<th>device</th><th>pass</th><th>metric</th><th class=\"n\">value</th>"
			 "<th>unit</th><th>criterion</th><th>result</th><th>note</th></tr>\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct check_row *r = &c->rows[i];

		if (r->status == CHECK_MEASURED)
			continue;
		strbuf_addf(out, "<tr class=\"r-%s\">", r->result);
		if (m->nruns > 1)
			strbuf_addf(out, "<td>%zu</td>", r->run_index + 1);
		html_td(out, r->device_key);
		html_td(out, r->name);
		html_td(out, metric_vocab(r->metric, r->unit).label);
		html_td_num(out, r->value);
		html_td(out, r->unit);
		html_td(out, r->criterion);
		html_td(out, r->result);
		html_td(out, r->note);
		strbuf_adds(out, "</tr>\n");
	}
	strbuf_adds(out, "</table></div></section>\n");
}
