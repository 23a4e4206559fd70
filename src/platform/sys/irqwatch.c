// SPDX-License-Identifier: MIT
/* Interrupt placement during a pass: see irqwatch.h. */
#include "platform/sys/irqwatch.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* columns of a header past this are not CPUs any kernel has: the rest of the line is ignored */
#define MAX_COLUMNS 8192
#define TOK_MAX 32

/* the next blank-separated token of [*p, end) into buf; its length, 0 at the end */
static size_t next_tok(const char **p, const char *end, char *buf, size_t n)
{
	const char *s = *p, *e;
	size_t len;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	e = s;
	while (e < end && *e != ' ' && *e != '\t')
		e++;
	*p = e;
	len = (size_t)(e - s);
	if (len >= n)
		len = n - 1; /* a token that long is not a number: it fails to parse */
	memcpy(buf, s, len);
	buf[len] = '\0';
	return (size_t)(e - s);
}

static void note_cpu(struct irq_snapshot *s, unsigned cpu)
{
	if (cpu < IRQWATCH_MAX_CPUS && cpu + 1 > s->ncpu)
		s->ncpu = cpu + 1;
}

/* "CPU0 CPU1 CPU3": the CPU number of each column (-1 past the kept ones); the count */
static int header_cpus(const char *line, const char *end, int **ret_cols, size_t *ret_n)
{
	char tok[TOK_MAX];
	int *cols = NULL;
	size_t n = 0;
	uint64_t cpu;

	while (next_tok(&line, end, tok, sizeof(tok)) && n < MAX_COLUMNS) {
		if (strncmp(tok, "CPU", 3) || parse_u64(tok + 3, 0, UINT32_MAX, &cpu) < 0) {
			free(cols);
			return -EINVAL;
		}
		cols = realloc(cols, (n + 1) * sizeof(*cols));
		if (!cols)
			return -ENOMEM;
		cols[n++] = cpu < IRQWATCH_MAX_CPUS ? (int)cpu : -1;
	}
	if (!n)
		return -EINVAL;
	*ret_cols = cols;
	*ret_n = n;
	return 0;
}

static bool in_list(const char *list, const char *tok, size_t n)
{
	for (const char *s = list; s && *s;) {
		size_t len = strcspn(s, ",");

		if (len == n && !strncmp(s, tok, n))
			return true;
		s += len + (s[len] == ',');
	}
	return false;
}

/*
 * A table with a CPU header and "label: count count ..." rows (/proc/interrupts,
 * /proc/softirqs): each row keep() accepts adds its counts into acc per CPU.
 */
static int parse_table(const char *text, bool (*keep)(const char *label, size_t n, const void *ctx),
		       const void *ctx, struct irq_snapshot *s, uint64_t *acc, bool *ret_any)
{
	const char *line = text, *end;
	int *cols = NULL;
	size_t ncols = 0;
	int r;

	end = strchr(line, '\n');
	if (!end)
		end = line + strlen(line);
	r = header_cpus(line, end, &cols, &ncols);
	if (r < 0)
		return r;
	for (size_t i = 0; i < ncols; i++)
		if (cols[i] >= 0)
			note_cpu(s, (unsigned)cols[i]);
	while (*end) {
		const char *p, *colon, *label;
		char tok[TOK_MAX];
		size_t n;

		line = end + 1;
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		label = line + strspn(line, " \t");
		colon = memchr(label, ':', (size_t)(end - label));
		if (!colon)
			continue;
		n = (size_t)(colon - label);
		if (!keep(label, n, ctx))
			continue;
		*ret_any = true;
		p = colon + 1;
		for (size_t i = 0; i < ncols; i++) {
			uint64_t v;

			if (!next_tok(&p, end, tok, sizeof(tok)) ||
			    parse_u64(tok, 0, UINT64_MAX, &v) < 0)
				break; /* the counts end where the chip and the action begin */
			if (cols[i] >= 0)
				acc[cols[i]] += v;
		}
	}
	free(cols);
	return 0;
}

static bool keep_line(const char *label, size_t n, const void *ctx)
{
	return n && strspn(label, "0123456789") == n && in_list(ctx, label, n);
}

int irq_parse_interrupts(const char *text, const char *lines, struct irq_snapshot *ret)
{
	bool any = false;
	int r;

	memset(ret->line, 0, sizeof(ret->line));
	r = parse_table(text, keep_line, lines ? lines : "", ret, ret->line, &any);
	if (r < 0)
		return r;
	ret->have_lines = any;
	return 0;
}

