// SPDX-License-Identifier: MIT
/* sysinfo: the text parsers, and every fact and finding decoded from the fixtures. */
#include "unit.h"
#include "fixture.h"
#include "platform/sys/attr.h"
#include "platform/sys/sysinfo.h"
#include "render/render.h"
#include "util/snapshot.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNK FIELD_INT_UNKNOWN

/* tests/fixtures/<name>.json as the sysroot (meson passes the directory) */
static void assert_str(const char *what, const char *got, const char *want)
{
	if (!want && !got)
		return;
	if (!want || !got || strcmp(got, want))
		fail_msg("%s = %s%s%s, expected %s%s%s", what, got ? "\"" : "", got ? got : "NULL",
			 got ? "\"" : "", want ? "\"" : "", want ? want : "NULL", want ? "\"" : "");
}

#define STR(field, want) assert_str(#field, field, want)
#define INT(field, want) assert_int_equal(field, want)

static void test_parse_i64(void **state)
{
	static const struct {
		const char *s;
		int64_t min, max;
		int r;
		int64_t v;
	} cases[] = {
		{"0", 0, 10, 0, 0},	      {"-1", -1, 10, 0, -1},	 {"-1", 0, 10, -ERANGE, 0},
		{"16", 0, 10, -ERANGE, 0},   {"", 0, 10, -EINVAL, 0},	 {"-", -5, 10, -EINVAL, 0},
		{"--1", -5, 10, -EINVAL, 0}, {"+1", 0, 10, -EINVAL, 0}, {" 1", 0, 10, -EINVAL, 0},
		{"1 ", 0, 10, -EINVAL, 0},   {"0x10", 0, 99, -EINVAL, 0}, {"abc", 0, 10, -EINVAL, 0},
		{"9223372036854775807", 0, INT64_MAX, 0, INT64_MAX},
		{"9223372036854775808", 0, INT64_MAX, -ERANGE, 0},
		{"-9223372036854775807", INT64_MIN, 0, 0, -INT64_MAX},
		{"18446744073709551616", 0, INT64_MAX, -ERANGE, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int64_t v = 42;
		int r = parse_i64(cases[i].s, cases[i].min, cases[i].max, &v);

		if (r != cases[i].r || v != (r ? 42 : cases[i].v))
			fail_msg("parse_i64(\"%s\") = %d (%lld)", cases[i].s, r, (long long)v);
	}
}

static void test_cpulist(void **state)
{
	static const struct {
		const char *in, *out;
		int64_t count;
	} cases[] = {
		{"0", "0", 1},
		{"0-7", "0-7", 8},
		{"0-2,10", "0-2,10", 4},
		{"0 1 2 3", "0-3", 4},
		{"3 1 2", "1-3", 3},
		{"0,0-1", "0-1", 2},
		{"4 5", "4-5", 2},
		{"0-1,3,5-6", "0-1,3,5-6", 5},
		{"8191", "8191", 1},
		{"7-3", NULL, 0},
		{"", NULL, 0},
		{"0 1 x", NULL, 0},
		{"8192", NULL, 0},
		{"-1", NULL, 0},
		{"0--1", NULL, 0},
		{"0,,1", NULL, 0},
		{"1-", NULL, 0},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int64_t n = -1;
		int r;

		strbuf_reset(&sb);
		strbuf_adds(&sb, "untouched");
		r = cpulist_normalize(cases[i].in, &sb, &n);
		if (!cases[i].out) {
			if (r != -EINVAL || n != -1 || strcmp(sb.buf, "untouched"))
				fail_msg("cpulist \"%s\" accepted: %s %lld", cases[i].in, sb.buf,
					 (long long)n);
			continue;
		}
		if (r || strcmp(sb.buf, cases[i].out) || n != cases[i].count)
			fail_msg("cpulist \"%s\" -> %d \"%s\" %lld", cases[i].in, r, sb.buf,
				 (long long)n);
	}
	strbuf_release(&sb);
}

static void test_meminfo(void **state)
{
	static const char text[] = "MemTotal:       16146412 kB\n"
				   "MemFree:        13001234 kB\n"
				   "MemAvailable:   14873520 kB\n"
				   "HugePages_Total:       0\n"
				   "Weird:          12 MB\n"
				   "Junk:           x12 kB\n"
				   "Long:           123456789012345678901234567890123 kB\n"
				   "NoUnit:         7";
	static const struct {
		const char *key;
		int r;
		int64_t v;
	} cases[] = {
		{"MemTotal", 0, 16146412},  {"MemAvailable", 0, 14873520},
		{"HugePages_Total", 0, 0},  {"NoUnit", 0, 7},
		{"Mem", -EINVAL, 0},	    {"Weird", -EINVAL, 0},
		{"Junk", -EINVAL, 0},	    {"Long", -EINVAL, 0},
		{"SwapTotal", -EINVAL, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int64_t v = -7;
		int r = meminfo_kib(text, cases[i].key, &v);

		if (r != cases[i].r || v != (r ? -7 : cases[i].v))
			fail_msg("meminfo %s = %d %lld", cases[i].key, r, (long long)v);
	}
}

static void test_preempt(void **state)
{
	static const struct {
		const char *version, *model;
	} versions[] = {
		{"#1 SMP PREEMPT_DYNAMIC Debian 6.1.0", "PREEMPT_DYNAMIC"},
		{"#1 SMP PREEMPT_RT Thu Jan 1", "PREEMPT_RT"},
		{"#1 SMP PREEMPT RT Thu Jan 1", "PREEMPT_RT"},
		{"#1 SMP PREEMPT Mon Jan 15", "PREEMPT"},
		{"#1 PREEMPT", "PREEMPT"},
		{"#1 SMP Mon Jan 15", NULL},
		{"#1 SMP PREEMPTIBLE", NULL},
		{"#1 SMP XPREEMPT_RT", NULL},
		{"", NULL},
	};
	static const struct {
		const char *text, *mode;
	} modes[] = {
		{"none voluntary (full) lazy", "full"},
		{"none (voluntary) full", "voluntary"},
		{"(none) voluntary full", "none"},
		{"full", NULL},
		{"()", NULL},
		{"(Full)", NULL},
		{"(full", NULL},
	};
	static const struct {
		const char *config, *model;
	} configs[] = {
		{"# x\nCONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_HZ=250\n", "voluntary"},
		{"CONFIG_PREEMPT_NONE=y\n", "none"},
		{"CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\n", "PREEMPT_DYNAMIC"},
		{"CONFIG_PREEMPT=y\nCONFIG_PREEMPT_RT=y", "PREEMPT_RT"},
		{"# CONFIG_PREEMPT_NONE=y is not set\n", NULL},
		{"XCONFIG_PREEMPT=y\n", NULL},
		{"CONFIG_PREEMPT=yes\n", NULL},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(versions); i++)
		assert_str(versions[i].version, preempt_from_version(versions[i].version),
			   versions[i].model);
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		int r = preempt_active_mode(modes[i].text, &sb);

		assert_int_equal(r, modes[i].mode ? 0 : -EINVAL);
		if (!r)
			assert_string_equal(sb.buf, modes[i].mode);
	}
	for (i = 0; i < ARRAY_SIZE(configs); i++)
		assert_str(configs[i].config, preempt_from_config(configs[i].config),
			   configs[i].model);
	strbuf_release(&sb);
}

static void test_cpuinfo(void **state)
{
	static const struct {
		const char *text, *model;
	} cases[] = {
		{"processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu\n\nprocessor\t: 1\n"
		 "model name\t: AMD EPYC\n",
		 "AMD EPYC"},
		/* arm64: numbered cores, two kinds on big.LITTLE */
		{"processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd03\n\n"
		 "processor\t: 1\nCPU implementer\t: 0x41\nCPU part\t: 0xd03\n",
		 "Cortex-A53 x2"},
		{"processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd05\n"
		 "processor\t: 1\nCPU implementer\t: 0x41\nCPU part\t: 0xd0b\n"
		 "processor\t: 2\nCPU implementer\t: 0x41\nCPU part\t: 0xd0b\n",
		 "Cortex-A55 x1 + Cortex-A76 x2"},
		{"CPU implementer\t: 0x51\nCPU part\t: 0x805\n",
		 "implementer 0x51 part 0x805 x1"},
		/* arm32 names a model too, but the parts say more */
		{"model name\t: ARMv7 Processor rev 3 (v7l)\nCPU implementer\t: 0x41\n"
		 "CPU part\t: 0xc07\n",
		 "Cortex-A7 x1"},
		{"model name\t: ARMv7 Processor rev 3 (v7l)\nCPU part\t: 0xc07\n",
		 "ARMv7 Processor rev 3 (v7l)"},
		{"CPU implementer\t: 0x41\nCPU part\t: 0xzz\n", NULL},
		{"isa\t\t: rv64imafdc\nuarch\t\t: sifive,u74-mc\n", "sifive,u74-mc"},
		{"cpu model\t\t: MIPS 24Kc V7.4\n", "MIPS 24Kc V7.4"},
		{"cpu\t\t: POWER9 (raw), altivec supported\n", "POWER9 (raw), altivec supported"},
		{"model name\t: bad\x01name\r\n", "bad?name"},
		{"model name\t:\n", NULL},
		{"garbage", NULL},
		{"", NULL},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int r = cpuinfo_model(cases[i].text, &sb);

		if (!cases[i].model) {
			if (r != -EINVAL)
				fail_msg("case %zu: model \"%s\", expected none", i, sb.buf);
			continue;
		}
		if (r || strcmp(sb.buf, cases[i].model))
			fail_msg("case %zu: %d \"%s\", expected \"%s\"", i, r, sb.buf,
				 cases[i].model);
	}
	strbuf_release(&sb);
}

struct want_policy {
	const char *name, *cpus, *driver, *governor, *epp;
	int64_t cur, min, max, hw_min, hw_max;
};

static void check_policies(const struct sysinfo_facts *si, const struct want_policy *w, size_t n)
{
	size_t i;

	assert_int_equal(si->npolicies, n);
	assert_int_equal(si->ncpufreq_policies, (int64_t)n);
	for (i = 0; i < n; i++) {
		const struct cpufreq_policy *p = &si->policies[i];

		STR(p->name, w[i].name);
		STR(p->cpus, w[i].cpus);
		STR(p->driver, w[i].driver);
		STR(p->governor, w[i].governor);
		STR(p->epp, w[i].epp);
		INT(p->cur_khz, w[i].cur);
		INT(p->min_khz, w[i].min);
		INT(p->max_khz, w[i].max);
		INT(p->cpuinfo_min_khz, w[i].hw_min);
		INT(p->cpuinfo_max_khz, w[i].hw_max);
	}
}

struct want_finding {
	const char *severity, *id, *subject, *message, *evidence, *fix;
};

/* every finding, in order; a NULL text is not compared (long fixes are checked once) */
static void check_findings(const struct finding_list *l, const struct want_finding *w, size_t n)
{
	size_t i;

	for (i = 0; i < l->n && i < n; i++) {
		const struct finding *f = &l->v[i];

		STR(f->severity, w[i].severity);
		STR(f->id, w[i].id);
		STR(f->subject, w[i].subject);
		if (w[i].message)
			STR(f->message, w[i].message);
		if (w[i].evidence)
			STR(f->evidence, w[i].evidence);
		if (w[i].fix)
			STR(f->fix, w[i].fix);
		else
			assert_non_null(f->fix);
	}
	if (l->n != n)
		fail_msg("%zu findings, expected %zu (first extra: %s)", l->n, n,
			 l->n > n ? l->v[n].id : w[l->n].id);
}

static void probe_fixture(const char *name, struct sysinfo_facts *si, struct finding_list *l)
{
	load_fixture(name);
	assert_int_equal(sysinfo_probe(si), 0);
	sysinfo_findings(si, l);
}

#define CF "/sys/devices/system/cpu/cpufreq/"
#define UP "/sys/module/usbcore/parameters/"

static void test_board(void **state)
{
	static const struct want_policy pol[] = {
		{"policy0", "0-3", "cpufreq-dt", "schedutil", NULL, 1800000, 408000, 1800000,
		 408000, 1800000},
		{"policy4", "4-5", "cpufreq-dt", "ondemand", NULL, 1800000, 408000, 1800000,
		 408000, 2400000},
		{"policy6", "6-7", "cpufreq-dt", "schedutil", NULL, 2256000, 408000, 2400000,
		 408000, 2400000},
	};
	static const char *const params[][2] = {
		{"blinkenlights", "N"}, {"initial_descriptor_timeout", "5000"},
		{"nousb", "N"},		{"old_scheme_first", "N"},
		{"quirks", ""},		{"usbfs_snoop", "N"},
		{"usbfs_snoop_max", "65536"}, {"use_both_schemes", "Y"},
	};
	static const struct want_finding fw[] = {
		{"warn", "cpu.governor", "policy0",
		 "cpufreq governor is 'schedutil', not 'performance': the clock follows the load, "
		 "so short and QD1 transfers run slower and results scatter",
		 CF "policy0/scaling_governor = schedutil",
		 "echo performance > " CF "policy0/scaling_governor (every policy: cpupower "
		 "frequency-set -g performance)"},
		{"warn", "cpu.governor", "policy4", NULL, CF "policy4/scaling_governor = ondemand",
		 NULL},
		{"warn", "cpu.max_freq_capped", "policy4",
		 "scaling_max_freq caps the CPUs at 1800 MHz of 2400 MHz",
		 CF "policy4/scaling_max_freq = 1800000, " CF "policy4/cpuinfo_max_freq = 2400000",
		 "echo 2400000 > " CF "policy4/scaling_max_freq (a thermal or power daemon may "
		 "have set the cap and set it again)"},
		{"warn", "cpu.governor", "policy6", NULL, CF "policy6/scaling_governor = schedutil",
		 NULL},
		{"warn", "usbcore.usbfs_memory_mb", "usbcore",
		 "usbfs_memory_mb is 16: libusb bulk tests with many or large URBs get ENOMEM or "
		 "run with fewer transfers in flight",
		 UP "usbfs_memory_mb = 16",
		 "echo 0 > " UP "usbfs_memory_mb (no limit) or echo 256 > ...; at boot: "
		 "usbcore.usbfs_memory_mb=256"},
		{"warn", "usbcore.autosuspend", "usbcore",
		 "USB autosuspend is on (after 2 s idle): a device under test can suspend between "
		 "tests and the first transfer after a pause pays the resume",
		 UP "autosuspend = 2",
		 "echo -1 > " UP "autosuspend (applies to devices enumerated afterwards; at boot: "
		 "usbcore.autosuspend=-1), or per device: echo on > "
		 "/sys/bus/usb/devices/<dev>/power/control"},
		/* 20 % of 14873520 KiB */
		{"info", "vm.dirty_cache", "vm",
		 "buffered writes of up to ~2.8 GiB land in the page cache first: a write "
		 "benchmark that does not fsync or use O_DIRECT measures RAM, not the device",
		 "/proc/sys/vm/dirty_ratio = 20, /proc/sys/vm/dirty_bytes = 0, /proc/meminfo "
		 "MemAvailable = 14873520 KiB",
		 "time writes with O_DIRECT or with the fsync included (usbperf disk does both); "
		 "to shrink the cache: echo 67108864 > /proc/sys/vm/dirty_bytes"},
		{"warn", "udc.speed_below_max", "fc000000.usb",
		 "connected at high-speed though the controller can do super-speed: the link caps "
		 "throughput",
		 "/sys/class/udc/fc000000.usb/current_speed = high-speed, "
		 "/sys/class/udc/fc000000.usb/maximum_speed = super-speed, state = configured",
		 "connect straight to a host port that does super-speed, with a cable rated for it "
		 "and no slower hub between (a USB 2 cable, or a Type-C port that loses SuperSpeed "
		 "in one orientation, shows this too: see dmesg on both ends)"},
	};
	struct finding_list l = FINDING_LIST_INIT;
	struct sysinfo_facts si;
	size_t i;

	(void)state;
	probe_fixture("board", &si, &l);
	STR(si.kernel, "6.1.75-rockchip-rk3588");
	STR(si.kernel_version, "#1 SMP PREEMPT Mon Jan 15 10:00:00 UTC 2024");
	STR(si.preempt_model, "PREEMPT");
	STR(si.preempt_mode, NULL);
	STR(si.board, "Radxa ROCK 5B"); /* the device tree's trailing NUL dropped */
	STR(si.board_source, "device-tree");
	STR(si.cpu_model, "Cortex-A55 x4 + Cortex-A76 x4");
	STR(si.cpus_online, "0-7");
	INT(si.ncpus_online, 8);
	check_policies(&si, pol, ARRAY_SIZE(pol));
	INT(si.mem_total_kib, 16146412);
	INT(si.mem_available_kib, 14873520);
	INT(si.dirty_ratio, 20);
	INT(si.dirty_background_ratio, 10);
	INT(si.dirty_bytes, 0);
	INT(si.dirty_background_bytes, 0);
	INT(si.dirty_expire_centisecs, 3000);
	INT(si.dirty_writeback_centisecs, 500);
	assert_true(si.usbcore);
	INT(si.usbfs_memory_mb, 16);
	INT(si.autosuspend_s, 2);
	INT(si.authorized_default, -1);
	assert_int_equal(si.nusbcore_params, ARRAY_SIZE(params));
	for (i = 0; i < ARRAY_SIZE(params); i++) {
		STR(si.usbcore_params[i].name, params[i][0]);
		STR(si.usbcore_params[i].value, params[i][1]);
	}
	assert_true(si.gadget_configfs);
	INT(si.ngadgets, 1);
	INT(si.nudcs, 1);
	check_findings(&l, fw, ARRAY_SIZE(fw));
	finding_list_release(&l);
	sysinfo_release(&si);
	sysroot_set(NULL);
}

static void test_pc(void **state)
{
	static const struct want_policy pol[] = {
		/* policy10 after policy2: numeric order */
		{"policy0", "0", "intel_pstate", "performance", "performance", 4700000, 800000,
		 4900000, 800000, 4900000},
		{"policy1", "1", "intel_pstate", "performance", "performance", 4700000, 800000,
		 4900000, 800000, 4900000},
		{"policy2", "2", "intel_pstate", "performance", "performance", 4700000, 800000,
		 4900000, 800000, 4900000},
		{"policy10", "10", "intel_pstate", "performance", "performance", 4700000, 800000,
		 4900000, 800000, 4900000},
	};
	static const struct want_finding fw[] = {
		{"info", "vm.dirty_cache", "vm",
		 "buffered writes of up to ~256 MiB land in the page cache first: a write "
		 "benchmark that does not fsync or use O_DIRECT measures RAM, not the device",
		 "/proc/sys/vm/dirty_bytes = 268435456", NULL},
	};
	struct finding_list l = FINDING_LIST_INIT;
	struct sysinfo_facts si;

	(void)state;
	probe_fixture("pc", &si, &l);
	STR(si.kernel, "6.8.0-45-generic");
	STR(si.preempt_model, "PREEMPT_DYNAMIC");
	STR(si.preempt_mode, "voluntary");
	STR(si.board, "Dell Inc. OptiPlex 7090 (board 0K83V0)");
	STR(si.board_source, "dmi");
	STR(si.cpu_model, "11th Gen Intel(R) Core(TM) i7-11700 @ 2.50GHz");
	STR(si.cpus_online, "0-2,10");
	INT(si.ncpus_online, 4);
	check_policies(&si, pol, ARRAY_SIZE(pol));
	INT(si.mem_total_kib, 32567244);
	INT(si.mem_available_kib, 30123456);
	INT(si.dirty_ratio, 0);
	INT(si.dirty_background_ratio, 0);
	INT(si.dirty_bytes, 268435456);
	INT(si.dirty_background_bytes, 134217728);
	assert_true(si.usbcore);
	INT(si.usbfs_memory_mb, 0); /* no limit: no finding */
	INT(si.autosuspend_s, -1);  /* off: no finding */
	INT(si.authorized_default, 1);
	assert_int_equal(si.nusbcore_params, 1);
	STR(si.usbcore_params[0].name, "nousb");
	/* configfs mounted, but no usb_gadget in it; no UDC on a PC */
	assert_false(si.gadget_configfs);
	INT(si.ngadgets, 0);
	INT(si.nudcs, 0);
	assert_int_equal(si.usb.ngadgets + si.usb.nudcs, 0);
	check_findings(&l, fw, ARRAY_SIZE(fw));
	finding_list_release(&l);
	sysinfo_release(&si);
	sysroot_set(NULL);
}

static void test_odd(void **state)
{
	static const struct want_policy pol[] = {
		/* "0 1 x" does not parse: shown as read */
		{"policy0", "0 1 x", NULL, NULL, NULL, UNK, UNK, UNK, UNK, UNK},
		{"policy1", NULL, NULL, NULL, NULL, UNK, UNK, UNK, UNK, UNK},
		{"policy2", NULL, NULL, "performance", NULL, UNK, UNK, 1000000, UNK, 2000000},
	};
	static const struct want_finding fw[] = {
		{"warn", "cpu.max_freq_capped", "policy2",
		 "scaling_max_freq caps the CPUs at 1000 MHz of 2000 MHz", NULL, NULL},
		{"warn", "udc.speed_below_max", "ci_hdrc.0",
		 "connected at full-speed though the controller can do high-speed: the link caps "
		 "throughput",
		 NULL,
		 "connect straight to a host port that does high-speed, with a cable rated for it "
		 "and no slower hub between"},
	};
	struct finding_list l = FINDING_LIST_INIT;
	struct sysinfo_facts si;

	(void)state;
	probe_fixture("odd", &si, &l);
	STR(si.kernel, "6.1.0?evil");
	STR(si.kernel_version, NULL); /* a directory */
	STR(si.preempt_model, NULL);  /* no version, no .config: not guessed */
	STR(si.preempt_mode, NULL);   /* "full" without its parentheses */
	STR(si.board, "X570 AORUS ELITE");
	STR(si.board_source, "dmi");
	STR(si.cpu_model, NULL);
	STR(si.cpus_online, "7-3");
	INT(si.ncpus_online, UNK);
	check_policies(&si, pol, ARRAY_SIZE(pol));
	INT(si.mem_total_kib, UNK);
	INT(si.mem_available_kib, UNK);
	INT(si.dirty_ratio, 20);
	INT(si.dirty_background_ratio, UNK); /* 150 % */
	INT(si.dirty_bytes, 0);
	INT(si.dirty_background_bytes, UNK);
	INT(si.dirty_expire_centisecs, UNK); /* " 3000" */
	INT(si.dirty_writeback_centisecs, 500);
	assert_true(si.usbcore);
	INT(si.usbfs_memory_mb, UNK);	 /* -16 */
	INT(si.autosuspend_s, UNK);	 /* a directory */
	INT(si.authorized_default, UNK); /* missing */
	assert_int_equal(si.nusbcore_params, 2);
	STR(si.usbcore_params[0].name, "nousb");
	STR(si.usbcore_params[0].value, NULL); /* dangling link */
	STR(si.usbcore_params[1].name, "quirks");
	STR(si.usbcore_params[1].value, "a?b");
	assert_true(si.gadget_configfs);
	INT(si.ngadgets, 2);
	INT(si.nudcs, 3);
	check_findings(&l, fw, ARRAY_SIZE(fw));
	finding_list_release(&l);
	sysinfo_release(&si);
	sysroot_set(NULL);
}

/* the real machine: whatever it has, the probe returns and the report renders */
static void test_live(void **state)
{
	struct finding_list l = FINDING_LIST_INIT;
	struct report r = {.command = "sysinfo"};
	struct strbuf out = STRBUF_INIT;
	struct sysinfo_facts si;
	enum output_format f;

	(void)state;
	sysroot_set(NULL);
	assert_int_equal(sysinfo_probe(&si), 0);
	assert_non_null(si.kernel);
	sysinfo_findings(&si, &l);
	sysinfo_describe(&si, &l, &r);
	for (f = FORMAT_TEXT; f <= FORMAT_CSV; f++)
		assert_int_equal(render(&r, f, &out), 0);
	strbuf_release(&out);
	finding_list_release(&l);
	sysinfo_release(&si);
	sysinfo_release(&si); /* released twice: harmless */
}

/* text of the pc fixture, exactly: labels, units, unknowns, then the findings */
static void test_pc_text(void **state)
{
	static const char *const want[] = {
		"system\n"
		"  kernel            6.8.0-45-generic\n"
		"  kernel build      #45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024\n"
		"  preemption        PREEMPT_DYNAMIC\n"
		"  preempt mode      voluntary\n"
		"  board             Dell Inc. OptiPlex 7090 (board 0K83V0)\n"
		"  cpu               11th Gen Intel(R) Core(TM) i7-11700 @ 2.50GHz\n"
		"  cpus online       0-2,10\n"
		"  cpu count         4\n"
		"  cpufreq policies  4\n"
		"\n"
		"cpufreq\n"
		"policy    cpus  driver        governor     epp              cur     min      max  "
		"hw min   hw max\n"
		"                                                            kHz     kHz      kHz     "
		"kHz      kHz\n"
		"policy0   0     intel_pstate  performance  performance  4700000  800000  4900000  "
		"800000  4900000\n",
		"memory and writeback\n"
		"  total                         32567244 KiB\n"
		"  available                     30123456 KiB\n"
		"  vm.dirty_ratio                0 %\n",
		"usb\n"
		"  usbcore             yes\n"
		"  usbfs_memory_mb     0 MiB\n"
		"  autosuspend         -1 s\n"
		"  authorized_default  1\n"
		"  gadget configfs     no\n"
		"  gadgets             0\n"
		"  UDCs                0\n"
		"\n"
		"other usbcore parameters\n"
		"parameter  value\n"
		"nousb      N\n"
		"\n"
		"findings\n"
		"  ",
	};
	struct finding_list l = FINDING_LIST_INIT;
	struct report r = {.command = "sysinfo"};
	struct strbuf out = STRBUF_INIT;
	struct sysinfo_facts si;
	size_t i;

	(void)state;
	probe_fixture("pc", &si, &l);
	sysinfo_describe(&si, &l, &r);
	assert_int_equal(render_text(&r, &out), 0);
	assert_true(!strncmp(out.buf, want[0], strlen(want[0])));
	for (i = 1; i < ARRAY_SIZE(want); i++)
		if (!strstr(out.buf, want[i]))
			fail_msg("text lacks:\n%s\n--- in:\n%s", want[i], out.buf);
	/* no gadget side: its tables are left out */
	assert_null(strstr(out.buf, "gadget functions"));
	assert_null(strstr(out.buf, "UDCs ("));
	strbuf_release(&out);
	finding_list_release(&l);
	sysinfo_release(&si);
	sysroot_set(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_i64), cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_meminfo),	  cmocka_unit_test(test_preempt),
		cmocka_unit_test(test_cpuinfo),	  cmocka_unit_test(test_board),
		cmocka_unit_test(test_pc),	  cmocka_unit_test(test_odd),
		cmocka_unit_test(test_live),	  cmocka_unit_test(test_pc_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
