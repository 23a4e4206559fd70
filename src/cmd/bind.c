// SPDX-License-Identifier: MIT
/* Options bound to a member of a command's options struct (bind.h). */
#include "cmd/bind.h"
#include "cmd/common.h"
#include "util/parse.h"

#include <errno.h>
#include <stdlib.h>

static int bad(const struct cmd_opt *t, int key, const char *arg, const char *expected)
{
	const struct cmd_opt *o = opt_find(t, key);

	log_error("invalid --%s '%s': %s", o ? o->name : "?", arg, expected);
	return -EINVAL;
}

int opt_bind_take(const struct opt_bind *b, const struct cmd_opt *t, int key, const char *arg,
		  void *ctx)
{
	char *p;
	uint64_t u = 0;
	double d = 0;
	int r;

	for (; b && b->key && b->key != key; b++)
		;
	if (!b || !b->key)
		return 0;
	p = (char *)ctx + b->offset;
	switch (b->value) {
	case OV_FLAG:
		*(bool *)p = true;
		return 1;
	case OV_TEXT:
		*(const char **)p = arg;
		return 1;
	case OV_NUMBER:
		r = parse_u64(arg, b->umin, b->umax, &u);
		break;
	case OV_SIZE:
		r = parse_size(arg, b->umin, b->umax, &u);
		break;
	case OV_DURATION:
		r = parse_duration(arg, b->min, b->max, &d);
		break;
	case OV_REAL:
		r = parse_double(arg, b->min, b->max, &d);
		break;
	default:
		abort(); /* fieldgen writes no other */
	}
	if (r < 0)
		return bad(t, key, arg, b->expected);
	if (b->store == OS_U64)
		*(uint64_t *)p = u;
	else if (b->store == OS_UINT)
		*(unsigned *)p = (unsigned)u; /* fieldgen's assertion: the range fits */
	else if (b->store == OS_INT)
		*(int *)p = (int)u;
	else
		*(double *)p = d;
	return 1;
}
