// SPDX-License-Identifier: MIT
/* Options bound to a member of a command's options struct (bind.h). */
#include "cmd/bind.h"
#include "cmd/common.h"
#include "util/parse.h"

#include <errno.h>
#include <stdlib.h>

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
	case OV_SIZE:
		r = (b->value == OV_SIZE ? parse_size : parse_u64)(arg, b->umin, b->umax, &u);
		break;
	case OV_DURATION:
	case OV_REAL:
		r = (b->value == OV_REAL ? parse_double : parse_duration)(arg, b->min, b->max, &d);
		break;
	default:
		abort(); /* fieldgen writes no other */
	}
	if (r < 0) {
		const struct cmd_opt *o = opt_find(t, key);

		log_error("invalid --%s '%s': %s", o ? o->name : "?", arg, b->expected);
		return -EINVAL;
	}
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
