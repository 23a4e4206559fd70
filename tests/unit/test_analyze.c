// SPDX-License-Identifier: MIT
/* run_analyze: every bottleneck finding, triggered and not, from made-up figures. */
#include "unit.h"
#include "core/run/run.h"

#include <stdlib.h>
#include <string.h>

struct pass {
	const char *op, *access;
	uint32_t bs;
	double mb_s, cpu;
};

/* one device with these passes; ceiling NaN: not on USB */
static void build(struct run_result *r, const struct pass *p, size_t n, double ceiling,
		  const char *driver)
{
	struct run_device *d;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->disks = calloc(1, sizeof(*r->disks));
	r->ndisks = 1;
	r->disks[0].rows = calloc(n, sizeof(*r->disks[0].rows));
	r->disks[0].nrows = n;
	r->disks[0].usb.ceiling_basis = "test basis";
	for (i = 0; i < n; i++) {
		struct disk_row *row = &r->disks[0].rows[i];

		row->name = p[i].op[0] == 'r' ? (p[i].bs == 4096 ? "seq-read 4K" : "seq-read 1M")
					      : (p[i].bs == 4096 ? "seq-write 4K" : "seq-write 1M");
		row->op = p[i].op;
		row->access = p[i].access;
		row->bs = p[i].bs;
		row->mb_s = p[i].mb_s;
		row->self_cpu_pct = p[i].cpu;
		row->cached_pct = NAN;
	}
	d = run_record_add_device(&r->rec);
	d->key = strdup("2-1");
	d->speed = strdup("high");
	d->driver = driver ? strdup(driver) : NULL;
	d->ceiling_mb_s = ceiling;
}

static void release(struct run_result *r)
{
	free(r->disks[0].rows);
	r->disks[0].rows = NULL;
	r->disks[0].nrows = 0;
	run_result_release(r);
}

static bool has(const struct run_result *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->rec.findings.n; i++)
		if (!strcmp(r->rec.findings.v[i].id, id))
			return true;
	return false;
}

#define R(bs, v) {"read", "sequential", bs, v, 20}
#define W(bs, v) {"write", "sequential", bs, v, 20}

static void test_findings(void **state)
{
	static const struct {
		const char *what;
		struct pass p[4];
		size_t n;
		double ceiling;
		const char *driver, *id;
		bool want;
	} cases[] = {
		{"reads at 85% of HS", {R(4096, 30), R(1 << 20, 45.3)}, 2, 53.248, "uas", "run.bus_bound", true},
		{"reads at 60%: neither", {R(4096, 30), R(1 << 20, 32)}, 2, 53.248, "uas", "run.bus_bound", false},
		{"reads at 60%: not medium", {R(4096, 30), R(1 << 20, 32)}, 2, 53.248, "uas", "run.medium_bound", false},
		{"reads at 20%", {R(4096, 30), R(1 << 20, 100)}, 2, 484.8, "usb-storage", "run.medium_bound", true},
		{"off USB: no ceiling findings", {R(4096, 30), R(1 << 20, 100)}, 2, NAN, NULL, "run.medium_bound", false},
		{"above the ceiling", {R(4096, 30), R(1 << 20, 60)}, 2, 53.248, "uas", "run.above_ceiling", true},
		{"4K at 10% of 1M", {R(4096, 4), R(1 << 20, 40)}, 2, NAN, NULL, "run.small_blocks", true},
		{"4K at 50% of 1M", {R(4096, 20), R(1 << 20, 40)}, 2, NAN, NULL, "run.small_blocks", false},
		{"writes at 25% of reads", {R(4096, 30), R(1 << 20, 40), W(4096, 8), W(1 << 20, 10)}, 4, NAN, NULL, "run.write_slow", true},
		{"writes at 75% of reads", {R(4096, 30), R(1 << 20, 40), W(4096, 28), W(1 << 20, 30)}, 4, NAN, NULL, "run.write_slow", false},
		{"no writes: no write finding", {R(4096, 30), R(1 << 20, 40)}, 2, NAN, NULL, "run.write_slow", false},
		{"a core at 95%", {{"read", "sequential", 4096, 30, 95}, R(1 << 20, 40)}, 2, NAN, NULL, "run.cpu_bound", true},
		{"cores at 20%", {R(4096, 30), R(1 << 20, 40)}, 2, NAN, NULL, "run.cpu_bound", false},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct run_result r;

		build(&r, cases[i].p, cases[i].n, cases[i].ceiling, cases[i].driver);
		run_analyze(&r);
		if (has(&r, cases[i].id) != cases[i].want)
			fail_msg("%s: %s %s", cases[i].what, cases[i].id,
				 cases[i].want ? "missing" : "raised");
		release(&r);
	}
}

static void test_page_cache(void **state)
{
	struct pass p[] = {R(4096, 30), R(1 << 20, 40)};
	struct run_result r;

	(void)state;
	build(&r, p, 2, NAN, NULL);
	run_analyze(&r);
	assert_false(has(&r, "run.page_cache"));
	release(&r);
	build(&r, p, 2, NAN, NULL);
	r.disks[0].rows[1].cached_pct = 80;
	run_analyze(&r);
	assert_true(has(&r, "run.page_cache"));
	release(&r);
}

/* the small-block fix names the first block size that reaches the plateau */
static void test_small_block_advice(void **state)
{
	struct pass p[] = {R(4096, 4), R(65536, 38), R(1 << 20, 40)};
	struct run_result r;

	(void)state;
	build(&r, p, 3, NAN, NULL);
	r.disks[0].rows[1].name = "seq-read 64K";
	run_analyze(&r);
	assert_int_equal(r.rec.findings.n, 1);
	assert_non_null(strstr(r.rec.findings.v[0].fix, "read blocks of 64K or more"));
	assert_non_null(strstr(r.rec.findings.v[0].evidence, "seq-read 4K 4.0 MB/s against seq-read 1M 40.0 MB/s"));
	release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_findings),
		cmocka_unit_test(test_small_block_advice),
		cmocka_unit_test(test_page_cache),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
