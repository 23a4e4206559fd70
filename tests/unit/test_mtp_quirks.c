// SPDX-License-Identifier: MIT
/*
 * classes/mtp/quirks.c and what reports it: storage figures that cannot be
 * true, how a send failed, where the files go next, and the findings and
 * device rows that say so.
 */
#include "unit.h"
#include "classes/mtp/fields.h"
#include "classes/mtp/mtp.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT64_MAX

static void test_storage_judge(void **state)
{
	static const struct {
		uint64_t capacity, free_bytes;
		bool anomaly;
		uint64_t shown_capacity, shown_free, room;
		const char *why; /* a part of it */
	} cases[] = {
	    /* figures that can be true: printed, the free space is the room */
	    {64ULL << 30, 10ULL << 30, false, 64ULL << 30, 10ULL << 30, 10ULL << 30, ""},
	    {64ULL << 30, 64ULL << 30, false, 64ULL << 30, 64ULL << 30, 64ULL << 30, ""},
	    {64ULL << 30, 0, false, 64ULL << 30, 0, 0, ""},
	    {MTP_STORAGE_MAX, MTP_STORAGE_MAX, false, MTP_STORAGE_MAX, MTP_STORAGE_MAX,
	     MTP_STORAGE_MAX, ""},
	    /* the field report's device: free above capacity; the capacity bounds the room */
	    {270553174016ULL, 1346903730519271ULL, true, NONE, NONE, 270553174016ULL,
	     "1346903730519271 B free of a capacity of 270553174016 B reported"},
	    {1000, 1001, true, NONE, NONE, 1000, "free space cannot exceed capacity"},
	    /* a capacity of 0: nothing bounds the room */
	    {0, 5ULL << 30, true, NONE, NONE, NONE,
	     "a capacity of 0 B reported, with 5368709120 B free"},
	    {0, 0, true, NONE, NONE, NONE, "a capacity of 0 B reported"},
	    {0, NONE, true, NONE, NONE, NONE, "a capacity of 0 B reported"},
	    /* above what any device holds */
	    {MTP_STORAGE_MAX + 1, 1, true, NONE, NONE, NONE, "more than any MTP device holds"},
	    {NONE - 1, NONE - 1, true, NONE, NONE, NONE, "a capacity of 18446744073709551614 B"},
	    {NONE, MTP_STORAGE_MAX + 1, true, NONE, NONE, NONE, "B free reported, more than"},
	    /* libmtp's "not reported": no anomaly, nothing printed, the capacity bounds */
	    {NONE, NONE, false, NONE, NONE, NONE, ""},
	    {64ULL << 30, NONE, false, 64ULL << 30, NONE, 64ULL << 30, ""},
	    {NONE, 10ULL << 30, false, NONE, 10ULL << 30, 10ULL << 30, ""},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct mtp_storage_judgement j;

		print_message("capacity %llu free %llu\n", (unsigned long long)cases[i].capacity,
			      (unsigned long long)cases[i].free_bytes);
		mtp_storage_judge(cases[i].capacity, cases[i].free_bytes, &j);
		assert_int_equal(j.anomaly, cases[i].anomaly);
		assert_true(j.capacity == cases[i].shown_capacity);
		assert_true(j.free_bytes == cases[i].shown_free);
		assert_true(j.room == cases[i].room);
		if (cases[i].anomaly)
			assert_non_null(strstr(j.why, cases[i].why));
		else
			assert_string_equal(j.why, "");
	}
}

