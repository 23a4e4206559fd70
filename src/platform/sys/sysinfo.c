// SPDX-License-Identifier: MIT
/* sysinfo: the probe and the parsers of its procfs/sysfs texts (see sysinfo.h). */
#include "platform/sys/sysinfo.h"
#include "platform/sys/attr.h"
#include "model/field.h"
#include "util/parse.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPUS 8192 /* the largest CONFIG_NR_CPUS */
#define BIG_FILE (1u << 20) /* cpuinfo of a many-core machine, a kernel .config */

/* ---- parsers ---- */

static int cpulist_token(const char *tok, size_t len, unsigned char *bits)
{
	char a[16], *dash;
	uint64_t lo, hi;

	if (len == 0 || len >= sizeof(a))
		return -EINVAL;
	memcpy(a, tok, len);
	a[len] = '\0';
	dash = strchr(a, '-');
	if (dash)
		*dash = '\0';
	if (parse_u64(a, 0, MAX_CPUS - 1, &lo) < 0)
		return -EINVAL;
	hi = lo;
	if (dash && parse_u64(dash + 1, lo, MAX_CPUS - 1, &hi) < 0)
		return -EINVAL;
	for (; lo <= hi; lo++)
		bits[lo / 8] |= (unsigned char)(1u << (lo % 8));
	return 0;
}

static bool bit(const unsigned char *bits, size_t i)
{
	return i < MAX_CPUS && bits[i / 8] & (1u << (i % 8));
}

int cpulist_normalize(const char *s, struct strbuf *ret, int64_t *ret_count)
{
	unsigned char bits[MAX_CPUS / 8] = {0};
	struct strbuf out = STRBUF_INIT;
	int64_t count = 0;
	size_t i, start;

	for (const char *p = s; *p;) {
		size_t n = strcspn(p, ", ");

		if (cpulist_token(p, n, bits) < 0)
			return -EINVAL;
		p += n;
		if (*p)
			p++;
	}
	for (i = 0; i < MAX_CPUS; i++) {
		if (!bit(bits, i))
			continue;
		for (start = i; bit(bits, i + 1); i++)
			;
		count += (int64_t)(i - start + 1);
		strbuf_addf(&out, start == i ? "%s%zu" : "%s%zu-%zu", out.len ? "," : "", start, i);
	}
	if (!count) {
		strbuf_release(&out);
		return -EINVAL;
	}
	strbuf_reset(ret);
	strbuf_add(ret, out.buf, out.len);
	*ret_count = count;
	strbuf_release(&out);
	return 0;
}

int meminfo_kib(const char *text, const char *key, int64_t *ret)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		const char *next = strchr(line, '\n');
		char num[32];
		size_t n;

		if (strncmp(line, key, klen) != 0 || line[klen] != ':') {
			line = next ? next + 1 : NULL;
			continue;
		}
		line += klen + 1;
		line += strspn(line, " \t");
		n = strcspn(line, " \n");
		if (n == 0 || n >= sizeof(num))
			return -EINVAL;
		memcpy(num, line, n);
		num[n] = '\0';
		/* the unit, when there, is kB: anything else is not a memory size */
		if (line[n] == ' ' && strncmp(line + n, " kB", 3) != 0)
			return -EINVAL;
		return parse_i64(num, 0, INT64_MAX, ret);
	}
	return -EINVAL;
}

const char *preempt_from_version(const char *version)
{
	const char *found = NULL, *p = version;
	bool prev_preempt = false;

	/* scripts/mkcompile_h names the model as one word after "SMP" */
	while (*p) {
		size_t n = strcspn(p, " ");

		if (n == 10 && !strncmp(p, "PREEMPT_RT", n))
			return "PREEMPT_RT";
		if (prev_preempt && n == 2 && !strncmp(p, "RT", 2))
			return "PREEMPT_RT"; /* the old RT patch set wrote "PREEMPT RT" */
		if (n == 15 && !strncmp(p, "PREEMPT_DYNAMIC", n))
			found = "PREEMPT_DYNAMIC";
		prev_preempt = n == 7 && !strncmp(p, "PREEMPT", n);
		if (prev_preempt && !found)
			found = "PREEMPT";
		p += n;
		p += strspn(p, " ");
	}
	return found;
}

