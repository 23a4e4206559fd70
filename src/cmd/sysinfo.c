// SPDX-License-Identifier: MIT
/* usbperf sysinfo: probe the machine, derive findings, render. */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "platform/sys/sysinfo.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void usage_sysinfo(void)
{
	printf("usage: usbperf sysinfo [options]\n"
	       "\n"
	       "What this machine brings to a USB measurement: kernel and preemption model,\n"
	       "board, CPUs and cpufreq policies, memory and writeback settings, usbcore\n"
	       "parameters, configfs USB gadgets with their functions, and the UDCs. Ends\n"
	       "with findings: settings that will distort or cap a result, each with the\n"
	       "file and value that show it and how to change it. Missing facts (no\n"
	       "cpufreq on a VM, no UDC on a PC) show as '-' (null in JSON).\n"
	       "\n");
	opt_usage(stdout, sysinfo_options);
	printf("\n"
	       "Exit: 0 ok (findings do not fail it), 2 bad input, 3 the report could not\n"
	       "be written.\n");
}

static int sysinfo_option(int c, const char *arg, void *ctx)
{
	if (c != SYSINFO_O_SYSROOT)
		return -ENOENT;
	*(const char **)ctx = arg;
	return 0;
}

static int parse_args(int argc, char **argv, struct global_opts *g, const char **ret_sysroot)
{
	int r = parse_table(argc, argv, g, "sysinfo", sysinfo_options, usage_sysinfo,
			    sysinfo_option, ret_sysroot);

	if (r != 0)
		return r;
	if (optind < argc) {
		log_error("sysinfo: unexpected argument '%s' (see 'usbperf sysinfo -h')",
			  argv[optind]);
		return -1;
	}
	return 0;
}

void schema_sysinfo(struct report *r)
{
	static struct sysinfo_facts none;
	static struct finding_list no_findings;

	sysinfo_describe(&none, &no_findings, r);
}

int cmd_sysinfo(int argc, char **argv, struct global_opts *g)
{
	struct sysinfo_facts si;
	struct finding_list findings = FINDING_LIST_INIT;
	struct report view = {.command = "sysinfo"};
	const char *sysroot = NULL;
	int r, status;

	r = parse_args(argc, argv, g, &sysroot);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (check_output(g) < 0)
		return EXIT_USAGE;
	if (sysroot && open_sysroot(sysroot) < 0)
		return EXIT_USAGE;
	sysinfo_probe(&si);
	sysinfo_findings(&si, &findings);
	sysinfo_describe(&si, &findings, &view);
	status = emit_report(g, &view) < 0 ? EXIT_RUNTIME : EXIT_OK;
	finding_list_release(&findings);
	sysinfo_release(&si);
	return status;
}