static void test_send_fault(void **state)
{
	static const struct {
		struct mtp_send_outcome o;
		enum mtp_send_fault fault;
	} cases[] = {
	    /* the responder: every byte went, the send answered OK, the re-read failed */
	    {{.made = true, .all_taken = true, .accepted = true}, MTP_FAULT_REREAD},
	    /* the device refused the data (StoreFull after it): the object is there, partial */
	    {{.made = true, .all_taken = true}, MTP_FAULT_DATA},
	    {{.made = true, .all_taken = false, .accepted = true}, MTP_FAULT_DATA},
	    {{.made = false}, MTP_FAULT_REFUSED},
	    {{.made = false, .all_taken = true, .accepted = true}, MTP_FAULT_REFUSED},
	    /* no quirk: a signal, an unplug, whatever else was true */
	    {{.stopped = true, .made = true, .all_taken = true, .accepted = true},
	     MTP_FAULT_STOPPED},
	    {{.gone = true, .made = true}, MTP_FAULT_GONE},
	    {{.gone = true, .stopped = true}, MTP_FAULT_STOPPED},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(mtp_send_fault_of(&cases[i].o), cases[i].fault);
}

static void test_next_place(void **state)
{
	static const struct {
		enum mtp_place at;
		bool proven;
		enum mtp_send_fault fault;
		enum mtp_place next;
	} cases[] = {
	    /* folder, then the root, then a folder already there, then the failure stands */
	    {MTP_PLACE_FOLDER, false, MTP_FAULT_REREAD, MTP_PLACE_ROOT},
	    {MTP_PLACE_FOLDER, false, MTP_FAULT_REFUSED, MTP_PLACE_ROOT},
	    {MTP_PLACE_FOLDER, false, MTP_FAULT_DATA, MTP_PLACE_ROOT},
	    {MTP_PLACE_ROOT, false, MTP_FAULT_REFUSED, MTP_PLACE_EXISTING},
	    {MTP_PLACE_ROOT, false, MTP_FAULT_REREAD, MTP_PLACE_EXISTING},
	    {MTP_PLACE_EXISTING, false, MTP_FAULT_DATA, MTP_PLACE_NONE},
	    /* a place that took files before is not the cause */
	    {MTP_PLACE_FOLDER, true, MTP_FAULT_DATA, MTP_PLACE_NONE},
	    {MTP_PLACE_ROOT, true, MTP_FAULT_REREAD, MTP_PLACE_NONE},
	    /* a signal or a disconnect is no reason to look elsewhere */
	    {MTP_PLACE_FOLDER, false, MTP_FAULT_STOPPED, MTP_PLACE_NONE},
	    {MTP_PLACE_FOLDER, false, MTP_FAULT_GONE, MTP_PLACE_NONE},
	    {MTP_PLACE_NONE, false, MTP_FAULT_DATA, MTP_PLACE_NONE},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(mtp_next_place(cases[i].at, cases[i].proven, cases[i].fault),
				 cases[i].next);
	assert_string_equal(mtp_place_name(MTP_PLACE_FOLDER), "folder");
	assert_string_equal(mtp_place_name(MTP_PLACE_ROOT), "root");
	assert_string_equal(mtp_place_name(MTP_PLACE_EXISTING), "existing-folder");
	assert_string_equal(mtp_place_name(MTP_PLACE_NONE), "none");
	assert_string_equal(mtp_place_name((enum mtp_place)-1), "none");
}

static void test_storage_findings(void **state)
{
	struct finding_list fl = FINDING_LIST_INIT;

	(void)state;
	mtp_storage_findings("1-1", "Internal", 0x10001, 270553174016ULL, 1346903730519271ULL, &fl);
	assert_int_equal(fl.n, 1);
	assert_string_equal(fl.v[0].id, "mtp.storage_figures");
	assert_string_equal(fl.v[0].severity, "warn");
	assert_non_null(
	    strstr(fl.v[0].message, "storage 'Internal' reports figures that cannot be true"));
	assert_non_null(strstr(fl.v[0].message, "checked against its capacity alone"));
	assert_non_null(strstr(fl.v[0].evidence, "storage 0x00010001: MaxCapacity 270553174016 B, "
						 "FreeSpaceInBytes 1346903730519271 B"));
	finding_list_release(&fl);
	mtp_storage_findings("1-1", "Internal", 0x10001, 0, 10, &fl);
	assert_int_equal(fl.n, 1);
	assert_non_null(strstr(fl.v[0].message, "checked against nothing"));
	finding_list_release(&fl);
	/* figures that can be true, or none given: nothing to say */
	mtp_storage_findings("1-1", "Internal", 0x10001, 100, 50, &fl);
	mtp_storage_findings("1-1", NULL, 0x10001, UINT64_MAX, UINT64_MAX, &fl);
	assert_int_equal(fl.n, 0);
	finding_list_release(&fl);
}

static void test_path_findings(void **state)
{
	const char *why =
	    "send: LIBMTP_Send_File_From_Handler(): Could not retrieve updated metadata.";
	struct finding_list fl = FINDING_LIST_INIT;
	struct mtp_path p;

	(void)state;
	/* the folder as asked: nothing to say */
	p = (struct mtp_path){.place = MTP_PLACE_FOLDER, .folder = "usbperf"};
	mtp_path_findings("1-1", "usbperf", &p, &fl);
	p = (struct mtp_path){.place = MTP_PLACE_NONE};
	mtp_path_findings("1-1", "usbperf", &p, &fl);
	assert_int_equal(fl.n, 0);
	/* tried there, but no file went: the failure says it, not a finding */
	p = (struct mtp_path){.place = MTP_PLACE_ROOT, .why = why};
	mtp_path_findings("1-1", "usbperf", &p, &fl);
	assert_int_equal(fl.n, 0);
	p.proven = true;
	mtp_path_findings("1-1", "usbperf", &p, &fl);
	assert_int_equal(fl.n, 1);
	assert_string_equal(fl.v[0].id, "mtp.send_path");
	assert_non_null(strstr(fl.v[0].message, "the folder 'usbperf' did not take the files"));
	assert_non_null(strstr(fl.v[0].message, "they went to the storage's root"));
	assert_string_equal(fl.v[0].evidence, why);
	p = (struct mtp_path){
	    .place = MTP_PLACE_EXISTING, .folder = "DCIM", .proven = true, .why = why};
	mtp_path_findings("1-2", "usbperf", &p, &fl);
	assert_int_equal(fl.n, 2);
	assert_non_null(strstr(fl.v[1].message, "the folder 'DCIM', already on the device"));
	p = (struct mtp_path){
	    .place = MTP_PLACE_FOLDER, .folder = "usbperf", .reread = true, .proven = true};
	mtp_path_findings("1-3", "usbperf", &p, &fl);
	assert_int_equal(fl.n, 3);
	assert_true(
	    !strncmp(fl.v[2].message, "the device gave handles it could not read back", 46));
	assert_non_null(strstr(fl.v[2].message, "found every object by its name"));
	finding_list_release(&fl);
}

/* the device row: impossible figures never as facts, the reported ones kept apart */
static void test_device_row(void **state)
{
	struct mtp_device_row d = {0};
	struct mtp_path p = {.place = MTP_PLACE_EXISTING, .folder = "DCIM", .why = "send: x"};

	(void)state;
	mtp_device_row_storage(&d, 270553174016ULL, 1346903730519271ULL);
	assert_true(d.capacity == U64_UNKNOWN && d.free_bytes == U64_UNKNOWN);
	assert_true(d.reported_capacity == 270553174016ULL);
	assert_true(d.reported_free == 1346903730519271ULL);
	assert_non_null(d.storage_anomaly);
	mtp_device_row_storage(&d, 1000, 10);
	assert_true(d.capacity == 1000 && d.free_bytes == 10);
	assert_null(d.storage_anomaly);
	assert_int_equal(mtp_device_row_path(&d, &p), 0);
	assert_string_equal(d.send_path, "existing-folder");
	assert_string_equal(d.send_folder, "DCIM");
	assert_string_equal(d.send_path_why, "send: x");
	assert_false(d.handles_reread);
	p = (struct mtp_path){.place = MTP_PLACE_NONE};
	assert_int_equal(mtp_device_row_path(&d, &p), 0);
	assert_null(d.send_path);
	assert_null(d.send_folder);
	mtp_device_row_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_storage_judge), cmocka_unit_test(test_send_fault),
	    cmocka_unit_test(test_next_place),	  cmocka_unit_test(test_storage_findings),
	    cmocka_unit_test(test_path_findings), cmocka_unit_test(test_device_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
