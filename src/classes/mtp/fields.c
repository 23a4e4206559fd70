// SPDX-License-Identifier: MIT
/* usbperf mtp's field tables: the device, one row per file size, the small objects. */
#include "classes/mtp/fields.h"
#include "util/parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T FF_TEXT

static const struct field device_fields[] = {
    FIELD(struct mtp_device_row, device, "device", "device", NULL, FT_STR, 0, T),
    FIELD(struct mtp_device_row, vid_pid, "vid_pid", "VID:PID", NULL, FT_STR, 0, T),
    FIELD(struct mtp_device_row, manufacturer, "manufacturer", "manufacturer", NULL, FT_STR, 0, T),
    FIELD(struct mtp_device_row, model, "model", "model", NULL, FT_STR, 0, T),
    FIELD(struct mtp_device_row, serial, "serial", "serial", NULL, FT_STR, 0, 0),
    FIELD(struct mtp_device_row, version, "version", "version", NULL, FT_STR, 0, 0),
    FIELD(struct mtp_device_row, speed, "speed", "speed", NULL, FT_STR, 0, T),
    FIELD(struct mtp_device_row, driver, "driver", "driver", NULL, FT_STR, 0, T),
    FIELD(struct mtp_device_row, bulk_ceiling_mb_s, "bulk_ceiling_mb_s", "bulk ceiling", "MB/s",
	  FT_DBL, 1, T),
    FIELD(struct mtp_device_row, storage, "storage", "storage", NULL, FT_STR, 0, T),
    FIELD(struct mtp_device_row, storage_id, "storage_id", "storage id", NULL, FT_STR, 0, 0),
    FIELD(struct mtp_device_row, capacity, "capacity_bytes", "capacity", NULL, FT_SIZE, 0, T),
    FIELD(struct mtp_device_row, free_bytes, "free_bytes", "free", NULL, FT_SIZE, 0, T),
    FIELD(struct mtp_device_row, storage_anomaly, "storage_anomaly", "ANOMALY", NULL, FT_STR, 0,
	  T | FF_OPTIONAL),
    FIELD(struct mtp_device_row, reported_capacity, "reported_capacity_bytes", "reported capacity",
	  NULL, FT_U64, 0, 0),
    FIELD(struct mtp_device_row, reported_free, "reported_free_bytes", "reported free", NULL,
	  FT_U64, 0, 0),
    FIELD(struct mtp_device_row, folder, "folder", "folder", NULL, FT_STR, 0, T),
    FIELD(struct mtp_device_row, folder_created, "folder_created", "folder created", NULL, FT_BOOL,
	  0, 0),
    FIELD(struct mtp_device_row, send_path, "send_path", "files sent to", NULL, FT_STR, 0, T),
    FIELD(struct mtp_device_row, send_folder, "send_folder", "in folder", NULL, FT_STR, 0,
	  T | FF_OPTIONAL),
    FIELD(struct mtp_device_row, handles_reread, "handles_reread", "handles re-read", NULL, FT_BOOL,
	  0, T),
    FIELD(struct mtp_device_row, send_path_why, "send_path_why", "because", NULL, FT_STR, 0,
	  T | FF_OPTIONAL),
    FIELD(struct mtp_device_row, left_on_device, "left_on_device", "left on device", NULL, FT_U64,
	  0, T),
};

