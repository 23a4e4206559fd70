// SPDX-License-Identifier: MIT
/* usbperf mtp's field tables: the device, one row per file size, the small objects. */
#include "classes/mtp/fields.h"
#include "util/parse.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classes/mtp/fields.fields.h"

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
	free_all(d->device, d->vid_pid, d->manufacturer, d->model, d->serial, d->version, d->driver,
		 d->storage, d->storage_id, d->storage_anomaly, d->folder, d->send_folder,
		 d->send_path_why);
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
	free_all(d->send_folder, d->send_path_why);
	d->send_folder = p->folder ? strdup(p->folder) : NULL;
	d->send_path_why = p->why ? strdup(p->why) : NULL;
	if ((p->folder && !d->send_folder) || (p->why && !d->send_path_why))
		return -ENOMEM;
	return 0;
}
