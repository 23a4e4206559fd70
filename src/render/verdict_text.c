// SPDX-License-Identifier: MIT
#include "render/verdict_text.h"
#include "render/spark.h"
#include "render/text_blocks.h"

#include <string.h>

static size_t key_width(const struct run_record *r)
{
	size_t w = 0;

	for (size_t i = 0; i < r->nverdicts; i++)
		if (strlen(r->verdicts[i].device_key) > w)
			w = strlen(r->verdicts[i].device_key);
	return w;
}

void render_verdicts_text(const struct run_record *r, struct strbuf *out)
{
	int w = (int)key_width(r);

	if (!r->nverdicts)
		return;
	strbuf_adds(out, "verdict: what limits each device\n");
	for (size_t i = 0; i < r->nverdicts; i++) {
		const struct run_verdict *v = &r->verdicts[i];

		const char *next = run_verdict_next(r, v);

		strbuf_addf(out, "  %-*s  %s: ", w, v->device_key, v->limiter);
		text_wrap(out, 4 + (size_t)w, v->evidence ? v->evidence : "-");
		/* an uncertain verdict says what to run next (29.2.11) */
		if (next) {
			strbuf_addf(out, "  %-*s  next: ", w, "");
			text_wrap(out, 10 + (size_t)w, next);
		}
	}
}

static bool about_is(const struct finding *f, const char *key)
{
	return key ? f->about && !strcmp(f->about, key) : !f->about;
}

/* the findings about key (NULL: about none), under a heading if there are any */
static void group(const struct run_record *r, const char *key, const char *heading,
		  struct strbuf *out)
{
	bool first = true;

	for (size_t i = 0; i < r->findings.n; i++) {
		if (!about_is(&r->findings.v[i], key))
			continue;
		if (first)
			strbuf_adds(out, heading);
		first = false;
		render_finding_block(&r->findings.v[i], out);
	}
}

void render_findings_by_device(const struct run_record *r, struct strbuf *out)
{
	struct strbuf h = STRBUF_INIT;
	bool grouped = r->nverdicts > 0;

	for (size_t i = 0; i < r->findings.n; i++)
		grouped |= r->findings.v[i].about != NULL;
	if (!grouped || !r->findings.n) {
		/* a run from before verdicts: the findings as they were kept */
		render_findings_text(r->findings.v, r->findings.n, out);
		return;
	}
	strbuf_adds(out, "findings, by device\n");
	for (size_t i = 0; i < r->nverdicts; i++) {
		const struct run_verdict *v = &r->verdicts[i];

		strbuf_reset(&h);
		strbuf_addf(&h, "%s (verdict: %s)\n", v->device_key, v->limiter);
		group(r, v->device_key, h.buf, out);
	}
	group(r, FINDING_ABOUT_ALL, "every measured device\n", out);
	group(r, NULL, "not about this run's figures\n", out);
	strbuf_release(&h);
}

void render_notes_text(const struct run_record *r, struct strbuf *out)
{
	for (size_t i = 0; i < r->nnotes; i++) {
		strbuf_adds(out, "note: ");
		text_wrap(out, 6, r->notes[i].text);
	}
}

int render_run_text(const struct run_record *r, const struct report *rep, struct strbuf *out)
{
	struct report rest = *rep;
	int ret;

	rest.nsec = 0;
	for (size_t i = 0; i < rep->nsec; i++)
		if (rep->sec[i].desc != &finding_desc)
			rest.sec[rest.nsec++] = rep->sec[i];
	rest.warnings = NULL;
	rest.nwarnings = 0;
	render_verdicts_text(r, out);
	if (r->nverdicts)
		strbuf_addch(out, '\n');
	ret = render_text(&rest, out);
	if (ret < 0)
		return ret;
	strbuf_addch(out, '\n');
	render_findings_by_device(r, out);
	if (r->nnotes)
		strbuf_addch(out, '\n');
	render_notes_text(r, out);
	return 0;
}