static const struct field size_fields[] = {
    FIELD(struct mtp_size_row, pass, "name", "size", NULL, FT_STR, 0, T),
    FIELD(struct mtp_size_row, bytes, "size_bytes", "bytes", NULL, FT_U64, 0, 0),
    FIELD(struct mtp_size_row, repeats, "repeats", "n", NULL, FT_U64, 0, T),
    FIELD(struct mtp_size_row, send_mb_s, "send_mb_s", "send", "MB/s", FT_DBL, 2, T),
    FIELD(struct mtp_size_row, send_sd, "send_mb_s_stdev", "sd", "MB/s", FT_DBL, 2,
	  T | FF_PLUSMINUS),
    FIELD(struct mtp_size_row, send_min, "send_mb_s_min", "send min", "MB/s", FT_DBL, 2, 0),
    FIELD(struct mtp_size_row, send_max, "send_mb_s_max", "send max", "MB/s", FT_DBL, 2, 0),
    FIELD(struct mtp_size_row, send_s, "send_seconds", "send time", "s", FT_DBL, 3, T),
    FIELD(struct mtp_size_row, get_mb_s, "get_mb_s", "get", "MB/s", FT_DBL, 2, T),
    FIELD(struct mtp_size_row, get_sd, "get_mb_s_stdev", "sd", "MB/s", FT_DBL, 2, T | FF_PLUSMINUS),
    FIELD(struct mtp_size_row, get_min, "get_mb_s_min", "get min", "MB/s", FT_DBL, 2, 0),
    FIELD(struct mtp_size_row, get_max, "get_mb_s_max", "get max", "MB/s", FT_DBL, 2, 0),
    FIELD(struct mtp_size_row, get_s, "get_seconds", "get time", "s", FT_DBL, 3, T),
    FIELD(struct mtp_size_row, ceiling_mb_s, "ceiling_mb_s", "ceiling", "MB/s", FT_DBL, 1, T),
    FIELD(struct mtp_size_row, verified, "verified", "verified", NULL, FT_BOOL, 0, T),
    PASS_SYS_FIELDS(struct mtp_size_row, sys),
};

static const struct field objects_fields[] = {
    FIELD(struct mtp_objects_row, objects, "objects", "objects", NULL, FT_U64, 0, T),
    FIELD(struct mtp_objects_row, size, "size_bytes", "size", NULL, FT_SIZE, 0, T),
    FIELD(struct mtp_objects_row, send_s, "send_seconds", "send time", "s", FT_DBL, 3, T),
    FIELD(struct mtp_objects_row, send_per_s, "send_objects_s", "sent", "objects/s", FT_DBL, 1, T),
    FIELD(struct mtp_objects_row, send_mb_s, "send_mb_s", "as bytes", "MB/s", FT_DBL, 3, T),
    FIELD(struct mtp_objects_row, list_s, "list_seconds", "list time", "s", FT_DBL, 3, 0),
    FIELD(struct mtp_objects_row, list_per_s, "list_objects_s", "listed", "objects/s", FT_DBL, 1,
	  T),
    FIELD(struct mtp_objects_row, delete_s, "delete_seconds", "delete time", "s", FT_DBL, 3, 0),
    FIELD(struct mtp_objects_row, delete_per_s, "delete_objects_s", "deleted", "objects/s", FT_DBL,
	  1, T),
};

const struct record_desc mtp_device_desc = RECORD_DESC("mtp_device", device_fields);
static const struct field sweep_fields[] = {
    FIELD(struct mtp_sweep_row, buffer, "buffer_bytes", "buffers", NULL, FT_SIZE, 0, T),
    FIELD(struct mtp_sweep_row, cache, "cache_bytes", "cache", NULL, FT_SIZE, 0, T),
    FIELD(struct mtp_sweep_row, pass, "name", "size", NULL, FT_STR, 0, T),
    FIELD(struct mtp_sweep_row, repeats, "repeats", "n", NULL, FT_U64, 0, T),
    FIELD(struct mtp_sweep_row, send_mb_s, "send_mb_s", "send", "MB/s", FT_DBL, 2, T | FF_BAR),
    FIELD(struct mtp_sweep_row, send_sd, "send_mb_s_stdev", "sd", "MB/s", FT_DBL, 2,
	  T | FF_PLUSMINUS),
    FIELD(struct mtp_sweep_row, get_mb_s, "get_mb_s", "get", "MB/s", FT_DBL, 2, T | FF_BAR),
    FIELD(struct mtp_sweep_row, get_sd, "get_mb_s_stdev", "sd", "MB/s", FT_DBL, 2,
	  T | FF_PLUSMINUS),
    FIELD(struct mtp_sweep_row, ceiling_mb_s, "ceiling_mb_s", "ceiling", "MB/s", FT_DBL, 1, T),
    FIELD(struct mtp_sweep_row, verified, "verified", "verified", NULL, FT_BOOL, 0, T),
};