/* the softirqs the I/O paths raise: network receive, block completion, USB's tasklets */
static bool keep_softirq(const char *label, size_t n, const void *ctx)
{
	static const char *const io[] = {"NET_RX", "BLOCK", "TASKLET"};

	(void)ctx;
	for (size_t i = 0; i < sizeof(io) / sizeof(io[0]); i++)
		if (n == strlen(io[i]) && !strncmp(label, io[i], n))
			return true;
	return false;
}

int irq_parse_softirqs(const char *text, struct irq_snapshot *ret)
{
	bool any = false;

	memset(ret->softirq, 0, sizeof(ret->softirq));
	return parse_table(text, keep_softirq, NULL, ret, ret->softirq, &any);
}

int irq_parse_stat(const char *text, struct irq_snapshot *ret)
{
	const char *line = text, *end;
	bool any = false;

	memset(ret->intr_ticks, 0, sizeof(ret->intr_ticks));
	memset(ret->idle_ticks, 0, sizeof(ret->idle_ticks));
	memset(ret->total_ticks, 0, sizeof(ret->total_ticks));
	for (; *line; line = *end ? end + 1 : end) {
		/* user nice system idle iowait irq softirq steal */
		uint64_t f[8] = {0}, cpu, sum = 0;
		char tok[TOK_MAX];
		const char *p;
		size_t k;

		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		p = line;
		if (!next_tok(&p, end, tok, sizeof(tok)) || strncmp(tok, "cpu", 3) || !tok[3] ||
		    parse_u64(tok + 3, 0, UINT32_MAX, &cpu) < 0)
			continue;
		for (k = 0; k < 8; k++)
			if (!next_tok(&p, end, tok, sizeof(tok)) ||
			    parse_u64(tok, 0, UINT64_MAX / 16, &f[k]) < 0)
				break;
		if (k < 7) /* irq and softirq are there since 2.6.0; steal may not be */
			return -EINVAL;
		if (cpu >= IRQWATCH_MAX_CPUS)
			continue;
		for (k = 0; k < 8; k++)
			sum += f[k];
		ret->intr_ticks[cpu] = f[5] + f[6];
		ret->idle_ticks[cpu] = f[3] + f[4];
		ret->total_ticks[cpu] = sum;
		note_cpu(ret, (unsigned)cpu);
		any = true;
	}
	ret->have_stat = any;
	return any ? 0 : -EINVAL;
}

int irq_snapshot_take(const char *lines, struct irq_snapshot *ret)
{
	struct strbuf sb = STRBUF_INIT;

	memset(ret, 0, sizeof(*ret));
	if (lines && *lines && sysroot_read("/proc/interrupts", 1 << 22, &sb) == 0)
		(void)irq_parse_interrupts(sb.buf, lines, ret);
	strbuf_reset(&sb);
	if (sysroot_read("/proc/stat", 1 << 20, &sb) == 0)
		(void)irq_parse_stat(sb.buf, ret);
	strbuf_reset(&sb);
	if (sysroot_read("/proc/softirqs", 1 << 20, &sb) == 0)
		(void)irq_parse_softirqs(sb.buf, ret);
	strbuf_release(&sb);
	return 0;
}

char *irq_use_per_cpu(const struct irq_use *u)
{
	struct strbuf sb = STRBUF_INIT;

	if (u->count == IRQ_UNKNOWN)
		return NULL;
	for (unsigned c = 0; c < u->ncpu; c++)
		if (u->per_cpu[c])
			strbuf_addf(&sb, "%scpu%u %llu", sb.len ? ", " : "", c,
				    (unsigned long long)u->per_cpu[c]);
	if (!sb.len)
		strbuf_adds(&sb, "none");
	return strbuf_detach(&sb);
}

void irq_use_unknown(struct irq_use *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->count = IRQ_UNKNOWN;
	ret->irq_cpu = ret->busy_cpu = ret->io_cpu = IRQ_CPU_UNKNOWN;
	ret->irq_cpu_pct = ret->busy_share_pct = ret->others_busy_pct = ret->io_cpu_pct = NAN;
}

static uint64_t delta(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0; /* a CPU that went offline and back restarts its counts */
}

