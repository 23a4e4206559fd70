// SPDX-License-Identifier: MIT
/* What a V4L2 node is and which modes it offers; who holds it open. */
#include "classes/video/video.h"
#include "classes/video/video_priv.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

void video_fourcc_str(uint32_t f, char out[5])
{
	size_t i;

	for (i = 0; i < 4; i++) {
		char c = (char)((f >> (8 * i)) & 0xff);
		out[i] = isprint((unsigned char)c) ? c : '.';
	}
	out[4] = '\0';
	/* trailing spaces pad short names ("Y8  ") */
	for (i = 4; i > 1 && out[i - 1] == ' '; i--)
		out[i - 1] = '\0';
}

int video_fourcc_parse(const char *s, uint32_t *ret)
{
	size_t i, n = strlen(s);
	uint32_t f = 0;

	if (n < 1 || n > 4)
		return -EINVAL;
	for (i = 0; i < 4; i++) {
		unsigned char c = i < n ? (unsigned char)s[i] : ' ';
		if (!isprint(c))
			return -EINVAL;
		f |= (uint32_t)c << (8 * i);
	}
	*ret = f;
	return 0;
}

double video_mode_fps(const struct video_mode *m)
{
	return m->fps_num && m->fps_den ? (double)m->fps_num / (double)m->fps_den : 0;
}

void video_mode_str(const struct video_mode *m, char *out, size_t len)
{
	char cc[5];
	double fps = video_mode_fps(m);

	video_fourcc_str(m->fourcc, cc);
	if (fps <= 0)
		snprintf(out, len, "%s %ux%u", cc, m->width, m->height);
	else if (m->fps_den == 1)
		snprintf(out, len, "%s %ux%u @%u", cc, m->width, m->height, m->fps_num);
	else
		snprintf(out, len, "%s %ux%u @%.3g", cc, m->width, m->height, fps);
}

int video_ioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

int video_open(const char *dev, int flags)
{
	struct strbuf p = STRBUF_INIT;
	int fd;

	if (dev[0] == '/')
		sysroot_path(&p, dev);
	else
		strbuf_adds(&p, dev);
	fd = open(p.buf, flags | O_CLOEXEC);
	strbuf_release(&p);
	return fd < 0 ? -errno : fd;
}

char *why_printf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

static void add_mode(struct video_info *v, uint32_t fourcc, uint32_t w, uint32_t h, uint32_t num,
		     uint32_t den, bool stepwise)
{
	struct video_mode *m;

	if (v->nmodes >= VIDEO_MAX_MODES) {
		v->modes_dropped++;
		return;
	}
	m = &v->modes[v->nmodes++];
	m->fourcc = fourcc;
	m->width = w;
	m->height = h;
	/* fps = 1 / interval */
	m->fps_num = den;
	m->fps_den = num;
	m->stepwise = stepwise;
}

static void enum_intervals(int fd, struct video_info *v, uint32_t fourcc, uint32_t w, uint32_t h,
			   bool stepwise)
{
	struct v4l2_frmivalenum fi;
	unsigned i;

	for (i = 0; i < 64; i++) {
		memset(&fi, 0, sizeof(fi));
		fi.index = i;
		fi.pixel_format = fourcc;
		fi.width = w;
		fi.height = h;
		if (video_ioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi) < 0)
			break;
		if (fi.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
			if (fi.discrete.numerator && fi.discrete.denominator)
				add_mode(v, fourcc, w, h, fi.discrete.numerator,
					 fi.discrete.denominator, stepwise);
			continue;
		}
		/* stepwise/continuous: the fastest and the slowest rate */
		if (fi.stepwise.min.numerator && fi.stepwise.min.denominator)
			add_mode(v, fourcc, w, h, fi.stepwise.min.numerator,
				 fi.stepwise.min.denominator, true);
		if (fi.stepwise.max.numerator && fi.stepwise.max.denominator &&
		    (uint64_t)fi.stepwise.max.numerator * fi.stepwise.min.denominator !=
			(uint64_t)fi.stepwise.min.numerator * fi.stepwise.max.denominator)
			add_mode(v, fourcc, w, h, fi.stepwise.max.numerator,
				 fi.stepwise.max.denominator, true);
		return;
	}
	if (i == 0) /* no interval enumeration: the size alone, rate unknown */
		add_mode(v, fourcc, w, h, 1, 0, stepwise);
}

