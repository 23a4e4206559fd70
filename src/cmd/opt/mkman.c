// SPDX-License-Identifier: MIT
/*
 * mkman IN VERSION OUT...: the man pages from their source, at build time.
 *
 * IN is usbperf(1) in roff. In it a line '.\" @OPTIONS CMD@' becomes CMD's
 * option items from its table (opt.h) and '@VERSION@' the version; the
 * result is the OUT named usbperf.1. Every other OUT, usbperf-CMD.1, is
 * CMD's own page, cut from its section of COMMANDS ('.SS CMD' up to the next
 * section): its '.\" summary:' line for NAME, the lines before the first .PP
 * for SYNOPSIS, the rest before the options for DESCRIPTION, the options,
 * and what follows them (the exit statuses). Fails, writing nothing, on a
 * marker without a table, a table without a marker, or a page without a
 * section, so no command's options or page can go missing.
 */
#include "cmd/opt/opt.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARKER ".\\\" @OPTIONS "
#define OPTIONS_BEGIN ".\\\" options of "
#define OPTIONS_END ".\\\" end of options"
#define SUMMARY ".\\\" summary: "

/* the page as lines, after the markers are filled in */
struct page {
	char **line;
	size_t n, cap;
};

static void page_add(struct page *p, const char *s, size_t len)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 1024;
		p->line = realloc(p->line, p->cap * sizeof(*p->line));
		if (!p->line)
			abort();
	}
	p->line[p->n] = strndup(s, len);
	if (!p->line[p->n++])
		abort();
}

static void page_release(struct page *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->line[i]);
	free(p->line);
	*p = (struct page){0};
}

/* text of several lines (a table's roff) as the page's lines */
static void page_add_text(struct page *p, const char *text)
{
	const char *nl;

	while (*text) {
		nl = strchr(text, '\n');
		page_add(p, text, nl ? (size_t)(nl - text) : strlen(text));
		text = nl ? nl + 1 : text + strlen(text);
	}
}

static int table_of(const char *name, size_t *ret)
{
	for (size_t i = 0; cmd_opt_tables[i].command; i++)
		if (!strcmp(cmd_opt_tables[i].command, name)) {
			*ret = i;
			return 0;
		}
	return -1;
}

/* a marker line: its table's items between two comments that mark them for the pages */
static int expand_marker(struct page *p, const char *line, unsigned char *used)
{
	char name[64], *buf = NULL, head[96];
	size_t len = strlen(line) - strlen(MARKER), i, size = 0;
	FILE *f;

	if (len < 2 || len >= sizeof(name) || line[strlen(line) - 1] != '@')
		return -1;
	memcpy(name, line + strlen(MARKER), len - 1);
	name[len - 1] = '\0';
	if (table_of(name, &i) < 0)
		return -1;
	f = open_memstream(&buf, &size);
	if (!f)
		abort();
	opt_roff(f, cmd_opt_tables[i].opts);
	fclose(f);
	snprintf(head, sizeof(head), "%s%s", OPTIONS_BEGIN, name);
	page_add(p, head, strlen(head));
	page_add_text(p, buf);
	page_add(p, OPTIONS_END, strlen(OPTIONS_END));
	free(buf);
	used[i] = 1;
	return 0;
}

/* LINE with every @VERSION@ replaced */
static void add_versioned(struct page *p, const char *line, const char *version)
{
	char *buf = NULL;
	size_t size = 0;
	const char *at;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		abort();
	while ((at = strstr(line, "@VERSION@"))) {
		fwrite(line, 1, (size_t)(at - line), f);
		fputs(version, f);
		line = at + strlen("@VERSION@");
	}
	fputs(line, f);
	fclose(f);
	page_add(p, buf, size);
	free(buf);
}

static int read_page(const char *path, const char *version, struct page *p)
{
	char line[4096];
	unsigned char used[64] = {0};
	size_t n = 0;
	int bad = 0;
	FILE *in = fopen(path, "r");

	if (!in) {
		perror(path);
		return -1;
	}
	while (cmd_opt_tables[n].command)
		n++;
	if (n > sizeof(used)) {
		fprintf(stderr, "mkman: more than %zu tables\n", sizeof(used));
		fclose(in);
		return -1;
	}
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (strncmp(line, MARKER, strlen(MARKER)))
			add_versioned(p, line, version);
		else if (expand_marker(p, line, used) < 0) {
			fprintf(stderr, "mkman: %s: no option table for: %s\n", path, line);
			bad = 1;
		}
	}
	fclose(in);
	for (size_t i = 0; i < n; i++)
		if (!used[i]) {
			fprintf(stderr, "mkman: %s: no '@OPTIONS %s@' line\n", path,
				cmd_opt_tables[i].command);
			bad = 1;
		}
	return bad ? -1 : 0;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* the .TH line's fields after the name: its date, source and manual */
static const char *th_rest(const struct page *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (starts(p->line[i], ".TH USBPERF 1 "))
			return p->line[i] + strlen(".TH USBPERF 1 ");
	return "\"\" \"usbperf\" \"User Commands\"";
}

