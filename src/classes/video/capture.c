// SPDX-License-Identifier: MIT
/*
 * One capture pass: set the mode, stream with MMAP, USERPTR or DMABUF
 * buffers, dequeue for a time or a frame count, and always stop the stream
 * and release the buffers, whatever ended the pass.
 */
#include "platform/sys/cpustat.h"
#include "classes/video/video.h"
#include "classes/video/video_priv.h"
#include "util/clock.h"
#include "util/fileio.h"
#include "util/signals.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

const char *video_io_name(enum video_io io)
{
	static const char *const names[] = {"mmap", "userptr", "dmabuf"};

	return io <= VIDEO_IO_DMABUF ? names[io] : "?";
}

int video_io_parse(const char *s, enum video_io *ret)
{
	enum video_io io;

	for (io = VIDEO_IO_MMAP; io <= VIDEO_IO_DMABUF; io++)
		if (!strcmp(s, video_io_name(io))) {
			*ret = io;
			return 0;
		}
	return -EINVAL;
}

struct vbuf {
	void *addr;
	size_t len;
	bool mapped;
	int dmabuf_fd;
};

struct cap {
	int fd;
	int save_fd;
	struct vbuf b[VIDEO_MAX_BUFFERS];
	unsigned n;
	enum v4l2_memory mem;
	bool streaming;
};

static void warn(struct video_pass *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct video_pass *p, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (p->nwarnings >= VIDEO_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) >= 0)
		p->warnings[p->nwarnings++] = s;
	va_end(ap);
}

void video_pass_release(struct video_pass *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nwarnings; i++)
		free(p->warnings[i]);
	p->nwarnings = 0;
}

static void release_buffers(struct cap *c)
{
	struct v4l2_requestbuffers rb = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	unsigned i;

	if (c->streaming) {
		int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		video_ioctl(c->fd, VIDIOC_STREAMOFF, &type);
		c->streaming = false;
	}
	for (i = 0; i < VIDEO_MAX_BUFFERS; i++) {
		if (c->b[i].mapped)
			munmap(c->b[i].addr, c->b[i].len);
		else if (c->mem == V4L2_MEMORY_USERPTR)
			free(c->b[i].addr);
		if (c->b[i].dmabuf_fd >= 0)
			close(c->b[i].dmabuf_fd);
		c->b[i] = (struct vbuf){.dmabuf_fd = -1};
	}
	if (c->n) {
		rb.memory = c->mem;
		rb.count = 0;
		video_ioctl(c->fd, VIDIOC_REQBUFS, &rb);
		c->n = 0;
	}
}

