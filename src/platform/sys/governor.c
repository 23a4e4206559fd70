// SPDX-License-Identifier: MIT
/* run --governor: see governor.h. */
#include "platform/sys/governor.h"
#include "platform/sys/cpufreq.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_gov(const char *policy, const char *gov)
{
	struct strbuf p = STRBUF_INIT, real = STRBUF_INIT;
	size_t n = strlen(gov);
	int fd, r = 0;

	strbuf_addf(&p, CPUFREQ_ROOT "/%s/scaling_governor", policy);
	sysroot_path(&real, p.buf);
	/* an attribute that exists: never created, never through a link we did not expect */
	fd = open(real.buf, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		r = -errno;
	else if (write(fd, gov, n) != (ssize_t)n)
		r = -errno ? -errno : -EIO;
	if (fd >= 0 && close(fd) < 0 && r == 0)
		r = -errno;
	strbuf_release(&p);
	strbuf_release(&real);
	return r;
}

int governor_switch(const char *gov, struct governor_saved *saved, char **ret_why)
{
	struct name_list l = NAME_LIST_INIT;
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	struct governor_saved want = {0};
	int r = 0;

	memset(saved, 0, sizeof(*saved));
	if (sysroot_list(CPUFREQ_ROOT, &l) < 0) {
		reason_set(0, ret_why, "no cpufreq here (%s missing: a VM or a fixed clock)", CPUFREQ_ROOT);
		return -ENOENT;
	}
	/* every policy checked before any is switched */
	for (size_t i = 0; i < l.n && r == 0; i++) {
		bool offered = false;

		if (strncmp(l.v[i], "policy", 6) || strlen(l.v[i]) >= sizeof(want.name[0]))
			continue;
		if (want.n == FREQWATCH_MAX_POLICIES)
			break;
		strbuf_reset(&p);
		strbuf_addf(&p, CPUFREQ_ROOT "/%s/scaling_available_governors", l.v[i]);
		if (sysroot_read_attr(p.buf, &v) == 0)
			for (char *t = strtok(v.buf, " \n"); t && !offered; t = strtok(NULL, " \n"))
				offered = !strcmp(t, gov);
		if (!offered) {
			reason_set(0, ret_why, "%s does not offer the governor '%s' (see its "
					  "scaling_available_governors)", l.v[i], gov);
			r = -EINVAL;
			break;
		}
		strbuf_reset(&p);
		strbuf_addf(&p, CPUFREQ_ROOT "/%s/scaling_governor", l.v[i]);
		if (sysroot_read_attr(p.buf, &v) < 0 || strlen(v.buf) >= sizeof(want.before[0])) {
			reason_set(0, ret_why, "cannot read %s's governor", l.v[i]);
			r = -EIO;
			break;
		}
		snprintf(want.name[want.n], sizeof(want.name[0]), "%s", l.v[i]);
		snprintf(want.before[want.n], sizeof(want.before[0]), "%s", v.buf);
		want.n++;
	}
	if (r == 0 && !want.n) {
		reason_set(0, ret_why, "no cpufreq here (no policy under %s: a VM or a fixed clock)",
			   CPUFREQ_ROOT);
		r = -ENOENT;
	}
	for (size_t i = 0; r == 0 && i < want.n; i++) {
		if (!strcmp(want.before[i], gov))
			continue; /* already: nothing to put back */
		r = write_gov(want.name[i], gov);
		if (r < 0) {
			reason_set(r, ret_why, "cannot set %s's governor: %s", want.name[i], strerror(-r));
			break;
		}
		/* recorded as switched the moment it is */
		memcpy(saved->name[saved->n], want.name[i], sizeof(want.name[i]));
		memcpy(saved->before[saved->n], want.before[i], sizeof(want.before[i]));
		saved->n++;
	}
	if (r < 0)
		governor_restore(saved);
	name_list_release(&l);
	strbuf_release(&p);
	strbuf_release(&v);
	return r;
}

unsigned governor_restore(struct governor_saved *saved)
{
	unsigned failed = 0;

	for (size_t i = 0; i < saved->n; i++)
		if (write_gov(saved->name[i], saved->before[i]) < 0)
			failed++;
	saved->n = 0;
	return failed;
}