static void enum_sizes(int fd, struct video_info *v, uint32_t fourcc)
{
	struct v4l2_frmsizeenum fs;
	unsigned i, k;

	for (i = 0; i < 256; i++) {
		memset(&fs, 0, sizeof(fs));
		fs.index = i;
		fs.pixel_format = fourcc;
		if (video_ioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs) < 0)
			break;
		if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
			enum_intervals(fd, v, fourcc, fs.discrete.width, fs.discrete.height, false);
			continue;
		}
		/* stepwise/continuous: min, max and three sizes between, on the step grid */
		{
			const struct v4l2_frmsize_stepwise *s = &fs.stepwise;
			uint32_t sw = s->step_width ? s->step_width : 1;
			uint32_t sh = s->step_height ? s->step_height : 1;
			uint32_t lw = 0, lh = 0;
			for (k = 0; k <= 4; k++) {
				uint32_t w = s->min_width + (s->max_width - s->min_width) / 4 * k;
				uint32_t h =
				    s->min_height + (s->max_height - s->min_height) / 4 * k;
				w = k == 4 ? s->max_width
					   : s->min_width + (w - s->min_width) / sw * sw;
				h = k == 4 ? s->max_height
					   : s->min_height + (h - s->min_height) / sh * sh;
				if (w == lw && h == lh)
					continue;
				enum_intervals(fd, v, fourcc, w, h, true);
				lw = w;
				lh = h;
			}
		}
		return;
	}
	if (i == 0) { /* no size enumeration: the current format's size */
		struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
		if (!v->mplane && video_ioctl(fd, VIDIOC_G_FMT, &f) == 0)
			enum_intervals(fd, v, fourcc, f.fmt.pix.width, f.fmt.pix.height, false);
	}
}

static void copy_str(char *dst, size_t len, const uint8_t *src, size_t srclen)
{
	size_t i;

	for (i = 0; i + 1 < len && i < srclen && src[i]; i++)
		dst[i] = isprint(src[i]) ? (char)src[i] : '?';
	dst[i] = '\0';
}

int video_probe_fd(int fd, const char *dev, uint32_t which, struct video_info *v, char **ret_why)
{
	struct v4l2_capability cap = {0};
	struct v4l2_fmtdesc fd_desc;
	uint32_t caps;
	unsigned i;
	int r;

	memset(v, 0, sizeof(*v));
	snprintf(v->path, sizeof(v->path), "%s", dev);
	r = video_ioctl(fd, VIDIOC_QUERYCAP, &cap);
	if (r < 0) {
		*ret_why = why_printf("'%s' is not a video capture device (not V4L2: %s)", dev,
				      strerror(-r));
		return -EINVAL;
	}
	caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps : cap.capabilities;
	v->device_caps = caps;
	copy_str(v->driver, sizeof(v->driver), cap.driver, sizeof(cap.driver));
	copy_str(v->card, sizeof(v->card), cap.card, sizeof(cap.card));
	copy_str(v->bus_info, sizeof(v->bus_info), cap.bus_info, sizeof(cap.bus_info));
	v->usb = !strncmp(v->bus_info, "usb-", 4);
	if (!(caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE))) {
		*ret_why = why_printf("'%s' is not a video capture device (%s, %s)", dev, v->driver,
				      v->card);
		return -EINVAL;
	}
	v->mplane = !(caps & V4L2_CAP_VIDEO_CAPTURE);
	for (i = 0; i < 256; i++) {
		memset(&fd_desc, 0, sizeof(fd_desc));
		fd_desc.index = i;
		fd_desc.type =
		    v->mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : V4L2_BUF_TYPE_VIDEO_CAPTURE;
		if (video_ioctl(fd, VIDIOC_ENUM_FMT, &fd_desc) < 0)
			break;
		if (v->nformats < sizeof(v->formats) / sizeof(v->formats[0]))
			v->formats[v->nformats++] = fd_desc.pixelformat;
		if (which == VIDEO_MODES_ALL || which == fd_desc.pixelformat ||
		    (which == VIDEO_MODES_FIRST && i == 0))
			enum_sizes(fd, v, fd_desc.pixelformat);
	}
	return 0;
}

