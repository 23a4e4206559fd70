/* SPDX-License-Identifier: MIT */
#pragma once
/* Inside the report model: its indexes (model_index.c), built by report_model_build(). */
#include "report/model.h"

#include <stdbool.h>

struct rm_key {
	const char *key; /* the device's key in the run */
	size_t dev;	 /* its index in the model's devices */
};

/* run's passes; *ret_head[i]: metric i heads its pass, *ret_pass_of[i] its pass (free both) */
int model_index_passes(struct report_model *m, size_t run, bool **ret_head, size_t **ret_pass_of);
/* run's devices by key, once the devices are known */
int model_index_keys(struct report_model *m, size_t run);
/* the device with this key in run (the first, should two share it), or NULL */
struct rm_device *model_device_of(struct report_model *m, size_t run, const char *key);
int model_add_row(struct rm_device *d, size_t run, const struct run_metric *x,
		  const struct rm_pass *p);
/* a figure toward the device's best of its unit; model_reduce_tops() when all are in */
int model_add_top(struct rm_device *d, const struct run_metric *x);
void model_reduce_tops(struct rm_device *d);
