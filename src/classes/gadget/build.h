/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * usbperf gadget up/down: a composite gadget built in configfs
 * (usb_gadget/<name>) from profiles with tunables, bound to a UDC, and torn
 * down exactly.
 *
 * configfs is written directly, not through libusbgx: every path goes
 * through the sysroot (util/sysroot.h) and every change through a backend
 * (struct gadget_fs), so unit tests run the whole builder against a tree in
 * a temporary directory with a fake "kernel" that populates attributes.
 *
 * Ownership: the gadget directory is named "usbperf" or "usbperf-<NAME>",
 * and every path created is appended, in creation order and before the next
 * step, to a state file (/run/usbperf/gadget-<dir>.state below the root).
 * down undoes those lines in reverse order (unbind first), also after an up
 * that failed or was killed half-way; up rolls itself back on failure.
 *
 * Functions return 0 or a negative errno; refusals fill *ret_why (one line).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GADGET_STATE_DIR "/run/usbperf"
#define GADGET_PREFIX "usbperf"

/* Every change to configfs; paths are below the sysroot (start with '/'). */
struct gadget_fs {
	int (*mkdir)(const char *path);
	int (*rmdir)(const char *path);
	int (*symlink)(const char *target, const char *linkpath);
	int (*unlink)(const char *path);
	/* an existing attribute only: -ENOENT when the kernel lacks it */
	int (*write)(const char *path, const void *buf, size_t len);
	/* mount functionfs instance 'dev' on dir, and back */
	int (*mount_ffs)(const char *dev, const char *dir);
	/* mount gadgetfs on dir (one instance per system) */
	int (*mount_gadgetfs)(const char *dir);
	int (*umount)(const char *dir);
	/*
	 * The userspace daemon of a function (mtp: umtprd). which: its absolute
	 * path from $PATH, -ENOENT. spawn: fork/exec argv[0] with stdout and
	 * stderr on log_fd, in its own session. running: pid is alive and its
	 * /proc/PID/exe is exe. stop: SIGTERM, a bounded wait, SIGKILL, and only
	 * while pid is still exe (0 when gone or another program; -ETIMEDOUT).
	 */
	int (*which)(const char *name, char **ret_path);
	int (*spawn)(char *const argv[], int log_fd, int *ret_pid);
	bool (*running)(int pid, const char *exe);
	int (*stop)(int pid, const char *exe);
};
/* the real one: system calls on sysroot_path() of each path */
extern const struct gadget_fs gadget_fs_real;

struct gadget_kv {
	char *key, *value;
};

struct gadget_profile;

struct gadget_fn_spec {
	const struct gadget_profile *profile;
	char *instance;
	struct gadget_kv *kv;
	size_t nkv;
};

struct gadget_spec {
	char *dir;	   /* "usbperf" or "usbperf-NAME" */
	uint16_t vid, pid; /* default 1d6b:0104 */
	char *manufacturer, *product, *serial;
	char *udc;	 /* NULL: the first free UDC */
	char *max_speed; /* NULL: the kernel's default (the UDC's best) */
	/* the configuration's MaxPower, mA (default 250) */
	unsigned max_power_ma;
	/* --destructive: an msc LUN may be exported read-write (preflight.c) */
	bool destructive;
	struct gadget_fn_spec *fns;
	size_t nfns;
};

void gadget_spec_init(struct gadget_spec *s);
void gadget_spec_release(struct gadget_spec *s);
/* NAME of --name: "usbperf-NAME" (NULL: "usbperf"); -EINVAL for a name configfs would refuse */
int gadget_spec_set_name(struct gadget_spec *s, const char *name, char **ret_why);
/* "1d6b:0104" */
int gadget_spec_set_id(struct gadget_spec *s, const char *vidpid, char **ret_why);
/* "low|full|high|super|super-plus" (or the kernel's "high-speed" form) */
int gadget_spec_set_speed(struct gadget_spec *s, const char *speed, char **ret_why);
/* --max-power MA: 0..900 here; up refuses above 500 below SuperSpeed (USB 2.0 9.6.3) */
#define GADGET_MAX_POWER_USB2 500
#define GADGET_MAX_POWER_USB3 900
int gadget_spec_set_max_power(struct gadget_spec *s, const char *ma, char **ret_why);
/* One operand "PROFILE[:key=value,...]": checked against the profile's keys. */
int gadget_spec_add(struct gadget_spec *s, const char *arg, char **ret_why);
/* the profiles and their keys, for -h */
const char *gadget_profiles_help(void);
/*
 * A gadget name down and bind take: "usbperf" or "usbperf-NAME" as
 * gadget_spec_set_name makes them; anything else (empty, a path, too long, a
 * gadget of another tool's) is -EINVAL with why.
 */
