// SPDX-License-Identifier: MIT
/* classes/net/sock: the checks the client's options get before any connection (issue 12.15). */
#include "unit.h"
#include "classes/net/sock.h"

#include <errno.h>
#include <string.h>

static void test_local_addr(void **state)
{
	(void)state;
	assert_int_equal(net_local_addr_check("127.0.0.1", AF_UNSPEC), 0);
	assert_int_equal(net_local_addr_check("127.0.0.1", AF_INET), 0);
	/* TEST-NET-1: never an address of this machine */
	assert_int_equal(net_local_addr_check("192.0.2.7", AF_UNSPEC), -EADDRNOTAVAIL);
	/* the wrong family for -4 */
	assert_true(net_local_addr_check("::1", AF_INET) < 0);
}

static void test_congestion(void **state)
{
	struct strbuf avail = STRBUF_INIT;

	(void)state;
	/* reno is built into every kernel */
	assert_int_equal(net_congestion_check("reno", &avail), 0);
	assert_int_equal(net_congestion_check("nosuchcc", &avail), -ENOENT);
	assert_non_null(strstr(avail.buf, "reno"));
	assert_int_equal(avail.buf[avail.len ? avail.len - 1 : 0] == '\n', 0);
	/* a prefix of a real name is not that name */
	assert_int_equal(net_congestion_check("ren", &avail), -ENOENT);
	strbuf_release(&avail);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_local_addr),
	    cmocka_unit_test(test_congestion),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
