// SPDX-License-Identifier: MIT
#include "model/findings.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

void finding_add(struct finding_list *l, enum finding_severity sev, const char *id,
		 const char *subject, const char *message, const char *evidence, const char *fix)
{
	struct finding *f;

	if (l->n == l->alloc) {
		size_t na = l->alloc ? 2 * l->alloc : 8;
		struct finding *nv = realloc(l->v, na * sizeof(*nv));

		if (!nv)
			abort();
		l->v = nv;
		l->alloc = na;
	}
	f = &l->v[l->n++];
	f->severity = sev == FINDING_WARN ? "warn" : "info";
	f->id = dup_or_null(id);
	f->subject = dup_or_null(subject);
	f->message = dup_or_null(message);
	f->evidence = dup_or_null(evidence);
	f->fix = dup_or_null(fix);
	f->about = NULL;
}

const struct finding *finding_list_find(const struct finding_list *l, const char *id,
					const char *subject)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct finding *f = &l->v[i];

		if (f->id && id && !strcmp(f->id, id) && f->subject && subject &&
		    !strcmp(f->subject, subject))
			return f;
	}
	return NULL;
}

void finding_set_about(struct finding *f, const char *about)
{
	free(f->about);
	f->about = dup_or_null(about);
}

void finding_list_release(struct finding_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free_all(l->v[i].id, l->v[i].subject, l->v[i].message, l->v[i].evidence,
			 l->v[i].fix, l->v[i].about);
	free(l->v);
	*l = (struct finding_list)FINDING_LIST_INIT;
}

#include "model/findings.fields.h"

void evidence_add(struct evidence_groups *g, const char *key, const char *pass,
		  const double *figs, size_t nfigs)
{
	struct evidence_group *e = NULL;

	for (size_t i = 0; i < g->n && !e; i++)
		if (!strcmp(g->v[i].key, key))
			e = &g->v[i];
	if (!e) {
		struct evidence_group *nv = realloc(g->v, (g->n + 1) * sizeof(*nv));

		if (!nv)
			abort();
		g->v = nv;
		e = &g->v[g->n++];
		*e = (struct evidence_group){.key = strdup(key)};
		for (size_t k = 0; k < EVIDENCE_FIGS; k++)
			e->lo[k] = e->hi[k] = NAN;
		if (!e->key)
			abort();
	}
	e->passes = realloc(e->passes, (e->n + 1) * sizeof(*e->passes));
	if (!e->passes || !(e->passes[e->n] = strdup(pass)))
		abort();
	e->n++;
	for (size_t k = 0; k < nfigs && k < EVIDENCE_FIGS; k++) {
		e->lo[k] = isnan(e->lo[k]) ? figs[k] : fmin(e->lo[k], figs[k]);
		e->hi[k] = isnan(e->hi[k]) ? figs[k] : fmax(e->hi[k], figs[k]);
	}
}

void evidence_passes(struct strbuf *out, char *const *passes, size_t n, bool all)
{
	if (all && n > 3) {
		for (size_t i = 0; i < n; i++)
			strbuf_addf(out, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", passes[i]);
		return;
	}
	if (n == 1)
		strbuf_adds(out, passes[0]);
	else if (n == 2)
		strbuf_addf(out, "%s and %s", passes[0], passes[1]);
	else if (n == 3)
		strbuf_addf(out, "%s, %s and %s", passes[0], passes[1], passes[2]);
	else if (n > 3)
		strbuf_addf(out, "%zu passes (%s to %s)", n, passes[0], passes[n - 1]);
}

/* "100", "95-100": a figure's range as the evidence writes it (whole numbers) */
static void add_range(struct strbuf *out, double lo, double hi)
{
	if (isnan(lo))
		strbuf_adds(out, "?");
	else if (lround(lo) == lround(hi))
		strbuf_addf(out, "%.0f", lo);
	else
		strbuf_addf(out, "%.0f-%.0f", lo, hi);
}

void evidence_render(const struct evidence_groups *g, const char *fmt, struct strbuf *out)
{
	for (size_t i = 0; i < g->n; i++) {
		const struct evidence_group *e = &g->v[i];

		if (i)
			strbuf_adds(out, "; ");
		evidence_passes(out, e->passes, e->n, g->name_all);
		strbuf_adds(out, ": ");
		for (const char *p = fmt; *p; p++) {
			if (p[0] == '{' && p[1] == 'k' && p[2] == '}') {
				strbuf_adds(out, e->key);
				p += 2;
			} else if (p[0] == '{' && p[1] >= '0' && p[1] < '0' + EVIDENCE_FIGS &&
				   p[2] == '}') {
				add_range(out, e->lo[p[1] - '0'], e->hi[p[1] - '0']);
				p += 2;
			} else {
				strbuf_addch(out, *p);
			}
		}
	}
}

void evidence_release(struct evidence_groups *g)
{
	for (size_t i = 0; i < g->n; i++) {
		for (size_t j = 0; j < g->v[i].n; j++)
			free(g->v[i].passes[j]);
		free_all(g->v[i].passes, g->v[i].key);
	}
	free(g->v);
	*g = (struct evidence_groups){0};
}