/* CMD's section: [*first, *end) after its .SS line; -1 without one */
static int find_section(const struct page *p, const char *cmd, size_t *first, size_t *end)
{
	char head[96];
	size_t i;

	snprintf(head, sizeof(head), ".SS %s", cmd);
	for (i = 0; i < p->n && strcmp(p->line[i], head); i++)
		;
	if (i == p->n)
		return -1;
	*first = ++i;
	while (i < p->n && !starts(p->line[i], ".SS ") && !starts(p->line[i], ".SH ") &&
	       !starts(p->line[i], ".\\\" ---"))
		i++;
	*end = i;
	return 0;
}

static void put_lines(FILE *f, const struct page *p, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (!starts(p->line[i], SUMMARY) && !starts(p->line[i], OPTIONS_BEGIN) &&
		    strcmp(p->line[i], OPTIONS_END))
			fprintf(f, "%s\n", p->line[i]);
}

/* usbperf-CMD(1) from CMD's section */
static int write_command_page(const struct page *p, const char *cmd, FILE *f)
{
	size_t first, end, pp, opt, after, exits, i;
	const char *summary = NULL;
	bool more_items;
	char upper[64];

	if (find_section(p, cmd, &first, &end) < 0)
		return -1;
	for (i = first; i < end && !summary; i++)
		if (starts(p->line[i], SUMMARY))
			summary = p->line[i] + strlen(SUMMARY);
	for (pp = first; pp < end && strcmp(p->line[pp], ".PP"); pp++)
		;
	for (opt = pp; opt < end && !starts(p->line[opt], OPTIONS_BEGIN); opt++)
		;
	for (after = opt; after < end && strcmp(p->line[after], OPTIONS_END); after++)
		;
	if (!summary || pp == end)
		return -1;
	for (i = 0; cmd[i] && i + 1 < sizeof(upper); i++)
		upper[i] = (char)(cmd[i] >= 'a' && cmd[i] <= 'z' ? cmd[i] - 'a' + 'A' : cmd[i]);
	upper[i] = '\0';
	fprintf(f, ".\\\" usbperf-%s(1), made by mkman from usbperf(1)'s section\n", cmd);
	fprintf(f, ".TH USBPERF\\-%s 1 %s\n.SH NAME\nusbperf\\-%s \\- %s\n.SH SYNOPSIS\n", upper,
		th_rest(p), cmd, summary);
	put_lines(f, p, first, pp);
	fputs(".SH DESCRIPTION\n", f);
	put_lines(f, p, pp + 1, opt);
	/* after the table's items: more items (run's classes'), notes, then the exit statuses */
	for (exits = after + 1; exits < end; exits++)
		if (!strcmp(p->line[exits], ".PP") && exits + 1 < end &&
		    starts(p->line[exits + 1], "Exit"))
			break;
	for (i = after + 1; i < exits && strcmp(p->line[i], ".TP"); i++)
		;
	more_items = i < exits;
	if (opt < end) {
		fputs(".SH OPTIONS\n", f);
		put_lines(f, p, opt, after);
		if (more_items)
			put_lines(f, p, after + 1, exits);
		fputs(".PP\nAnd the global options of\n.BR usbperf (1).\n", f);
	}
	if (!more_items && after + 1 < exits) {
		fputs(".SH NOTES\n", f);
		put_lines(f, p, after + 1, exits);
	}
	if (exits + 1 < end) {
		fputs(".SH EXIT STATUS\n", f);
		put_lines(f, p, exits + 1, end);
	}
	fputs(".SH SEE ALSO\n.BR usbperf (1)\n", f);
	return 0;
}

/* "dir/usbperf-disk.1": "disk"; "dir/usbperf.1": "" */
static int page_command(const char *out, char *cmd, size_t len)
{
	const char *base = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
	size_t n = strlen(base);

	if (!strcmp(base, "usbperf.1")) {
		*cmd = '\0';
		return 0;
	}
	if (!starts(base, "usbperf-") || n < 11 || strcmp(base + n - 2, ".1") ||
	    n - 10 >= len)
		return -1;
	memcpy(cmd, base + 8, n - 10);
	cmd[n - 10] = '\0';
	return 0;
}

int main(int argc, char **argv)
{
	struct page p = {0};
	char cmd[64];
	int bad = 0, i;

	if (argc < 4) {
		fprintf(stderr, "usage: mkman IN VERSION OUT...\n");
		return 2;
	}
	if (read_page(argv[1], argv[2], &p) < 0) {
		page_release(&p);
		return 1;
	}
	for (i = 3; i < argc && !bad; i++) {
		FILE *f;

		if (page_command(argv[i], cmd, sizeof(cmd)) < 0) {
			fprintf(stderr, "mkman: %s: not usbperf.1 or usbperf-CMD.1\n", argv[i]);
			bad = 1;
			break;
		}
		f = fopen(argv[i], "w");
		if (!f) {
			perror(argv[i]);
			bad = 1;
			break;
		}
		if (!*cmd)
			put_lines(f, &p, 0, p.n);
		else if (write_command_page(&p, cmd, f) < 0) {
			fprintf(stderr, "mkman: %s: no section '.SS %s' with a summary line\n",
				argv[1], cmd);
			bad = 1;
		}
		if (fclose(f) != 0) {
			perror(argv[i]);
			bad = 1;
		}
	}
	if (bad)
		for (i = 3; i < argc; i++)
			remove(argv[i]);
	page_release(&p);
	return bad;
}