/* MMAP buffers, mapped for reading (and for --save) */
static int setup_mmap(struct cap *c, unsigned count, char **why)
{
	struct v4l2_requestbuffers rb = {
	    .count = count, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
	unsigned i;
	int r;

	c->mem = V4L2_MEMORY_MMAP;
	r = video_ioctl(c->fd, VIDIOC_REQBUFS, &rb);
	if (r < 0) {
		*why = why_printf("cannot allocate %u mmap buffers: %s", count, strerror(-r));
		return r;
	}
	c->n = rb.count < VIDEO_MAX_BUFFERS ? rb.count : VIDEO_MAX_BUFFERS;
	for (i = 0; i < c->n; i++) {
		struct v4l2_buffer b = {
		    .index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
		void *a;
		r = video_ioctl(c->fd, VIDIOC_QUERYBUF, &b);
		if (r < 0) {
			*why = why_printf("cannot query buffer %u: %s", i, strerror(-r));
			return r;
		}
		a = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, b.m.offset);
		if (a == MAP_FAILED) {
			r = -errno;
			*why = why_printf("cannot map buffer %u: %s", i, strerror(-r));
			return r;
		}
		c->b[i].addr = a;
		c->b[i].len = b.length;
		c->b[i].mapped = true;
	}
	return 0;
}

static int setup_userptr(struct cap *c, unsigned count, size_t size, char **why)
{
	struct v4l2_requestbuffers rb = {
	    .count = count, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_USERPTR};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned i;
	int r;

	c->mem = V4L2_MEMORY_USERPTR;
	r = video_ioctl(c->fd, VIDIOC_REQBUFS, &rb);
	if (r < 0) {
		*why =
		    why_printf("the driver does not take user-pointer buffers (--io userptr): %s",
			       strerror(-r));
		return r == -EINVAL ? -ENOTSUP : r;
	}
	c->n = rb.count < VIDEO_MAX_BUFFERS ? rb.count : VIDEO_MAX_BUFFERS;
	size = (size + page - 1) / page * page;
	for (i = 0; i < c->n; i++) {
		if (posix_memalign(&c->b[i].addr, page, size)) {
			*why = why_printf("out of memory for %zu-byte buffers", size);
			return -ENOMEM;
		}
		c->b[i].len = size;
	}
	return 0;
}

/*
 * DMABUF: the device's own MMAP buffers exported (EXPBUF), the MMAP queue
 * released, and the exported buffers imported back. No second device.
 */
static int setup_dmabuf(struct cap *c, unsigned count, char **why)
{
	struct v4l2_requestbuffers rb = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	unsigned i, n;
	int r;

	r = setup_mmap(c, count, why);
	if (r < 0)
		return r;
	for (i = 0; i < c->n; i++) {
		struct v4l2_exportbuffer e = {
		    .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .index = i, .flags = O_RDWR | O_CLOEXEC};
		r = video_ioctl(c->fd, VIDIOC_EXPBUF, &e);
		if (r < 0) {
			*why = why_printf("the driver cannot export its buffers for --io dmabuf "
					  "(VIDIOC_EXPBUF: %s)",
					  strerror(-r));
			return r == -EINVAL || r == -ENOTTY ? -ENOTSUP : r;
		}
		c->b[i].dmabuf_fd = e.fd;
	}
	/* the mappings go, the exported buffers stay alive through their fds */
	n = c->n;
	for (i = 0; i < n; i++) {
		munmap(c->b[i].addr, c->b[i].len);
		c->b[i].mapped = false;
		c->b[i].addr = NULL;
	}
	rb.memory = V4L2_MEMORY_MMAP;
	rb.count = 0;
	r = video_ioctl(c->fd, VIDIOC_REQBUFS, &rb);
	c->n = 0;
	if (r < 0) {
		*why = why_printf("cannot release the exported mmap buffers: %s", strerror(-r));
		return r;
	}
	rb.memory = V4L2_MEMORY_DMABUF;
	rb.count = n;
	c->mem = V4L2_MEMORY_DMABUF;
	r = video_ioctl(c->fd, VIDIOC_REQBUFS, &rb);
	if (r < 0) {
		*why = why_printf("the driver does not import dma-buf buffers (--io dmabuf): %s",
				  strerror(-r));
		return r == -EINVAL ? -ENOTSUP : r;
	}
	c->n = rb.count < n ? rb.count : n;
	/* a mapping of each, for --save */
	for (i = 0; i < c->n; i++) {
		off_t len = lseek(c->b[i].dmabuf_fd, 0, SEEK_END);
		void *a = len > 0
			      ? mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, c->b[i].dmabuf_fd, 0)
			      : MAP_FAILED;
		if (a != MAP_FAILED) {
			c->b[i].addr = a;
			c->b[i].len = (size_t)len;
			c->b[i].mapped = true;
		}
	}
	return 0;
}

static int queue(struct cap *c, unsigned i)
{
	struct v4l2_buffer b = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = c->mem};

	if (c->mem == V4L2_MEMORY_USERPTR) {
		b.m.userptr = (unsigned long)c->b[i].addr;
		b.length = (uint32_t)c->b[i].len;
	} else if (c->mem == V4L2_MEMORY_DMABUF) {
		b.m.fd = c->b[i].dmabuf_fd;
	}
	return video_ioctl(c->fd, VIDIOC_QBUF, &b);
}

