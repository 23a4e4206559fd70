/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The storage benchmark: what to run (disk_config), where (disk_target), and
 * what came out (disk_report: one disk_row per pass spec, repeats folded in).
 * Nothing here prints; progress goes through a callback.
 */
#include "classes/disk/engine.h"
#include "classes/disk/pattern.h"
#include "platform/mmc/mmc.h"
#include "run/estimate.h"
#include "platform/sys/cpustat.h"
#include "platform/sys/irqwatch.h"
#include "platform/usb/attach.h"
#include "platform/usbmon/usbmon.h"
#include "util/stats.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum disk_op { DISK_READ, DISK_WRITE };
enum disk_access { DISK_SEQ, DISK_RAND };
enum disk_mode { DISK_DIRECT, DISK_BUFFERED };

#define DISK_MAX_BS (64u << 20)
#define DISK_MAX_QD 1024u
#define DISK_MAX_PASSES 256u
#define DISK_MAX_REPEAT 1000u
#define DISK_VERIFY_KEEP 32u /* mismatches listed individually; the rest counted */

const char *disk_op_name(enum disk_op op);
const char *disk_access_name(enum disk_access a);
const char *disk_mode_name(enum disk_mode m);

struct disk_pass_spec {
	char name[48]; /* "seq-read 64K", "SEQ1M Q8T1" */
	enum disk_op op;
	enum disk_access access;
	enum disk_mode mode;
	uint32_t bs;
	uint32_t qd;
	const struct disk_engine_ops *engine;
};

enum disk_target_kind { TARGET_DIR, TARGET_FILE, TARGET_BLOCKDEV };

struct disk_target {
	enum disk_target_kind kind;
	char *path;	 /* as given */
	char *io_path;	 /* what is opened: the test file or the device */
	bool created;	 /* io_path is a file we created and must remove */
	bool may_write;
	uint64_t size;	 /* bytes of io_path the passes use */
	unsigned align;	 /* O_DIRECT alignment: logical block size */
	char *fs_type;	 /* filesystem holding the file, NULL for a device */
	char *mount_point;
	char *source;	 /* the filesystem's device, e.g. /dev/sdb1 */
	unsigned dev_major, dev_minor; /* block device under test (or under the fs), 0:0 if none */
	bool direct_ok;	 /* O_DIRECT accepted */
	bool fd_excl;	 /* device opened with O_EXCL */
	bool keep;	 /* leave the created file in place */
	int fd;		 /* O_DIRECT fd if direct_ok, else -1 */
	int fd_buf;	 /* buffered fd */
};

struct disk_progress {
	const struct disk_pass_spec *spec;
	unsigned pass_index, pass_count; /* 1-based */
	unsigned repeat, repeats;
	const char *phase; /* "layout", "pass" */
	uint64_t done_bytes, total_bytes;
	double elapsed_s, limit_s, min_s;
	double rate_Bps;
};

typedef void (*disk_progress_fn)(void *ctx, const struct disk_progress *p);

struct disk_config {
	struct disk_pass_spec *passes;
	size_t npasses;
	unsigned repeat;
	uint64_t size;	   /* test file size / device region; per-pass byte cap */
	double time_s;	   /* per-pass time cap */
	double min_time_s; /* per-pass floor: the region is gone over again until it passes
			      (fio's time_based); the cap wins if lower; 0: size only */
	bool best_of;	   /* rows report the best repeat (CrystalDiskMark), not the mean */
	bool verify;
	uint64_t seed;
	bool allow_write;  /* --destructive for block devices */
	bool keep;	   /* keep the test file */
	bool fallback_buffered; /* O_DIRECT refused: run direct passes buffered */
	disk_progress_fn progress;
	void *progress_ctx;
	const volatile int *stop; /* set asynchronously to end the run early */
	bool monitor; /* watch each pass's USB device on usbmon (classes/disk/wire.c) */
	const char *irq_lines; /* the controller's interrupt lines ("24,25"), NULL unknown */
};

struct verify_error {
	uint64_t offset;
	const char *fault;
	const char *pass;
};

