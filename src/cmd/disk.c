// SPDX-License-Identifier: MIT
/* usbperf disk TARGET: parse options, build the pass list, run, render. */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "classes/disk/disk.h"
#include "classes/disk/fields.h"
#include "platform/sys/irqwatch.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/xalloc.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define DEFAULT_BS "4K,16K,64K,128K,512K,1M"
#define DEFAULT_SIZE (128ULL << 20)
#define DEFAULT_TIME_S 5.0
/* twice the 0.5 s under which the run warns of start-up effects; 10 bandwidth samples */
#define DEFAULT_MIN_TIME_S 1.0
/* CrystalDiskMark's defaults: a 1 GiB test file, each test 5 times, the best shown */
#define CDM_SIZE (1ULL << 30)
#define CDM_REPEAT 5
#define MAX_BS_ITEMS 32

enum {
	T_SEQ_READ = 1 << 0,
	T_SEQ_WRITE = 1 << 1,
	T_RAND_READ = 1 << 2,
	T_RAND_WRITE = 1 << 3,
	T_WRITES = T_SEQ_WRITE | T_RAND_WRITE,
	T_ALL = 15,
};

void usage_disk(void)
{
	printf("usage: usbperf disk TARGET [options]\n"
	       "\n"
	       "Measure storage the way bring-up guides do with dd, properly: sequential read and\n"
	       "write over a block-size sweep, random 4K IOPS, latency percentiles, CPU use.\n"
	       "TARGET is a directory (a test file is created there and removed afterwards), a\n"
	       "file, or a block device (read-only unless --destructive).\n"
	       "\n");
	opt_usage(stdout, disk_options);
	printf("\n"
	       "Rates: MB/s = 10^6 B/s, MiB/s = 2^20 B/s. Exit: 0 ok, 1 verify mismatch,\n"
	       "2 bad input or refused (nothing written), 3 runtime error (partial results).\n");
}

struct disk_opts {
	uint64_t *bs;
	size_t nbs;
	uint64_t rand_bs;
	unsigned tests;
	bool tests_explicit;
	unsigned modes; /* bit per enum disk_mode */
	const struct disk_engine_ops *engine;
	uint64_t qd;
	bool cdm;
	bool size_set, repeat_set, qd_set, seed_set;
	int cpu; /* -1: not pinned */
	struct disk_config cfg;
};

static int parse_tests(const char *s, unsigned *ret)
{
	static const struct {
		const char *name;
		unsigned bits;
	} names[] = {
		{"seq-read", T_SEQ_READ},   {"seq-write", T_SEQ_WRITE},
		{"rand-read", T_RAND_READ}, {"rand-write", T_RAND_WRITE},
		{"read", T_SEQ_READ | T_RAND_READ}, {"write", T_WRITES},
		{"seq", T_SEQ_READ | T_SEQ_WRITE}, {"rand", T_RAND_READ | T_RAND_WRITE},
		{"all", T_ALL},
	};
	char *copy = strdup(s), *tok, *save = NULL;
	unsigned bits = 0;
	size_t i;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(tok, names[i].name))
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			r = -EINVAL;
			break;
		}
		bits |= names[i].bits;
	}
	free(copy);
	if (r == 0 && !bits)
		r = -EINVAL;
	if (r == 0)
		*ret = bits;
	return r;
}

static int parse_modes(const char *s, unsigned *ret)
{
	char *copy = strdup(s), *tok, *save = NULL;
	unsigned bits = 0;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "direct"))
			bits |= 1u << DISK_DIRECT;
		else if (!strcmp(tok, "buffered"))
			bits |= 1u << DISK_BUFFERED;
		else
			r = -EINVAL;
	}
	free(copy);
	if (r == 0 && !bits)
		r = -EINVAL;
	if (r == 0)
		*ret = bits;
	return r;
}

static void add_pass(struct disk_opts *o, const char *name, enum disk_op op, enum disk_access a,
		     enum disk_mode m, uint64_t bs, uint64_t qd, const struct disk_engine_ops *eng)
{
	struct disk_pass_spec *s = &o->cfg.passes[o->cfg.npasses++];