static int set_mode(struct cap *c, const struct video_config *cfg, struct video_pass *p, char **why)
{
	struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	struct v4l2_streamparm parm = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	char want[64], got[64];
	int r;

	f.fmt.pix.pixelformat = cfg->mode.fourcc;
	f.fmt.pix.width = cfg->mode.width;
	f.fmt.pix.height = cfg->mode.height;
	f.fmt.pix.field = V4L2_FIELD_ANY;
	r = video_ioctl(c->fd, VIDIOC_S_FMT, &f);
	if (r < 0) {
		video_mode_str(&cfg->mode, want, sizeof(want));
		*why = why_printf("'%s' refused the mode %s: %s", cfg->dev, want, strerror(-r));
		return r;
	}
	p->set = cfg->mode;
	p->set.fourcc = f.fmt.pix.pixelformat;
	p->set.width = f.fmt.pix.width;
	p->set.height = f.fmt.pix.height;
	p->sizeimage = f.fmt.pix.sizeimage;
	if (cfg->mode.fps_num && cfg->mode.fps_den) {
		parm.parm.capture.timeperframe.numerator = cfg->mode.fps_den;
		parm.parm.capture.timeperframe.denominator = cfg->mode.fps_num;
		r = video_ioctl(c->fd, VIDIOC_S_PARM, &parm);
		if (r < 0)
			warn(p, "the driver does not set the frame rate (VIDIOC_S_PARM: %s)",
			     strerror(-r));
	}
	memset(&parm, 0, sizeof(parm));
	parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (video_ioctl(c->fd, VIDIOC_G_PARM, &parm) == 0 &&
	    parm.parm.capture.timeperframe.numerator &&
	    parm.parm.capture.timeperframe.denominator) {
		p->set.fps_num = parm.parm.capture.timeperframe.denominator;
		p->set.fps_den = parm.parm.capture.timeperframe.numerator;
	}
	if (p->set.fourcc != cfg->mode.fourcc || p->set.width != cfg->mode.width ||
	    p->set.height != cfg->mode.height ||
	    (cfg->mode.fps_num && cfg->mode.fps_den &&
	     fabs(video_mode_fps(&p->set) - video_mode_fps(&cfg->mode)) >
		 1e-3 * video_mode_fps(&cfg->mode))) {
		video_mode_str(&cfg->mode, want, sizeof(want));
		video_mode_str(&p->set, got, sizeof(got));
		warn(p, "the driver adjusted the mode: asked %s, set %s", want, got);
	}
	return 0;
}

/*
 * Created, then registered for removal on a second signal, with no signal
 * between: a file that was there already (O_EXCL fails) is never registered,
 * so a double Ctrl-C cannot remove the user's file.
 */
static int open_save(const char *path, char **why)
{
	int fd, r;

	signals_hold(true);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	r = fd < 0 ? -errno : 0;
	if (fd >= 0)
		signals_add_cleanup(path);
	signals_hold(false);
	if (fd < 0) {
		*why = why_printf("cannot create --save '%s': %s", path, strerror(-r));
		return r == -EEXIST || r == -ENOENT || r == -ELOOP || r == -EISDIR ? -EINVAL : r;
	}
	return fd;
}

struct loop_state {
	struct video_acct acct;
	uint64_t t_on, t_first, t_count0, last_frame, deadline;
	unsigned warm_left;
	bool counting;
	bool told_streaming; /* cfg->on_streaming was called */
};

/* one dequeued buffer: 1 when the pass is complete */
static int on_buffer(struct cap *c, const struct video_config *cfg, struct loop_state *s,
		     const struct v4l2_buffer *b, uint64_t now, int *save_err)
{
	struct video_sample smp;

	if (!s->t_first)
		s->t_first = now;
	if (s->warm_left) {
		s->warm_left--;
		return 0;
	}
	if (!s->counting) {
		s->counting = true;
		s->t_count0 = now;
		s->deadline = now + (uint64_t)(cfg->time_s * 1e9);
	}
	smp.sequence = b->sequence;
	smp.ts_ns = (uint64_t)b->timestamp.tv_sec * 1000000000ULL +
		    (uint64_t)b->timestamp.tv_usec * 1000ULL;
	smp.flags = b->flags;
	smp.bytesused = b->bytesused;
	smp.wall_ns = now;
	video_acct_add(&s->acct, &smp);
	if (c->save_fd >= 0 && !*save_err && b->index < c->n && c->b[b->index].addr &&
	    !(b->flags & V4L2_BUF_FLAG_ERROR))
		*save_err = fd_write_all(c->save_fd, c->b[b->index].addr,
				      b->bytesused < c->b[b->index].len ? b->bytesused
									: c->b[b->index].len);
	if (cfg->frames)
		return s->acct.buffers - s->acct.errors >= cfg->frames;
	return now >= s->deadline;
}