int preempt_active_mode(const char *text, struct strbuf *ret)
{
	const char *open = strchr(text, '('), *close;
	size_t n;

	if (!open)
		return -EINVAL;
	close = strchr(open, ')');
	if (!close)
		return -EINVAL;
	n = (size_t)(close - open - 1);
	if (n == 0 || n > 32 || strspn(open + 1, "abcdefghijklmnopqrstuvwxyz_") != n)
		return -EINVAL;
	strbuf_reset(ret);
	strbuf_add(ret, open + 1, n);
	return 0;
}

const char *preempt_from_config(const char *config)
{
	static const struct {
		const char *line, *model;
	} order[] = {
		/* most specific first: a dynamic kernel also sets its default model */
		{"CONFIG_PREEMPT_RT=y", "PREEMPT_RT"},
		{"CONFIG_PREEMPT_DYNAMIC=y", "PREEMPT_DYNAMIC"},
		{"CONFIG_PREEMPT=y", "PREEMPT"},
		{"CONFIG_PREEMPT_VOLUNTARY=y", "voluntary"},
		{"CONFIG_PREEMPT_NONE=y", "none"},
	};
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		size_t n = strlen(order[i].line);

		for (const char *p = config; (p = strstr(p, order[i].line)); p += n)
			if ((p == config || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
				return order[i].model;
	}
	return NULL;
}

/* ARM Ltd (implementer 0x41) parts as arm64 /proc/cpuinfo numbers them */
static const struct {
	unsigned part;
	const char *name;
} arm_parts[] = {
	{0xc07, "Cortex-A7"},	 {0xc09, "Cortex-A9"},	  {0xc0f, "Cortex-A15"},
	{0xd03, "Cortex-A53"},	 {0xd04, "Cortex-A35"},	  {0xd05, "Cortex-A55"},
	{0xd07, "Cortex-A57"},	 {0xd08, "Cortex-A72"},	  {0xd09, "Cortex-A73"},
	{0xd0a, "Cortex-A75"},	 {0xd0b, "Cortex-A76"},	  {0xd0c, "Neoverse-N1"},
	{0xd0d, "Cortex-A77"},	 {0xd41, "Cortex-A78"},	  {0xd44, "Cortex-X1"},
	{0xd46, "Cortex-A510"}, {0xd47, "Cortex-A710"}, {0xd48, "Cortex-X2"},
	{0xd49, "Neoverse-N2"}, {0xd4d, "Cortex-A715"}, {0xd4e, "Cortex-X3"},
	{0xd4f, "Neoverse-V2"}, {0xd80, "Cortex-A520"}, {0xd81, "Cortex-A720"},
};

#define MAX_CORE_KINDS 8

struct core_kinds {
	struct {
		unsigned impl, part, count;
	} v[MAX_CORE_KINDS];
	size_t n;
};

static void count_core(struct core_kinds *k, unsigned impl, unsigned part)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (k->v[i].impl == impl && k->v[i].part == part) {
			k->v[i].count++;
			return;
		}
	if (k->n < MAX_CORE_KINDS)
		k->v[k->n++] = (typeof(k->v[0])){impl, part, 1};
}

static void describe_cores(const struct core_kinds *k, struct strbuf *out)
{
	size_t i, j;

	for (i = 0; i < k->n; i++) {
		const char *name = NULL;

		for (j = 0; j < sizeof(arm_parts) / sizeof(arm_parts[0]); j++)
			if (k->v[i].impl == 0x41 && arm_parts[j].part == k->v[i].part)
				name = arm_parts[j].name;
		if (i)
			strbuf_adds(out, " + ");
		if (name)
			strbuf_adds(out, name);
		else
			strbuf_addf(out, "implementer 0x%02x part 0x%03x", k->v[i].impl,
				    k->v[i].part);
		strbuf_addf(out, " x%u", k->v[i].count);
	}
}

/* "key\t: value" -> key and value, both trimmed; false for other lines */
static bool cpuinfo_line(const char *line, size_t len, char *key, size_t klen, char *val,
			 size_t vlen)
{
	const char *colon = memchr(line, ':', len);
	size_t kn, vn;

	if (!colon)
		return false;
	kn = (size_t)(colon - line);
	while (kn && (line[kn - 1] == ' ' || line[kn - 1] == '\t'))
		kn--;
	colon++;
	vn = len - (size_t)(colon - line);
	while (vn && *colon == ' ')
		colon++, vn--;
	if (kn >= klen || vn >= vlen)
		return false;
	memcpy(key, line, kn);
	key[kn] = '\0';
	memcpy(val, colon, vn);
	val[vn] = '\0';
	return true;
}