/* One row of results: a pass spec with its repeats folded together. */
struct disk_row {
	const char *name, *op, *access, *mode, *engine, *status;
	uint64_t bs, qd, repeats;
	uint64_t bytes;	  /* mean per repeat */
	double seconds;	  /* mean per repeat */
	double mb_s, mb_s_sd, mb_s_min, mb_s_max;
	double mib_s;
	double iops, iops_sd;
	double lat_mean_us, lat_p50_us, lat_p90_us, lat_p99_us, lat_p999_us, lat_max_us;
	/* interval samples pooled over the repeats (fio's bw and iops samples) */
	double bw_min_mb_s, bw_max_mb_s, bw_mean_mb_s, bw_stdev_mb_s;
	double iops_min, iops_max, iops_mean, iops_sample_stdev;
	uint64_t bw_samples;
	double bw_interval_ms;
	double util_pct; /* device busy (io_ticks) over the pass time; NaN if no device */
	double cpu_user_pct, cpu_sys_pct, cpu_iowait_pct, cpu_irq_pct;
	double self_cpu_pct;
	/* over the repeats, each repeat's own figure (NaN with one repeat) */
	double lat_p99_sd_us, self_cpu_sd, util_sd;
	double cpu_pressure_pct; /* PSI "some" over the pass: CPUs contended; NaN without PSI */
	double cpu_busy_pct;	 /* the machine's busy CPU time per second, % of one CPU */
	double cpu_wait_pct;	 /* the I/O thread's time waiting for a CPU, % of the pass */
	double cpu_io_pct;	 /* the CPU the I/O took (own user, all kernel), % of one CPU */
	/*
	 * Each figure's spread from the pass's batches (classes/disk/batch.h), in
	 * its unit; NaN with too few batches
	 */
	double mb_s_spread, iops_spread, lat_p99_spread_us, self_cpu_spread, util_spread;
	uint64_t batches;
	double cpu_s_per_gb; /* usbperf's CPU seconds per 10^9 bytes */
	/*
	 * The CPU clock through the pass (platform/sys/freqwatch.h), MHz, and its
	 * mean against the hardware's top (%); NaN without cpufreq.
	 */
	double cpu_mhz_min, cpu_mhz_mean, cpu_mhz_max, cpu_clock_pct;
	char cpu_governor[32]; /* the policy's governor; "" without cpufreq */
	struct irq_use irq;    /* interrupt placement over the repeats (platform/sys/irqwatch.h) */
	char *irq_per_cpu;     /* the controller's interrupts per CPU: "cpu0 812, cpu1 3"; NULL */
	double cached_pct;   /* page-cache residency before a buffered read; NaN if n/a */
	uint64_t verify_errors;
	double ceiling_mb_s;   /* bulk ceiling of the USB link (or the MMC bus mode) under the
				  target; NaN if neither */
	double efficiency_pct; /* mb_s as a share of that ceiling */
	/* on the wire (usbmon, disk_config.monitor), over all repeats; unknown unmonitored */
	uint64_t wire_bytes, urbs, urb_size, usb_errors, bot_commands, protocol_bytes;
	uint64_t wire_dropped;
	double wire_mb_s, inflight_mean, inflight_max, busy_pct;
	double data_inflight_max; /* on the data endpoint alone: more than 1 is UAS streams */
	double urb_lat_p50_us, urb_lat_p99_us, urb_lat_max_us, protocol_pct;
	bool monitored;
	uint64_t urb_hist[USBMON_SIZE_BUCKETS]; /* the data endpoint's URBs by size */
};

/* One interval sample, for plotting: -F json lists them all. */
struct disk_sample {
	const char *pass, *op, *mode;
	uint64_t repeat; /* 1-based */
	double t_s;	 /* end of the interval, from the start of the pass */
	double mb_s, iops;
	/*
	 * The pass's first interval when it has more than SAMPLE_MIN_COUNT: the
	 * ramp (queues filling, a throttle's first burst), left out of the
	 * spread as fio's ramp_time would leave it out; its bytes still count
	 * in the pass's rate.
	 */
	bool ramp;
};

/* Read and write of one pass name side by side: the CrystalDiskMark view. */
struct disk_pair_row {
	const char *name;
	double read_mb_s, write_mb_s;
	double read_iops, write_iops;
};

struct disk_report {
	/* target facts for the header section */
	const char *path, *kind, *io_path, *fs_type, *mount_point, *source, *cache_drop;
	uint64_t size, seed;
	double time_limit_s;
	double min_time_s;
	const char *figures; /* "mean of 1 pass" or "best of 5 passes, 1 GiB": what a row is */
	char figures_buf[64];
	char summary_title[96];
	bool verify;
	struct disk_row *rows;
	size_t nrows;
	struct disk_sample *samples; /* every row's interval samples, in row order */
	size_t nsamples;
	struct disk_pair_row *pairs; /* filled by disk_report_pair() */
	size_t npairs;
	struct verify_error *verrs;
	size_t nverrs;
	uint64_t verify_errors_total;
	char **warnings;
	size_t nwarnings;
	int error; /* first runtime error that ended a pass (negative errno), 0 if none */
	bool interrupted;
	bool on_usb;	      /* the block device sits on USB: usb says how */
	struct usb_attach usb;
	bool on_mmc; /* an MMC/SD card (mmcblk): mmc says which and its bus mode's ceiling */
	struct mmc_attach mmc;
	/*
	 * What holds the target when it is no storage medium ("a loop device
	 * (/dev/loop0 over the file ...)", "a tmpfs"), kept when the target is
	 * closed (run_disk_note_backing); "" for a medium
	 */
	char not_medium[320];
};

/*
 * Resolve TARGET, apply the safety rules, open it. On refusal returns -EPERM,
 * -EBUSY, -EINVAL or -ENOSPC with a one-line reason in *ret_why (malloc'ed).
 * Nothing is created unless the call succeeds.
 */
int disk_target_open(const char *path, const struct disk_config *cfg, bool want_write,
		     struct disk_target *ret, char **ret_why);
void disk_target_close(struct disk_target *t);
/* The path a signal handler must unlink, or NULL. */
const char *disk_target_cleanup_path(const struct disk_target *t);

/*
 * How long a plan takes, said before it starts (run/estimate.h): each
 * disk pass lasts at least its floor (min(min_time, cap)) and at most its
 * cap.
 */
/* cfg's passes on t: the disk passes of e ("disk"), and what reads lay out first */
void disk_estimate_add(struct estimate *e, const struct disk_config *cfg,
		       const struct disk_target *t);

int disk_run(struct disk_target *t, const struct disk_config *cfg, struct disk_report *ret);
void disk_report_release(struct disk_report *r);
/* Fold rows with the same name (read and write) into pairs, in first-seen order. */
int disk_report_pair(struct disk_report *r);
/* Add a line to the report's warnings (what could distort or limit the figures). */
__attribute__((format(printf, 2, 3))) void disk_report_note(struct disk_report *r,
							  const char *fmt, ...);
