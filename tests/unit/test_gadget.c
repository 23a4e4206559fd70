// SPDX-License-Identifier: MIT
/* gadget: configfs gadgets, configs, functions, LUNs and UDCs decoded from the fixtures. */
#include "unit.h"
#include "fixture.h"
#include "platform/usb/gadget.h"
#include "render/render.h"
#include "util/snapshot.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define UNK FIELD_INT_UNKNOWN

static void assert_str(const char *what, const char *got, const char *want)
{
	if (!want && !got)
		return;
	if (!want || !got || strcmp(got, want))
		fail_msg("%s = %s%s%s, expected %s%s%s", what, got ? "\"" : "", got ? got : "NULL",
			 got ? "\"" : "", want ? "\"" : "", want ? want : "NULL", want ? "\"" : "");
}

#define STR(field, want) assert_str(#field, field, want)
#define INT(field, want)                                                                         \
	do {                                                                                     \
		if ((field) != (want))                                                           \
			fail_msg("%s = %lld, expected %lld", #field, (long long)(field),         \
				 (long long)(want));                                             \
	} while (0)

/* every int of a function not named in the test is unknown */
static void assert_fn_ints(const struct gadget_function *f, const char *const *known)
{
	static const struct {
		const char *name;
		size_t off;
	} all[] = {
#define M(m) {#m, offsetof(struct gadget_function, m)}
		M(qmult),	  M(streaming_maxpacket), M(streaming_maxburst), M(streaming_interval),
		M(report_length), M(protocol),		  M(subclass),		 M(pattern),
		M(bulk_buflen),	  M(bulk_qlen),		  M(iso_qlen),		 M(qlen),
		M(isoc_interval), M(isoc_maxpacket),	  M(isoc_mult),		 M(isoc_maxburst),
		M(stall),	  M(num_buffers),	  M(nluns),
#undef M
	};
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(all); i++) {
		bool is_known = false;

		for (j = 0; known[j]; j++)
			if (!strcmp(known[j], all[i].name))
				is_known = true;
		if (!is_known && *(const int64_t *)((const char *)f + all[i].off) != UNK)
			fail_msg("%s: %s is set, expected unknown", f->name, all[i].name);
	}
}