void irq_use_between(const struct irq_snapshot *a, const struct irq_snapshot *b, int64_t io_cpu,
		     double io_pct, struct irq_use *ret)
{
	unsigned n = a->ncpu > b->ncpu ? a->ncpu : b->ncpu;
	double busy_sum = 0;
	unsigned nbusy = 0;

	irq_use_unknown(ret);
	ret->ncpu = n;
	ret->io_cpu = io_cpu;
	ret->io_cpu_pct = io_cpu >= 0 ? io_pct : NAN;
	if (a->have_lines && b->have_lines) {
		uint64_t top = 0;

		ret->count = 0;
		for (unsigned c = 0; c < n; c++) {
			ret->per_cpu[c] = delta(a->line[c], b->line[c]);
			ret->count += ret->per_cpu[c];
			if (ret->per_cpu[c] > top) {
				top = ret->per_cpu[c];
				ret->irq_cpu = c;
			}
		}
		if (ret->count)
			ret->irq_cpu_pct = 100.0 * (double)top / (double)ret->count;
	}
	if (!a->have_stat || !b->have_stat)
		return;
	for (unsigned c = 0; c < n; c++) {
		uint64_t tot = delta(a->total_ticks[c], b->total_ticks[c]);
		double share;

		if (!tot)
			continue;
		share = 100.0 * (double)delta(a->intr_ticks[c], b->intr_ticks[c]) / (double)tot;
		if (ret->busy_cpu < 0 || share > ret->busy_share_pct) {
			ret->busy_cpu = c;
			ret->busy_share_pct = share;
		}
	}
	if (ret->busy_cpu < 0)
		return;
	ret->busy_softirq = delta(a->softirq[ret->busy_cpu], b->softirq[ret->busy_cpu]);
	for (unsigned c = 0; c < n; c++) {
		uint64_t tot = delta(a->total_ticks[c], b->total_ticks[c]);

		if (!tot || (int64_t)c == ret->busy_cpu)
			continue;
		busy_sum +=
		    100.0 * (1.0 - (double)delta(a->idle_ticks[c], b->idle_ticks[c]) / (double)tot);
		nbusy++;
	}
	if (nbusy)
		ret->others_busy_pct = busy_sum / nbusy;
}

void irq_use_fold(struct irq_use *sum, const struct irq_use *o)
{
	uint64_t top = 0;

	if (o->count != IRQ_UNKNOWN) {
		if (sum->count == IRQ_UNKNOWN)
			sum->count = 0;
		sum->count += o->count;
		for (unsigned c = 0; c < o->ncpu; c++)
			sum->per_cpu[c] += o->per_cpu[c];
		if (o->ncpu > sum->ncpu)
			sum->ncpu = o->ncpu;
		for (unsigned c = 0; c < sum->ncpu; c++)
			if (sum->per_cpu[c] > top) {
				top = sum->per_cpu[c];
				sum->irq_cpu = c;
			}
		sum->irq_cpu_pct = sum->count ? 100.0 * (double)top / (double)sum->count : NAN;
	}
	if (o->busy_cpu >= 0 && !(o->busy_share_pct <= sum->busy_share_pct)) {
		sum->busy_cpu = o->busy_cpu;
		sum->busy_share_pct = o->busy_share_pct;
		sum->others_busy_pct = o->others_busy_pct;
		sum->busy_softirq = o->busy_softirq;
	}
	if (o->io_cpu >= 0 && !(o->io_cpu_pct <= sum->io_cpu_pct)) {
		sum->io_cpu = o->io_cpu;
		sum->io_cpu_pct = o->io_cpu_pct;
	}
	if (o->ncpu > sum->ncpu)
		sum->ncpu = o->ncpu;
}

static void add_line(struct strbuf *sb, const char *num, size_t n)
{
	if (!n || n > 10 || strspn(num, "0123456789") < n || in_list(sb->buf, num, n))
		return;
	if (n == 1 && num[0] == '0')
		return; /* irq 0: no line (the attribute says "none" so) */
	strbuf_addf(sb, "%s%.*s", sb->len ? "," : "", (int)n, num);
}

/* the device's own lines, else its parent's, up a few levels (a NIC's function, a USB's HCD) */
static void sysfs_lines(const char *dev, struct strbuf *out)
{
	struct strbuf dir = STRBUF_INIT, p = STRBUF_INIT, v = STRBUF_INIT;

	if (sysroot_resolve(dev, &dir) < 0)
		strbuf_adds(&dir, dev);
	for (int depth = 0; depth < 16 && !out->len && dir.len > 1; depth++) {
		struct name_list l = NAME_LIST_INIT;
		char *slash;

		strbuf_reset(&p);
		strbuf_addf(&p, "%s/msi_irqs", dir.buf);
		if (sysroot_list(p.buf, &l) == 0)
			for (size_t i = 0; i < l.n; i++)
				add_line(out, l.v[i], strlen(l.v[i]));
		name_list_release(&l);
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/irq", dir.buf);
		if (!out->len && sysroot_read_attr(p.buf, &v) == 0)
			add_line(out, v.buf, strlen(v.buf));
		slash = strrchr(dir.buf, '/');
		if (!slash || slash == dir.buf)
			break;
		*slash = '\0';
		dir.len = (size_t)(slash - dir.buf);
	}
	strbuf_release(&dir);
	strbuf_release(&p);
	strbuf_release(&v);
}

