// SPDX-License-Identifier: MIT
/* usbperf list: the USB tree, how each device is attached, and what to fix. */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "cmd/common.h"
#include "model/findings.h"
#include "platform/mmc/mmc.h"
#include "classes/mtd/list.h"
#include "platform/sys/sysinfo.h"
#include "platform/usb/topology.h"
#include "render/text_blocks.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void usage_list(void)
{
	printf("usage: usbperf list [options]\n"
	       "\n"
	       "The USB tree read from sysfs: host controllers (driver, IRQ), devices (VID:PID,\n"
	       "strings, bcdUSB, negotiated and capable speed, port and its peer), interfaces\n"
	       "(class, bound driver) and what they became: disks and partitions with mounts\n"
	       "and queue limits, network interfaces, video, hidraw and tty nodes. Then the\n"
	       "MMC/SD hosts and cards: type, ids, erase sizes, eMMC wear, and from debugfs the\n"
	       "clock, bus width, timing mode and its ceiling (MB/s = 10^6 B/s). MTD devices\n"
	       "(raw flash): name, type, size, eraseblock, page and OOB. Ends with\n"
	       "findings: what caps throughput, with the evidence and the fix.\n"
	       "\n"
	       "\n");
	opt_usage(stdout, list_options);
}

static const char *const tables[] = {"controllers", "devices",	 "interfaces", "nodes",
				     "findings",    "mmc_hosts", "mmc_cards",  "mmc_partitions",
				     "mtd"};

static void build_report(struct report *r, const struct usb_topology *t,
			 const struct mmc_topology *m, const struct mtd_listing *mtd,
			 const struct finding_list *fl, const char *first)
{
	const struct {
		const char *key;
		const struct record_desc *d;
		const void *data;
		size_t n, stride;
	} s[] = {
		{"controllers", &usb_controller_desc, t->ctl, t->nctl, sizeof(*t->ctl)},
		{"devices", &usb_device_desc, t->dev, t->ndev, sizeof(*t->dev)},
		{"interfaces", &usb_interface_desc, t->intf, t->nintf, sizeof(*t->intf)},
		{"nodes", &usb_node_desc, t->node, t->nnode, sizeof(*t->node)},
		{"findings", &finding_desc, fl->v, fl->n, sizeof(*fl->v)},
		{"mmc_hosts", &mmc_host_desc, m->host, m->nhost, sizeof(*m->host)},
		{"mmc_cards", &mmc_card_desc, m->card, m->ncard, sizeof(*m->card)},
		{"mmc_partitions", &mmc_part_desc, m->part, m->npart, sizeof(*m->part)},
		{"mtd", &mtd_list_desc, mtd->v, mtd->n, sizeof(*mtd->v)},
	};
	size_t i;

	/* CSV renders the first table: the one asked for goes first */
	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (!strcmp(s[i].key, first))
			report_add_table(r, s[i].key, s[i].key, s[i].d, s[i].data, s[i].n, s[i].stride);
	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (strcmp(s[i].key, first))
			report_add_table(r, s[i].key, s[i].key, s[i].d, s[i].data, s[i].n, s[i].stride);
}

/* the MMC hosts, cards and partitions after the USB tree: nothing when there are none */
static void render_mmc_text(const struct mmc_topology *m, struct strbuf *out)
{
	struct report r = {.command = "list"};

	if (!m->nhost)
		return;
	report_add_table(&r, "mmc_hosts", "MMC/SD hosts", &mmc_host_desc, m->host, m->nhost,
			 sizeof(*m->host));
	if (m->ncard)
		report_add_table(&r, "mmc_cards", "MMC/SD cards", &mmc_card_desc, m->card, m->ncard,
				 sizeof(*m->card));
	if (m->npart)
		report_add_table(&r, "mmc_partitions", "MMC/SD partitions", &mmc_part_desc, m->part,
				 m->npart, sizeof(*m->part));
	render_text(&r, out);
	strbuf_addch(out, '\n');
}

/* raw flash after the MMC: nothing when there is none */
static void render_mtd_text(const struct mtd_listing *l, struct strbuf *out)
{
	struct report r = {.command = "list"};

	if (!l->n)
		return;
	report_add_table(&r, "mtd", "MTD devices (raw flash)", &mtd_list_desc, l->v, l->n,
			 sizeof(*l->v));
	render_text(&r, out);
	strbuf_addch(out, '\n');
}

/* debugfs mounted for the ios, or missing: said once on stderr */
static void mmc_say_debugfs(const struct mmc_topology *m)
{
	if (m->debugfs_mounted)
		log_warn("mounted debugfs read-only at '%s' to read the mmc bus state "
			 "(ios, caps), unmounted after",
			 m->debugfs_mounted);
	else if (m->debugfs_missing)
		log_warn("no debugfs mmc state (mount -t debugfs none /sys/kernel/debug, "
			 "as root): mmc clock, width, timing and ceilings are unknown");
}

