// SPDX-License-Identifier: MIT
/*
 * usbperf: USB and peripheral I/O performance analysis.
 *
 * The layers, the command table and how to add a command: docs/architecture.md.
 */
#include "cmd/commands.h"
#include "cmd/common.h"
#include "cmd/opt/tables.h"
#include "util/signals.h"
#include "util/sysroot.h"
#include "version.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * formats: what --format may ask for (a mode that writes less refuses more
 * with check_format). measures: the command polls signal_stop and reports
 * what it has; every other command ends at the first SIGINT/SIGTERM
 * (util/signals.h). import polls between runs: a run is saved whole or not.
 */
const struct command commands[] = {
	{"run", "the main job: discover, measure every USB device, find the bottleneck", cmd_run,
	 usage_run, FMT_ALL, true, schema_run},
	{"disk", "storage benchmark: sequential sweep, random IOPS, latency, CPU", cmd_disk,
	 usage_disk, FMT_ALL, true, schema_disk},
	{"net", "network throughput, iperf3-compatible client and server; USB link ceilings",
	 cmd_net, usage_net, FMT_ALL, true, schema_net},
	{"video", "camera capture: achieved vs nominal fps, drops, frame jitter, MB/s, CPU",
	 cmd_video, usage_video, FMT_ALL, true, schema_video},
	{"hid", "HID reports/s and round trip against the interrupt endpoint; the gadget side",
	 cmd_hid, usage_hid, FMT_ALL, true, schema_hid},
	{"bulk", "raw bulk and isochronous throughput through libusb, next to the link's ceiling",
	 cmd_bulk, usage_bulk, FMT_ALL, true, schema_bulk},
	{"mtp", "MTP file transfer rates each way through libmtp, objects/s, vs the link's ceiling",
	 cmd_mtp, usage_mtp, FMT_ALL, true, schema_mtp},
	{"mtd", "raw flash (NAND, NOR): geometry, bad blocks, ECC; erase, write and read rates",
	 cmd_mtd, usage_mtd, FMT_ALL, true, schema_mtd},
	{"i2c", "I2C messages/s, payload B/s and latency against message size vs the bus clock",
	 cmd_i2c, usage_i2c, FMT_ALL, true, schema_i2c},
	{"monitor", "the bus itself from usbmon: bytes, URB sizes, in flight, latency; pcapng",
	 cmd_monitor, usage_monitor, FMT_ALL, true, schema_monitor},
	{"list", "the USB tree: controllers, devices, drivers, disks, netdevs; findings", cmd_list,
	 usage_list, FMT_ALL, false, schema_list},
	{"snapshot", "record the sysfs facts usbperf reads into a file for --sysroot", cmd_snapshot,
	 usage_snapshot, FMT_TEXT | FMT_JSON, false, schema_snapshot},
	{"limits", "theoretical USB ceilings per speed and transfer type; UVC, HID, NCM",
	 cmd_limits, usage_limits, FMT_ALL, false, schema_limits},
	{"sysinfo", "kernel, CPU, memory, usbcore, gadget and UDC facts, with findings", cmd_sysinfo,
	 usage_sysinfo, FMT_ALL, false, schema_sysinfo},
	{"gadget", "compose a USB gadget in configfs (up), take it apart (down), status",
	 cmd_gadget, usage_gadget, FMT_ALL, false, schema_gadget},
	{"history", "the runs in the history database, filtered by device and date", cmd_history,
	 usage_history, FMT_ALL, false, schema_history},
	{"show", "one run from the history: environment, devices, metrics, findings", cmd_show,
	 usage_show, FMT_ALL, false, schema_show},
	{"compare", "two runs metric by metric, noise-aware; exit 1 on a regression", cmd_compare,
	 usage_compare, FMT_ALL, false, schema_compare},
	{"check", "runs against criteria or a baseline: pass/fail, JUnit, LAVA; exit 1 on a fail",
	 cmd_check, usage_check, FMT_ALL, false, schema_check},
	{"baseline", "name a run to compare against; list the baselines", cmd_baseline,
	 usage_baseline, FMT_ALL, false, schema_baseline},
	{"report", "runs as a self-contained HTML page, or text with bars and sparklines",
	 cmd_report, usage_report, FMT_ALL, false, NULL},
	{"export", "runs from the history as JSON, for another machine's history", cmd_export,
	 usage_export, FMT_TEXT | FMT_JSON, false, schema_export},
	{"import", "add the runs of an export file to the history", cmd_import, usage_import,
	 FMT_TEXT | FMT_JSON, true, schema_import},
	{"clean", "remove what a killed usbperf left: its test files; recover the history",
	 cmd_clean, usage_clean, FMT_ALL, false, schema_clean},
	{"help", "list commands, or show one command's options", cmd_help, usage_help,
	 FMT_TEXT, false, NULL},
	{"version", "print the version", cmd_version, usage_version, FMT_TEXT | FMT_JSON, false, schema_version},
};
const unsigned ncommands = sizeof(commands) / sizeof(commands[0]);