	snprintf(s->name, sizeof(s->name), "%s", name);
	s->op = op;
	s->access = a;
	s->mode = m;
	s->bs = (uint32_t)bs;
	s->qd = (uint32_t)qd;
	s->engine = eng ? eng : (qd > 1 ? &disk_engine_io_uring : &disk_engine_psync);
}

static void build_passes(struct disk_opts *o)
{
	char sz[24], name[48];
	unsigned m;
	size_t i;

	if (o->cdm) {
		static const struct {
			const char *name;
			enum disk_access a;
			uint64_t bs, qd;
		} rows[] = {{"SEQ1M Q8T1", DISK_SEQ, 1 << 20, 8},
			    {"SEQ1M Q1T1", DISK_SEQ, 1 << 20, 1},
			    {"RND4K Q32T1", DISK_RAND, 4096, 32},
			    {"RND4K Q1T1", DISK_RAND, 4096, 1}};
		for (i = 0; i < 4; i++) {
			if (o->tests & (rows[i].a == DISK_SEQ ? T_SEQ_READ : T_RAND_READ))
				add_pass(o, rows[i].name, DISK_READ, rows[i].a, DISK_DIRECT, rows[i].bs,
					 rows[i].qd, o->engine && rows[i].qd == 1 ? o->engine : NULL);
			if (o->tests & (rows[i].a == DISK_SEQ ? T_SEQ_WRITE : T_RAND_WRITE))
				add_pass(o, rows[i].name, DISK_WRITE, rows[i].a, DISK_DIRECT, rows[i].bs,
					 rows[i].qd, o->engine && rows[i].qd == 1 ? o->engine : NULL);
		}
		return;
	}
	for (m = 0; m < 2; m++) {
		if (!(o->modes & (1u << m)))
			continue;
		for (i = 0; i < o->nbs && (o->tests & T_SEQ_READ); i++) {
			format_size(o->bs[i], sz, sizeof(sz));
			snprintf(name, sizeof(name), "seq-read %s", sz);
			add_pass(o, name, DISK_READ, DISK_SEQ, m, o->bs[i], o->qd, o->engine);
		}
		for (i = 0; i < o->nbs && (o->tests & T_SEQ_WRITE); i++) {
			format_size(o->bs[i], sz, sizeof(sz));
			snprintf(name, sizeof(name), "seq-write %s", sz);
			add_pass(o, name, DISK_WRITE, DISK_SEQ, m, o->bs[i], o->qd, o->engine);
		}
		format_size(o->rand_bs, sz, sizeof(sz));
		if (o->tests & T_RAND_READ) {
			snprintf(name, sizeof(name), "rand-read %s", sz);
			add_pass(o, name, DISK_READ, DISK_RAND, m, o->rand_bs, o->qd, o->engine);
		}
		if (o->tests & T_RAND_WRITE) {
			snprintf(name, sizeof(name), "rand-write %s", sz);
			add_pass(o, name, DISK_WRITE, DISK_RAND, m, o->rand_bs, o->qd, o->engine);
		}
	}
}

static bool any_write(const struct disk_config *c)
{
	size_t i;

	for (i = 0; i < c->npasses; i++)
		if (c->passes[i].op == DISK_WRITE)
			return true;
	return false;
}

static void drop_writes(struct disk_config *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->npasses; i++)
		if (c->passes[i].op != DISK_WRITE)
			c->passes[n++] = c->passes[i];
	c->npasses = n;
}

static void progress(void *ctx, const struct disk_progress *p)
{
	(void)ctx;
	if (!strcmp(p->phase, "layout"))
		fprintf(stderr, "\r\033[Klayout  %3.0f%%  %.1f MB/s", 100.0 * (double)p->done_bytes /
								   (double)p->total_bytes,
			p->rate_Bps / 1e6);
	else {
		/* done when the bytes and the minimum time are, or at the time cap */
		double by_bytes = (double)p->done_bytes / (double)p->total_bytes;
		double by_min = p->min_s > 0 ? p->elapsed_s / p->min_s : 1;
		double by_floor = by_bytes < by_min ? by_bytes : by_min;
		double by_time = p->elapsed_s / p->limit_s;
		double pct = 100.0 * (by_floor > by_time ? by_floor : by_time);
		fprintf(stderr, "\r\033[K[%u/%u] %s %s", p->pass_index, p->pass_count, p->spec->name,
			disk_mode_name(p->spec->mode));
		if (p->repeats > 1)
			fprintf(stderr, " (%u/%u)", p->repeat, p->repeats);
		fprintf(stderr, "  %3.0f%%  %.1f MB/s", pct > 100 ? 100 : pct, p->rate_Bps / 1e6);
	}
	fflush(stderr);
}