static void test_speed_rank(void **state)
{
	static const struct {
		const char *s;
		int rank;
	} cases[] = {
		{"UNKNOWN", 0},	    {NULL, 0},		{"warp-speed", 0},	{"low-speed", 1},
		{"full-speed", 2},  {"high-speed", 3},	{"wireless", 3},	{"super-speed", 4},
		{"super-speed-plus", 5}, {"Super-Speed", 0}, {"", 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (udc_speed_rank(cases[i].s) != cases[i].rank)
			fail_msg("rank(%s) = %d", cases[i].s ? cases[i].s : "NULL",
				 udc_speed_rank(cases[i].s));
}

static void board_gadget(const struct gadget_facts *g)
{
	const struct gadget_dev *d = &g->gadgets[0];

	assert_true(g->configfs);
	assert_int_equal(g->ngadgets, 1);
	STR(d->name, "g1");
	STR(d->udc, "fc000000.usb");
	STR(d->id_vendor, "0x1d6b");
	STR(d->id_product, "0x0104");
	STR(d->bcd_usb, "0x0320");
	STR(d->bcd_device, "0x0100");
	STR(d->max_speed, "super-speed-plus");
	/* US English chosen over the German strings */
	STR(d->manufacturer, "Radxa");
	STR(d->product, "ROCK 5B composite");
	STR(d->serialnumber, "a1b2c3d4");
	INT(d->nconfigs, 2);
	INT(d->nfunctions, 5);
	assert_ptr_equal(gadget_on_udc(g, "fc000000.usb"), d);
	assert_null(gadget_on_udc(g, "other.usb"));
	assert_null(gadget_on_udc(g, NULL));

	assert_int_equal(g->nconfigs, 2);
	STR(g->configs[0].gadget, "g1");
	STR(g->configs[0].name, "c.1");
	STR(g->configs[0].label, "storage+ncm+uvc+hid");
	STR(g->configs[0].bm_attributes, "0x80");
	INT(g->configs[0].max_power_ma, 500);
	/* link names are free: "f2" points at ncm.usb0; listed in link-name order */
	STR(g->configs[0].functions, "ncm.usb0 hid.0 mass_storage.0 uvc.0");
	STR(g->configs[1].name, "c.2");
	STR(g->configs[1].label, NULL); /* strings/ without a language */
	STR(g->configs[1].bm_attributes, "0xc0");
	INT(g->configs[1].max_power_ma, 250);
	STR(g->configs[1].functions, "SourceSink.0");
}

static void board_functions(const struct gadget_facts *g)
{
	const struct gadget_function *f = g->functions;

	assert_int_equal(g->nfunctions, 5);
	STR(f[0].name, "SourceSink.0");
	STR(f[0].type, "SourceSink");
	STR(f[0].instance, "0");
	STR(f[0].configs, "c.2");
	INT(f[0].pattern, 0);
	INT(f[0].bulk_buflen, 4096);
	INT(f[0].bulk_qlen, 32);
	INT(f[0].iso_qlen, 8);
	INT(f[0].isoc_interval, 1);
	INT(f[0].isoc_maxpacket, 1024);
	INT(f[0].isoc_mult, 0);
	INT(f[0].isoc_maxburst, 0);
	STR(f[0].settings, "pattern=0 bulk_buflen=4096 bulk_qlen=32 iso_qlen=8 isoc_interval=1 "
			   "isoc_maxpacket=1024 isoc_mult=0 isoc_maxburst=0");
	assert_fn_ints(&f[0], (const char *const[]){"pattern", "bulk_buflen", "bulk_qlen",
						     "iso_qlen", "isoc_interval", "isoc_maxpacket",
						     "isoc_mult", "isoc_maxburst", NULL});

	STR(f[1].name, "hid.0");
	STR(f[1].configs, "c.1");
	INT(f[1].report_length, 8);
	INT(f[1].protocol, 1);
	INT(f[1].subclass, 1);
	STR(f[1].settings, "report_length=8 protocol=1 subclass=1");
	assert_fn_ints(&f[1], (const char *const[]){"report_length", "protocol", "subclass", NULL});

	STR(f[2].name, "mass_storage.0");
	STR(f[2].type, "mass_storage");
	INT(f[2].stall, 1);
	INT(f[2].nluns, 2);
	STR(f[2].settings, "stall=1 luns=2");
	assert_fn_ints(&f[2], (const char *const[]){"stall", "nluns", NULL});

	STR(f[3].name, "ncm.usb0");
	STR(f[3].type, "ncm");
	STR(f[3].instance, "usb0");
	STR(f[3].ifname, "usb0");
	INT(f[3].qmult, 5);
	STR(f[3].dev_addr, "ae:23:5c:11:8b:01");
	STR(f[3].host_addr, "ae:23:5c:11:8b:02");
	STR(f[3].settings, "ifname=usb0 qmult=5 dev_addr=ae:23:5c:11:8b:01 "
			   "host_addr=ae:23:5c:11:8b:02");
	assert_fn_ints(&f[3], (const char *const[]){"qmult", NULL});

	STR(f[4].name, "uvc.0");
	INT(f[4].streaming_maxpacket, 3072);
	INT(f[4].streaming_maxburst, 0);
	INT(f[4].streaming_interval, 1);
	STR(f[4].settings, "streaming_maxpacket=3072 streaming_maxburst=0 streaming_interval=1");
	assert_fn_ints(&f[4], (const char *const[]){"streaming_maxpacket", "streaming_maxburst",
						     "streaming_interval", NULL});
}

static void board_luns_udcs(const struct gadget_facts *g)
{
	const struct udc_info *u = &g->udcs[0];

	assert_int_equal(g->nluns, 2);
	STR(g->luns[0].gadget, "g1");
	STR(g->luns[0].function, "mass_storage.0");
	STR(g->luns[0].name, "lun.0");
	STR(g->luns[0].file, "/srv/usb/disk.img");
	INT(g->luns[0].ro, 0);
	INT(g->luns[0].removable, 1);
	INT(g->luns[0].cdrom, 0);
	INT(g->luns[0].nofua, 0);
	STR(g->luns[1].name, "lun.1");
	STR(g->luns[1].file, NULL); /* ejected */
	INT(g->luns[1].ro, 1);
	INT(g->luns[1].removable, 1);
	INT(g->luns[1].cdrom, 1);
	INT(g->luns[1].nofua, 1);

	assert_int_equal(g->nudcs, 1);
	STR(u->name, "fc000000.usb");
	STR(u->state, "configured");
	STR(u->function, "g1");
	STR(u->current_speed, "high-speed");
	STR(u->maximum_speed, "super-speed");
	INT(u->is_selfpowered, 0);
	INT(u->is_otg, 0);
	INT(u->is_a_peripheral, 0);
	INT(u->b_hnp_enable, 0);
	INT(u->a_hnp_support, 0);
	INT(u->a_alt_hnp_support, 0);
}

static void test_board(void **state)
{
	struct gadget_facts g;

	(void)state;
	load_fixture("board");
	assert_int_equal(gadget_probe(&g), 0);
	board_gadget(&g);
	board_functions(&g);
	board_luns_udcs(&g);
	gadget_facts_release(&g);
	assert_int_equal(g.ngadgets + g.nfunctions + g.nudcs, 0);
	gadget_facts_release(&g); /* twice: harmless */
	sysroot_set(NULL);
}

static void test_pc(void **state)
{
	struct gadget_facts g;

	(void)state;
	load_fixture("pc");
	assert_int_equal(gadget_probe(&g), 0);
	assert_false(g.configfs);
	assert_int_equal(g.ngadgets + g.nconfigs + g.nfunctions + g.nluns + g.nudcs, 0);
	gadget_facts_release(&g);
	sysroot_set(NULL);
}

static void odd_gadgets(const struct gadget_facts *g)
{
	const struct gadget_dev *d;
	const struct gadget_function *f = g->functions;

	assert_true(g->configfs);
	assert_int_equal(g->ngadgets, 2);
	/* a file where a gadget directory should be: listed, all unknown */
	d = &g->gadgets[0];
	STR(d->name, "g2");
	STR(d->udc, NULL);
	STR(d->id_vendor, NULL);
	STR(d->product, NULL);
	INT(d->nconfigs, UNK);
	INT(d->nfunctions, UNK);
	d = &g->gadgets[1];
	STR(d->name, "g_broken");
	STR(d->udc, NULL);	  /* empty: unbound */
	STR(d->id_vendor, NULL);  /* missing */
	STR(d->id_product, NULL); /* a directory */
	STR(d->manufacturer, "Firma"); /* only German strings: taken */
	STR(d->product, NULL);
	INT(d->nconfigs, 1);
	INT(d->nfunctions, 3);

	assert_int_equal(g->nconfigs, 1);
	INT(g->configs[0].max_power_ma, UNK); /* "lots" */
	STR(g->configs[0].bm_attributes, NULL);
	STR(g->configs[0].label, NULL);
	STR(g->configs[0].functions, "nope.0"); /* a dangling link still names its target */

	assert_int_equal(g->nfunctions, 3);
	STR(f[0].name, "mass_storage.0");
	STR(f[0].configs, NULL);
	INT(f[0].stall, UNK);
	INT(f[0].nluns, 1);
	STR(f[0].settings, "luns=1");
	STR(f[1].name, "ncm.usb0");
	STR(f[1].ifname, NULL);	  /* a directory */
	INT(f[1].qmult, UNK);	  /* "x" */
	STR(f[1].dev_addr, NULL); /* empty */
	STR(f[1].settings, NULL);
	STR(f[2].name, "weird");
	STR(f[2].type, "weird");
	STR(f[2].instance, NULL);
	STR(f[2].settings, NULL);
	assert_fn_ints(&f[2], (const char *const[]){NULL});

	/* lun.0 is a file: the LUN is listed, nothing in it readable */
	assert_int_equal(g->nluns, 1);
	STR(g->luns[0].name, "lun.0");
	STR(g->luns[0].file, NULL);
	INT(g->luns[0].ro, UNK);
	INT(g->luns[0].nofua, UNK);
}

static void odd_udcs(const struct gadget_facts *g)
{
	const struct udc_info *u = g->udcs;

	assert_int_equal(g->nudcs, 3);
	STR(u[0].name, "ci_hdrc.0");
	STR(u[0].current_speed, "full-speed");
	STR(u[0].maximum_speed, "high-speed");
	STR(u[0].function, NULL);
	INT(u[0].is_otg, UNK);
	/* a dangling class link: the UDC is named, nothing else known */
	STR(u[1].name, "dummy_udc.0");
	STR(u[1].state, NULL);
	STR(u[1].current_speed, NULL);
	INT(u[1].is_selfpowered, UNK);
	STR(u[2].name, "musb-hdrc.0");
	STR(u[2].state, "configured");
	STR(u[2].current_speed, "warp-speed"); /* kept as read; ranks as unknown */
	INT(u[2].is_selfpowered, UNK);	       /* "2" */
	INT(u[2].is_otg, 1);
	assert_null(gadget_on_udc(g, "musb-hdrc.0"));
}

static void test_odd(void **state)
{
	struct gadget_facts g;

	(void)state;
	load_fixture("odd");
	assert_int_equal(gadget_probe(&g), 0);
	odd_gadgets(&g);
	odd_udcs(&g);
	gadget_facts_release(&g);
	sysroot_set(NULL);
}

/* an empty root: nothing at all, nothing crashes */
static void test_empty(void **state)
{
	static const char doc[] = "{\"usbperf_snapshot\": 1, \"entries\": []}";
	struct gadget_facts g;

	(void)state;
	assert_int_equal(snapshot_load_buf(doc, strlen(doc), NULL), 0);
	assert_int_equal(gadget_probe(&g), 0);
	assert_false(g.configfs);
	assert_int_equal(g.ngadgets + g.nudcs, 0);
	gadget_facts_release(&g);
	sysroot_set(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_speed_rank), cmocka_unit_test(test_board),
		cmocka_unit_test(test_pc),	   cmocka_unit_test(test_odd),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