/* lines whose action names hint as a word: "eth0", "eth0-rx-0", "xhci-hcd:usb1" */
static void named_lines(const char *hint, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	size_t hl = strlen(hint);

	if (sysroot_read("/proc/interrupts", 1 << 22, &text) < 0)
		goto out;
	for (char *save = NULL, *line = strtok_r(text.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *s = line + strspn(line, " "), *hit;
		size_t n = strspn(s, "0123456789");

		if (!n || s[n] != ':')
			continue;
		/* s + n is the colon: hit[-1] is always inside the line */
		for (hit = strstr(s + n, hint); hit; hit = strstr(hit + 1, hint)) {
			char before = hit[-1], after = hit[hl];

			if ((before == ' ' || before == ':' || before == ',') &&
			    (after == '\0' || after == ' ' || after == ',' || after == '-' ||
			     after == ':')) {
				add_line(out, s, n);
				break;
			}
		}
	}
out:
	strbuf_release(&text);
}

int irq_lines_of_device(const char *dev, const char *hint, char **ret)
{
	struct strbuf out = STRBUF_INIT;

	/* a name is exact where it is found (a platform controller has no irq attribute) */
	if (hint && *hint)
		named_lines(hint, &out);
	if (!out.len && dev && *dev)
		sysfs_lines(dev, &out);
	if (!out.len) {
		strbuf_release(&out);
		return -ENOENT;
	}
	*ret = strbuf_detach(&out);
	return 0;
}

/* the path's last component that is a USB root hub ("usb2") or an MMC host ("mmc0") */
static void host_name(const char *path, char *buf, size_t n)
{
	buf[0] = '\0';
	for (const char *c = path; c && *c; c = strchr(c, '/')) {
		size_t len;

		c += *c == '/';
		len = strcspn(c, "/");
		for (size_t k = 0; k < 2; k++) {
			const char *pre = k ? "mmc" : "usb";

			if (len > 3 && len < n && !strncmp(c, pre, 3) &&
			    strspn(c + 3, "0123456789") == len - 3)
				snprintf(buf, n, "%.*s", (int)len, c);
		}
	}
}

int irq_lines_of_sysfs(const char *path, const char *hint, char **ret)
{
	struct strbuf real = STRBUF_INIT;
	char host[32];
	int r;

	if (sysroot_resolve(path, &real) < 0) {
		strbuf_release(&real);
		return -ENOENT;
	}
	host_name(real.buf, host, sizeof(host));
	r = irq_lines_of_device(real.buf, host[0] ? host : hint, ret);
	strbuf_release(&real);
	return r;
}

int irq_lines_of_block(unsigned major, unsigned minor, char **ret)
{
	char path[64];

	if (!major)
		return -ENOENT;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major, minor);
	return irq_lines_of_sysfs(path, NULL, ret);
}

static int lines_of_stat(const struct stat *st, char **ret)
{
	char path[96];

	if (!S_ISCHR(st->st_mode))
		return -ENOENT;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u", major(st->st_rdev), minor(st->st_rdev));
	return irq_lines_of_sysfs(path, NULL, ret);
}

int irq_lines_of_node(const char *node, char **ret)
{
	struct stat st;

	if (!node || stat(node, &st) < 0)
		return -ENOENT;
	return lines_of_stat(&st, ret);
}

int irq_lines_of_fd(int fd, char **ret)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -ENOENT;
	return lines_of_stat(&st, ret);
}

int irq_thread_cpu(int tid)
{
	struct strbuf sb = STRBUF_INIT;
	char path[64], tok[TOK_MAX];
	const char *p, *end;
	uint64_t cpu;
	int fd, field = 2, r = -1;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (read_fd_all(fd, 4096, &sb) < 0)
		goto out;
	/* the name (field 2) may hold blanks and parentheses: count from its last ')' */
	p = strrchr(sb.buf, ')');
	if (!p)
		goto out;
	p++;
	end = sb.buf + sb.len;
	while (next_tok(&p, end, tok, sizeof(tok)))
		if (++field == 39) {
			if (parse_u64(tok, 0, INT32_MAX, &cpu) == 0)
				r = (int)cpu;
			break;
		}
out:
	close(fd);
	strbuf_release(&sb);
	return r;
}
