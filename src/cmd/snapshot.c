// SPDX-License-Identifier: MIT
/* usbperf snapshot FILE: record the sysfs/procfs facts usbperf reads, for --sysroot. */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "cmd/common.h"
#include "platform/mmc/mmc.h"
#include "classes/mtd/list.h"
#include "platform/sys/mounts.h"
#include "platform/sys/sysinfo.h"
#include "platform/usb/attach.h"
#include "platform/usb/topology.h"
#include "util/parse.h"
#include "util/snapshot.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void usage_snapshot(void)
{
	printf("usage: usbperf snapshot FILE [options]\n"
	       "\n"
	       "Record every sysfs and procfs file, directory and link that 'usbperf list' and\n"
	       "'usbperf sysinfo' read into FILE (JSON), so that '--sysroot FILE' replays this\n"
	       "machine elsewhere: attach it to a bug report, or keep it as a test fixture.\n"
	       "Serial numbers and MAC addresses are included; edit them out if they matter.\n"
	       "\n");
	opt_usage(stdout, snapshot_options);
}

struct snapshot_args {
	const char *sysroot;
	bool force;
};

#include "cmd/snapshot.opts.h"


struct snapshot_summary {
	const char *file;
	uint64_t entries, bytes;
};

#include "cmd/snapshot.fields.h"

/* everything the probes of list and sysinfo read, through the recording sysroot */
static void run_probes(void)
{
	struct usb_topology t;
	struct mmc_topology m;
	struct mtd_listing mtd;
	struct sysinfo_facts si;
	struct finding_list fl = FINDING_LIST_INIT;
	size_t i;

	if (sysinfo_probe(&si) == 0)
		sysinfo_findings(&si, &fl);
	sysinfo_release(&si);
	if (usb_topology_probe(&t) == 0) {
		usb_topology_findings(&t, &fl);
		/* what usbperf disk reads to find the USB link under a block device */
		for (i = 0; i < t.nnode; i++) {
			struct usb_attach a;
			unsigned maj, min;

			if (t.node[i].devnum && parse_devnum(t.node[i].devnum, &maj, &min) == 0 &&
			    usb_attach_for_block(maj, min, &a) == 0)
				usb_attach_release(&a);
		}
		usb_topology_release(&t);
	}
	/* the MMC hosts and cards list shows (sysfs, and debugfs where it is mounted) */
	if (mmc_probe(&m) == 0)
		mmc_topology_release(&m);
	/* and the MTD devices */
	if (mtd_list_probe(&mtd) == 0)
		mtd_listing_release(&mtd);
	finding_list_release(&fl);
}

void schema_snapshot(struct report *r)
{
	report_add_object(r, "snapshot", NULL, &summary_desc, NULL);
}

int cmd_snapshot(int argc, char **argv, struct global_opts *g)
{
	struct snapshot_summary sum = {0};
	struct report rep = {.command = "snapshot"};
	struct strbuf doc = STRBUF_INIT;
	struct snapshot_args a = {NULL, false};
	const char *sysroot, *file;
	bool force;
	struct vnode *v;
	struct stat st;
	char created[32];
	time_t now = time(NULL);
	size_t n;
	int r;

	r = parse_bound(argc, argv, g, "snapshot", snapshot_options, usage_snapshot, snapshot_binds,
			NULL, &a);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	sysroot = a.sysroot;
	force = a.force;
	if (optind != argc - 1) {
		log_error(optind >= argc ? "snapshot: missing FILE (see 'usbperf snapshot -h')"
					 : "snapshot: one FILE expected (see 'usbperf snapshot -h')");
		return EXIT_USAGE;
	}
	file = argv[optind];
	if (!*file) {
		log_error("invalid snapshot FILE '': empty path");
		return EXIT_USAGE;
	}
	if (!force && lstat(file, &st) == 0) {
		log_error("snapshot: '%s' exists (use --force to overwrite)", file);
		return EXIT_USAGE;
	}
	if (force && lstat(file, &st) == 0 && !S_ISREG(st.st_mode)) {
		log_error("snapshot: '%s' is not a regular file", file);
		return EXIT_USAGE;
	}
	{
		struct global_opts probe = *g;

		probe.output = file;
		if (check_output(&probe) < 0 || check_output(g) < 0)
			return EXIT_USAGE;
	}
	if (sysroot && open_sysroot(sysroot) < 0)
		return EXIT_USAGE;
	if (sysroot_is_snapshot()) {
		log_error("invalid --sysroot '%s': snapshot records from a directory tree, and this "
			  "is already a snapshot file",
			  sysroot);
		return EXIT_USAGE;
	}

	sysroot_record_start();
	run_probes();
	sysroot_record_take(&v, &n);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	snapshot_dump(v, n, created, &doc);
	vnodes_free(v, n);
	r = write_file_atomic(file, doc.buf, doc.len);
	if (r == 0) {
		sum.file = file;
		sum.entries = n;
		sum.bytes = doc.len;
		report_add_object(&rep, "snapshot", NULL, &summary_desc, &sum);
		r = emit_report(g, &rep);
	}
	strbuf_release(&doc);
	return r < 0 ? EXIT_RUNTIME : EXIT_OK;
}