/* "0xd05" -> 0xd05; 0 for anything else (no real implementer or part is 0) */
static unsigned hex_or_zero(const char *s)
{
	unsigned v = 0;
	size_t i;

	if (strncmp(s, "0x", 2) || !s[2] || strlen(s + 2) > 4)
		return 0;
	for (i = 2; s[i]; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;
		if (d < 0)
			return 0;
		v = v * 16 + (unsigned)d;
	}
	return v;
}

int cpuinfo_model(const char *text, struct strbuf *ret)
{
	/* the first named model wins, in this order of preference */
	static const char *const keys[] = {"model name", "uarch", "cpu model", "Processor", "cpu"};
	char found[5][256] = {{0}}, key[64], val[256];
	struct core_kinds cores = {.n = 0};
	unsigned impl = 0;
	size_t i;

	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");

		if (cpuinfo_line(line, len, key, sizeof(key), val, sizeof(val))) {
			if (!strcmp(key, "CPU implementer"))
				impl = hex_or_zero(val);
			else if (!strcmp(key, "CPU part") && impl && hex_or_zero(val))
				count_core(&cores, impl, hex_or_zero(val));
			for (i = 0; i < 5; i++)
				if (!strcmp(key, keys[i]) && !found[i][0])
					snprintf(found[i], sizeof(found[i]), "%s", val);
		}
		line += len;
		if (*line)
			line++;
	}
	strbuf_reset(ret);
	/* arm64 names no model: its cores are numbered, big.LITTLE mixes two kinds */
	if (cores.n) {
		describe_cores(&cores, ret);
		return 0;
	}
	for (i = 0; i < 5; i++)
		if (found[i][0]) {
			strbuf_adds(ret, found[i]);
			sanitize_string(ret->buf);
			ret->len = strlen(ret->buf);
			return 0;
		}
	return -EINVAL;
}

/* ---- the probe ---- */

static void probe_kernel(struct sysinfo_facts *si)
{
	struct strbuf sb = STRBUF_INIT, mode = STRBUF_INIT;
	const char *model = NULL;

	si->kernel = attr_str("/proc/sys/kernel/osrelease");
	si->kernel_version = attr_str("/proc/sys/kernel/version");
	if (si->kernel_version)
		model = preempt_from_version(si->kernel_version);
	if (sysroot_read_attr("/sys/kernel/realtime", &sb) == 0 && !strcmp(sb.buf, "1"))
		model = "PREEMPT_RT";
	/* uname tells nothing of none vs voluntary: the kernel's own .config does */
	if (!model && si->kernel_version && si->kernel && !strchr(si->kernel, '/') &&
	    si->kernel[0] != '.') {
		struct strbuf path = STRBUF_INIT;

		strbuf_addf(&path, "/boot/config-%s", si->kernel);
		if (sysroot_read(path.buf, BIG_FILE, &sb) == 0)
			model = preempt_from_config(sb.buf);
		strbuf_release(&path);
		if (!model)
			model = "none or voluntary";
	}
	si->preempt_model = model ? xstrdup(model) : NULL;
	/* debugfs (root only) shows the dynamic mode in force: "none voluntary (full)" */
	if (sysroot_read_attr("/sys/kernel/debug/sched/preempt", &sb) == 0 &&
	    preempt_active_mode(sb.buf, &mode) == 0)
		si->preempt_mode = strbuf_detach(&mode);
	strbuf_release(&sb);
	strbuf_release(&mode);
}