/*
 * The system's findings that bear on the USB tree (cpufreq, usbcore, UDCs):
 * with no USB at all, none; the page cache's (vm.*) is about write
 * benchmarks, said by sysinfo and by the disk passes, not by list
 */
static void usb_system_findings(const struct sysinfo_facts *si, struct finding_list *out)
{
	struct finding_list all = FINDING_LIST_INIT;

	sysinfo_findings(si, &all);
	for (size_t i = 0; i < all.n; i++) {
		const struct finding *f = &all.v[i];

		if (f->id && !strncmp(f->id, "vm.", 3))
			continue;
		finding_add(out, strcmp(f->severity, "warn") ? FINDING_INFO : FINDING_WARN, f->id,
			    f->subject, f->message, f->evidence, f->fix);
	}
	finding_list_release(&all);
}

void schema_list(struct report *r)
{
	static const struct usb_topology none;
	static const struct mmc_topology no_mmc;
	static const struct mtd_listing no_mtd;
	static const struct finding_list no_findings;

	build_report(r, &none, &no_mmc, &no_mtd, &no_findings, "controllers");
}

struct list_args {
	const char *sysroot, *table;
	bool table_given;
};

#include "cmd/list.opts.h"

static int list_option(int c, const char *arg, void *ctx)
{
	struct list_args *a = ctx;
	size_t i;

	switch (c) {
	case LIST_O_TABLE:
		for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
			if (!strcmp(arg, tables[i]))
				break;
		if (i == sizeof(tables) / sizeof(tables[0])) {
			log_error("invalid --table '%s': expected controllers, devices, interfaces, "
				  "nodes, findings, mmc_hosts, mmc_cards, mmc_partitions or mtd",
				  arg);
			return -EINVAL;
		}
		a->table = arg;
		a->table_given = true;
		return 0;
	}
	return -ENOENT;
}

int cmd_list(int argc, char **argv, struct global_opts *g)
{
	struct usb_topology t;
	struct mmc_topology m;
	struct mtd_listing mtd = {0};
	struct sysinfo_facts si = {0};
	struct finding_list fl = FINDING_LIST_INIT;
	struct report rep = {.command = "list"};
	struct list_args a = {NULL, "devices", false};
	const char *sysroot, *table;
	char *warn = NULL;
	bool table_given;
	int r;

	r = parse_bound(argc, argv, g, "list", list_options, usage_list, list_binds, list_option,
			&a);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	sysroot = a.sysroot;
	table = a.table;
	table_given = a.table_given;
	if (optind < argc) {
		log_error("list: unexpected argument '%s' (see 'usbperf list -h')", argv[optind]);
		return EXIT_USAGE;
	}
	/* --table picks the one table a CSV holds: text and JSON show them all */
	if (table_given && check_format(g, "list --table", FMT_CSV) < 0)
		return EXIT_USAGE;
	if (check_output(g) < 0 || (sysroot && open_sysroot(sysroot) < 0))
		return EXIT_USAGE;
	r = usb_topology_probe(&t);
	if (r < 0) {
		log_error("cannot read the USB tree: %s", strerror(-r));
		return EXIT_RUNTIME;
	}
	usb_topology_findings(&t, &fl);
	mmc_probe(&m);
	mmc_findings(&m, &fl);
	mmc_say_debugfs(&m);
	if (mtd_list_probe(&mtd) < 0) {
		log_error("out of memory");
		r = -ENOMEM;
		goto out;
	}
	/* what distorts a USB measurement beyond the tree: cpufreq, usbcore, UDCs */
	if (!t.no_usb) {
		if (sysinfo_probe(&si) == 0)
			usb_system_findings(&si, &fl);
		sysinfo_release(&si);
	}
	if (t.no_usb) {
		warn = "no /sys/bus/usb: this kernel or machine has no USB";
		rep.warnings = &warn;
		rep.nwarnings = 1;
	}
	if (g->format == FORMAT_TEXT) {
		struct strbuf out = STRBUF_INIT;

		render_usb_tree(&t, &out);
		strbuf_addch(&out, '\n');
		render_mmc_text(&m, &out);
		render_mtd_text(&mtd, &out);
		render_findings_text(fl.v, fl.n, &out);
		r = emit_text(g, out.buf, out.len);
		strbuf_release(&out);
	} else {
		build_report(&rep, &t, &m, &mtd, &fl, table);
		r = emit_report(g, &rep);
	}
out:
	mtd_listing_release(&mtd);
	finding_list_release(&fl);
	mmc_topology_release(&m);
	usb_topology_release(&t);
	return r < 0 ? EXIT_RUNTIME : EXIT_OK;
}
