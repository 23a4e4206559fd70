// SPDX-License-Identifier: MIT
/*
 * Option tables (cmd/opt): every command's table is complete and
 * consistent, and 'CMD -h' and the man page's items come out as designed.
 */
#include "unit.h"

#include "classes/disk/disk.h"
#include "classes/bulk/bulk.h"
#include "classes/mtp/mtp.h"
#include "classes/video/video.h"
#include "platform/usb/limits.h"
#include "cmd/opt/tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what F wrote, as a string the caller frees */
static char *captured(void (*print)(FILE *, const struct cmd_opt *), const struct cmd_opt *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	print(f, t);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static bool is_letter(int key)
{
	return key > ' ' && key < 127;
}

/* every table: names, keys and help present and unique, help lines that fit 100 columns */
static void test_tables_complete(void **state)
{
	const struct cmd_opt_table *tab;

	(void)state;
	assert_non_null(cmd_opt_tables[0].command);
	for (tab = cmd_opt_tables; tab->command; tab++) {
		const struct cmd_opt *o, *p;
		unsigned n = 0;

		for (o = tab->opts; o->name || o->help; o++) {
			const char *line;

			if (!o->name)
				continue;
			if (!o->help || !*o->help)
				fail_msg("%s --%s: no help", tab->command, o->name);
			if (!is_letter(o->key) && o->key < OPT_KEY)
				fail_msg("%s --%s: key %d is neither a letter nor an id", tab->command,
					 o->name, o->key);
			if (o->key == 'h' && strcmp(tab->command, "global"))
				fail_msg("%s --%s: -h is help's", tab->command, o->name);
			if (o->flags & OPT_AGAIN) {
				/* described again: the same option, listed before */
				p = opt_find(tab->opts, o->key);
				if (!p || p >= o || strcmp(p->name, o->name) ||
				    (p->arg == NULL) != (o->arg == NULL))
					fail_msg("%s --%s: listed again, not before", tab->command,
						 o->name);
			} else
				n++;
			for (p = tab->opts; p != o && !(o->flags & OPT_AGAIN); p++)
				if (p->name && !(p->flags & OPT_AGAIN) &&
				    (!strcmp(p->name, o->name) ||
				     (p->key == o->key && !(o->flags & OPT_HIDDEN))))
					fail_msg("%s: --%s and --%s share a name or key", tab->command,
						 p->name, o->name);
			for (line = o->help; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
				if (strcspn(line, "\n") > 100 - 22)
					fail_msg("%s --%s: a help line over 78 columns", tab->command,
						 o->name);
			/* completion values: of an option that takes one, words, a list marked */
			if (o->values && (!o->arg || !*o->values || strstr(o->values, "  ") ||
					  o->values[0] == ' ' || o->values[0] == '@'))
				fail_msg("%s --%s: values '%s' of no value, or not words",
					 tab->command, o->name, o->values ? o->values : "");
			if ((o->flags & OPT_LIST) && !o->values)
				fail_msg("%s --%s: a list with no values", tab->command, o->name);
			if (o->help[strlen(o->help) - 1] == '\n' || (o->man && !*o->man))
				fail_msg("%s --%s: a help ending in a newline or an empty man item",
					 tab->command, o->name);
		}
		assert_int_equal(opt_count(tab->opts), n);
		assert_true(n > 0);
	}
}

/* the completion's answer: values a line each, a list marked first, paths by their kind */
static void test_completion_values(void **state)
{
	static const struct cmd_opt t[] = {
	    {"tests", 'T', "LIST", "help", OPT_LIST, .values = "seq-read rand-read"},
	    {"engine", OPT_KEY, "NAME", "help", 0, .values = "psync null"},
	    {"scratch", OPT_KEY + 1, "DIR", "help", 0},
	    {"html", OPT_KEY + 2, "FILE", "help", 0},
	    {"qd", OPT_KEY + 3, "N", "help", 0},
	    OPT_END,
	};
	static const struct {
		const char *option, *want;
	} cases[] = {
	    {"--tests", "@list\nseq-read\nrand-read\n"}, {"-T", "@list\nseq-read\nrand-read\n"},
	    {"--engine", "psync\nnull\n"},		      {"--scratch", "@dir\n"},
	    {"--html", "@file\n"},			      {"--qd", ""},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		const struct cmd_opt *o = opt_lookup(t, cases[i].option);

		assert_non_null(f);
		assert_non_null(o);
		opt_print_values(f, o);
		assert_int_equal(fclose(f), 0);
		assert_string_equal(buf, cases[i].want);
		free(buf);
	}
	assert_null(opt_lookup(t, "--test"));
	assert_null(opt_lookup(t, "-X"));
	assert_string_equal(opt_path_kind("DIR|FILE"), "file");
	assert_null(opt_path_kind("SIZE"));
}

/* a table's figures are the code's: limits, depths, repeats, buffers */
static void test_disk_limits_said(void **state)
{
	const struct cmd_opt *qd = opt_find(disk_options, DISK_O_QD);
	char want[32];

	(void)state;
	assert_non_null(qd);
	snprintf(want, sizeof(want), "1-%u ", DISK_MAX_QD);
	assert_non_null(strstr(qd->help, want));
	assert_null(opt_find(disk_options, 'h'));
	/* limits' assumed header and MJPEG ratio */
	snprintf(want, sizeof(want), "a %d B\n", USB_UVC_HEADER_BYTES);
	assert_non_null(strstr(limits_options[1].help, want));
	snprintf(want, sizeof(want), "(default %.0f)", USB_UVC_MJPEG_RATIO);
	assert_non_null(strstr(opt_find(limits_options, LIMITS_O_MJPEG_RATIO)->help, want));
	/* the largest depth, repeat count and buffer count the commands take */
	snprintf(want, sizeof(want), "1..%u)", BULK_MAX_DEPTH);
	assert_non_null(strstr(opt_find(bulk_options, BULK_O_DEPTH)->help, want));
	snprintf(want, sizeof(want), "1..%u)", MTP_MAX_REPEAT);
	assert_non_null(strstr(opt_find(mtp_options, MTP_O_REPEAT)->help, want));
	snprintf(want, sizeof(want), "1-%d ", VIDEO_MAX_BUFFERS);
	assert_non_null(strstr(opt_find(video_options, VIDEO_O_BUFFERS)->help, want));
	/* an old spelling is the same key, found under its new name */
	assert_string_equal(opt_find(limits_options, LIMITS_O_PIXEL)->name, "pixel-format");
}

static const struct cmd_opt sample[] = {
    {"size", 's', "SIZE", "how much\nin bytes", 0},
    {"a-rather-long-option", OPT_KEY, "NAME|PATH", "wraps below", 0},
    OPT_TEXT("a group:"),
    {"flag", OPT_KEY + 1, NULL, "-1 is .5 less", 0},
    {"size", 's', "SIZE", "again, in this group's words", OPT_AGAIN},
    {"old-flag", OPT_KEY + 2, NULL, "not shown", OPT_HIDDEN},
    {"rich", OPT_KEY + 3, NULL, "plain", 0 OPT_MAN(".B roff\nas given")},
    OPT_END,
};

static void test_usage_layout(void **state)
{
	char *s = captured(opt_usage, sample);

	(void)state;
	assert_string_equal(s, "options:\n"
			       "  -s, --size SIZE     how much\n"
			       "                      in bytes\n"
			       "  --a-rather-long-option NAME|PATH\n"
			       "                      wraps below\n"
			       "\n"
			       "a group:\n"
			       "  --flag              -1 is .5 less\n"
			       "  -s, --size SIZE     again, in this group's words\n"
			       "  --rich              plain\n");
	free(s);
	assert_int_equal(opt_count(sample), 5);
	assert_string_equal(opt_find(sample, OPT_KEY + 2)->name, "old-flag");
	assert_null(opt_find(sample, 'x'));
}

static void test_roff_items(void **state)
{
	char *s = captured(opt_roff, sample);

	(void)state;
	assert_string_equal(s, ".TP\n"
			       "\\fB\\-s\\fR, \\fB\\-\\-size\\fR \\fISIZE\\fR\n"
			       "How much\n"
			       "in bytes.\n"
			       ".TP\n"
			       "\\fB\\-\\-a\\-rather\\-long\\-option\\fR \\fINAME\\fR|\\fIPATH\\fR\n"
			       "Wraps below.\n"
			       ".PP\n"
			       "A group:\n"
			       ".TP\n"
			       "\\fB\\-\\-flag\\fR\n"
			       "\\-1 is .5 less.\n"
			       ".TP\n"
			       "\\fB\\-s\\fR, \\fB\\-\\-size\\fR \\fISIZE\\fR\n"
			       "Again, in this group's words.\n"
			       ".TP\n"
			       "\\fB\\-\\-rich\\fR\n"
			       ".B roff\n"
			       "as given\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tables_complete),
	    cmocka_unit_test(test_disk_limits_said),
	    cmocka_unit_test(test_usage_layout),
	    cmocka_unit_test(test_roff_items),
	    cmocka_unit_test(test_completion_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
