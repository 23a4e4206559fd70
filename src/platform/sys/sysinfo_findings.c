// SPDX-License-Identifier: MIT
/* What in a machine's setup will distort or cap a USB measurement (see sysinfo.h). */
#include "platform/sys/sysinfo.h"
#include "model/field.h"

#include <string.h>

#define KNOWN(v) ((v) != FIELD_INT_UNKNOWN)

/* one finding, its three texts built with printf-like helpers by the caller */
struct draft {
	struct strbuf subject, message, evidence, fix;
};

static void draft_init(struct draft *d)
{
	strbuf_init(&d->subject);
	strbuf_init(&d->message);
	strbuf_init(&d->evidence);
	strbuf_init(&d->fix);
}

static void draft_emit(struct draft *d, struct finding_list *out, enum finding_severity sev,
		       const char *id)
{
	finding_add(out, sev, id, d->subject.buf, d->message.buf, d->evidence.buf,
		    d->fix.len ? d->fix.buf : NULL);
	strbuf_release(&d->subject);
	strbuf_release(&d->message);
	strbuf_release(&d->evidence);
	strbuf_release(&d->fix);
	draft_init(d);
}

/* "3.1 GiB", "640 MiB": enough to judge a cache size against a test size */
static void add_bytes(struct strbuf *sb, int64_t bytes)
{
	if (bytes >= (1LL << 30))
		strbuf_addf(sb, "%.1f GiB", (double)bytes / (double)(1LL << 30));
	else
		strbuf_addf(sb, "%lld MiB", (long long)(bytes >> 20));
}

static void cpufreq_findings(const struct cpufreq_policy *p, struct finding_list *out)
{
	struct draft d;

	draft_init(&d);
	if (p->governor && strcmp(p->governor, "performance")) {
		strbuf_adds(&d.subject, p->name);
		strbuf_addf(&d.message,
			    "cpufreq governor is '%s', not 'performance': the clock follows the "
			    "load, so short and QD1 transfers run slower and results scatter",
			    p->governor);
		strbuf_addf(&d.evidence, CPUFREQ_ROOT "/%s/scaling_governor = %s", p->name,
			    p->governor);
		strbuf_addf(&d.fix,
			    "echo performance > " CPUFREQ_ROOT "/%s/scaling_governor "
			    "(every policy: cpupower frequency-set -g performance)",
			    p->name);
		draft_emit(&d, out, FINDING_WARN, "cpu.governor");
	}
	if (KNOWN(p->max_khz) && KNOWN(p->cpuinfo_max_khz) && p->max_khz < p->cpuinfo_max_khz) {
		strbuf_adds(&d.subject, p->name);
		strbuf_addf(&d.message, "scaling_max_freq caps the CPUs at %lld MHz of %lld MHz",
			    (long long)(p->max_khz / 1000), (long long)(p->cpuinfo_max_khz / 1000));
		strbuf_addf(&d.evidence, CPUFREQ_ROOT "/%s/scaling_max_freq = %lld, ", p->name,
			    (long long)p->max_khz);
		strbuf_addf(&d.evidence, CPUFREQ_ROOT "/%s/cpuinfo_max_freq = %lld", p->name,
			    (long long)p->cpuinfo_max_khz);
		strbuf_addf(&d.fix,
			    "echo %lld > " CPUFREQ_ROOT "/%s/scaling_max_freq (a thermal or power "
			    "daemon may have set the cap and set it again)",
			    (long long)p->cpuinfo_max_khz, p->name);
		draft_emit(&d, out, FINDING_WARN, "cpu.max_freq_capped");
	}
}

static void usbcore_findings(const struct sysinfo_facts *si, struct finding_list *out)
{
	struct draft d;

	draft_init(&d);
	/*
	 * usbfs caps the memory of all URBs in flight; a SuperSpeed bulk test
	 * keeps e.g. 32 x 1 MiB queued per direction, past the default 16 MiB.
	 */
	if (KNOWN(si->usbfs_memory_mb) && si->usbfs_memory_mb != 0 &&
	    si->usbfs_memory_mb < SYSINFO_USBFS_MIN_MB) {
		strbuf_adds(&d.subject, "usbcore");
		strbuf_addf(&d.message,
			    "usbfs_memory_mb is %lld: libusb bulk tests with many or large URBs "
			    "get ENOMEM or run with fewer transfers in flight",
			    (long long)si->usbfs_memory_mb);
		strbuf_addf(&d.evidence, USBCORE_PARAMS "/usbfs_memory_mb = %lld",
			    (long long)si->usbfs_memory_mb);
		strbuf_adds(&d.fix, "echo 0 > " USBCORE_PARAMS "/usbfs_memory_mb (no limit) "
				    "or echo 256 > ...; at boot: usbcore.usbfs_memory_mb=256");
		draft_emit(&d, out, FINDING_WARN, "usbcore.usbfs_memory_mb");
	}
	if (KNOWN(si->autosuspend_s) && si->autosuspend_s >= 0) {
		strbuf_adds(&d.subject, "usbcore");
		strbuf_addf(&d.message,
			    "USB autosuspend is on (after %lld s idle): a device under test can "
			    "suspend between tests and the first transfer after a pause pays the "
			    "resume",
			    (long long)si->autosuspend_s);
		strbuf_addf(&d.evidence, USBCORE_PARAMS "/autosuspend = %lld",
			    (long long)si->autosuspend_s);
		strbuf_adds(&d.fix,
			    "echo -1 > " USBCORE_PARAMS "/autosuspend (applies to devices "
			    "enumerated afterwards; at boot: usbcore.autosuspend=-1), or per "
			    "device: echo on > /sys/bus/usb/devices/<dev>/power/control");
		draft_emit(&d, out, FINDING_WARN, "usbcore.autosuspend");
	}
}

