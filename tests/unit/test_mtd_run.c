// SPDX-License-Identifier: MIT
/*
 * mtd as a class of run: which targets it claims, run's region rule, the
 * passes of repeats folded into the record's metric rows (names, means,
 * spread, counts, ECC deltas), the class's findings over a record, the
 * metric table compare and check read, and the write sweep as report's
 * chart against the write size.
 */
#include "unit.h"
#include "classes/mtd/mtd_run.h"
#include "report/model.h"
#include "run/class.h"
#include "classes/copy/copy.h"
#include "model/record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void test_claims(void **state)
{
	static const struct {
		const char *target;
		bool chr;
		unsigned major;
		bool want;
	} t[] = {
	    {"/dev/mtd0", true, 90, true},    {"/dev/mtd0ro", true, 90, true},
	    {"/tmp/x/flash", true, 90, true}, /* a node of the MTD major, any name */
	    {"/dev/mtd12", false, 0, true},   /* missing or a FIFO: the MTD rules refuse it */
	    {"/tmp/mtd3ro", false, 0, true},  {"/dev/mtdblock0", false, 0, false},
	    {"/dev/mtd", false, 0, false},    {"/dev/mtd0x", false, 0, false},
	    {"/dev/null", true, 1, false},    {"/dev/sda", false, 8, false},
	    {"mtd1", false, 0, true},	      {"/dev/mtdro", false, 0, false},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		if (mtd_run_claims(t[i].target, t[i].chr, t[i].major) != t[i].want)
			fail_msg("%s: claimed %d", t[i].target, !t[i].want);
}

static void test_region(void **state)
{
	struct mtd_geometry big = {.index = 0, .size = 128ull << 20, .erasesize = 128 << 10},
			    small = {.index = 1, .size = 4 << 20, .erasesize = 16 << 10};
	struct strbuf why = STRBUF_INIT;
	uint64_t len = 0;

	(void)state;
	assert_int_equal(mtd_run_region(&big, 0, false, &len, &why), 0);
	assert_int_equal(len, MTD_RUN_QUICK_CAP);
	assert_int_equal(mtd_run_region(&big, 0, true, &len, &why), 0);
	assert_int_equal(len, MTD_DEFAULT_CAP);
	assert_int_equal(mtd_run_region(&small, 0, false, &len, &why), 0);
	assert_int_equal(len, 4 << 20);
	/* --size is run's, for every target: held to the device, whole eraseblocks */
	assert_int_equal(mtd_run_region(&small, 256ull << 20, false, &len, &why), 0);
	assert_int_equal(len, 4 << 20);
	assert_int_equal(mtd_run_region(&big, (1 << 20) + 1000, false, &len, &why), 0);
	assert_int_equal(len, 1 << 20);
	assert_int_equal(mtd_run_region(&big, 100 << 10, false, &len, &why), -EINVAL);
	assert_non_null(strstr(why.buf, "less than one eraseblock (131072 B)"));
	strbuf_release(&why);
}

static const struct run_metric *find(const struct run_record *r, const char *name,
				     const char *metric)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name) && !strcmp(r->metrics[i].metric, metric))
			return &r->metrics[i];
	return NULL;
}

static struct mtd_pass pass(const char *op, uint64_t io, double mb_s, double bps, uint64_t failed,
			    uint64_t mism, bool verified)
{
	return (struct mtd_pass){.op = op,
				 .io_size = io,
				 .blocks = 8,
				 .mb_s = mb_s,
				 .blocks_per_s = bps,
				 .failed = failed,
				 .mismatches = mism,
				 .verified = verified};
}