static void probe_board(struct sysinfo_facts *si)
{
	struct strbuf b = STRBUF_INIT;
	char *vendor, *product, *board;

	si->board = attr_strf_nonempty("/proc/device-tree/model");
	if (!si->board)
		si->board = attr_strf_nonempty("/sys/firmware/devicetree/base/model");
	if (si->board) {
		si->board_source = xstrdup("device-tree");
		return;
	}
	vendor = attr_strf_nonempty("/sys/class/dmi/id/sys_vendor");
	product = attr_strf_nonempty("/sys/class/dmi/id/product_name");
	board = attr_strf_nonempty("/sys/class/dmi/id/board_name");
	if (vendor)
		strbuf_adds(&b, vendor);
	if (product)
		strbuf_addf(&b, "%s%s", b.len ? " " : "", product);
	/* "System Product Name" boards say more by their board name */
	if (board && (!product || strcmp(board, product)))
		strbuf_addf(&b, b.len ? " (board %s)" : "%s", board);
	if (b.len) {
		si->board = strbuf_detach(&b);
		si->board_source = xstrdup("dmi");
	}
	free_all(vendor, product, board);
	strbuf_release(&b);
}

static void probe_cpus(struct sysinfo_facts *si)
{
	struct strbuf sb = STRBUF_INIT, list = STRBUF_INIT;

	si->ncpus_online = FIELD_INT_UNKNOWN;
	if (sysroot_read_attr("/sys/devices/system/cpu/online", &sb) == 0) {
		if (cpulist_normalize(sb.buf, &list, &si->ncpus_online) == 0)
			si->cpus_online = strbuf_detach(&list);
		else
			si->cpus_online = strbuf_detach(&sb); /* shown as read, count unknown */
	}
	if (sysroot_read("/proc/cpuinfo", BIG_FILE, &sb) == 0 && cpuinfo_model(sb.buf, &list) == 0)
		si->cpu_model = strbuf_detach(&list);
	strbuf_release(&sb);
	strbuf_release(&list);
}

static void probe_memory(struct sysinfo_facts *si)
{
	struct strbuf sb = STRBUF_INIT;

	si->mem_total_kib = si->mem_available_kib = FIELD_INT_UNKNOWN;
	if (sysroot_read("/proc/meminfo", BIG_FILE, &sb) == 0) {
		meminfo_kib(sb.buf, "MemTotal", &si->mem_total_kib);
		meminfo_kib(sb.buf, "MemAvailable", &si->mem_available_kib);
	}
	strbuf_release(&sb);
	si->dirty_ratio = attr_int("/proc/sys/vm/dirty_ratio", 0, 100);
	si->dirty_background_ratio = attr_int("/proc/sys/vm/dirty_background_ratio", 0, 100);
	si->dirty_bytes = attr_int("/proc/sys/vm/dirty_bytes", 0, INT64_MAX);
	si->dirty_background_bytes = attr_int("/proc/sys/vm/dirty_background_bytes", 0, INT64_MAX);
	si->dirty_expire_centisecs = attr_int("/proc/sys/vm/dirty_expire_centisecs", 0, INT32_MAX);
	si->dirty_writeback_centisecs =
		attr_int("/proc/sys/vm/dirty_writeback_centisecs", 0, INT32_MAX);
}

static void probe_usbcore(struct sysinfo_facts *si)
{
	struct name_list l = NAME_LIST_INIT;
	size_t i;

	si->usbcore = sysroot_exists("/sys/module/usbcore");
	si->usbfs_memory_mb = attr_int(USBCORE_PARAMS "/usbfs_memory_mb", 0, UINT32_MAX);
	si->autosuspend_s = attr_int(USBCORE_PARAMS "/autosuspend", INT32_MIN, INT32_MAX);
	si->authorized_default =
		attr_int(USBCORE_PARAMS "/authorized_default", INT32_MIN, INT32_MAX);
	if (sysroot_list(USBCORE_PARAMS, &l) < 0)
		return;
	si->usbcore_params = calloc(l.n ? l.n : 1, sizeof(*si->usbcore_params));
	if (!si->usbcore_params)
		abort();
	for (i = 0; i < l.n; i++) {
		struct usbcore_param *p = &si->usbcore_params[si->nusbcore_params];

		/* decoded above */
		if (!strcmp(l.v[i], "usbfs_memory_mb") || !strcmp(l.v[i], "autosuspend") ||
		    !strcmp(l.v[i], "authorized_default"))
			continue;
		p->name = xstrdup(l.v[i]);
		p->value = attr_strf(USBCORE_PARAMS "/%s", l.v[i]);
		si->nusbcore_params++;
	}
	name_list_release(&l);
}

