// SPDX-License-Identifier: MIT
/* Where usbperf keeps its files (xdg.h). */
#include "util/xdg.h"

#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *xdg_home(void)
{
	const char *home = getenv("HOME");
	struct passwd *pw;

	if (home && home[0] == '/' && home[1])
		return home;
	pw = getpwuid(geteuid());
	if (pw && pw->pw_dir && pw->pw_dir[0] == '/' && pw->pw_dir[1])
		return pw->pw_dir;
	return geteuid() == 0 ? "/root" : NULL;
}

int xdg_path(const char *env, const char *fallback, const char *name, struct strbuf *ret)
{
	const char *xdg = getenv(env), *home;

	if (xdg && xdg[0] == '/') {
		strbuf_addf(ret, "%s/usbperf/%s", xdg, name);
		return 0;
	}
	home = xdg_home();
	if (!home)
		return -ENOENT;
	strbuf_addf(ret, "%s/%s/usbperf/%s", home, fallback, name);
	return 0;
}

int xdg_make_parents(const char *path)
{
	char *p = strdup(path);
	struct stat sb;
	int r = 0;

	if (!p)
		return -ENOMEM;
	for (char *slash = strchr(p + 1, '/'); slash && r == 0; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(p, 0700) < 0 && errno != EEXIST)
			r = -errno;
		else if (stat(p, &sb) < 0)
			r = -errno;
		else if (!S_ISDIR(sb.st_mode))
			r = -ENOTDIR;
		*slash = '/';
	}
	free(p);
	return r;
}