static void test_metrics(void **state)
{
	const struct mtd_pass r1[] = {
	    pass("erase", 16384, 100, 6000, 0, 0, false), pass("write", 512, 2, 120, 0, 0, false),
	    pass("write", 16384, 8, 480, 0, 0, false), pass("read", 16384, 40, 2400, 0, 0, true)};
	const struct mtd_pass r2[] = {
	    pass("erase", 16384, 120, 7000, 0, 0, false), pass("write", 512, 4, 240, 0, 0, false),
	    pass("write", 16384, 8, 480, 1, 0, false), pass("read", 16384, 50, 3000, 0, 2, true),
	    /* a pass stopped before its first eraseblock adds nothing */
	    (struct mtd_pass){.op = "read", .io_size = 16384, .interrupted = true}};
	const struct mtd_ecc before = {true, 3, 0, 2, 1}, after = {true, 7, 1, 3, 1};
	struct mtd_run_acc acc[MTD_RUN_MAX_ACC];
	struct run_record rec = {0};
	const struct run_metric *m;
	size_t n = 0;

	(void)state;
	mtd_run_acc_add(acc, &n, r1, ARRAY_SIZE(r1));
	mtd_run_acc_add(acc, &n, r2, ARRAY_SIZE(r2));
	assert_int_equal(n, 4);
	mtd_run_add_metrics(&rec, "mtd0", acc, n, 2, &before, &after);
	m = find(&rec, "write 512", "mb_s");
	assert_non_null(m);
	assert_string_equal(m->test, "mtd");
	assert_string_equal(m->unit, "MB/s");
	assert_true(m->higher_is_better);
	assert_near(m->value, 3, 1e-9);
	assert_near(m->stdev, sqrt(2), 1e-9);
	assert_near(m->min, 2, 1e-9);
	assert_near(m->max, 4, 1e-9);
	assert_int_equal(m->repeats, 2);
	assert_nan(m->ceiling); /* raw flash: no link */
	assert_near(find(&rec, "write 512", "eraseblocks_per_s")->value, 180, 1e-9);
	assert_near(find(&rec, "write 16K", "mb_s")->value, 8, 1e-9);
	assert_near(find(&rec, "write 16K", "mb_s")->stdev, 0, 1e-9);
	assert_near(find(&rec, "write 16K", "failed_blocks")->value, 1, 1e-9);
	assert_near(find(&rec, "erase", "mb_s")->value, 110, 1e-9);
	assert_near(find(&rec, "read", "mb_s")->value, 45, 1e-9);
	/* only the pass that compared says how many pages differed */
	assert_near(find(&rec, "read", "mismatched_pages")->value, 2, 1e-9);
	assert_null(find(&rec, "erase", "mismatched_pages"));
	assert_near(find(&rec, "region", "bad_blocks")->value, 2, 1e-9);
	m = find(&rec, "ecc", "ecc_corrected");
	assert_near(m->value, 4, 1e-9);
	assert_false(m->higher_is_better);
	assert_string_equal(m->unit, "bitflips");
	assert_near(find(&rec, "ecc", "ecc_failed")->value, 1, 1e-9);
	assert_near(find(&rec, "ecc", "bad_blocks_grown")->value, 1, 1e-9);
	run_record_release(&rec);

	/* no ECCGETSTATS (NOR, RAM): no ECC rows rather than zeros */
	memset(&rec, 0, sizeof(rec));
	mtd_run_add_metrics(&rec, "mtd0", acc, n, 0, &(struct mtd_ecc){0}, &after);
	assert_null(find(&rec, "ecc", "ecc_corrected"));
	assert_near(find(&rec, "region", "bad_blocks")->value, 0, 1e-9);
	run_record_release(&rec);
}

static void add(struct run_record *r, const char *name, const char *metric, double v)
{
	const struct class_metric *cm = run_class_metric_of("mtd", metric);
	struct run_metric *m;

	assert_non_null(cm);
	m = run_record_add_metric(r, "mtd0", "mtd", name, metric, cm->unit, cm->higher_is_better);
	m->value = v;
}

static bool has(const struct finding_list *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].id, id))
			return true;
	return false;
}

static void record(struct run_record *r, double corrected, double small_write)
{
	struct run_device *d = run_record_add_device(r);

	d->key = strdup("mtd0");
	add(r, "erase", "mb_s", 100);
	add(r, "write 2K", "mb_s", small_write);
	add(r, "write 128K", "mb_s", 10);
	add(r, "read", "mb_s", 40);
	add(r, "read", "mismatched_pages", 0);
	add(r, "region", "bad_blocks", 0);
	add(r, "ecc", "ecc_corrected", corrected);
	add(r, "ecc", "ecc_failed", 0);
	add(r, "ecc", "bad_blocks_grown", 0);
}

static void test_findings(void **state)
{
	struct finding_list l = FINDING_LIST_INIT;
	struct run_record r = {0};

	(void)state;
	/* a clean run, writes as fast at a page as at an eraseblock: nothing to say */
	record(&r, 0, 9);
	mtd_run_findings(&r, &l);
	assert_int_equal(l.n, 0);
	run_record_release(&r);

	memset(&r, 0, sizeof(r));
	record(&r, 5, 4);
	mtd_run_findings(&r, &l);
	assert_int_equal(l.n, 2);
	assert_true(has(&l, "mtd.ecc_corrected"));
	assert_string_equal(l.v[0].subject, "mtd0");
	assert_string_equal(l.v[0].message,
			    "5 bitflips corrected by ECC during the run (ECCGETSTATS corrected)");
	assert_true(has(&l, "mtd.small_writes"));
	assert_string_equal(l.v[1].message, "writes of 2K are 60 % slower than writes of 128K");
	assert_false(has(&l, "mtd.ecc_failed"));
	finding_list_release(&l);
	run_record_release(&r);

	/* the page-sized writes as fast as the best, one in the middle slower: not small writes */
	memset(&r, 0, sizeof(r));
	record(&r, 0, 10);
	add(&r, "write 16K", "mb_s", 3);
	mtd_run_findings(&r, &l);
	assert_false(has(&l, "mtd.small_writes"));
	finding_list_release(&l);
	run_record_release(&r);
}

