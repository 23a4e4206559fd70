// SPDX-License-Identifier: MIT
/*
 * The class table (run/class.h): every class run walks is complete and
 * consistent, so report, compare, check and the store can name its figures
 * without knowing the class; and the adapters' helper kit (class_kit.h).
 */
#include "unit.h"
#include "run/class_kit.h"
#include "run/run_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* every problem said, not only the first: a table with two gaps shows both */
static unsigned problems;
#define problem(...) (print_error(__VA_ARGS__), print_error("\n"), problems++)

static bool set(const char *s)
{
	return s && *s;
}

/* one metric of class c: named, with a unit and a label, and flags that agree */
static void check_metric(const struct measure_class *c, const struct class_metric *m)
{
	if (!set(m->key)) {
		problem("%s: a metric without a key", c->name);
		return;
	}
	if (!set(m->unit) || !set(m->label))
		problem("%s: metric '%s' without a unit or a label", c->name, m->key);
	/* a histogram's bin is drawn, never a rate's bar */
	if (m->distribution && m->rate)
		problem("%s: metric '%s' both a distribution and a rate", c->name, m->key);
	/* a tail is set by the slowest events: lower is better */
	if (m->tail && m->higher_is_better)
		problem("%s: tail '%s' marked higher is better", c->name, m->key);
	if (m->rate && !m->higher_is_better)
		problem("%s: rate '%s' marked lower is better", c->name, m->key);
	/* the CPU chart draws % of one CPU */
	if (m->cpu_use && (!m->unit || strcmp(m->unit, UNIT_PCT_ONE_CPU)))
		problem("%s: CPU use '%s' in '%s'", c->name, m->key, m->unit);
	/* the table's entry is what a row of this key of this class resolves to */
	if (run_class_metric(c, m->key) != m)
		problem("%s: metric key '%s' twice", c->name, m->key);
}

static bool known_limiter(const char *l)
{
	static const char *const all[] = {
	    RUN_LIMITER_BUS,	   RUN_LIMITER_MEDIUM,	   RUN_LIMITER_CPU,
	    RUN_LIMITER_CONTROLLER, RUN_LIMITER_HUB,	   RUN_LIMITER_PAGE_CACHE,
	    RUN_LIMITER_EMULATION,  RUN_LIMITER_MODE,	   RUN_LIMITER_CAMERA,
	    RUN_LIMITER_DEVICE,	   RUN_LIMITER_UNKNOWN,
	};

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (!strcmp(l, all[i]))
			return true;
	return false;
}

/* a class's finding weights: "area.what" ids, once each, a weight 0-100, a known limiter */
static void check_weights(const struct measure_class *c)
{
	if (c->nfinding_weights && !c->finding_weights)
		problem("%s: %zu finding weights and no table", c->name, c->nfinding_weights);
	for (size_t i = 0; c->finding_weights && i < c->nfinding_weights; i++) {
		const struct class_finding_weight *w = &c->finding_weights[i];

		if (!set(w->id) || !strchr(w->id, '.')) {
			problem("%s: finding weight %zu without an 'area.what' id", c->name, i);
			continue;
		}
		if (w->weight < 0 || w->weight > 100)
			problem("%s: finding '%s' weighs %d, not 0-100", c->name, w->id, w->weight);
		if (w->limiter && !known_limiter(w->limiter))
			problem("%s: finding '%s' states limiter '%s', not one of run's", c->name,
				w->id, w->limiter);
		for (size_t j = 0; j < i; j++)
			if (set(c->finding_weights[j].id) && !strcmp(c->finding_weights[j].id, w->id))
				problem("%s: finding '%s' weighed twice", c->name, w->id);
	}
}

/* its run options: named, with help and a set hook, words 0-2, a struct that fits */
static void check_options(const struct measure_class *c)
{
	if (c->noptions && (!c->options || !c->opts_size))
		problem("%s: %zu options and no table or struct", c->name, c->noptions);
	if (c->opts_size > RUN_CLASS_OPTS_MAX)
		problem("%s: options struct of %zu B, over %d", c->name, c->opts_size,
			RUN_CLASS_OPTS_MAX);
	for (size_t i = 0; c->options && i < c->noptions; i++) {
		const struct class_option *o = &c->options[i];

		if (!set(o->name) || !set(o->help) || !o->set)
			problem("%s: option %zu without a name, help or set hook", c->name, i);
		if (o->nargs > 2 || (o->nargs > 0) != set(o->args))
			problem("%s: option '%s' takes %u words, says '%s'", c->name,
				o->name ? o->name : "?", o->nargs, o->args ? o->args : "");
	}
}