/* a cpulist attribute in canonical form; as read when it does not parse */
static char *cpulist_attr(const char *path)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	int64_t n;
	char *r = NULL;

	if (sysroot_read_attr(path, &sb) == 0 && sb.len)
		r = cpulist_normalize(sb.buf, &out, &n) == 0 ? strbuf_detach(&out)
							      : strbuf_detach(&sb);
	strbuf_release(&sb);
	strbuf_release(&out);
	return r;
}

static void probe_policy(struct cpufreq_policy *p, const char *name)
{
	struct strbuf path = STRBUF_INIT;

#define POLICY_KHZ(attr) attr_intf(0, INT64_MAX, CPUFREQ_ROOT "/%s/" attr, name)
	p->name = xstrdup(name);
	strbuf_addf(&path, CPUFREQ_ROOT "/%s/related_cpus", name);
	p->cpus = cpulist_attr(path.buf);
	p->driver = attr_strf_nonempty(CPUFREQ_ROOT "/%s/scaling_driver", name);
	p->governor = attr_strf_nonempty(CPUFREQ_ROOT "/%s/scaling_governor", name);
	p->epp = attr_strf_nonempty(CPUFREQ_ROOT "/%s/energy_performance_preference", name);
	p->cur_khz = POLICY_KHZ("scaling_cur_freq");
	p->min_khz = POLICY_KHZ("scaling_min_freq");
	p->max_khz = POLICY_KHZ("scaling_max_freq");
	p->cpuinfo_min_khz = POLICY_KHZ("cpuinfo_min_freq");
	p->cpuinfo_max_khz = POLICY_KHZ("cpuinfo_max_freq");
#undef POLICY_KHZ
	strbuf_release(&path);
}

/* "policy<N>" -> N; -1 for other names */
static int64_t policy_number(const char *name)
{
	int64_t n;

	if (strncmp(name, "policy", 6) || parse_i64(name + 6, 0, MAX_CPUS, &n) < 0)
		return -1;
	return n;
}

static int policy_cmp(const void *a, const void *b)
{
	int64_t x = policy_number(*(char *const *)a), y = policy_number(*(char *const *)b);

	return x < y ? -1 : x > y;
}

static void probe_cpufreq(struct sysinfo_facts *si)
{
	struct name_list l = NAME_LIST_INIT;
	size_t i;

	si->ncpufreq_policies = 0;
	/* absent on VMs and fixed-clock boards: a fact, not an error */
	if (sysroot_list(CPUFREQ_ROOT, &l) < 0)
		return;
	/* policy10 after policy2 */
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), policy_cmp);
	si->policies = calloc(l.n ? l.n : 1, sizeof(*si->policies));
	if (!si->policies)
		abort();
	for (i = 0; i < l.n; i++)
		if (policy_number(l.v[i]) >= 0)
			probe_policy(&si->policies[si->npolicies++], l.v[i]);
	si->ncpufreq_policies = (int64_t)si->npolicies;
	name_list_release(&l);
}

int sysinfo_probe(struct sysinfo_facts *ret)
{
	struct sysinfo_facts *si = ret;

	*si = (struct sysinfo_facts){0};
	probe_kernel(si);
	probe_board(si);
	probe_cpus(si);
	probe_cpufreq(si);
	probe_memory(si);
	probe_usbcore(si);
	gadget_probe(&si->usb);
	si->gadget_configfs = si->usb.configfs;
	si->ngadgets = (int64_t)si->usb.ngadgets;
	si->nudcs = (int64_t)si->usb.nudcs;
	return 0;
}

void sysinfo_release(struct sysinfo_facts *si)
{
	size_t i;

	free_all(si->kernel, si->kernel_version, si->preempt_model, si->preempt_mode, si->board,
		 si->board_source, si->cpu_model, si->cpus_online);
	for (i = 0; i < si->nusbcore_params; i++)
		free_all(si->usbcore_params[i].name, si->usbcore_params[i].value);
	free(si->usbcore_params);
	for (i = 0; i < si->npolicies; i++) {
		struct cpufreq_policy *p = &si->policies[i];

		free_all(p->name, p->cpus, p->driver, p->governor, p->epp);
	}
	free(si->policies);
	gadget_facts_release(&si->usb);
	*si = (struct sysinfo_facts){0};
}