static const struct command *find_command(const char *name)
{
	unsigned i;

	for (i = 0; i < ncommands; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage_main(FILE *f)
{
	unsigned i;

	fprintf(f, "usage: usbperf [--format text|json|csv] [--output FILE] [--quiet] [--wide] "
		   "<command> [options]\n\ncommands:\n");
	for (i = 0; i < ncommands; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputc('\n', f);
	opt_usage(f, global_options);
	fprintf(f, "\n'usbperf <command> -h' shows a command's options.\n");
}

/* help and version take the global options alone */
static const struct cmd_opt no_options[] = {OPT_END};

void usage_help(void)
{
	printf("usage: usbperf help [COMMAND]\n");
}

int cmd_help(int argc, char **argv, struct global_opts *g)
{
	const struct command *c;
	int r;

	/* the global options are accepted after the command, here too */
	r = parse_table(argc, argv, g, "help", no_options, usage_help, NULL, NULL);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (optind >= argc) {
		usage_main(stdout);
		return EXIT_OK;
	}
	if (optind + 1 < argc) {
		log_error("help: one COMMAND expected (see 'usbperf help')");
		return EXIT_USAGE;
	}
	c = find_command(argv[optind]);
	if (!c) {
		log_error("unknown command '%s' (see 'usbperf help')", argv[optind]);
		return EXIT_USAGE;
	}
	c->usage();
	return EXIT_OK;
}

void usage_version(void)
{
	printf("usage: usbperf version [--format text|json] [--output FILE]\n");
}

struct version_view {
	const char *version;
};

#include "main.fields.h"

void schema_version(struct report *r)
{
	report_add_inline(r, "version", &version_desc, NULL);
}

int cmd_version(int argc, char **argv, struct global_opts *g)
{
	struct strbuf out = STRBUF_INIT;
	int r;

	r = parse_table(argc, argv, g, "version", no_options, usage_version, NULL, NULL);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (optind < argc) {
		log_error("version: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (check_output(g) < 0)
		return EXIT_USAGE;
	if (g->format == FORMAT_JSON) {
		/* the envelope every command's JSON has, the version also under its own key */
		static const struct version_view v = {USBPERF_VERSION};
		struct report rep = {.command = "version"};

		report_add_inline(&rep, "version", &version_desc, &v);
		r = emit_report(g, &rep);
		return r < 0 ? EXIT_RUNTIME : EXIT_OK;
	}
	strbuf_addf(&out, "usbperf %s\n", USBPERF_VERSION);
	r = emit_text(g, out.buf, out.len);
	strbuf_release(&out);
	return r < 0 ? EXIT_RUNTIME : EXIT_OK;
}

/* Global flags, dispatch, and a last check that stdout really took the output. */
static int run_command(int argc, char **argv)
{
	struct global_opts g = {.format = FORMAT_TEXT};
	const struct command *c;
	int i = 1, r;

	g.progress = isatty(STDERR_FILENO);
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-V") || !strcmp(a, "--version"))
			return cmd_version(1, argv, &g);
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage_main(stdout);
			return EXIT_OK;
		}
		r = global_option(argc, argv, &i, &g);
		if (r < 0)
			return EXIT_USAGE;
		if (r == 0) {
			log_error("unknown option '%s' (see 'usbperf --help')", a);
			return EXIT_USAGE;
		}
	}
	if (i >= argc) {
		usage_main(stderr);
		return EXIT_USAGE;
	}
	c = find_command(argv[i]);
	if (!c) {
		log_error("unknown command '%s' (see 'usbperf help')", argv[i]);
		return EXIT_USAGE;
	}
	/* a --format before the command; one after it is checked as it is parsed */
	g.cmd = c;
	if (check_format(&g, c->name, c->formats) < 0)
		return EXIT_USAGE;
	signals_install(c->measures);
	r = schema_command(c, argc - i, argv + i, &g);
	if (r < 0)
		r = c->run(argc - i, argv + i, &g);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		log_error("cannot write to stdout: %s", strerror(errno));
		if (r == EXIT_OK)
			r = EXIT_RUNTIME;
	}
	if (r != EXIT_USAGE && sysroot_special())
		log_warn("--sysroot: '%s' is not a regular file (a FIFO, socket or device): read "
			 "as unreadable",
			 sysroot_special());
	/*
	 * A command that does not measure has exited 128+N in the signal
	 * handler. One that measures wrote no output file after the signal
	 * (util/signals.h); whatever failed because of it (a read it was
	 * blocked in) ends with 128+N too. It may still say 0: a server
	 * stopped while idle.
	 */
	if (signal_stop && r != EXIT_OK)
		r = 128 + signal_stop;
	return r;
}

int main(int argc, char **argv)
{
	return run_command(argc, argv);
}
