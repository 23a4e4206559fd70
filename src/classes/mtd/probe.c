// SPDX-License-Identifier: MIT
/*
 * MTD geometry from sysfs (/sys/class/mtd/mtdN) and the node the user
 * named; the rules that refuse erases and writes are safety.c's.
 */
#include "classes/mtd/mtd.h"
#include "util/parse.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

void mtd_geometry_release(struct mtd_geometry *g)
{
	if (!g)
		return;
	free_all(g->name, g->type, g->parent);
	g->name = g->type = g->parent = NULL;
}

static int read_attr(unsigned index, const char *attr, struct strbuf *sb)
{
	struct strbuf path = STRBUF_INIT;
	int r;

	strbuf_addf(&path, "/sys/class/mtd/mtd%u/%s", index, attr);
	r = sysroot_read_attr(path.buf, sb);
	strbuf_release(&path);
	return r;
}

/* a number attribute (decimal, or 0x hex as "flags" is); absent: UINT64_MAX */
static int read_num(unsigned index, const char *attr, bool required, uint64_t *ret,
		    struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;
	int r = read_attr(index, attr, &sb);

	*ret = UINT64_MAX;
	if (r < 0) {
		strbuf_release(&sb);
		if (!required)
			return 0;
		strbuf_addf(why, "cannot read '/sys/class/mtd/mtd%u/%s': %s", index, attr,
			    strerror(-r));
		return r;
	}
	if (!strncmp(sb.buf, "0x", 2))
		r = parse_hex(sb.buf, UINT64_MAX - 1, ret);
	else
		r = parse_u64(sb.buf, 0, UINT64_MAX - 1, ret);
	if (r < 0) {
		*ret = UINT64_MAX;
		if (required)
			strbuf_addf(why, "invalid '/sys/class/mtd/mtd%u/%s': '%s'", index, attr,
				    sb.buf);
		else
			r = 0;
	}
	strbuf_release(&sb);
	return r;
}

/* the parent partition: sysfs nests a partition's directory in its master's */
static int read_parent(unsigned index, char **ret)
{
	struct strbuf path = STRBUF_INIT, res = STRBUF_INIT;
	const char *end, *start;
	unsigned long dummy;
	char *e;
	int r;

	*ret = NULL;
	strbuf_addf(&path, "/sys/class/mtd/mtd%u", index);
	r = sysroot_resolve(path.buf, &res);
	strbuf_release(&path);
	if (r < 0)
		goto out;
	/* .../mtd/mtd0/mtd1: the component before our own */
	end = strrchr(res.buf, '/');
	if (!end || end == res.buf)
		goto out;
	for (start = end - 1; start > res.buf && *start != '/'; start--)
		;
	start++;
	if (end - start > 3 && !strncmp(start, "mtd", 3) && isdigit((unsigned char)start[3])) {
		errno = 0;
		dummy = strtoul(start + 3, &e, 10);
		(void)dummy;
		if (e == end && !errno)
			*ret = strndup(start, (size_t)(end - start));
	}
out:
	strbuf_release(&res);
	return 0;
}

int mtd_geometry_read(unsigned index, struct mtd_geometry *ret, struct strbuf *why)
{
	struct mtd_geometry g = {.index = index};
	struct strbuf sb = STRBUF_INIT;
	int r;

	r = read_attr(index, "type", &sb);
	if (r < 0) {
		strbuf_addf(why, "no MTD device mtd%u in sysfs ('/sys/class/mtd/mtd%u')", index,
			    index);
		strbuf_release(&sb);
		return r == -ENOENT ? -ENOENT : r;
	}
	g.type = strbuf_detach(&sb);
	r = read_attr(index, "name", &sb);
	g.name = r < 0 ? strdup("") : strbuf_detach(&sb);
	strbuf_release(&sb);
	if (!g.type || !g.name) {
		r = -ENOMEM;
		goto fail;
	}
	if ((r = read_num(index, "size", true, &g.size, why)) < 0 ||
	    (r = read_num(index, "erasesize", true, &g.erasesize, why)) < 0 ||
	    (r = read_num(index, "writesize", true, &g.writesize, why)) < 0 ||
	    (r = read_num(index, "oobsize", true, &g.oobsize, why)) < 0 ||
	    (r = read_num(index, "flags", true, &g.flags, why)) < 0)
		goto fail;
	(void)read_num(index, "subpagesize", false, &g.subpagesize, why);
	(void)read_num(index, "offset", false, &g.offset, why);
	(void)read_num(index, "ecc_strength", false, &g.ecc_strength, why);
	(void)read_num(index, "corrected_bits", false, &g.corrected_bits, why);
	(void)read_num(index, "ecc_failures", false, &g.ecc_failures, why);
	(void)read_num(index, "bad_blocks", false, &g.bad_blocks, why);
	(void)read_num(index, "bbt_blocks", false, &g.bbt_blocks, why);
	if (!g.size || !g.erasesize || !g.writesize || g.size % g.erasesize ||
	    g.erasesize % g.writesize) {
		strbuf_addf(why,
			    "mtd%u has a geometry usbperf cannot measure: size %llu, eraseblock "
			    "%llu, page %llu",
			    index, (unsigned long long)g.size, (unsigned long long)g.erasesize,
			    (unsigned long long)g.writesize);
		r = -EINVAL;
		goto fail;
	}
	g.writeable = g.flags & MTD_FLAG_WRITEABLE;
	r = read_parent(index, &g.parent);
	if (r < 0)
		goto fail;
	*ret = g;
	return 0;
fail:
	mtd_geometry_release(&g);
	return r;
}

