// SPDX-License-Identifier: MIT
#include "core/findings.h"

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

void finding_set_about(struct finding *f, const char *about)
{
	free(f->about);
	f->about = dup_or_null(about);
}

void finding_list_release(struct finding_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].id);
		free(l->v[i].subject);
		free(l->v[i].message);
		free(l->v[i].evidence);
		free(l->v[i].fix);
		free(l->v[i].about);
	}
	free(l->v);
	*l = (struct finding_list)FINDING_LIST_INIT;
}

#define F(member, key, header) FIELD(struct finding, member, key, header, NULL, FT_STR, 0, FF_TEXT)
static const struct field finding_fields[] = {
	F(severity, "severity", "level"), F(subject, "subject", "subject"),
	F(message, "message", "finding"), F(evidence, "evidence", "evidence"),
	F(fix, "fix", "fix"),		  FIELD(struct finding, id, "id", "id", NULL, FT_STR, 0, 0),
	FIELD(struct finding, about, "about", "about", NULL, FT_STR, 0, 0),
};
const struct record_desc finding_desc = RECORD_DESC("finding", finding_fields);
