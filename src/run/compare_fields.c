// SPDX-License-Identifier: MIT
/* compare's result as fields: its summary, the metrics, what was not judged, the caveats */
#include "run/compare.h"
#include "model/field.h"

#define T FF_TEXT
#define R struct compare_result
#define N(member, key) FIELD(R, member, key, key, NULL, FT_U64, 0, T)
static const struct field summary_fields[] = {
	FIELD(R, a_id, "a", "A", NULL, FT_STR, 0, T),
	FIELD(R, b_id, "b", "B", NULL, FT_STR, 0, T),
	FIELD(R, baseline, "baseline", "baseline (A)", NULL, FT_STR, 0, T),
	FIELD(R, threshold_pct, "threshold_pct", "threshold", "%", FT_DBL, 1, T),
	FIELD(R, result, "result", "result", NULL, FT_STR, 0, T),
	N(worse, "worse"),
	N(better, "better"),
	N(noise, "noise"),
	N(same, "same"),
	FIELD(R, spread_unknown, "spread_unknown", "spread unknown", NULL, FT_U64, 0, T),
	N(contended, "contended"),
	N(unknown, "unknown"),
	N(missing, "missing"),
	N(added, "new"),
	N(compared, "compared"),
};
#undef N
#undef R

#define W struct compare_row
#define S(member, key, header, flags) FIELD(W, member, key, header, NULL, FT_STR, 0, flags)
static const struct field row_fields[] = {
	S(device_key, "device", "device", T),
	S(test, "test", "test", T),
	S(name, "name", "pass", T),
	S(metric, "metric", "metric", T | FF_METRIC),
	S(unit, "unit", "unit", T),
	FIELD(W, a, "a", "A", NULL, FT_DBL, 2, T | FF_MAGNITUDE),
	FIELD(W, a_stdev, "a_stdev", "sd", NULL, FT_DBL, 2, T | FF_PLUSMINUS),
	FIELD(W, b, "b", "B", NULL, FT_DBL, 2, T | FF_MAGNITUDE),
	FIELD(W, b_stdev, "b_stdev", "sd", NULL, FT_DBL, 2, T | FF_PLUSMINUS),
	FIELD(W, change_pct, "change_pct", "change", "%", FT_DBL, 1, T),
	S(verdict, "verdict", "verdict", T),
	FIELD(W, higher_is_better, "higher_is_better", "higher is better", NULL, FT_BOOL, 0, 0),
	S(device_id, "device_id", "device identity", 0),
	S(a_spread, "a_spread", "A's spread from", 0),
	S(b_spread, "b_spread", "B's spread from", 0),
	S(why, "why", "why the spread is unknown", 0),
	S(todo, "todo", "what to do", 0),
};
#undef S
#undef W

#define V struct compare_caveat
static const struct field caveat_fields[] = {
	FIELD(V, subject, "subject", "subject", NULL, FT_STR, 0, T),
	FIELD(V, what, "what", "differs in", NULL, FT_STR, 0, T),
	FIELD(V, a, "a", "A", NULL, FT_STR, 0, T),
	FIELD(V, b, "b", "B", NULL, FT_STR, 0, T),
};
#undef V

#define K struct compare_unknown
static const struct field unknown_fields[] = {
	FIELD(K, device_key, "device", "device", NULL, FT_STR, 0, T),
	FIELD(K, pass, "name", "pass", NULL, FT_STR, 0, T),
	FIELD(K, verdict, "verdict", "verdict", NULL, FT_STR, 0, T),
	FIELD(K, metrics, "metrics", "metrics", NULL, FT_STR, 0, T),
	FIELD(K, why, "why", "why", NULL, FT_STR, 0, T | FF_PROSE),
	FIELD(K, todo, "todo", "next", NULL, FT_STR, 0, T | FF_PROSE),
};
#undef K
#undef T


const struct record_desc compare_summary_desc = RECORD_DESC("comparison", summary_fields);
const struct record_desc compare_row_desc = RECORD_DESC("compare_row", row_fields);
const struct record_desc compare_caveat_desc = RECORD_DESC("compare_caveat", caveat_fields);
const struct record_desc compare_unknown_desc = RECORD_DESC("compare_unknown", unknown_fields);

void compare_describe(const struct compare_result *c, struct report *out)
{
	report_add_object(out, "comparison", "comparison", &compare_summary_desc, c);
	report_add_table(out, "metrics", "metrics", &compare_row_desc, c->rows, c->nrows,
			 sizeof(*c->rows));
	report_add_table(out, "not_judged", "not judged: why, and what to do",
			 &compare_unknown_desc, c->unknowns, c->nunknowns, sizeof(*c->unknowns));
	report_add_table(out, "caveats", "caveats: the runs differ in", &compare_caveat_desc,
			 c->caveats, c->ncaveats, sizeof(*c->caveats));
}
