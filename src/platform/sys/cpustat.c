// SPDX-License-Identifier: MIT
#include "platform/sys/cpustat.h"
#include "util/clock.h"
#include "util/parse.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int cpustat_parse(const char *text, struct cpu_times *ret)
{
	uint64_t v[8] = {0};
	const char *p;
	size_t i;

	if (strncmp(text, "cpu ", 4) != 0)
		return -EINVAL;
	p = text + 4;
	/* older kernels have fewer columns; we need at least user..idle */
	for (i = 0; i < 8; i++) {
		char tok[32];
		size_t n = 0;

		while (*p == ' ')
			p++;
		if (*p == '\n' || *p == '\0')
			break;
		while (p[n] && p[n] != ' ' && p[n] != '\n')
			n++;
		if (n == 0 || n >= sizeof(tok))
			return -EINVAL;
		memcpy(tok, p, n);
		tok[n] = '\0';
		if (parse_u64(tok, 0, UINT64_MAX, &v[i]) < 0)
			return -EINVAL;
		p += n;
	}
	if (i < 4)
		return -EINVAL;
	*ret = (struct cpu_times){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
	return 0;
}

int psi_parse_some(const char *text, double *ret_s)
{
	const char *p = strstr(text, "total=");
	char tok[32];
	size_t n = 0;
	uint64_t us;

	if (strncmp(text, "some ", 5) != 0 || !p || p > strchr(text, '\n'))
		return -EINVAL;
	p += 6;
	while (p[n] >= '0' && p[n] <= '9' && n < sizeof(tok) - 1)
		n++;
	memcpy(tok, p, n);
	tok[n] = '\0';
	if (parse_u64(tok, 0, UINT64_MAX, &us) < 0)
		return -EINVAL;
	*ret_s = (double)us / 1e6;
	return 0;
}

int schedstat_parse_delay(const char *text, double *ret_s)
{
	const char *p = text;
	char tok[32];
	uint64_t ns;
	size_t n;

	/* "run_ns delay_ns timeslices\n" */
	for (int f = 0; f < 2; f++) {
		while (*p == ' ')
			p++;
		for (n = 0; p[n] >= '0' && p[n] <= '9'; n++)
			;
		if (n == 0 || n >= sizeof(tok) || (p[n] != ' ' && p[n] != '\n' && p[n]))
			return -EINVAL;
		if (f == 1) {
			memcpy(tok, p, n);
			tok[n] = '\0';
			if (parse_u64(tok, 0, UINT64_MAX, &ns) < 0)
				return -EINVAL;
		}
		p += n;
	}
	*ret_s = (double)ns / 1e9;
	return 0;
}

static int read_own_schedstat(struct strbuf *sb)
{
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -errno;
	r = read_fd_all(fd, 256, sb);
	close(fd);
	return r;
}

double cpu_self_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return NAN;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int cpu_sample_take(struct cpu_sample *ret)
{
	struct strbuf sb = STRBUF_INIT;
	struct rusage ru;
	struct cpu_sample s;
	int r;

	r = sysroot_read("/proc/stat", 1 << 20, &sb);
	if (r == 0)
		r = cpustat_parse(sb.buf, &s.sys);
	strbuf_release(&sb);
	if (r < 0)
		return r;
	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return -errno;
	s.self_user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	s.self_sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	s.wall_s = (double)clock_now_ns() / 1e9;
	/* a kernel without PSI (or booted psi=0): unknown */
	if (sysroot_read("/proc/pressure/cpu", 4096, &sb) < 0 ||
	    psi_parse_some(sb.buf, &s.psi_some_s) < 0)
		s.psi_some_s = NAN;
	/* the real thread's, never a recorded tree's: it is this process's own */
	strbuf_reset(&sb);
	if (read_own_schedstat(&sb) < 0 || schedstat_parse_delay(sb.buf, &s.self_wait_s) < 0)
		s.self_wait_s = NAN;
	strbuf_release(&sb);
	*ret = s;
	return 0;
}

static uint64_t total(const struct cpu_times *t)
{
	return t->user + t->nice + t->system + t->idle + t->iowait + t->irq + t->softirq + t->steal;
}

void cpu_use_between(const struct cpu_sample *a, const struct cpu_sample *b, struct cpu_use *ret)
{
	double dt = (double)(total(&b->sys) - total(&a->sys));
	double wall = b->wall_s - a->wall_s;
	struct cpu_use u;

#define PCT(f) (dt > 0 ? 100.0 * (double)(b->sys.f - a->sys.f) / dt : NAN)
	u.user_pct = dt > 0 ? 100.0 *
				      (double)((b->sys.user + b->sys.nice) - (a->sys.user + a->sys.nice)) /
				      dt
			    : NAN;
	u.sys_pct = PCT(system);
	u.iowait_pct = PCT(iowait);
	u.irq_pct = dt > 0 ? 100.0 *
				     (double)((b->sys.irq + b->sys.softirq) -
					      (a->sys.irq + a->sys.softirq)) /
				     dt
			   : NAN;
#undef PCT
	u.self_s = (b->self_user_s - a->self_user_s) + (b->self_sys_s - a->self_sys_s);
	u.self_pct = wall > 0 ? 100.0 * u.self_s / wall : NAN;
	u.busy_pct = wall > 0 ? 100.0 *
				    (double)(total(&b->sys) - b->sys.idle - b->sys.iowait - b->sys.steal -
					     (total(&a->sys) - a->sys.idle - a->sys.iowait - a->sys.steal)) /
				    ((double)sysconf(_SC_CLK_TCK) * wall)
			  : NAN;
	u.pressure_pct = wall > 0 ? 100.0 * (b->psi_some_s - a->psi_some_s) / wall : NAN;
	if (u.pressure_pct > 100) /* the two clocks are read a moment apart */
		u.pressure_pct = 100;
	u.io_pct = wall > 0 ? 100.0 *
				  ((double)(b->sys.system + b->sys.irq + b->sys.softirq -
					    (a->sys.system + a->sys.irq + a->sys.softirq)) /
				       (double)sysconf(_SC_CLK_TCK) +
				   (b->self_user_s - a->self_user_s)) /
				  wall
			    : NAN;
	u.wait_pct = wall > 0 ? 100.0 * (b->self_wait_s - a->self_wait_s) / wall : NAN;
	if (u.wait_pct > 100)
		u.wait_pct = 100;
	*ret = u;
}