/*
 * The kernel lets dirty pages pile up to dirty_bytes, or dirty_ratio percent
 * of the memory it can use for them (close to MemAvailable), before writers
 * are throttled: a buffered write smaller than that is a memcpy.
 */
static void dirty_findings(const struct sysinfo_facts *si, struct finding_list *out)
{
	struct draft d;
	int64_t limit;

	if (KNOWN(si->dirty_bytes) && si->dirty_bytes > 0)
		limit = si->dirty_bytes;
	else if (KNOWN(si->dirty_ratio) && KNOWN(si->mem_available_kib))
		limit = si->mem_available_kib / 100 * si->dirty_ratio * 1024;
	else
		return;
	if (limit < SYSINFO_DIRTY_NOTE_BYTES)
		return;
	draft_init(&d);
	strbuf_adds(&d.subject, "vm");
	strbuf_adds(&d.message, "buffered writes of up to ~");
	add_bytes(&d.message, limit);
	strbuf_adds(&d.message, " land in the page cache first: a write benchmark that does not "
				"fsync or use O_DIRECT measures RAM, not the device");
	if (si->dirty_bytes > 0)
		strbuf_addf(&d.evidence, "/proc/sys/vm/dirty_bytes = %lld",
			    (long long)si->dirty_bytes);
	else
		strbuf_addf(&d.evidence,
			    "/proc/sys/vm/dirty_ratio = %lld, /proc/sys/vm/dirty_bytes = 0, "
			    "/proc/meminfo MemAvailable = %lld KiB",
			    (long long)si->dirty_ratio, (long long)si->mem_available_kib);
	strbuf_adds(&d.fix,
		    "time writes with O_DIRECT or with the fsync included (usbperf disk "
		    "does both); to shrink the cache: echo 67108864 > /proc/sys/vm/dirty_bytes");
	draft_emit(&d, out, FINDING_INFO, "vm.dirty_cache");
}

static void udc_findings(const struct gadget_facts *g, const struct udc_info *u,
			 struct finding_list *out)
{
	const struct gadget_dev *gd = gadget_on_udc(g, u->name);
	int cur = udc_speed_rank(u->current_speed), max = udc_speed_rank(u->maximum_speed);
	bool self_capped;
	struct draft d;

	if (!u->state || strcmp(u->state, "configured") || !cur || cur >= max)
		return;
	self_capped = gd && udc_speed_rank(gd->max_speed) && udc_speed_rank(gd->max_speed) < max;
	draft_init(&d);
	strbuf_adds(&d.subject, u->name);
	strbuf_addf(&d.message,
		    "connected at %s though the controller can do %s: the link caps throughput",
		    u->current_speed, u->maximum_speed);
	strbuf_addf(&d.evidence,
		    UDC_CLASS "/%s/current_speed = %s, " UDC_CLASS "/%s/maximum_speed = %s, "
			      "state = configured",
		    u->name, u->current_speed, u->name, u->maximum_speed);
	if (self_capped) {
		strbuf_addf(&d.evidence, ", " GADGET_CONFIGFS "/%s/max_speed = %s", gd->name,
			    gd->max_speed);
		/* max_speed is refused while bound: unbind, raise, bind again */
		strbuf_addf(&d.fix, "the gadget caps itself: echo > " GADGET_CONFIGFS "/%s/UDC; ",
			    gd->name);
		strbuf_addf(&d.fix, "echo %s > " GADGET_CONFIGFS "/%s/max_speed; ",
			    u->maximum_speed, gd->name);
		strbuf_addf(&d.fix, "echo %s > " GADGET_CONFIGFS "/%s/UDC", u->name, gd->name);
	} else {
		strbuf_addf(&d.fix,
			    "connect straight to a host port that does %s, with a cable rated for "
			    "it and no slower hub between",
			    u->maximum_speed);
		/* SuperSpeed runs on extra pairs: a USB 2 cable or a flipped Type-C lacks them */
		if (max >= udc_speed_rank("super-speed"))
			strbuf_adds(&d.fix, " (a USB 2 cable, or a Type-C port that loses "
					    "SuperSpeed in one orientation, shows this too: see "
					    "dmesg on both ends)");
	}
	draft_emit(&d, out, FINDING_WARN, "udc.speed_below_max");
}

void sysinfo_findings(const struct sysinfo_facts *si, struct finding_list *out)
{
	size_t i;

	for (i = 0; i < si->npolicies; i++)
		cpufreq_findings(&si->policies[i], out);
	usbcore_findings(si, out);
	dirty_findings(si, out);
	for (i = 0; i < si->usb.nudcs; i++)
		udc_findings(&si->usb, &si->usb.udcs[i], out);
}
