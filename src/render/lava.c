// SPDX-License-Identifier: MIT
/* Check results as LAVA test shell signals (lava.h). */
#include "render/lava.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool id_char(unsigned char ch, bool units)
{
	if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'))
		return true;
	return ch == '.' || ch == '_' || ch == '-' || (units && (ch == '/' || ch == '%'));
}

void lava_sanitize(const char *s, bool units, struct strbuf *out)
{
	size_t start = out->len;

	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		char ch = id_char(*p, units) ? (char)*p : '_';

		/* "seq-read 1M" -> "seq-read_1M", not "seq-read__1M" for two spaces */
		if (ch == '_' && out->len > start && out->buf[out->len - 1] == '_')
			continue;
		if (out->len - start >= LAVA_ID_MAX)
			break;
		strbuf_addch(out, ch);
	}
	if (out->len == start)
		strbuf_addch(out, '_');
}

static const char *lava_result(enum check_status s)
{
	switch (s) {
	case CHECK_PASS:
		return "pass";
	case CHECK_MEASURED:
		/* a figure, no verdict on it: not a passing test case */
		return "unknown";
	case CHECK_SKIPPED:
		return "skip";
	case CHECK_FAIL:
	case CHECK_MISSING:
		break;
	}
	return "fail";
}

/* a decimal the dispatcher's decimal.Decimal() reads, without an exponent when short */
static void measurement(struct strbuf *out, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strchr(buf, 'e'))
		snprintf(buf, sizeof(buf), "%.6f", v);
	strbuf_adds(out, buf);
}

/* ids within one test set: the k-th repeat of an id gets ".k" (k >= 2) */
struct id_slot {
	char *id;
	size_t order;
	unsigned repeat;
};

static int cmp_slot(const void *x, const void *y)
{
	const struct id_slot *a = *(const struct id_slot *const *)x;
	const struct id_slot *b = *(const struct id_slot *const *)y;
	int c = strcmp(a->id, b->id);

	return c ? c : (a->order > b->order) - (a->order < b->order);
}

static void number_repeats(struct id_slot *v, size_t n)
{
	struct id_slot **s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		abort();
	for (size_t i = 0; i < n; i++)
		s[i] = &v[i];
	qsort(s, n, sizeof(*s), cmp_slot);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(s[i]->id, s[i - 1]->id))
			s[i]->repeat = s[i - 1]->repeat ? s[i - 1]->repeat + 1 : 2;
	free(s);
}

static void signal_testcase(struct strbuf *out, const struct check_row *r, const struct id_slot *id)
{
	strbuf_addf(out, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s", id->id);
	if (id->repeat)
		strbuf_addf(out, ".%u", id->repeat);
	strbuf_addf(out, " RESULT=%s", lava_result(r->status));
	if (!isnan(r->value)) {
		strbuf_adds(out, " MEASUREMENT=");
		measurement(out, r->value);
		if (r->unit) {
			strbuf_adds(out, " UNITS=");
			lava_sanitize(r->unit, true, out);
		}
	}
	strbuf_adds(out, ">\n");
}

static void testset(const struct check_result *c, size_t ri, struct strbuf *out)
{
	struct id_slot *ids = calloc(c->nrows ? c->nrows : 1, sizeof(*ids));
	size_t n = 0, k = 0;

	if (!ids)
		abort();
	for (size_t i = 0; i < c->nrows; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (c->rows[i].run_index != ri || !check_row_is_case(&c->rows[i], true))
			continue;
		lava_sanitize(c->rows[i].case_id, false, &sb);
		ids[n] = (struct id_slot){strbuf_detach(&sb), n, 0};
		n++;
	}
	number_repeats(ids, n);
	strbuf_adds(out, "<LAVA_SIGNAL_TESTSET START ");
	lava_sanitize(c->runs[ri].id, false, out);
	strbuf_adds(out, ">\n");
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].run_index == ri && check_row_is_case(&c->rows[i], true))
			signal_testcase(out, &c->rows[i], &ids[k++]);
	strbuf_adds(out, "<LAVA_SIGNAL_TESTSET STOP>\n");
	for (size_t i = 0; i < n; i++)
		free(ids[i].id);
	free(ids);
}

void render_lava(const struct check_result *c, struct strbuf *out)
{
	for (size_t ri = 0; ri < c->nruns; ri++)
		testset(c, ri, out);
}