static int stream(struct cap *c, const struct video_config *cfg, struct video_pass *p,
		  struct loop_state *s, char **why)
{
	uint64_t timeout_ns = (uint64_t)(cfg->timeout_s * 1e9);
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, save_err = 0, r;
	unsigned i;

	for (i = 0; i < c->n; i++) {
		r = queue(c, i);
		if (r < 0) {
			*why = why_printf("cannot queue buffer %u (%s): %s", i,
					  video_io_name(cfg->io), strerror(-r));
			return r;
		}
	}
	r = video_ioctl(c->fd, VIDIOC_STREAMON, &type);
	if (r < 0) {
		*why = why_printf("cannot start streaming on '%s': %s", cfg->dev, strerror(-r));
		return r;
	}
	c->streaming = true;
	s->t_on = s->last_frame = clock_now_ns();
	for (;;) {
		struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
		struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = c->mem};
		uint64_t now = clock_now_ns();
		int wait_ms;

		if (cfg->stop && *cfg->stop) {
			p->interrupted = true;
			break;
		}
		if (now - s->last_frame >= timeout_ns) {
			p->timeout = true;
			break;
		}
		/* wake at least every 100 ms for the stop flag */
		wait_ms = (int)((timeout_ns - (now - s->last_frame)) / 1000000) + 1;
		if (wait_ms > 100)
			wait_ms = 100;
		r = poll(&pfd, 1, wait_ms);
		if (r < 0 && errno != EINTR) {
			r = -errno;
			*why = why_printf("poll on '%s': %s", cfg->dev, strerror(-r));
			return r;
		}
		if (r <= 0)
			continue;
		if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL) && !(pfd.revents & POLLIN)) {
			*why =
			    why_printf("'%s' stopped streaming (device gone or error)", cfg->dev);
			return -EIO;
		}
		r = video_ioctl(c->fd, VIDIOC_DQBUF, &b);
		if (r == -EAGAIN)
			continue;
		if (r < 0) {
			*why = why_printf("cannot dequeue from '%s': %s", cfg->dev, strerror(-r));
			return r;
		}
		now = clock_now_ns();
		s->last_frame = now;
		if (cfg->on_streaming && !s->told_streaming) {
			/* what only shows while frames flow: the interface's alternate setting */
			s->told_streaming = true;
			cfg->on_streaming(cfg->ctx);
		}
		r = on_buffer(c, cfg, s, &b, now, &save_err);
		if (r > 0)
			break;
		r = queue(c, b.index);
		if (r < 0) {
			*why = why_printf("cannot requeue buffer %u: %s", b.index, strerror(-r));
			return r;
		}
	}
	if (save_err) {
		*why = why_printf("cannot write --save '%s': %s", cfg->save, strerror(-save_err));
		return save_err;
	}
	return 0;
}

