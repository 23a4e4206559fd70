// SPDX-License-Identifier: MIT
/* Criteria files: strict JSON in, validated criteria out (criteria.h). */
#include "check/criteria.h"
#include "util/jsonin.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a message quotes what the file said: one printable line of bounded length */

static const char *const of_names[] = {[OF_MEAN] = "mean", [OF_MIN] = "min", [OF_MAX] = "max"};

const char *criterion_of_name(enum criterion_of of)
{
	return of_names[of];
}

static void criterion_release(struct criterion *c)
{
	free(c->id), free(c->device), free(c->test), free(c->name), free(c->metric);
	free(c->unit);
}

void criteria_release(struct criteria *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		criterion_release(&c->v[i]);
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

static int get_string(struct json_object *v, const char *key, const char *where, char **ret,
		      struct strbuf *err)
{
	const char *s = json_object_get_string(v);
	size_t len;

	if (!json_object_is_type(v, json_type_string))
		return jsonin_error(err, where, "'%s' is not a string", key);
	len = (size_t)json_object_get_string_len(v);
	if (len == 0)
		return jsonin_error(err, where, "'%s' is empty", key);
	if (len > CRITERIA_MAX_STRING)
		return jsonin_error(err, where, "'%s' is longer than %d bytes", key,
				  CRITERIA_MAX_STRING);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return jsonin_error(err, where, "'%s' contains a control character", key);
	*ret = strdup(s);
	return *ret ? 0 : -ENOMEM;
}

static int get_number(struct json_object *v, const char *key, const char *where, double *ret,
		      struct strbuf *err)
{
	double d;

	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return jsonin_error(err, where, "'%s' is not a number", key);
	d = json_object_get_double(v);
	/* json-c reads NaN and Infinity even when strict: JSON has neither */
	if (!isfinite(d))
		return jsonin_error(err, where, "'%s' is not a finite number", key);
	*ret = d;
	return 0;
}

static int get_of(struct json_object *v, const char *where, enum criterion_of *ret,
		  struct strbuf *err)
{
	const char *s = json_object_get_string(v);

	if (json_object_is_type(v, json_type_string))
		for (size_t i = 0; i < sizeof(of_names) / sizeof(of_names[0]); i++)
			if (!strcmp(s, of_names[i])) {
				*ret = (enum criterion_of)i;
				return 0;
			}
	return jsonin_error(err, where, "'of' is not \"mean\", \"min\" or \"max\"");
}

/* one key of a criterion; -ENOENT: not a criterion key */
static int criterion_key(const char *key, struct json_object *v, const char *where,
			 struct criterion *c, struct strbuf *err)
{
	char *ignored = NULL;
	int r;

	if (!strcmp(key, "id"))
		return get_string(v, key, where, &c->id, err);
	if (!strcmp(key, "device"))
		return get_string(v, key, where, &c->device, err);
	if (!strcmp(key, "test"))
		return get_string(v, key, where, &c->test, err);
	if (!strcmp(key, "name"))
		return get_string(v, key, where, &c->name, err);
	if (!strcmp(key, "metric"))
		return get_string(v, key, where, &c->metric, err);
	if (!strcmp(key, "unit"))
		return get_string(v, key, where, &c->unit, err);
	if (!strcmp(key, "min"))
		return get_number(v, key, where, &c->min, err);
	if (!strcmp(key, "max"))
		return get_number(v, key, where, &c->max, err);
	if (!strcmp(key, "min_ceiling_pct"))
		return get_number(v, key, where, &c->min_ceiling_pct, err);
	if (!strcmp(key, "of"))
		return get_of(v, where, &c->of, err);
	if (!strcmp(key, "optional")) {
		if (!json_object_is_type(v, json_type_boolean))
			return jsonin_error(err, where, "'optional' is not true or false");
		c->optional = json_object_get_boolean(v);
		return 0;
	}
	if (!strcmp(key, "description")) {
		/* for the reader of the file only, but held to the same rules */
		r = get_string(v, key, where, &ignored, err);
		free(ignored);
		return r;
	}
	return -ENOENT;
}

static int criterion_check(const struct criterion *c, const char *where, struct strbuf *err)
{
	if (!c->metric)
		return jsonin_error(err, where, "no 'metric'");
	if (isnan(c->min) && isnan(c->max) && isnan(c->min_ceiling_pct))
		return jsonin_error(err, where, "needs one of 'min', 'max', 'min_ceiling_pct'");
	if (!isnan(c->min) && !isnan(c->max) && c->min > c->max)
		return jsonin_error(err, where, "'min' %g is greater than 'max' %g", c->min, c->max);
	if (!isnan(c->min_ceiling_pct) && !(c->min_ceiling_pct > 0 && c->min_ceiling_pct <= 100))
		return jsonin_error(err, where, "'min_ceiling_pct' %g is not above 0 and at most 100",
				  c->min_ceiling_pct);
	return 0;
}

static int criterion_from_json(struct json_object *o, size_t index, struct criterion *c,
			       struct strbuf *err)
{
	char where[32];
	int r;

	*c = (struct criterion){.min = NAN, .max = NAN, .min_ceiling_pct = NAN, .index = index};
	snprintf(where, sizeof(where), "criteria[%zu]", index);
	if (!json_object_is_type(o, json_type_object))
		return jsonin_error(err, where, "not an object");
	json_object_object_foreach(o, key, val)
	{
		if (json_object_is_type(val, json_type_null))
			return jsonin_error(err, where, "'%s' is null", key);
		r = criterion_key(key, val, where, c, err);
		if (r == -ENOENT)
			return jsonin_error(err, where, "unknown key '%s'", key);
		if (r < 0)
			return r;
	}
	r = criterion_check(c, where, err);
	if (r < 0)
		return r;
	/* defaults: any device, any pass */
	if (!c->device)
		c->device = strdup("*");
	if (!c->name)
		c->name = strdup("*");
	return c->device && c->name ? 0 : -ENOMEM;
}

/* a test case id names one criterion */
static int check_unique_ids(const struct criteria *c, struct strbuf *err)
{
	for (size_t i = 1; i < c->n; i++) {
		char where[32];

		if (!c->v[i].id)
			continue;
		snprintf(where, sizeof(where), "criteria[%zu]", i);
		for (size_t j = 0; j < i; j++)
			if (c->v[j].id && !strcmp(c->v[i].id, c->v[j].id))
				return jsonin_error(err, where, "id '%s' is already criteria[%zu]'s",
						  c->v[i].id, j);
	}
	return 0;
}

static int check_header(struct json_object *root, struct json_object **ret_list, struct strbuf *err)
{
	struct json_object *v, *list = NULL;

	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "usbperf_criteria", &v) ||
	    !json_object_is_type(v, json_type_int))
		return jsonin_error(err, NULL,
				  "not a criteria file (no \"usbperf_criteria\": %d at the top)",
				  CRITERIA_FORMAT);
	if (json_object_get_int64(v) != CRITERIA_FORMAT)
		return jsonin_error(err, NULL, "criteria format %lld, this usbperf reads %d",
				  (long long)json_object_get_int64(v), CRITERIA_FORMAT);
	json_object_object_foreach(root, key, val)
	{
		if (!strcmp(key, "description") && !json_object_is_type(val, json_type_string))
			return jsonin_error(err, NULL, "'description' is not a string");
		if (strcmp(key, "usbperf_criteria") && strcmp(key, "criteria") &&
		    strcmp(key, "description"))
			return jsonin_error(err, NULL, "unknown key '%s'", key);
	}
	if (!json_object_object_get_ex(root, "criteria", &list) ||
	    !json_object_is_type(list, json_type_array))
		return jsonin_error(err, NULL, "no 'criteria' array");
	if (json_object_array_length(list) == 0)
		return jsonin_error(err, NULL, "'criteria' is empty: a gate that checks nothing");
	if (json_object_array_length(list) > CRITERIA_MAX)
		return jsonin_error(err, NULL, "more than %d criteria", CRITERIA_MAX);
	*ret_list = list;
	return 0;
}

int criteria_parse(const char *buf, size_t len, struct criteria *ret, struct strbuf *err)
{
	struct json_object *root = NULL, *list = NULL;
	struct criteria c = {0};
	size_t n = 0;
	int r;

	r = jsonin_parse(buf, len, CRITERIA_MAX_BYTES, &root, err);
	if (r == 0)
		r = check_header(root, &list, err);
	if (r == 0) {
		n = json_object_array_length(list);
		c.v = calloc(n, sizeof(*c.v));
		if (!c.v)
			r = -ENOMEM;
	}
	for (size_t i = 0; r == 0 && i < n; i++) {
		r = criterion_from_json(json_object_array_get_idx(list, i), i, &c.v[i], err);
		c.n = i + 1; /* the failed one too: its strings are freed below */
	}
	if (r == 0)
		r = check_unique_ids(&c, err);
	json_object_put(root);
	if (r < 0) {
		criteria_release(&c);
		return r;
	}
	*ret = c;
	return 0;
}