static void check_class(const struct measure_class *c)
{
	check_weights(c);
	check_options(c);
	if (!set(c->name))
		problem("class %p without a name", (const void *)c);
	/* run calls these unconditionally (run.c) */
	if (!c->measure)
		problem("%s: no measure hook", c->name);
	if (c->claims_rest && !c->claims)
		problem("%s: takes the rest of the targets without a claims hook", c->name);
	if (c->nmetrics == 0 || !c->metrics)
		problem("%s: records no metric", c->name);
	for (size_t i = 0; i < c->nmetrics; i++)
		check_metric(c, &c->metrics[i]);
	if (c->nheadline && !c->headline)
		problem("%s: %zu headlines and no table", c->name, c->nheadline);
	for (size_t i = 0; i < c->nheadline; i++)
		if (!c->headline[i].prefix || !run_class_metric(c, c->headline[i].metric))
			problem("%s: headline '%s' is not a metric of the class", c->name,
				c->headline[i].metric ? c->headline[i].metric : "(null)");
	/* its own results table in run's output: titled, keyed, sized */
	if (c->row_desc && (!set(c->row_title) || !set(c->row_key) || !c->row_size))
		problem("%s: a results table without a title, a key or a row size", c->name);
	if (!c->row_desc && (c->row_title || c->row_key || c->row_size))
		problem("%s: a results table's title, key or size without its fields", c->name);
}

static int bad_set(void *opts, char *const *words, char **ret_why)
{
	(void)opts;
	(void)words;
	(void)ret_why;
	return 0;
}

/* the checks above find what a class left out: a test that cannot fail proves nothing */
static void test_incomplete_caught(void **state)
{
	static const struct class_metric bad_metrics[] = {
	    CLASS_RATE("mb_s", "MB/s", "rate"),
	    CLASS_RATE("mb_s", "MB/s", "again"),
	    {"ms", NULL, "no unit", false, false, false, false, NULL, NULL, false},
	    {"p99", "us", "a tail", true, false, false, true, NULL, NULL, false},
	    {"cpu", "%", "cpu", false, false, false, false, "whose", NULL, false},
	};
	static const struct class_headline bad_headline[] = {{"", "fps"}};
	static const struct class_option bad_options[] = {
	    {"flag", "WORD", 0, false, "a flag that says it takes a word", bad_set},
	    {"nohelp", "X", 1, false, NULL, bad_set},
	};
	static const struct class_finding_weight bad_weights[] = {
	    {"nodot", NULL, 10},
	    {"bad.heavy", NULL, 101},
	    {"bad.limit", "the moon", 10},
	    {"bad.limit", NULL, 10},
	};
	const struct measure_class bad = {
	    .name = "bad",
	    .claims_rest = true,
	    .metrics = bad_metrics,
	    .nmetrics = ARRAY_SIZE(bad_metrics),
	    .headline = bad_headline,
	    .nheadline = ARRAY_SIZE(bad_headline),
	    .row_key = "bad",
	    .finding_weights = bad_weights,
	    .nfinding_weights = ARRAY_SIZE(bad_weights),
	    .options = bad_options,
	    .noptions = ARRAY_SIZE(bad_options),
	    .opts_size = RUN_CLASS_OPTS_MAX + 1,
	};

	(void)state;
	problems = 0;
	check_class(&bad);
	/*
	 * no measure, no claims, mb_s twice, no unit, tail higher, CPU unit, headline,
	 * table; weights: no dot, 101, an unknown limiter, an id twice; options: a
	 * struct too large, a flag with words, one without help
	 */
	assert_int_equal(problems, 15);
	problems = 0;
}