int video_probe(const char *dev, struct video_info *ret, char **ret_why)
{
	return video_probe_modes(dev, VIDEO_MODES_ALL, ret, ret_why);
}

int video_probe_modes(const char *dev, uint32_t which, struct video_info *ret, char **ret_why)
{
	struct video_info *v;
	int fd, r;

	*ret_why = NULL;
	fd = video_open(dev, O_RDWR | O_NONBLOCK);
	if (fd < 0) {
		*ret_why = why_printf("cannot open '%s': %s", dev, strerror(-fd));
		return fd;
	}
	v = malloc(sizeof(*v));
	if (!v) {
		close(fd);
		return -ENOMEM;
	}
	r = video_probe_fd(fd, dev, which, v, ret_why);
	close(fd);
	if (r == 0)
		*ret = *v;
	free(v);
	return r;
}

int video_discover(uint32_t which, struct video_info **ret, size_t *ret_n)
{
	struct name_list names = NAME_LIST_INIT;
	struct video_info *v = NULL, *t;
	size_t i, n = 0, usb = 0;
	char path[64], *why;
	int r;

	r = sysroot_list("/dev", &names);
	if (r < 0)
		return r;
	for (i = 0; i < names.n; i++) {
		if (strncmp(names.v[i], "video", 5) || !isdigit((unsigned char)names.v[i][5]))
			continue;
		t = realloc(v, (n + 1) * sizeof(*v));
		if (!t) {
			r = -ENOMEM;
			break;
		}
		v = t;
		snprintf(path, sizeof(path), "/dev/%s", names.v[i]);
		why = NULL;
		if (video_probe_modes(path, which, &v[n], &why) == 0) {
			/* USB cameras first, each group in name order */
			if (v[n].usb) {
				struct video_info tmp = v[n];
				memmove(&v[usb + 1], &v[usb], (n - usb) * sizeof(*v));
				v[usb++] = tmp;
			}
			n++;
		}
		free(why);
	}
	name_list_release(&names);
	if (r < 0) {
		free(v);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

char *video_holder(const char *dev)
{
	struct name_list procs = NAME_LIST_INIT, fds;
	struct strbuf p = STRBUF_INIT, link = STRBUF_INIT, comm = STRBUF_INIT;
	char *real, *found = NULL;
	size_t i, j;
	pid_t self = getpid();

	real = realpath(dev, NULL);
	if (!real || sysroot_list("/proc", &procs) < 0) {
		free(real);
		return NULL;
	}
	for (i = 0; i < procs.n && !found; i++) {
		uint64_t pid;
		if (parse_u64(procs.v[i], 1, INT32_MAX, &pid) < 0 || pid == (uint64_t)self)
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "/proc/%s/fd", procs.v[i]);
		fds = (struct name_list)NAME_LIST_INIT;
		if (sysroot_list(p.buf, &fds) < 0)
			continue;
		for (j = 0; j < fds.n; j++) {
			strbuf_reset(&p);
			strbuf_addf(&p, "/proc/%s/fd/%s", procs.v[i], fds.v[j]);
			if (sysroot_readlink(p.buf, &link) < 0 || strcmp(link.buf, real))
				continue;
			strbuf_reset(&p);
			strbuf_addf(&p, "/proc/%s/comm", procs.v[i]);
			if (sysroot_read_attr(p.buf, &comm) < 0)
				strbuf_reset(&comm);
			found = why_printf("pid %s (%s)", procs.v[i], comm.len ? comm.buf : "?");
			break;
		}
		name_list_release(&fds);
	}
	name_list_release(&procs);
	strbuf_release(&p);
	strbuf_release(&link);
	strbuf_release(&comm);
	free(real);
	return found;
}