static void test_class_and_report(void **state)
{
	const struct measure_class *c = run_class_find("mtd");
	struct run_record r = {0};
	struct report_model m;
	const struct rm_device *d;

	(void)state;
	assert_non_null(c);
	assert_non_null(c->verdict);
	assert_non_null(c->analyze);
	assert_false(run_class_metric_of("mtd", "ecc_failed")->higher_is_better);
	assert_true(run_class_metric_of("mtd", "eraseblocks_per_s")->higher_is_better);
	record(&r, 0, 4);
	assert_int_equal(report_model_build(&r, 1, &m), 0);
	d = &m.devices[0];
	assert_string_equal(d->axis, "write size");
	assert_int_equal(d->nsweeps, 1);
	assert_string_equal(d->sweeps[0].label, "write");
	assert_int_equal(d->sweeps[0].npts, 2);
	assert_int_equal(d->sweeps[0].pts[0].block, 2048);
	assert_int_equal(d->sweeps[0].pts[1].block, 128 << 10);
	/* erase and read are figures of their own */
	assert_int_equal(d->nrates, 2);
	report_model_release(&m);
	run_record_release(&r);
}

/* a flash in memory: 8 eraseblocks of 4 KiB, 512 B pages; erased reads 0xff */
#define EB 4096
#define NB 8
struct fake {
	uint8_t mem[NB * EB];
	bool bad[NB], erased[NB];
	unsigned erases, writes;
	bool bad_write; /* a write to a page not erased since written */
	uint8_t written[NB * EB / 512];
};

static int f_isbad(void *ctx, uint64_t off)
{
	return ((struct fake *)ctx)->bad[off / EB];
}

static int f_erase(void *ctx, uint64_t off, uint64_t len)
{
	struct fake *f = ctx;

	assert_int_equal(off % EB, 0);
	assert_int_equal(len, EB);
	assert_false(f->bad[off / EB]); /* a bad eraseblock is never touched */
	memset(f->mem + off, 0xff, EB);
	memset(f->written + off / 512, 0, EB / 512);
	f->erases++;
	return 0;
}

static ssize_t f_pwrite(void *ctx, const void *buf, size_t len, uint64_t off)
{
	struct fake *f = ctx;

	assert_int_equal(off % 512, 0);
	assert_int_equal(len % 512, 0);
	assert_true(off + len <= NB * EB);
	for (uint64_t p = off / 512; p < (off + len) / 512; p++) {
		assert_false(f->bad[p * 512 / EB]);
		f->bad_write |= f->written[p];
		f->written[p] = 1;
	}
	memcpy(f->mem + off, buf, len);
	f->writes++;
	return (ssize_t)len;
}

static ssize_t f_pread(void *ctx, void *buf, size_t len, uint64_t off)
{
	memcpy(buf, ((struct fake *)ctx)->mem + off, len);
	return (ssize_t)len;
}

static void test_copy_sink(void **state)
{
	static struct fake f;
	struct mtd_io io = {&f, f_isbad, f_erase, f_pwrite, f_pread};
	struct run_copy_sink sink;
	struct mtd_sink s;
	uint64_t cap = 0;
	char data[3 * EB + 700];

	(void)state;
	memset(&f, 0, sizeof(f));
	f.bad[1] = f.bad[4] = true;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (char)(i * 7 + 3);
	assert_int_equal(mtd_sink_init(&s, &io, NB * EB, EB, 512, &cap), 0);
	assert_int_equal(cap, 6 * EB); /* 8 eraseblocks, 2 bad */
	mtd_sink_as_copy(&s, "/dev/mtd9", &sink);
	assert_string_equal(sink.what, "/dev/mtd9");
	/* twice, as the copy does at each chunk size: begin starts over */
	for (int round = 0; round < 2; round++) {
		f.erases = 0;
		assert_int_equal(sink.begin(sink.ctx), 0);
		/* chunks of 3000 B: neither a page nor an eraseblock */
		for (size_t off = 0; off < sizeof(data); off += 3000) {
			size_t n = sizeof(data) - off < 3000 ? sizeof(data) - off : 3000;

			assert_int_equal(sink.write(sink.ctx, data + off, n), 0);
		}
		assert_int_equal(sink.end(sink.ctx), 0);
		/* 4 eraseblocks used, each erased once, bad ones skipped: 0, 2, 3, 5 */
		assert_int_equal(f.erases, 4);
	}
	assert_false(f.bad_write);
	assert_memory_equal(f.mem, data, EB);
	assert_memory_equal(f.mem + 2 * EB, data + EB, 2 * EB);
	assert_memory_equal(f.mem + 5 * EB, data + 3 * EB, 700);
	/* the tail padded to its page as erased flash reads, the rest left erased */
	for (size_t i = 700; i < EB; i++)
		if (f.mem[5 * EB + i] != 0xff)
			fail_msg("byte %zu of the tail's eraseblock is 0x%02x", i,
				 f.mem[5 * EB + i]);
	/* more than the good eraseblocks hold: no space, not a write over a bad one */
	{
		static char big[7 * EB];

		assert_int_equal(sink.begin(sink.ctx), 0);
		assert_int_equal(sink.write(sink.ctx, big, sizeof(big)), -ENOSPC);
	}
	mtd_sink_release(&s);
	/* a region that is no eraseblock */
	assert_int_equal(mtd_sink_init(&s, &io, EB - 512, EB, 512, &cap), -EINVAL);
}

