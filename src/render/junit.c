// SPDX-License-Identifier: MIT
/* Check results as JUnit XML (junit.h). */
#include "render/junit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the length of the UTF-8 sequence at s that XML 1.0 can hold, 0 if none */
static size_t utf8_char(const unsigned char *s)
{
	unsigned cp;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) /* also stops at the NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong, surrogates, beyond Unicode, and the two XML excludes */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp > 0x10ffff || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

void xml_escape(struct strbuf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		size_t n = utf8_char(p);

		if (n == 0) {
			strbuf_addch(out, '?');
			p++;
			continue;
		}
		switch (*p) {
		case '&':
			strbuf_adds(out, "&amp;");
			break;
		case '<':
			strbuf_adds(out, "&lt;");
			break;
		case '>':
			strbuf_adds(out, "&gt;");
			break;
		case '"':
			strbuf_adds(out, "&quot;");
			break;
		case '\'':
			strbuf_adds(out, "&apos;");
			break;
		case '\t':
		case '\n':
		case '\r':
			/* kept as they are in an attribute, where a parser would normalise them */
			strbuf_addf(out, "&#%u;", *p);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				strbuf_addch(out, '?');
			else
				strbuf_add(out, p, n);
		}
		p += n;
	}
}

static void attr(struct strbuf *out, const char *key, const char *value)
{
	strbuf_addf(out, " %s=\"", key);
	xml_escape(out, value);
	strbuf_addch(out, '"');
}

static void property(struct strbuf *out, const char *name, const char *value)
{
	if (!value)
		return;
	strbuf_adds(out, "      <property");
	attr(out, "name", name);
	attr(out, "value", value);
	strbuf_adds(out, "/>\n");
}

static bool failed(const struct check_row *r)
{
	return r->status == CHECK_FAIL || r->status == CHECK_MISSING;
}

/* "2-1", "seq-read 1M": never NULL in the output */
static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

static void case_name(const struct check_row *r, const struct check_result *c, struct strbuf *out)
{
	strbuf_addf(out, "%s %s", or_dash(r->name), or_dash(r->metric));
	if (r->source == SOURCE_BASELINE)
		strbuf_addf(out, " vs baseline %s",
			    c->baseline ? c->baseline : or_dash(c->baseline_id));
	else if (r->source == SOURCE_CRITERION && r->criterion_id)
		strbuf_addf(out, " [%s]", r->criterion_id);
	else if (r->source == SOURCE_CRITERION)
		strbuf_addf(out, " [criteria[%zu]]", r->criterion_index);
}

static void value_text(const struct check_row *r, struct strbuf *out)
{
	if (isnan(r->value)) {
		strbuf_adds(out, "value: none");
	} else {
		strbuf_addf(out, "value: %.2f %s (%s", r->value, or_dash(r->unit), r->of);
		if (!isnan(r->stdev))
			strbuf_addf(out, ", sd %.2f", r->stdev);
		strbuf_addch(out, ')');
	}
	if (r->criterion)
		strbuf_addf(out, "\ncriterion: %s", r->criterion);
	if (r->note)
		strbuf_addf(out, "\nnote: %s", r->note);
	strbuf_addf(out, "\nresult: %s", r->result);
}

static void testcase(const struct check_result *c, const struct check_row *r, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "usbperf.%s.%s", or_dash(r->device_key), or_dash(r->test));
	strbuf_adds(out, "    <testcase");
	attr(out, "classname", sb.buf);
	strbuf_reset(&sb);
	case_name(r, c, &sb);
	attr(out, "name", sb.buf);
	strbuf_adds(out, " time=\"0\">\n");
	if (failed(r) || r->status == CHECK_SKIPPED) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%s%s", or_dash(r->criterion), r->note ? ": " : "",
			    r->note ? r->note : "");
		strbuf_addf(out, "      <%s", failed(r) ? "failure" : "skipped");
		attr(out, "message", sb.buf);
		if (failed(r))
			attr(out, "type",
			     r->status == CHECK_MISSING	    ? "missing"
			     : r->source == SOURCE_BASELINE ? "baseline"
							    : "criterion");
		strbuf_adds(out, "/>\n");
	}
	strbuf_reset(&sb);
	value_text(r, &sb);
	strbuf_adds(out, "      <system-out>");
	xml_escape(out, sb.buf);
	strbuf_adds(out, "</system-out>\n    </testcase>\n");
	strbuf_release(&sb);
}

/* JUnit's timestamp has no zone: started_at is UTC, "2026-11-30T05:12:00Z" */
static void timestamp(struct strbuf *out, const char *started_at)
{
	size_t n;

	if (!started_at)
		return;
	n = strlen(started_at);
	strbuf_adds(out, " timestamp=\"");
	xml_escape(out, started_at);
	if (n && started_at[n - 1] == 'Z')
		out->buf[--out->len] = '\0';
	strbuf_addch(out, '"');
}

static void testsuite(const struct check_result *c, size_t ri, bool measurements,
		      struct strbuf *out)
{
	const struct run_record *run = &c->runs[ri];
	size_t tests = 0, failures = 0, skipped = 0, measured = 0;
	char n[24];

	for (size_t i = 0; i < c->nrows; i++) {
		if (c->rows[i].run_index != ri)
			continue;
		measured += c->rows[i].status == CHECK_MEASURED;
		if (!check_row_is_case(&c->rows[i], measurements))
			continue;
		tests++;
		failures += failed(&c->rows[i]);
		skipped += c->rows[i].status == CHECK_SKIPPED;
	}
	strbuf_adds(out, "  <testsuite");
	attr(out, "name", run->id);
	strbuf_addf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\"", tests,
		    failures, skipped);
	if (run->env.hostname)
		attr(out, "hostname", run->env.hostname);
	timestamp(out, run->started_at);
	strbuf_adds(out, ">\n    <properties>\n");
	property(out, "hostname", run->env.hostname);
	property(out, "board", run->env.board);
	property(out, "kernel", run->env.kernel);
	property(out, "kernel_build", run->env.kernel_build);
	property(out, "usbperf_version", run->env.usbperf_version);
	property(out, "baseline", c->baseline);
	property(out, "baseline_run", c->baseline_id);
	/* what was measured besides the checks: counted, not test cases */
	snprintf(n, sizeof(n), "%zu", measured);
	property(out, "measured_not_checked", n);
	strbuf_adds(out, "    </properties>\n");
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].run_index == ri && check_row_is_case(&c->rows[i], measurements))
			testcase(c, &c->rows[i], out);
	strbuf_adds(out, "  </testsuite>\n");
}

void render_junit(const struct check_result *c, bool measurements, struct strbuf *out)
{
	size_t tests = 0;

	for (size_t i = 0; i < c->nrows; i++)
		tests += check_row_is_case(&c->rows[i], measurements);
	strbuf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	strbuf_addf(out,
		    "<testsuites name=\"usbperf check\" tests=\"%zu\" failures=\"%llu\" "
		    "errors=\"0\" skipped=\"%llu\">\n",
		    tests, (unsigned long long)(c->failed + c->missing),
		    (unsigned long long)c->skipped);
	for (size_t ri = 0; ri < c->nruns; ri++)
		testsuite(c, ri, measurements, out);
	strbuf_adds(out, "</testsuites>\n");
}
