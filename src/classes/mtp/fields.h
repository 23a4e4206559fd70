/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * usbperf mtp's results as report rows: one field table each drives text,
 * JSON and CSV. For run's record later, each size row is one metric row per
 * direction (device "1-1", test "mtp", pass "send-16M", metric "mb_s", unit
 * "MB/s", value mean, spread stdev, ceiling ceiling_mb_s), and the objects
 * row one "objects_s" metric.
 */
#include "classes/mtp/mtp.h"
#include "model/field.h"

struct mtp_device_row {
	char *device;				       /* "1-1" */
	char *vid_pid;				       /* "1d6b:0100" */
	char *manufacturer, *model, *serial, *version; /* libmtp's */
	const char *speed;
	char *driver; /* the kernel driver on the MTP interface: "none" for libmtp's own use */
	double bulk_ceiling_mb_s;
	char *storage; /* its description */
	char *storage_id;
	uint64_t capacity, free_bytes; /* unknown when the device's figures cannot be true */
	char *storage_anomaly;	       /* why they cannot, the figures as reported; NULL none */
	uint64_t reported_capacity, reported_free; /* what the device said, true or not */
	char *folder;
	bool folder_created;
	const char *send_path;	 /* "folder", "root", "existing-folder" (mtp_place_name) */
	char *send_folder;	 /* the folder the files went into; NULL the root */
	bool handles_reread;	 /* found by name: the device's handles were not readable */
	char *send_path_why;	 /* the failure that moved them, or had them found by name */
	uint64_t left_on_device; /* objects of usbperf's the device still shows */
};

struct mtp_size_row {
	char *pass; /* "16M" */
	uint64_t bytes, repeats;
	double send_mb_s, send_sd, send_min, send_max, send_s;
	double get_mb_s, get_sd, get_min, get_max, get_s;
	double ceiling_mb_s;
	bool verified;
	struct pass_sys sys; /* both ways over the repeats */
};

struct mtp_objects_row {
	uint64_t objects, size;
	double send_s, send_per_s, send_mb_s, list_s, list_per_s, delete_s, delete_per_s;
};

/* --buffer-sweep: one size at one device buffer size */
struct mtp_sweep_row {
	uint64_t buffer; /* umtprd's read and write buffers, bytes */
	uint64_t cache;	 /* its read cache */
	char *pass;	 /* "16M" */
	uint64_t repeats;
	double send_mb_s, send_sd, get_mb_s, get_sd, ceiling_mb_s;
	bool verified;
};

/*
 * The sweep's evidence: a file size that moves BUFFER_GAIN_PCT (20 %) or more
 * faster with the largest buffers than with the smallest (rows in sweep order,
 * buffer sizes rising) is a finding "mtp.small_buffers" about device.
 */
void mtp_sweep_findings(const struct mtp_sweep_row *rows, size_t n, const char *device,
			struct finding_list *out);

extern const struct record_desc mtp_device_desc;
extern const struct record_desc mtp_sweep_desc;
extern const struct record_desc mtp_size_desc;
extern const struct record_desc mtp_objects_desc;

/* a size's result as a row (pass owned); -ENOMEM */
int mtp_size_row_from(const struct mtp_size_result *r, double ceiling_mb_s,
		      struct mtp_size_row *ret);
void mtp_objects_row_from(const struct mtp_objects_result *r, struct mtp_objects_row *ret);
void mtp_size_row_release(struct mtp_size_row *r);
void mtp_device_row_release(struct mtp_device_row *d);
/* a storage's figures into the row: judged (mtp_storage_judge), never printed when untrue */
void mtp_device_row_storage(struct mtp_device_row *d, uint64_t capacity, uint64_t free_bytes);
/* where the files went; strings copied (-ENOMEM) */
int mtp_device_row_path(struct mtp_device_row *d, const struct mtp_path *p);
