/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The facts about a machine that decide how fast its USB I/O can be and how
 * honest a benchmark of it is: kernel and preemption model, board, CPUs and
 * their frequency policies, memory and writeback settings, usbcore
 * parameters, and the gadget side (platform/usb/gadget.h).
 *
 * Everything is read through the sysroot, so --sysroot and snapshots replay
 * it. Strings are malloc'ed and NULL when unknown; integers are
 * FIELD_INT_UNKNOWN (model/field.h) when absent, unreadable or garbled.
 * A missing fact is never an error: VMs have no cpufreq, hosts no UDC.
 *
 * (Not "struct sysinfo": glibc's <sys/sysinfo.h> has that name.)
 */
#include "model/findings.h"
#include "platform/usb/gadget.h"
#include "util/strbuf.h"

#include "platform/sys/cpufreq.h" /* CPUFREQ_ROOT */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define USBCORE_PARAMS "/sys/module/usbcore/parameters"

struct cpufreq_policy {
	char *name;	 /* "policy0" */
	char *cpus;	 /* related_cpus as a cpulist: "0-3" */
	char *driver;	 /* scaling_driver */
	char *governor;	 /* scaling_governor */
	char *epp;	 /* energy_performance_preference (intel_pstate, amd-pstate) */
	int64_t cur_khz; /* scaling_cur_freq */
	int64_t min_khz, max_khz;		/* scaling_min/max_freq: the policy's limits */
	int64_t cpuinfo_min_khz, cpuinfo_max_khz; /* what the hardware can do */
};

struct usbcore_param {
	char *name;
	char *value; /* as the kernel shows it ("Y", "-1"); NULL when unreadable */
};

struct sysinfo_facts {
	/* kernel */
	char *kernel;	      /* /proc/sys/kernel/osrelease */
	char *kernel_version; /* /proc/sys/kernel/version: "#1 SMP PREEMPT_DYNAMIC ..." */
	/* "PREEMPT_RT", "PREEMPT_DYNAMIC", "PREEMPT", "voluntary", "none", "none or voluntary" */
	char *preempt_model;
	char *preempt_mode; /* the active dynamic mode: "full", "voluntary", "none", "lazy" */
	/* board and CPUs */
	char *board;
	char *board_source; /* "device-tree" or "dmi" */
	char *cpu_model;    /* "AMD EPYC", "Cortex-A55 x4 + Cortex-A76 x4" */
	char *cpus_online;  /* cpulist: "0-7" */
	int64_t ncpus_online;
	int64_t ncpufreq_policies; /* 0 when there is no cpufreq (VMs) */
	/* memory and writeback */
	int64_t mem_total_kib, mem_available_kib;
	int64_t dirty_ratio, dirty_background_ratio;	 /* % */
	int64_t dirty_bytes, dirty_background_bytes;	 /* 0: the ratio applies */
	int64_t dirty_expire_centisecs, dirty_writeback_centisecs;
	/* usbcore (host side) */
	bool usbcore;		    /* /sys/module/usbcore exists */
	int64_t usbfs_memory_mb;    /* 0: no limit */
	int64_t autosuspend_s;	    /* -1: autosuspend off */
	int64_t authorized_default;
	struct usbcore_param *usbcore_params; /* the other parameters */
	size_t nusbcore_params;
	struct cpufreq_policy *policies;
	size_t npolicies;
	/* gadget side */
	struct gadget_facts usb;
	bool gadget_configfs;
	int64_t ngadgets, nudcs;
};

/* Read every fact into ret. Always 0: missing facts are unknowns, not errors. */
int sysinfo_probe(struct sysinfo_facts *ret);
void sysinfo_release(struct sysinfo_facts *si);

/*
 * What in these facts will distort or cap a USB measurement, each with its
 * evidence (file = value) and fix: governor, capped max frequency,
 * usbfs_memory_mb, usbcore autosuspend, page-cache absorbing writes, a UDC
 * connected below its maximum speed. Appends to out.
 */
void sysinfo_findings(const struct sysinfo_facts *si, struct finding_list *out);

/* usbfs_memory_mb below this refuses the URBs of a fast bulk test (see sysinfo.c) */
#define SYSINFO_USBFS_MIN_MB 64
/* a page cache that can hold this much dirty data turns buffered writes into memcpy */
#define SYSINFO_DIRTY_NOTE_BYTES (64LL << 20)

/* Parsers, exposed for tests. Each returns 0 or -EINVAL and leaves ret_* untouched. */
/* A cpulist ("0-3,8", or related_cpus' "0 1 2 3") -> canonical "0-3,8" and a count. */
int cpulist_normalize(const char *s, struct strbuf *ret, int64_t *ret_count);
/* "MemTotal:  16318412 kB" -> 16318412 */
int meminfo_kib(const char *meminfo, const char *key, int64_t *ret);
/* The preemption model named in /proc/sys/kernel/version, or NULL. */
const char *preempt_from_version(const char *version);
/* The mode in parentheses of /sys/kernel/debug/sched/preempt: "none voluntary (full)". */
int preempt_active_mode(const char *text, struct strbuf *ret);
/* From a kernel .config: "none", "voluntary", "PREEMPT", "PREEMPT_RT" ... or NULL. */
const char *preempt_from_config(const char *config);
/* The CPU model from /proc/cpuinfo text. */
int cpuinfo_model(const char *cpuinfo, struct strbuf *ret);

/*
 * The schema of a sysinfo report: every section, in the order shown, with
 * the findings last (documented in docs/classes.md, "usbperf sysinfo").
 */
void sysinfo_describe(const struct sysinfo_facts *si, const struct finding_list *findings,
		      struct report *out);
/* Its gadget view alone (gadgets, configs, functions, LUNs, UDCs): usbperf gadget status. */
void sysinfo_describe_gadgets(const struct gadget_facts *g, struct report *out);
