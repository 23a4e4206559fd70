// SPDX-License-Identifier: MIT
/* usbperf list: the USB tree, how each device is attached, and what to fix. */
#include "cmd/commands.h"
#include "cmd/common.h"
#include "core/findings.h"
#include "core/sys/sysinfo.h"
#include "core/usb/topology.h"
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
	       "and queue limits, network interfaces, video, hidraw and tty nodes. Ends with\n"
	       "findings: what caps throughput, with the evidence and the fix.\n"
	       "\n"
	       "options:\n"
	       "  --sysroot DIR|FILE  read a recorded tree (a directory, or a file written by\n"
	       "                      'usbperf snapshot') instead of this machine\n"
	       "  --table NAME        for --format csv: controllers, devices (default),\n"
	       "                      interfaces, nodes or findings\n"
	       "  --schema            print the JSON schema (Markdown) and exit\n"
	       "  -F, --format FMT    text (default: a tree), json or csv\n"
	       "  -o, --output FILE   write the result to FILE\n");
}

static const char *const tables[] = {"controllers", "devices", "interfaces", "nodes", "findings"};

static void build_report(struct report *r, const struct usb_topology *t,
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

int cmd_list(int argc, char **argv, struct global_opts *g)
{
	enum { O_SYSROOT = 256, O_TABLE, O_SCHEMA };
	static const struct option longopts[] = {
		COMMON_LONG_OPTIONS,
		{"sysroot", required_argument, NULL, O_SYSROOT},
		{"table", required_argument, NULL, O_TABLE},
		{"schema", no_argument, NULL, O_SCHEMA},
		{NULL, 0, NULL, 0},
	};
	struct usb_topology t;
	struct sysinfo_facts si;
	struct finding_list fl = FINDING_LIST_INIT;
	struct report rep = {.command = "list"};
	const char *sysroot = NULL, *table = "devices";
	char *warn = NULL;
	bool schema = false, table_given = false;
	size_t i;
	int c, r;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS, longopts, NULL)) != -1) {
		r = common_option(c, optarg, g);
		if (r < 0)
			return EXIT_USAGE;
		if (r > 0)
			continue;
		switch (c) {
		case 'h':
			usage_list();
			return EXIT_OK;
		case O_SYSROOT:
			sysroot = optarg;
			break;
		case O_SCHEMA:
			schema = true;
			break;
		case O_TABLE:
			for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
				if (!strcmp(optarg, tables[i]))
					break;
			if (i == sizeof(tables) / sizeof(tables[0])) {
				log_error("invalid --table '%s': expected controllers, devices, "
					  "interfaces, nodes or findings",
					  optarg);
				return EXIT_USAGE;
			}
			table = optarg;
			table_given = true;
			break;
		default:
			bad_option("list", c, argv);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		log_error("list: unexpected argument '%s' (see 'usbperf list -h')", argv[optind]);
		return EXIT_USAGE;
	}
	/* --table picks the one table a CSV holds: text and JSON show them all */
	if (table_given && check_format(g, "list --table", FMT_CSV) < 0)
		return EXIT_USAGE;
	/* the schema is Markdown about the JSON: there is no CSV of it */
	if (schema && check_format(g, "list --schema", FMT_TEXT | FMT_JSON) < 0)
		return EXIT_USAGE;
	if (check_output(g) < 0 || (sysroot && open_sysroot(sysroot) < 0))
		return EXIT_USAGE;
	if (schema) {
		struct usb_topology none = {0};

		build_report(&rep, &none, &fl, "controllers");
		return emit_schema(g, &rep) < 0 ? EXIT_RUNTIME : EXIT_OK;
	}

	r = usb_topology_probe(&t);
	if (r < 0) {
		log_error("cannot read the USB tree: %s", strerror(-r));
		return EXIT_RUNTIME;
	}
	usb_topology_findings(&t, &fl);
	/* what distorts a USB measurement beyond the tree: cpufreq, usbcore, UDCs */
	if (sysinfo_probe(&si) == 0)
		sysinfo_findings(&si, &fl);
	sysinfo_release(&si);
	if (t.no_usb) {
		warn = "no /sys/bus/usb: this kernel or machine has no USB";
		rep.warnings = &warn;
		rep.nwarnings = 1;
	}
	if (g->format == FORMAT_TEXT) {
		struct strbuf out = STRBUF_INIT;

		render_usb_tree(&t, &out);
		strbuf_addch(&out, '\n');
		render_findings_text(fl.v, fl.n, &out);
		r = emit_text(g, out.buf, out.len);
		strbuf_release(&out);
	} else {
		build_report(&rep, &t, &fl, table);
		r = emit_report(g, &rep);
	}
	finding_list_release(&fl);
	usb_topology_release(&t);
	return r < 0 ? EXIT_RUNTIME : EXIT_OK;
}