#include "cmd/disk.opts.h"

static int disk_option(int c, const char *arg, void *ctx)
{
	struct disk_opts *o = ctx;
	uint64_t v;
	int r;

	switch (c) {
	case DISK_O_BS:
		free(o->bs);
		o->bs = NULL;
		r = parse_size_list(arg, 512, DISK_MAX_BS, MAX_BS_ITEMS, &o->bs, &o->nbs);
		if (r < 0) {
			log_error("invalid --bs '%s': expected sizes 512..64M separated by commas "
				  "(at most %d)",
				  arg, MAX_BS_ITEMS);
			return -EINVAL;
		}
		return 0;
	case DISK_O_TESTS:
		if (parse_tests(arg, &o->tests) < 0) {
			log_error("invalid --tests '%s': expected seq-read, seq-write, rand-read, "
				  "rand-write, read, write, seq, rand or all",
				  arg);
			return -EINVAL;
		}
		o->tests_explicit = true;
		return 0;
	case DISK_O_MODE:
		if (parse_modes(arg, &o->modes) < 0) {
			log_error("invalid --mode '%s': expected direct, buffered or both "
				  "separated by a comma",
				  arg);
			return -EINVAL;
		}
		return 0;
	case DISK_O_ENGINE:
		o->engine = disk_engine_find(arg);
		if (!o->engine) {
			log_error("invalid --engine '%s': expected psync, io_uring or null",
				  arg);
			return -EINVAL;
		}
		return 0;
	case DISK_O_QD:
		if (parse_u64(arg, 1, DISK_MAX_QD, &o->qd) < 0) {
			log_error("invalid --qd '%s': expected 1..%u", arg, DISK_MAX_QD);
			return -EINVAL;
		}
		o->qd_set = true;
		return 0;
	case DISK_O_PRESET:
		if (strcmp(arg, "cdm")) {
			log_error("invalid --preset '%s': expected cdm", arg);
			return -EINVAL;
		}
		o->cdm = true;
		return 0;
	case DISK_O_SIZE:
		if (parse_size(arg, 4096, 1ULL << 50, &o->cfg.size) < 0) {
			log_error("invalid --size '%s': expected a size from 4K, e.g. 256M or 4G",
				  arg);
			return -EINVAL;
		}
		o->size_set = true;
		return 0;
	case DISK_O_REPEAT:
		if (parse_u64(arg, 1, DISK_MAX_REPEAT, &v) < 0) {
			log_error("invalid --repeat '%s': expected 1..%u", arg,
				  DISK_MAX_REPEAT);
			return -EINVAL;
		}
		o->cfg.repeat = (unsigned)v;
		o->repeat_set = true;
		return 0;
	case DISK_O_SEED:
		if (parse_u64(arg, 0, UINT64_MAX, &o->cfg.seed) < 0) {
			log_error("invalid --seed '%s': expected a whole number", arg);
			return -EINVAL;
		}
		o->seed_set = true;
		return 0;
	case DISK_O_CPU:
		if (parse_u64(arg, 0, CPU_SETSIZE - 1, &v) < 0) {
			log_error("invalid --cpu '%s': expected a CPU number", arg);
			return -EINVAL;
		}
		o->cpu = (int)v;
		return 0;
	}
	return -ENOENT;
}