int gadget_name_check(const char *dir, char **ret_why);
/* absolute, no empty, "." or ".." component, no trailing '/' */
bool gadget_path_canonical(const char *path);
/*
 * Before up creates anything: each msc LUN's backing may be exported as
 * asked (read-write: --destructive and, for a block device, disk's write
 * rules on the live system; ro=1: anything), each FunctionFS mount point is
 * a new directory under plain directories. -EACCES, -EEXIST, -EINVAL + why.
 */
int gadget_preflight(const struct gadget_spec *s, char **ret_why);

/* What up built, for the command to show. */
struct gadget_ep;
struct gadget_built_fn {
	char *function; /* "hid.0" */
	char *profile;	/* "hid" */
	char *settings; /* "protocol=1 report_length=8 report_desc=keyboard(63 B)" */
	char *ifname;	/* network functions: read back after bind */
	/* the endpoints its driver declares (classes/gadget/endpoints.h) */
	struct gadget_ep *eps;
	size_t neps;
	const char *ep_source; /* the driver that declares them: "f_hid" */
	char *ep_note;	       /* caveats; ffs: defined by the userspace daemon */
	/* mtp: umtprd's pid (FIELD_INT_UNKNOWN otherwise) and the buffer sizes it was given */
	int64_t daemon_pid;
	uint64_t rd_buffer, wr_buffer, cache; /* bytes; U64_UNKNOWN: not mtp */
};

struct gadget_built {
	char *gadget; /* the configfs directory name */
	char *udc;
	char *max_speed;   /* as configfs shows it after the build */
	char *udc_state;   /* /sys/class/udc/<udc>/state after bind */
	char *udc_speed;   /* current_speed */
	char *state_file;  /* below the root */
	char *unbound_why; /* non-NULL: left unbound, and why (ffs) */
	int64_t npaths;	   /* lines in the state file */
	/* the configuration's MaxPower written, mA */
	int64_t max_power_ma;
	/* the speed the endpoints are given at; assumed: neither max speed was known */
	char *ep_speed;
	bool ep_speed_assumed;
	struct gadget_built_fn *fns;
	size_t nfns;
};
void gadget_built_release(struct gadget_built *b);

/*
 * Build s, bind it to its UDC. On failure everything made is removed again
 * (the state file too) and *ret_why says what failed: -ENODEV (no UDC or no
 * usb_gadget in configfs), -ENOENT (a function module or an attribute
 * missing), -EEXIST (the gadget exists), -EBUSY (the UDC is taken), others.
 */
int gadget_up(const struct gadget_spec *s, const struct gadget_fs *fs, struct gadget_built *ret,
	      char **ret_why);
/*
 * Remove gadget dir (a name as in gadget_spec_set_name's result) exactly as
 * its state file lists, in reverse. Without a state file: -EPERM unless
 * force, which tears the whole gadget down from what configfs shows.
 * ret_removed: how many paths were removed.
 */
int gadget_down(const char *dir, bool force, const struct gadget_fs *fs, int64_t *ret_removed,
		char **ret_why);
/* (on success *ret_why may be set too: a note, such as a storage directory kept non-empty) */
/* Bind a gadget up left unbound (ffs, once its descriptors are written). */
int gadget_bind(const char *dir, const char *udc, const struct gadget_fs *fs, char **ret_udc,
		char **ret_why);

/* The named HID report descriptor presets; NULL when unknown. */
const uint8_t *hid_preset(const char *name, size_t *ret_len, unsigned *ret_report_length,
			  unsigned *ret_protocol, unsigned *ret_subclass);

/* status: the gadgets in configfs that usbperf made (a state file names them) */
struct gadget_owned {
	char *gadget;
	char *state_file;
	int64_t paths; /* steps listed */
	char *udc;     /* bound to; NULL when not */
	/* the daemon up started ("proc" step): pid (FIELD_INT_UNKNOWN: none) */
	int64_t daemon_pid;
	char *daemon;		  /* its executable */
	const char *daemon_state; /* "running" (still that program), "gone"; NULL: none */
};
int gadget_owned_probe(struct gadget_owned **ret, size_t *ret_n);
void gadget_owned_free(struct gadget_owned *v, size_t n);

/* the report of up: the gadget, then its functions; of status: which are usbperf's */
struct report;
void gadget_built_describe(const struct gadget_built *b, struct report *out);
/* every section of gadget up's JSON, its functions' endpoints nested */
void gadget_built_schema(struct report *out);
void gadget_owned_describe(const struct gadget_owned *v, size_t n, struct report *out);
