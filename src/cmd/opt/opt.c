// SPDX-License-Identifier: MIT
/* A command's option table as 'CMD -h' shows it and as the man page lists it (opt.h). */
#include "cmd/opt/opt.h"

#include <string.h>

#define HELP_COLUMN 22 /* where the help starts in 'CMD -h' */

const struct cmd_opt *opt_find(const struct cmd_opt *t, int key)
{
	for (; t->name || t->help; t++)
		if (t->name && t->key == key && !(t->flags & OPT_AGAIN))
			return t;
	return NULL;
}

const struct cmd_opt *opt_lookup(const struct cmd_opt *t, const char *option)
{
	for (; t->name || t->help; t++) {
		if (!t->name)
			continue;
		if (option[0] == '-' && option[1] == '-' && !strcmp(option + 2, t->name))
			return t;
		if (t->key > ' ' && t->key < 127 && option[0] == '-' && option[1] == t->key &&
		    !option[2])
			return t;
	}
	return NULL;
}

const char *opt_path_kind(const char *arg)
{
	static const char *const files[] = {"FILE", "PATH", "DIR|FILE", "SRC DST"};

	if (!arg)
		return NULL;
	if (!strcmp(arg, "DIR"))
		return "dir";
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (!strcmp(arg, files[i]))
			return "file";
	return NULL;
}

void opt_print_values(FILE *f, const struct cmd_opt *o)
{
	const char *v = o->values, *kind = opt_path_kind(o->arg);

	if (!v) {
		if (kind)
			fprintf(f, "@%s\n", kind);
		return;
	}
	if (o->flags & OPT_LIST)
		fputs("@list\n", f);
	while (*v) {
		size_t n = strcspn(v, " ");

		fprintf(f, "%.*s\n", (int)n, v);
		v += n;
		v += strspn(v, " ");
	}
}

unsigned opt_count(const struct cmd_opt *t)
{
	unsigned n = 0;

	for (; t->name || t->help; t++)
		n += t->name && !(t->flags & OPT_AGAIN);
	return n;
}

static bool has_letter(const struct cmd_opt *o)
{
	return o->key > ' ' && o->key < 127;
}

/* "-F, --format FMT": its length */
static int print_names(FILE *f, const struct cmd_opt *o)
{
	int n = 0;

	if (has_letter(o))
		n += fprintf(f, "-%c, ", o->key);
	n += fprintf(f, "--%s", o->name);
	if (o->arg)
		n += fprintf(f, " %s", o->arg);
	return n;
}

/* TEXT's lines, the first after COL columns already written, the rest indented to COL */
static void print_lines(FILE *f, const char *text, int col)
{
	const char *p = text, *nl;

	for (;;) {
		nl = strchr(p, '\n');
		fprintf(f, "%.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
		if (!nl || !nl[1])
			return;
		p = nl + 1;
		fprintf(f, "%*s", col, "");
	}
}

void opt_usage(FILE *f, const struct cmd_opt *t)
{
	const struct cmd_opt *first = t;

	/* a table in groups starts with its first group's heading */
	if (t->name)
		fputs("options:\n", f);
	for (; t->name || t->help; t++) {
		int n;

		if (t->flags & (OPT_HIDDEN | OPT_MAN_ONLY))
			continue;
		if (!t->name) {
			if (t != first)
				fputc('\n', f);
			print_lines(f, t->help, 0);
			continue;
		}
		n = fprintf(f, "  ");
		n += print_names(f, t);
		if (n > HELP_COLUMN - 2)
			fprintf(f, "\n%*s", HELP_COLUMN, "");
		else
			fprintf(f, "%*s", HELP_COLUMN - n, "");
		print_lines(f, t->help, HELP_COLUMN);
	}
}

#ifdef OPT_WITH_MAN
/* plain text as roff: '-' as \-, a backslash as \e, '\n' as a space, no line opening with . or ' */
static void roff_text(FILE *f, const char *s, bool italic_alternatives)
{
	bool bol = true;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		bol = false;
		if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '|' && italic_alternatives)
			fputs("\\fR|\\fI", f);
		else if (*s == '\n') {
			fputc('\n', f);
			bol = true;
		} else
			fputc(*s, f);
	}
}

/* help text as the man page's: a capital first, and for an item's sentence a full stop last */
static void roff_sentence(FILE *f, const char *help, bool stop)
{
	size_t len = strlen(help);

	if (*help >= 'a' && *help <= 'z') {
		fputc(*help - 'a' + 'A', f);
		help++;
		len--;
	}
	roff_text(f, help, false);
	fputs(stop && len && help[len - 1] != '.' ? ".\n" : "\n", f);
}

void opt_roff(FILE *f, const struct cmd_opt *t)
{
	for (; t->name || t->help; t++) {
		if (t->flags & (OPT_HIDDEN | OPT_HELP_ONLY))
			continue;
		if (!t->name) {
			fputs(".PP\n", f);
			if (t->man)
				fprintf(f, "%s\n", t->man);
			else
				roff_sentence(f, t->help, false);
			continue;
		}
		fputs(".TP\n", f);
		if (has_letter(t))
			fprintf(f, "\\fB\\-%c\\fR, ", t->key);
		fputs("\\fB\\-\\-", f);
		roff_text(f, t->name, false);
		fputs("\\fR", f);
		if (t->arg) {
			fputs(" \\fI", f);
			roff_text(f, t->arg, true);
			fputs("\\fR", f);
		}
		fputc('\n', f);
		if (t->man)
			fprintf(f, "%s\n", t->man);
		else
			roff_sentence(f, t->help, true);
	}
}
#endif
