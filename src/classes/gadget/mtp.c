// SPDX-License-Identifier: MIT
/* The mtp profile: umtprd's configuration, its start and the wait for its descriptors. */
#include "classes/gadget/mtp.h"
#include "classes/gadget/spec.h"
#include "util/fileio.h"
#include "util/parse.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t size_or(const struct gadget_fn_spec *f, const char *key, uint64_t def)
{
	const char *v = gadget_fn_get(f, key);
	uint64_t u = def;

	/* normalized to decimal by the parser */
	if (v)
		parse_u64(v, 0, UINT64_MAX, &u);
	return u;
}

void gadget_mtp_sizes(const struct gadget_fn_spec *f, uint64_t *ret_rd, uint64_t *ret_wr,
		      uint64_t *ret_cache)
{
	*ret_rd = size_or(f, "rd_buffer", MTP_RD_BUFFER_DEF);
	*ret_wr = size_or(f, "wr_buffer", MTP_WR_BUFFER_DEF);
	*ret_cache = size_or(f, "cache", MTP_CACHE_DEF);
}

int gadget_mtp_check(const struct gadget_fn_spec *f, char **ret_why)
{
	uint64_t rd, wr, cache;

	gadget_mtp_sizes(f, &rd, &wr, &cache);
	if (rd % 512)
		return reason_set(-EINVAL, ret_why, "mtp: rd_buffer=%llu is not a multiple of 512",
				  (unsigned long long)rd);
	if (wr % 512)
		return reason_set(-EINVAL, ret_why, "mtp: wr_buffer=%llu is not a multiple of 512",
				  (unsigned long long)wr);
	if (cache & (cache - 1))
		return reason_set(-EINVAL, ret_why, "mtp: cache=%llu is not a power of two",
				  (unsigned long long)cache);
	if (rd >= cache)
		return reason_set(-EINVAL, ret_why,
				  "mtp: rd_buffer=%llu must be less than cache=%llu (umtprd reads "
				  "files through that cache)",
				  (unsigned long long)rd, (unsigned long long)cache);
	return 0;
}

void gadget_mtp_config(const struct gadget_mtp_conf *c, struct strbuf *out)
{
	strbuf_addf(
	    out,
	    "# written by usbperf gadget up for gadget '%s'; usbperf gadget down removes it\n"
	    "loop_on_disconnect 1\n"
	    "storage \"%s\" \"usbperf\" \"rw\"\n"
	    "manufacturer \"usbperf\"\n"
	    "product \"usbperf MTP\"\n"
	    "serial \"%s\"\n"
	    "firmware_version \"usbperf\"\n"
	    "interface \"MTP\"\n"
	    "usb_vendor_id 0x%04x\n"
	    "usb_product_id 0x%04x\n"
	    "usb_class 0x6\n"
	    "usb_subclass 0x1\n"
	    "usb_protocol 0x1\n"
	    "usb_dev_version 0x3008\n"
	    "usb_functionfs_mode 0x1\n"
	    "usb_dev_path \"%s/ep0\"\n"
	    "usb_epin_path \"%s/ep1\"\n"
	    "usb_epout_path \"%s/ep2\"\n"
	    "usb_epint_path \"%s/ep3\"\n"
	    "usb_max_packet_size 0x200\n"
	    "usb_max_rd_buffer_size 0x%llx\n"
	    "usb_max_wr_buffer_size 0x%llx\n"
	    "read_buffer_cache_size 0x%llx\n"
	    /*
	     * no inotify: umtprd would send an event on the interrupt endpoint for
	     * every file that changes, which a host that does not read events
	     * (libmtp) never takes; in the lab sessions then stalled for 100 s
	     * and ended in a PTP I/O error. Files change through MTP only.
	     */
	    "no_inotify 0x1\n",
	    c->gadget, c->storage, c->gadget, c->vid, c->pid, c->ffs_dir, c->ffs_dir, c->ffs_dir,
	    c->ffs_dir, (unsigned long long)c->rd_buffer, (unsigned long long)c->wr_buffer,
	    (unsigned long long)c->cache);
}

