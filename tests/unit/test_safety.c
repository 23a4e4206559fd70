// SPDX-License-Identifier: MIT
/*
 * The write rules for files (platform/sys/safety.c): what usbperf creates carries
 * its mark; an existing file is written only when it is usbperf's own.
 */
#include "unit.h"
#include "platform/sys/safety.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REGION (64u << 10)

struct fixture {
	char dir[64];
	struct strbuf path;
	int fd;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/usbperf-safety-XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	strbuf_init(&fx->path);
	fx->fd = -1;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[128];

	if (fx->fd >= 0)
		close(fx->fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
	if (system(cmd) != 0)
		return -1;
	strbuf_release(&fx->path);
	free(fx);
	return 0;
}

static void in_dir(const struct fixture *fx, const char *name, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s", fx->dir, name);

	assert_true(n > 0 && (size_t)n < len);
}

/* a file usbperf creates is its own: written again, region without the mark */
static void test_created_is_ours(void **state)
{
	struct fixture *fx = *state;
	uint64_t region = 0;
	char *why = NULL;
	struct stat st;
	int fd = -1;

	assert_int_equal(safety_create_file(fx->dir, "", REGION, true, &fx->path, &fx->fd, &why), 0);
	assert_null(why);
	assert_non_null(strstr(fx->path.buf, "/usbperf-"));
	assert_int_equal(fstat(fx->fd, &st), 0);
	assert_int_equal(st.st_size, REGION + SAFETY_MARK_SIZE);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(safety_open_file(fx->path.buf, true, &fd, &region, &why), 0);
	assert_int_equal(region, REGION);
	close(fd);
}

/* what the name alone cannot prove: each case is refused for writing, allowed for reading */
static void test_foreign_refused(void **state)
{
	struct fixture *fx = *state;
	char plain[128], slink[128], hard[128], *why = NULL;
	static const char data[8192] = {1};
	uint64_t region = 0;
	int fd = -1, wfd;

	assert_int_equal(safety_create_file(fx->dir, "", REGION, true, &fx->path, &fx->fd, &why), 0);
	in_dir(fx, "usbperf-plain.tmp", plain, sizeof(plain));
	in_dir(fx, "usbperf-link.tmp", slink, sizeof(slink));
	in_dir(fx, "hard", hard, sizeof(hard));
	wfd = open(plain, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(wfd >= 0);
	assert_int_equal(write(wfd, data, sizeof(data)), (ssize_t)sizeof(data));
	close(wfd);
	assert_int_equal(symlink(fx->path.buf, slink), 0);

	/* no mark */
	assert_int_equal(safety_open_file(plain, true, &fd, &region, &why), -EROFS);
	assert_non_null(strstr(why, "usbperf did not create it"));
	free(why);
	why = NULL;
	assert_int_equal(safety_open_file(plain, false, &fd, &region, &why), 0);
	assert_int_equal(region, sizeof(data));
	close(fd);
	/* a link, even to a file of ours */
	assert_int_equal(safety_open_file(slink, true, &fd, &region, &why), -EPERM);
	assert_non_null(strstr(why, "symbolic link"));
	free(why);
	why = NULL;
	/* a second name */
	assert_int_equal(link(fx->path.buf, hard), 0);
	assert_int_equal(safety_open_file(fx->path.buf, true, &fd, &region, &why), -EROFS);
	assert_non_null(strstr(why, "hard links"));
	free(why);
	why = NULL;
	/* a directory or FIFO is not a test file, and the FIFO does not hang the open */
	assert_int_equal(unlink(plain), 0);
	assert_int_equal(mkfifo(plain, 0600), 0);
	assert_int_equal(safety_open_file(plain, false, &fd, &region, &why), -EINVAL);
	free(why);
}

static void test_create_refusals(void **state)
{
	struct fixture *fx = *state;
	char file[128], *why = NULL;
	int fd = -1;

	in_dir(fx, "f", file, sizeof(file));
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	close(fd);
	fd = -1;
	assert_int_equal(safety_create_file(file, "", REGION, true, &fx->path, &fd, &why), -ENOTDIR);
	free(why);
	why = NULL;
	assert_int_equal(safety_create_file("/usbperf-unit-nonexistent/dir", "", REGION, true, &fx->path, &fd, &why),
			 -ENOENT);
	free(why);
	why = NULL;
	/* more than the filesystem holds: refused before a byte is written, nothing left */
	assert_int_equal(safety_create_file(fx->dir, "", 1ull << 60, true, &fx->path, &fd, &why),
			 -ENOSPC);
	assert_non_null(strstr(why, "not enough space"));
	free(why);
	assert_int_equal(fd, -1);
	assert_int_equal(unlink(file), 0);
	assert_int_equal(rmdir(fx->dir), 0);
	assert_int_equal(mkdir(fx->dir, 0700), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_created_is_ours, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_refusals, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