static int parse_args(int argc, char **argv, struct global_opts *g, struct disk_opts *o,
		      const char **ret_target)
{
	int r = parse_bound(argc, argv, g, "disk", disk_options, usage_disk, disk_binds,
			    disk_option, o);

	if (r != 0)
		return r > 0 ? 1 : -EINVAL;
	if (optind >= argc) {
		log_error("disk: missing TARGET (a directory, file or block device; see 'usbperf "
			  "disk -h')");
		return -EINVAL;
	}
	if (optind + 1 < argc) {
		log_error("disk: unexpected argument '%s' (one TARGET at a time)", argv[optind + 1]);
		return -EINVAL;
	}
	*ret_target = argv[optind];
	if (o->engine && o->engine->max_qd < o->qd) {
		log_error("--engine %s runs at queue depth 1: use --engine io_uring for --qd %llu",
			  o->engine->name, (unsigned long long)o->qd);
		return -EINVAL;
	}
	if (o->cdm && (o->qd_set || o->nbs)) {
		log_error("--preset cdm sets block sizes and queue depths itself: drop --bs/--qd");
		return -EINVAL;
	}
	if (o->cdm) {
		o->cfg.best_of = true;
		if (!o->size_set)
			o->cfg.size = CDM_SIZE;
		if (!o->repeat_set)
			o->cfg.repeat = CDM_REPEAT;
	}
	if (o->cfg.verify && o->engine == &disk_engine_null) {
		log_error("--verify needs an engine that moves data: the null engine reads nothing");
		return -EINVAL;
	}
	if (!o->seed_set && getrandom(&o->cfg.seed, sizeof(o->cfg.seed), 0) != sizeof(o->cfg.seed))
		o->cfg.seed = (uint64_t)getpid() * 0x9E3779B97F4A7C15ULL;
	return 0;
}

static int check_sizes(const struct disk_opts *o, const struct disk_target *t)
{
	size_t i;

	for (i = 0; i < o->cfg.npasses; i++) {
		const struct disk_pass_spec *s = &o->cfg.passes[i];
		char b[32];

		format_size(s->bs, b, sizeof(b));
		if (s->bs % t->align) {
			log_error("block size %s is not a multiple of the %u-byte logical block of "
				  "'%s'",
				  b, t->align, t->path);
			return -EINVAL;
		}
		if (s->bs > t->size) {
			log_error("block size %s is larger than the tested region (%llu bytes): "
				  "raise --size",
				  b, (unsigned long long)t->size);
			return -EINVAL;
		}
	}
	return 0;
}

/* --preset cdm promises CrystalDiskMark's 1 GiB: a smaller device or file is refused, not
 * quietly measured over less (a directory without the room is refused when the file is made) */
static int check_cdm_size(const struct disk_opts *o, const struct disk_target *t)
{
	char has[24];

	if (!o->cdm || o->size_set || t->size >= o->cfg.size)
		return 0;
	format_size(t->size, has, sizeof(has));
	log_error("'%s' has %s, less than the 1 GiB --preset cdm tests (CrystalDiskMark's "
		  "default): pass --size to test less",
		  t->path, has);
	return -EINVAL;
}

/* how long it will take, before it starts: stderr, so JSON on stdout stays clean */
static void say_estimate(const struct global_opts *g, const struct disk_config *cfg,
			 const struct disk_target *t)
{
	struct estimate e = {0};
	struct strbuf sb = STRBUF_INIT;

	if (g->quiet)
		return;
	disk_estimate_add(&e, cfg, t);
	estimate_describe(&e, &sb);
	if (sb.len)
		fprintf(stderr, "usbperf: %s\n", sb.buf);
	strbuf_release(&sb);
}

static int exit_status(const struct disk_report *rep)
{
	if (signal_stop)
		return 128 + signal_stop;
	if (rep->verify_errors_total)
		return EXIT_FAIL;
	if (rep->error)
		return EXIT_RUNTIME;
	return EXIT_OK;
}

void schema_disk(struct report *r)
{
	static const struct disk_report every = {.npairs = 1, .verify = true};

	disk_report_describe(&every, true, r);
}