const struct record_desc mtp_size_desc = RECORD_DESC("mtp_size", size_fields);
const struct record_desc mtp_sweep_desc = RECORD_DESC("mtp_sweep", sweep_fields);
const struct record_desc mtp_objects_desc = RECORD_DESC("mtp_objects", objects_fields);

static double mean_s(const double *v, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

int mtp_size_row_from(const struct mtp_size_result *r, double ceiling_mb_s,
		      struct mtp_size_row *ret)
{
	char sz[32];
	struct mtp_size_row row = {
	    .bytes = r->bytes,
	    .repeats = r->n,
	    .send_mb_s = r->send_mb_s.mean,
	    .send_sd = r->send_mb_s.stdev,
	    .send_min = r->send_mb_s.min,
	    .send_max = r->send_mb_s.max,
	    .send_s = mean_s(r->send_s, r->n),
	    .get_mb_s = r->get_mb_s.mean,
	    .get_sd = r->get_mb_s.stdev,
	    .get_min = r->get_mb_s.min,
	    .get_max = r->get_mb_s.max,
	    .get_s = mean_s(r->get_s, r->n),
	    .ceiling_mb_s = ceiling_mb_s > 0 ? ceiling_mb_s : NAN,
	    .verified = r->verified && r->n > 0,
	};

	pass_sys_init(&row.sys);
	if (r->n) {
		pass_sys_fold(&row.sys, &r->send_sys);
		pass_sys_fold(&row.sys, &r->get_sys);
	}
	format_size(r->bytes, sz, sizeof(sz));
	row.pass = strdup(sz);
	if (!row.pass)
		return -ENOMEM;
	*ret = row;
	return 0;
}

void mtp_objects_row_from(const struct mtp_objects_result *r, struct mtp_objects_row *ret)
{
	*ret = (struct mtp_objects_row){
	    .objects = r->sent,
	    .size = r->size,
	    .send_s = r->send_s,
	    .send_per_s = r->send_per_s,
	    .send_mb_s = r->send_mb_s,
	    .list_s = r->list_s > 0 ? r->list_s : NAN,
	    .list_per_s = r->list_per_s,
	    .delete_s = r->delete_s > 0 ? r->delete_s : NAN,
	    .delete_per_s = r->delete_per_s,
	};
}

void mtp_size_row_release(struct mtp_size_row *r)
{
	if (!r)
		return;
	free(r->pass);
	r->pass = NULL;
}

void mtp_device_row_release(struct mtp_device_row *d)
{
	if (!d)
		return;
	free(d->device);
	free(d->vid_pid);
	free(d->manufacturer);
	free(d->model);
	free(d->serial);
	free(d->version);
	free(d->driver);
	free(d->storage);
	free(d->storage_id);
	free(d->storage_anomaly);
	free(d->folder);
	free(d->send_folder);
	free(d->send_path_why);
	memset(d, 0, sizeof(*d));
}

void mtp_device_row_storage(struct mtp_device_row *d, uint64_t capacity, uint64_t free_bytes)
{
	struct mtp_storage_judgement j;

	mtp_storage_judge(capacity, free_bytes, &j);
	d->capacity = j.capacity;
	d->free_bytes = j.free_bytes;
	d->reported_capacity = capacity;
	d->reported_free = free_bytes;
	free(d->storage_anomaly);
	d->storage_anomaly = j.anomaly ? strdup(j.why) : NULL;
}

int mtp_device_row_path(struct mtp_device_row *d, const struct mtp_path *p)
{
	d->send_path = p->place == MTP_PLACE_NONE ? NULL : mtp_place_name(p->place);
	d->handles_reread = p->reread;
	free(d->send_folder);
	free(d->send_path_why);
	d->send_folder = p->folder ? strdup(p->folder) : NULL;
	d->send_path_why = p->why ? strdup(p->why) : NULL;
	if ((p->folder && !d->send_folder) || (p->why && !d->send_path_why))
		return -ENOMEM;
	return 0;
}