static void test_every_class(void **state)
{
	(void)state;
	assert_true(run_nclasses > 0);
	assert_true(run_nclasses <= RUN_MAX_CLASSES);
	for (size_t i = 0; i < run_nclasses; i++) {
		const struct measure_class *c = run_classes[i];

		assert_non_null(c);
		check_class(c);
		assert_ptr_equal(run_class_find(c->name), c);
		/* one record's test names one class; one JSON array one table */
		for (size_t j = 0; j < i; j++) {
			if (set(c->name) && !strcmp(run_classes[j]->name, c->name))
				problem("class '%s' twice in the table", c->name);
			if (c->row_key && run_classes[j]->row_key &&
			    !strcmp(run_classes[j]->row_key, c->row_key))
				problem("%s and %s: one results key '%s'", run_classes[j]->name,
					c->name, c->row_key);
		}
	}
	assert_null(run_class_find("no-such-class"));
	assert_int_equal(problems, 0);
}

/* a class's options: zero until given, then its own struct, by its table's set hook */
static void test_class_opts(void **state)
{
	struct run_options o = {0};
	const struct measure_class *net = run_class_find("net");
	const struct class_option *peer = NULL;
	const unsigned char *z;
	char *words[] = {"", NULL}, *why = NULL;
	void *mine;

	(void)state;
	assert_non_null(net);
	for (size_t i = 0; i < net->noptions; i++)
		if (!strcmp(net->options[i].name, "peer"))
			peer = &net->options[i];
	assert_non_null(peer);
	/* none given: all zero, and not the caller's to free */
	z = run_class_opts(&o, net);
	assert_non_null(z);
	for (size_t i = 0; i < net->opts_size; i++)
		assert_int_equal(z[i], 0);
	/* given: a struct of its own, which a bad word leaves refused with why */
	mine = run_class_opts_get(&o, net);
	assert_non_null(mine);
	assert_ptr_equal(run_class_opts(&o, net), mine);
	assert_int_equal(peer->set(mine, words, &why), -EINVAL);
	assert_non_null(strstr(why, "invalid --peer ''"));
	free(why);
	words[0] = "10.0.0.2";
	assert_int_equal(peer->set(mine, words, &why), 0);
	assert_ptr_equal(run_class_opts_get(&o, net), mine);
	run_class_opts_release(&o);
	for (size_t i = 0; i < RUN_MAX_CLASSES; i++)
		assert_null(o.class_opts[i]);
	/* a class without options has none to give */
	assert_null(run_class_opts(&o, run_class_find("hid")));
}

/* a class's metric found by its record's test name; another class's key is not */
static void test_metric_lookup(void **state)
{
	const struct measure_class *disk = run_class_find("disk");

	(void)state;
	assert_non_null(disk);
	assert_ptr_equal(run_class_metric_of("disk", "mb_s"), run_class_metric(disk, "mb_s"));
	assert_string_equal(run_class_metric_of("disk", "mb_s")->unit, "MB/s");
	assert_null(run_class_metric_of("disk", "no_such_metric"));
	assert_null(run_class_metric_of("no-such-class", "mb_s"));
}

static void test_kit_item(void **state)
{
	const struct measure_class *disk = run_class_find("disk"), *net = run_class_find("net");
	int mine;
	struct run_plan_item it = {.cls = disk, .state = &mine};

	(void)state;
	assert_non_null(net);
	assert_ptr_equal(class_item(&it, disk), &mine);
	/* another class's item: not this one's state */
	assert_null(class_item(&it, net));
}

/* the device entry once, with the item's key, the kind given and the item's path */
static void test_kit_add_device(void **state)
{
	struct run_result r;
	struct run_plan_item a = {.path = "/dev/hidraw0", .device_key = "1-2", .kind = "usb-hid"};
	struct run_plan_item b = {.path = "/dev/hidraw1", .device_key = "1-2", .kind = "usb-hid"};
	struct run_device *d;

	(void)state;
	memset(&r, 0, sizeof(r));
	d = class_add_device(&r, &a, "usb-hid (kind given)");
	assert_non_null(d);
	assert_string_equal(d->key, "1-2");
	assert_string_equal(d->kind, "usb-hid (kind given)");
	assert_string_equal(d->target, "/dev/hidraw0");
	/* a second item of the same device: no second entry */
	assert_null(class_add_device(&r, &b, b.kind));
	assert_int_equal(r.rec.ndevices, 1);
	run_record_release(&r.rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incomplete_caught),
		cmocka_unit_test(test_every_class),
		cmocka_unit_test(test_class_opts),
		cmocka_unit_test(test_metric_lookup),
		cmocka_unit_test(test_kit_item),
		cmocka_unit_test(test_kit_add_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