int gadget_mtp_preflight(const struct gadget_fs *fs, char **ret_why)
{
	char *exe = NULL;
	int r = fs->which ? fs->which(MTP_DAEMON, &exe) : -ENOTSUP;

	free(exe);
	if (r == -ENOENT)
		return reason_set(-ENOENT, ret_why,
				  "mtp: '" MTP_DAEMON
				  "' is not in PATH: install package " MTP_PACKAGE
				  " (apt-get install " MTP_PACKAGE ")");
	if (r < 0)
		return reason_set(r, ret_why, "mtp: cannot find '" MTP_DAEMON "': %s",
				  strerror(-r));
	return 0;
}

/* a new file of usbperf's below the root: created empty, recorded, then returned open */
static int new_file(struct gadget_state *st, const char *path, int *ret_fd, char **why)
{
	struct strbuf real = STRBUF_INIT;
	int fd, r;

	sysroot_path(&real, path);
	fd = open(real.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	strbuf_release(&real);
	if (fd < 0)
		return reason_set(-errno, why, "mtp: cannot create '%s': %s", path,
				  strerror(errno));
	r = gadget_state_add(st, "file", path);
	if (r < 0) {
		close(fd);
		return reason_set(r, why, "cannot record '%s' in the state file: %s", path,
				  strerror(-r));
	}
	*ret_fd = fd;
	return 0;
}

/* the log's last non-empty line, control characters replaced */
static void last_line(const char *log, struct strbuf *out)
{
	struct strbuf data = STRBUF_INIT;
	char *s, *e;

	if (sysroot_read(log, 1 << 20, &data) < 0)
		return;
	while (data.len && (data.buf[data.len - 1] == '\n' || data.buf[data.len - 1] == '\r'))
		data.buf[--data.len] = '\0';
	s = strrchr(data.buf, '\n');
	s = s ? s + 1 : data.buf;
	for (e = s; *e; e++)
		if ((unsigned char)*e < 0x20)
			*e = ' ';
	strbuf_adds(out, s);
	strbuf_release(&data);
}

static void nap_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&t, NULL);
}

/* umtprd has written its descriptors when f_fs made the endpoint files */
static int wait_ready(const struct gadget_fs *fs, int pid, const char *exe, const char *mnt,
		      const char *log, char **why)
{
	struct strbuf ep = STRBUF_INIT, last = STRBUF_INIT;
	int ms, r = -ETIMEDOUT;

	strbuf_addf(&ep, "%s/ep1", mnt);
	for (ms = 0; ms <= MTP_READY_MS; ms += 20) {
		if (sysroot_exists(ep.buf)) {
			r = 0;
			break;
		}
		if (!fs->running(pid, exe)) {
			last_line(log, &last);
			r = reason_set(-EIO, why,
				       "mtp: " MTP_DAEMON " exited at start: %s (log '%s')",
				       last.len ? last.buf : "no output", log);
			break;
		}
		nap_ms(20);
	}
	if (r == -ETIMEDOUT)
		reason_set(r, why,
			   "mtp: " MTP_DAEMON " wrote no descriptors to '%s/ep0' within %d s (log "
			   "'%s')",
			   mnt, MTP_READY_MS / 1000, log);
	strbuf_release(&ep);
	strbuf_release(&last);
	return r;
}