int cmd_disk(int argc, char **argv, struct global_opts *g)
{
	struct disk_pass_spec passes[DISK_MAX_PASSES];
	struct disk_opts o = {
		.rand_bs = 4096,
		.tests = T_ALL,
		.modes = 1u << DISK_DIRECT,
		.qd = 1,
		.cpu = -1,
		.cfg = {.passes = passes,
			.repeat = 1,
			.size = DEFAULT_SIZE,
			.time_s = DEFAULT_TIME_S,
			.min_time_s = DEFAULT_MIN_TIME_S},
	};
	struct disk_target t = {.fd = -1, .fd_buf = -1};
	struct disk_report rep = {0};
	struct report view = {.command = "disk"};
	const char *target = NULL, *skipped = NULL;
	char *why = NULL, *irq_lines = NULL;
	int r, status = EXIT_USAGE;

	r = parse_args(argc, argv, g, &o, &target);
	if (r > 0) {
		status = EXIT_OK;
		goto out;
	}
	if (r < 0)
		goto out;
	if (!o.bs && parse_size_list(DEFAULT_BS, 512, DISK_MAX_BS, MAX_BS_ITEMS, &o.bs, &o.nbs) < 0)
		goto out;
	if (check_output_target(g, target, "the target being measured") < 0)
		goto out;
	if (o.cpu >= 0) {
		/* the loop/USB worker and we stop trading places: QD1 runs steadier */
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(o.cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			log_error("cannot pin to --cpu %d: %s", o.cpu, strerror(errno));
			goto out;
		}
	}
	build_passes(&o);
	for (size_t i = 0; o.cfg.verify && i < o.cfg.npasses; i++) {
		if (o.cfg.passes[i].bs % PATTERN_UNIT) {
			log_error("--verify needs block sizes in multiples of %u bytes", PATTERN_UNIT);
			goto out;
		}
	}
	o.cfg.stop = &signal_stop;
	if (g->progress) {
		o.cfg.progress = progress;
		o.cfg.progress_ctx = NULL;
	}

	r = disk_target_open(target, &o.cfg, any_write(&o.cfg), &t, &why);
	if (r == -EROFS && !o.tests_explicit) {
		/* no writes asked for by name: measure what is allowed, and say why */
		skipped = why;
		why = NULL;
		drop_writes(&o.cfg);
		r = disk_target_open(target, &o.cfg, false, &t, &why);
	}
	if (r < 0) {
		log_error("%s", why);
		status = r == -EIO || r == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	signals_set_cleanup(disk_target_cleanup_path(&t));
	if (check_sizes(&o, &t) < 0 || check_cdm_size(&o, &t) < 0)
		goto out_close;
	if (!o.cfg.npasses) {
		log_error("no tests left to run on '%s'", target);
		goto out_close;
	}

	say_estimate(g, &o.cfg, &t);
	/* where the controller's interrupts land during each pass; none known: not watched */
	if (irq_lines_of_block(t.dev_major, t.dev_minor, &irq_lines) == 0)
		o.cfg.irq_lines = irq_lines;
	r = disk_run(&t, &o.cfg, &rep);
	if (g->progress)
		fputs("\r\033[K", stderr);
	if (r < 0) {
		log_error("disk: %s", strerror(-r));
		status = EXIT_RUNTIME;
		goto out_close;
	}
	if (skipped)
		disk_report_note(&rep, "write tests skipped: %s", skipped);
	if (t.keep && t.created)
		disk_report_note(&rep, "test file kept: '%s'", t.io_path);
	if (o.cpu >= 0)
		disk_report_note(&rep, "usbperf was pinned to CPU %d", o.cpu);
	if (rep.interrupted)
		disk_report_note(&rep, "interrupted by signal %d: results so far", (int)signal_stop);
	if (o.cdm && disk_report_pair(&rep) < 0) {
		log_error("disk: out of memory");
		status = EXIT_RUNTIME;
		goto out_close;
	}
	disk_report_describe(&rep, g->format == FORMAT_JSON, &view);
	status = exit_status(&rep);
	if (emit_report(g, &view) < 0 && status == EXIT_OK)
		status = EXIT_RUNTIME;
	if (rep.verify_errors_total)
		log_error("verify: %llu bad 512-byte units, first at offset %llu",
			  (unsigned long long)rep.verify_errors_total,
			  (unsigned long long)(rep.nverrs ? rep.verrs[0].offset : 0));
	else if (rep.error)
		log_error("disk: measurement ended early: %s", strerror(-rep.error));
out_close:
	disk_target_close(&t);
	signals_set_cleanup(NULL);
	disk_report_release(&rep);
out:
	free_all(why, irq_lines);
	free((char *)skipped);
	free(o.bs);
	return status;
}