int mtd_node_probe(const char *node, struct mtd_geometry *ret, struct strbuf *why)
{
	struct stat st;
	unsigned mi;
	int r;

	if (stat(node, &st) < 0) {
		r = -errno;
		strbuf_addf(why, "cannot open '%s': %s", node, strerror(errno));
		return r;
	}
	if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != MTD_CHAR_MAJOR) {
		strbuf_addf(why,
			    "'%s' is not an MTD device (a /dev/mtdN character device, major %d)",
			    node, MTD_CHAR_MAJOR);
		return -EINVAL;
	}
	mi = minor(st.st_rdev);
	r = mtd_geometry_read(mi / 2, ret, why);
	if (r < 0)
		return r == -ENOMEM ? r : -EINVAL;
	ret->ro_node = mi & 1;
	return 0;
}

int mtd_region(const struct mtd_geometry *g, uint64_t want, uint64_t *ret_len, struct strbuf *why)
{
	uint64_t len;

	if (!want) {
		len = g->size < MTD_DEFAULT_CAP ? g->size : MTD_DEFAULT_CAP;
		len -= len % g->erasesize;
		*ret_len = len;
		return 0;
	}
	if (want % g->erasesize) {
		strbuf_addf(why,
			    "invalid --size %llu: not a multiple of the eraseblock of mtd%u (%llu "
			    "B)",
			    (unsigned long long)want, g->index, (unsigned long long)g->erasesize);
		return -EINVAL;
	}
	if (want > g->size) {
		strbuf_addf(why, "invalid --size %llu: past the end of mtd%u (%llu B)",
			    (unsigned long long)want, g->index, (unsigned long long)g->size);
		return -EINVAL;
	}
	*ret_len = want;
	return 0;
}

int mtd_write_sizes(const struct mtd_geometry *g, const uint64_t *given, size_t ngiven,
		    uint64_t *ret, size_t *ret_n, struct strbuf *why)
{
	uint64_t s;
	size_t i, n = 0;

	if (ngiven) {
		if (ngiven > MTD_MAX_WRITE_SIZES) {
			strbuf_addf(why, "invalid --write-sizes: at most %d sizes",
				    MTD_MAX_WRITE_SIZES);
			return -EINVAL;
		}
		for (i = 0; i < ngiven; i++) {
			s = given[i];
			if (!s || s % g->writesize || s > g->erasesize || g->erasesize % s) {
				strbuf_addf(why,
					    "invalid --write-sizes: %llu is not a multiple of the "
					    "page (%llu B) dividing the eraseblock (%llu B)",
					    (unsigned long long)s, (unsigned long long)g->writesize,
					    (unsigned long long)g->erasesize);
				return -EINVAL;
			}
			ret[i] = s;
		}
		*ret_n = ngiven;
		return 0;
	}
	s = g->writesize;
	while (s < 512 && s * 2 <= g->erasesize && g->erasesize % (s * 2) == 0)
		s *= 2;
	for (; s < g->erasesize && n < MTD_MAX_WRITE_SIZES - 1; s *= 4) {
		if (g->erasesize % s)
			break;
		ret[n++] = s;
	}
	ret[n++] = g->erasesize;
	*ret_n = n;
	return 0;
}