static int f_isbad_err(void *ctx, uint64_t off)
{
	(void)ctx;
	return off == 3 * EB ? -EIO : 0;
}

static void test_copy_source(void **state)
{
	static struct fake f;
	struct mtd_io io = {&f, f_isbad, f_erase, f_pwrite, f_pread};
	struct run_copy_source src;
	struct mtd_source s;
	uint64_t size = 0;
	static char out[NB * EB];

	(void)state;
	memset(&f, 0, sizeof(f));
	for (size_t i = 0; i < sizeof(f.mem); i++)
		f.mem[i] = (uint8_t)(i / EB * 31 + i % 251);
	f.bad[0] = f.bad[3] = true;
	/* all the good eraseblocks: 6 of 8 */
	assert_int_equal(mtd_source_init(&s, &io, NB * EB, EB, 0, &size), 0);
	assert_int_equal(size, 6 * EB);
	mtd_source_as_copy(&s, "/dev/mtd9", &src);
	assert_string_equal(src.what, "/dev/mtd9");
	/* twice, as the copy does at each chunk size: begin starts over */
	for (int round = 0; round < 2; round++) {
		size_t got = 0;
		ssize_t n;

		memset(out, 0, sizeof(out));
		assert_int_equal(src.begin(src.ctx), 0);
		/* 3000 B at a time: neither a page nor an eraseblock */
		while ((n = src.read(src.ctx, out + got, 3000)) > 0)
			got += (size_t)n;
		assert_int_equal(n, 0);
		assert_int_equal(got, 6 * EB);
		/* the good eraseblocks in order, the bad ones (0, 3) never read */
		assert_memory_equal(out, f.mem + 1 * EB, 2 * EB);
		assert_memory_equal(out + 2 * EB, f.mem + 4 * EB, 4 * EB);
	}
	assert_int_equal(f.erases, 0);
	assert_int_equal(f.writes, 0);
	mtd_source_release(&s);
	/* at most what is wanted: 2.5 eraseblocks */
	assert_int_equal(mtd_source_init(&s, &io, NB * EB, EB, 2 * EB + EB / 2, &size), 0);
	assert_int_equal(size, 2 * EB + EB / 2);
	mtd_source_as_copy(&s, "/dev/mtd9", &src);
	assert_int_equal(src.begin(src.ctx), 0);
	{
		size_t got = 0;
		ssize_t n;

		while ((n = src.read(src.ctx, out + got, 1 << 20)) > 0)
			got += (size_t)n;
		assert_int_equal(got, 2 * EB + EB / 2);
		assert_memory_equal(out + 2 * EB, f.mem + 4 * EB, EB / 2);
	}
	mtd_source_release(&s);
	/* every eraseblock bad: nothing to copy; no eraseblock; MEMGETBADBLOCK failing */
	memset(f.bad, 1, sizeof(f.bad));
	assert_int_equal(mtd_source_init(&s, &io, NB * EB, EB, 0, &size), -ENOSPC);
	assert_int_equal(mtd_source_init(&s, &io, EB - 512, EB, 0, &size), -EINVAL);
	io.isbad = f_isbad_err;
	assert_int_equal(mtd_source_init(&s, &io, NB * EB, EB, 0, &size), -EIO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_claims),	     cmocka_unit_test(test_region),
	    cmocka_unit_test(test_metrics),	     cmocka_unit_test(test_findings),
	    cmocka_unit_test(test_class_and_report), cmocka_unit_test(test_copy_sink),
	    cmocka_unit_test(test_copy_source),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
