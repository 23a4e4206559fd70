/* SPDX-License-Identifier: MIT */
#pragma once
/* The profiles and their keys, shared by the parser (spec.c) and the builder (build.c). */
#include "classes/gadget/build.h"

enum gadget_key_kind {
	GK_UINT,   /* decimal, 0..max */
	GK_BOOL,   /* 0/1 (also y/n, yes/no, true/false): written as 0 or 1 */
	GK_MAC,	   /* xx:xx:xx:xx:xx:xx */
	GK_FILE,   /* an existing file, made absolute */
	GK_WORD,   /* [A-Za-z0-9_.-], at most 15 characters */
	GK_PATH,   /* an absolute path (a mount point) */
	GK_FRAMES, /* WxH[+WxH...] */
	GK_SIZE,   /* bytes, K/M suffixes (parse_size), min..max: written in decimal */
	GK_DIR,	   /* an existing directory, made absolute */
	GK_LIST,   /* ITEM[+ITEM...], letters, digits, '.': the profile's checker reads it */
};

struct gadget_key {
	const char *key;
	const char *attr; /* below the function's directory; NULL: the builder's own */
	enum gadget_key_kind kind;
	uint64_t min, max;
};

struct gadget_profile {
	const char *name;   /* "msc" */
	const char *type;   /* configfs function type: "mass_storage" */
	const char *module; /* the kernel module that registers it */
	const struct gadget_key *keys;
	size_t nkeys;
};

const struct gadget_profile *gadget_profile_find(const char *name);
/* the value of key in f, NULL when not given */
const char *gadget_fn_get(const struct gadget_fn_spec *f, const char *key);
const struct gadget_key *gadget_key_find(const struct gadget_profile *p, const char *key);