int gadget_mtp_start(struct gadget_state *st, const struct gadget_fs *fs,
		     const struct gadget_spec *s, const struct gadget_fn_spec *f, const char *mnt,
		     struct gadget_mtp_started *ret, struct strbuf *set, char **ret_why)
{
	struct strbuf base = STRBUF_INIT, store = STRBUF_INIT, conf = STRBUF_INIT,
		      log = STRBUF_INIT, text = STRBUF_INIT, real_store = STRBUF_INIT,
		      real_mnt = STRBUF_INIT, real_conf = STRBUF_INIT, pidexe = STRBUF_INIT;
	const char *storage = gadget_fn_get(f, "storage");
	struct gadget_mtp_conf c = {.gadget = s->dir, .vid = s->vid, .pid = s->pid};
	char *exe = NULL;
	int fd = -1, log_fd = -1, pid = 0, r;

	if (!fs->which || !fs->spawn || !fs->running || !fs->stop)
		return reason_set(-ENOTSUP, ret_why, "mtp: this backend cannot start daemons");
	r = fs->which(MTP_DAEMON, &exe);
	if (r < 0) {
		r = gadget_mtp_preflight(fs, ret_why);
		goto out;
	}
	strbuf_addf(&base, GADGET_STATE_DIR "/mtp-%s-%s", s->dir, f->instance);
	/* the shared directory: the user's, or one of usbperf's that down removes when empty */
	if (storage) {
		strbuf_adds(&real_store, storage);
	} else {
		strbuf_adds(&store, base.buf);
		r = fs->mkdir(store.buf);
		if (r == 0)
			r = gadget_state_add(st, "store", store.buf);
		else if (r == -EEXIST)
			r = 0; /* kept by an earlier down (not empty): used, not ours to remove */
		if (r < 0) {
			r = reason_set(r, ret_why, "mtp: cannot create '%s': %s", store.buf,
				       strerror(-r));
			goto out;
		}
		sysroot_path(&real_store, store.buf);
	}
	gadget_mtp_sizes(f, &c.rd_buffer, &c.wr_buffer, &c.cache);
	sysroot_path(&real_mnt, mnt);
	c.storage = real_store.buf;
	c.ffs_dir = real_mnt.buf;
	gadget_mtp_config(&c, &text);
	strbuf_addf(&conf, "%s.conf", base.buf);
	r = new_file(st, conf.buf, &fd, ret_why);
	if (r < 0)
		goto out;
	r = fd_write_all(fd, text.buf, text.len);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0) {
		r = reason_set(r, ret_why, "mtp: cannot write '%s': %s", conf.buf, strerror(-r));
		goto out;
	}
	strbuf_addf(&log, "%s.log", base.buf);
	r = new_file(st, log.buf, &log_fd, ret_why);
	if (r < 0)
		goto out;
	sysroot_path(&real_conf, conf.buf);
	{
		char *argv[] = {exe, "-conf", real_conf.buf, NULL};

		r = fs->spawn(argv, log_fd, &pid);
	}
	close(log_fd);
	if (r < 0) {
		r = reason_set(r, ret_why, "mtp: cannot start '%s': %s", exe, strerror(-r));
		goto out;
	}
	strbuf_addf(&pidexe, "%d %s", pid, exe);
	r = gadget_state_add(st, "proc", pidexe.buf);
	if (r < 0) {
		/* not recorded: stop it here, down would not know it */
		fs->stop(pid, exe);
		r = reason_set(r, ret_why, "cannot record pid %d in the state file: %s", pid,
			       strerror(-r));
		goto out;
	}
	r = wait_ready(fs, pid, exe, mnt, log.buf, ret_why);
	if (r < 0)
		goto out;
	*ret = (struct gadget_mtp_started){pid, c.rd_buffer, c.wr_buffer, c.cache};
	/* the sizes and the pid have their own columns */
	strbuf_addf(set, " storage=%s conf=%s log=%s", real_store.buf, conf.buf, log.buf);
out:
	free(exe);
	strbuf_release(&base);
	strbuf_release(&store);
	strbuf_release(&conf);
	strbuf_release(&log);
	strbuf_release(&text);
	strbuf_release(&real_store);
	strbuf_release(&real_mnt);
	strbuf_release(&real_conf);
	strbuf_release(&pidexe);
	return r;
}
