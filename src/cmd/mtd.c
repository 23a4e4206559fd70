// SPDX-License-Identifier: MIT
/*
 * usbperf mtd /dev/mtdN: raw flash (NAND, NOR) erase, write and read rates
 * over an eraseblock-aligned region, next to the device's geometry; bad
 * eraseblocks skipped and counted, ECC counters before and after.
 */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "classes/mtd/fields.h"
#include "util/parse.h"
#include "util/signals.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

void usage_mtd(void)
{
	printf("usage: usbperf mtd /dev/mtdN [--size S] [--destructive [--verify]]\n"
	       "                  [--write-sizes LIST] [--force-boot NAME] [options]\n"
	       "\n"
	       "Raw flash (NAND, NOR, RAM) through the MTD character device: its geometry\n"
	       "(page, OOB, eraseblock, partition, bad eraseblocks, ECC counters) and the\n"
	       "rates of reading, erasing and writing it, in MB/s (10^6 B/s) and\n"
	       "eraseblocks/s. Read-only unless --destructive.\n"
	       "\n");
	opt_usage(stdout, mtd_options);
	printf("\n"
	       "Bad eraseblocks (MEMGETBADBLOCK) are skipped and counted. A signal stops the\n"
	       "measurement after the current eraseblock, with the partial results.\n"
	       "Exit: 0 ok, 1 --verify found a mismatch, 2 bad input or refused (nothing\n"
	       "written), 3 runtime error, 128+N stopped by signal N.\n");
}


struct mtd_opts {
	uint64_t size;
	bool destructive, verify;
	uint64_t *sizes;
	size_t nsizes;
	const char *force_boot, *sysroot;
};

#include "cmd/mtd.opts.h"

static int mtd_opt(int c, const char *arg, void *ctx)
{
	struct mtd_opts *o = ctx;

	switch (c) {
	case MTD_O_WRITE_SIZES:
		free(o->sizes);
		o->sizes = NULL;
		if (parse_size_list(arg, 1, 1ull << 30, MTD_MAX_WRITE_SIZES, &o->sizes,
				    &o->nsizes) < 0) {
			log_error("invalid --write-sizes '%s': expected up to %d sizes, e.g. "
				  "512,2K,16K",
				  arg, MTD_MAX_WRITE_SIZES);
			return -EINVAL;
		}
		return 0;
	default:
		return -ENOENT;
	}
}

/* everything that can refuse, before the device is opened; EXIT_OK or EXIT_USAGE */
static int plan_checks(const char *node, struct mtd_opts *o, struct mtd_geometry *g, uint64_t *len,
		       uint64_t *ws, size_t *nws)
{
	struct strbuf why = STRBUF_INIT;
	int r;

	r = mtd_node_probe(node, g, &why);
	if (r == 0) {
		r = mtd_region(g, o->size, len, &why);
		if (r == 0 && o->destructive)
			r = mtd_write_sizes(g, o->sizes, o->nsizes, ws, nws, &why);
		if (r == 0 && o->destructive)
			r = mtd_may_write(g, o->force_boot, true, &why);
		if (r < 0)
			mtd_geometry_release(g);
	}
	if (r < 0)
		log_error("%s", r == -ENOMEM ? "out of memory" : why.buf);
	strbuf_release(&why);
	return r < 0 ? (r == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE) : EXIT_OK;
}

static int open_device(const char *node, bool rw)
{
	int fd = open(node, (rw ? O_RDWR : O_RDONLY) | O_CLOEXEC);

	if (fd < 0) {
		log_error("cannot open '%s': %s", node, strerror(errno));
		return -1;
	}
	/* two usbperf on one device would measure each other */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		log_error("'%s' is busy: another usbperf measures it", node);
		close(fd);
		return -1;
	}
	return fd;
}

void schema_mtd(struct report *r)
{
	static const struct mtd_geometry geo = {.erasesize = 1};
	static const struct mtd_ecc known = {.known = true};
	static struct mtd_device_view dv;
	static struct mtd_ecc_view ev;

	mtd_device_describe(NULL, &geo, 0, 0, false, &dv, r);
	mtd_passes_describe(NULL, 0, r);
	mtd_ecc_describe(&known, &known, &ev, r);
}