int video_capture(const struct video_config *cfg, struct video_pass *ret, char **ret_why)
{
	struct cap c = {.fd = -1, .save_fd = -1};
	struct loop_state *s;
	struct video_pass p = {0};
	struct video_info *info;
	struct cpu_sample a, b;
	struct cpu_use use;
	struct passwatch pw;
	char *why = NULL, *lines = NULL;
	unsigned i;
	int r;

	*ret_why = NULL;
	for (i = 0; i < VIDEO_MAX_BUFFERS; i++)
		c.b[i].dmabuf_fd = -1;
	s = calloc(1, sizeof(*s));
	info = malloc(sizeof(*info));
	if (!s || !info) {
		free_all(s, info);
		return -ENOMEM;
	}
	video_acct_init(&s->acct);
	pass_sys_init(&p.sys);
	s->warm_left = cfg->warmup;
	p.asked = cfg->mode;
	p.io = cfg->io;
	c.fd = video_open(cfg->dev, O_RDWR | O_NONBLOCK);
	if (c.fd < 0) {
		r = c.fd;
		why = why_printf("cannot open '%s': %s", cfg->dev, strerror(-r));
		goto out;
	}
	r = video_probe_fd(c.fd, cfg->dev, VIDEO_MODES_NONE, info, &why);
	if (r < 0)
		goto out;
	if (info->mplane) {
		why = why_printf("'%s' captures only through the multi-planar API, which usbperf "
				 "does not drive yet",
				 cfg->dev);
		r = -ENOTSUP;
		goto out;
	}
	if (!(info->device_caps & V4L2_CAP_STREAMING)) {
		why = why_printf("'%s' has no streaming I/O (read() only)", cfg->dev);
		r = -ENOTSUP;
		goto out;
	}
	r = set_mode(&c, cfg, &p, &why);
	if (r < 0)
		goto out;
	if (cfg->save) {
		r = c.save_fd = open_save(cfg->save, &why);
		if (r < 0)
			goto out;
	}
	if (cfg->io == VIDEO_IO_USERPTR)
		r = setup_userptr(&c, cfg->buffers, p.sizeimage, &why);
	else if (cfg->io == VIDEO_IO_DMABUF)
		r = setup_dmabuf(&c, cfg->buffers, &why);
	else
		r = setup_mmap(&c, cfg->buffers, &why);
	if (r < 0)
		goto out;
	p.buffers = c.n;
	if (c.n != cfg->buffers)
		warn(&p, "the driver granted %u buffers of the %u asked", c.n, cfg->buffers);
	(void)irq_lines_of_node(cfg->dev, &lines);
	(void)passwatch_start(&pw, lines);
	cpu_sample_take(&a);
	r = stream(&c, cfg, &p, s, &why);
	cpu_sample_take(&b);
	passwatch_stop(&pw, s->counting ? (double)(clock_now_ns() - s->t_count0) / 1e9 : 0, &p.sys);
	free(lines);
	release_buffers(&c);
	if (r < 0)
		goto out;
	cpu_use_between(&a, &b, &use);
	video_acct_finish(&s->acct, video_mode_fps(&p.set), &p.st);
	p.first_frame_ms = s->t_first ? (double)(s->t_first - s->t_on) / 1e6 : NAN;
	p.wall_s = s->counting ? (double)(clock_now_ns() - s->t_count0) / 1e9 : 0;
	p.self_cpu_pct = use.self_pct;
	p.sys_cpu_pct = use.busy_pct;
	p.cpu_us_per_frame = p.st.frames ? use.self_s * 1e6 / (double)p.st.frames : NAN;
	if (s->acct.seq_resets)
		warn(&p, "the sequence numbers went back %llu times: drops around them not counted",
		     (unsigned long long)s->acct.seq_resets);
	if (s->acct.dups)
		warn(&p, "%llu buffers repeated the previous sequence number",
		     (unsigned long long)s->acct.dups);
	if (p.timeout)
		warn(&p, "no frame for %.1f s: the pass ended there, results so far",
		     cfg->timeout_s);
	if (p.interrupted)
		warn(&p, "interrupted: results so far");
	if (!p.st.buffers && !p.timeout && !p.interrupted)
		warn(&p, "no frames counted");
out:
	release_buffers(&c);
	if (c.save_fd >= 0) {
		close(c.save_fd);
		/* kept only for a complete pass */
		if (r < 0 || p.timeout || p.interrupted)
			unlink(cfg->save);
		signals_remove_cleanup(cfg->save);
	}
	if (c.fd >= 0)
		close(c.fd);
	video_acct_release(&s->acct);
	free_all(s, info);
	if (r < 0) {
		video_pass_release(&p);
		*ret_why = why;
		return r;
	}
	free(why);
	*ret = p;
	return 0;
}