int cmd_mtd(int argc, char **argv, struct global_opts *g)
{
	struct mtd_opts o = {0};
	struct mtd_geometry geo = {0};
	struct mtd_pass passes[MTD_MAX_WRITE_SIZES + 2];
	struct mtd_ecc before = {0}, after = {0};
	struct mtd_device_view dv;
	struct mtd_ecc_view ev;
	struct report rep = {.command = "mtd"};
	uint64_t len = 0, ws[MTD_MAX_WRITE_SIZES], bad = 0, mism = 0;
	size_t nws = 0, n = 0, i;
	struct mtd_io io;
	int fd, r, status;

	r = parse_bound(argc, argv, g, "mtd", mtd_options, usage_mtd, mtd_binds, mtd_opt, &o);
	if (r != 0) {
		free(o.sizes);
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	status = EXIT_USAGE;
	if (optind != argc - 1) {
		log_error(optind >= argc ? "mtd: give the device, e.g. /dev/mtd0"
					 : "mtd: one device only, got '%s' too",
			  argv[argc - 1]);
		goto out;
	}
	if (o.verify && !o.destructive) {
		log_error("--verify needs --destructive: it compares what the write passes wrote");
		goto out;
	}
	if ((o.nsizes || o.force_boot) && !o.destructive) {
		log_error("%s needs --destructive", o.nsizes ? "--write-sizes" : "--force-boot");
		goto out;
	}
	if (check_output_target(g, argv[optind], "the device being measured") < 0 ||
	    (o.sysroot && open_sysroot(o.sysroot) < 0))
		goto out;
	status = plan_checks(argv[optind], &o, &geo, &len, ws, &nws);
	if (status != EXIT_OK)
		goto out;
	fd = open_device(argv[optind], o.destructive);
	if (fd < 0) {
		status = EXIT_USAGE;
		goto out_geo;
	}
	{
		struct strbuf why = STRBUF_INIT;

		r = mtd_info_check(fd, &geo, &why);
		if (r < 0) {
			/* nothing done yet: the device is not what sysfs (or --sysroot) said */
			log_error("%s", why.buf);
			strbuf_release(&why);
			close(fd);
			status = EXIT_USAGE;
			goto out_geo;
		}
		strbuf_release(&why);
	}
	mtd_io_fd(&io, &fd);
	(void)mtd_ecc_read(fd, &before);
	{
		struct mtd_plan p = {
		    .len = len,
		    .erasesize = geo.erasesize,
		    .writesize = geo.writesize,
		    .write_sizes = o.destructive ? ws : NULL,
		    .nwrite_sizes = o.destructive ? nws : 0,
		    .verify = o.verify,
		    .stop = (volatile int *)&signal_stop,
		};

		r = mtd_passes_run(&io, &p, passes, &n);
	}
	if (mtd_ecc_read(fd, &after) < 0)
		before.known = false;
	close(fd);
	if (r < 0) {
		log_error(r == -EIO ? "mtd: every eraseblock of the region of '%s' is bad"
				    : "mtd: cannot measure '%s': %s",
			  argv[optind], strerror(-r));
		status = EXIT_RUNTIME;
		goto out_geo;
	}
	for (i = 0; i < n; i++) {
		if (passes[i].bad_skipped > bad)
			bad = passes[i].bad_skipped;
		mism += passes[i].mismatches;
		if (passes[i].failed && status == EXIT_OK)
			status = EXIT_RUNTIME;
	}
	mtd_device_describe(argv[optind], &geo, len, bad, o.destructive, &dv, &rep);
	mtd_passes_describe(passes, n, &rep);
	mtd_ecc_describe(&before, &after, &ev, &rep);
	if (status == EXIT_RUNTIME)
		log_error("mtd: some eraseblocks of '%s' failed (the 'failed' column)",
			  argv[optind]);
	else if (mism) {
		log_error("mtd: --verify: %llu pages of '%s' read back differently",
			  (unsigned long long)mism, argv[optind]);
		status = EXIT_FAIL;
	}
	if (emit_report(g, &rep) < 0)
		status = EXIT_RUNTIME;
	else if (signal_stop)
		status = 128 + signal_stop;
out_geo:
	mtd_geometry_release(&geo);
out:
	free(o.sizes);
	return status;
}
