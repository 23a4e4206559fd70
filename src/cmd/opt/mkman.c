// SPDX-License-Identifier: MIT
/*
 * mkman IN OUT VERSION: the man page from its source, at build time. A line
 * '.\" @OPTIONS CMD@' becomes CMD's option items from its table (opt.h),
 * '@VERSION@' the version. Fails on a marker without a table or a table
 * without a marker, so no command's options are missing from the page.
 */
#include "cmd/opt/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARKER ".\\\" @OPTIONS "

static int table_of(const char *line, size_t *ret)
{
	size_t i, len = strlen(line);

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	line += strlen(MARKER);
	len -= strlen(MARKER);
	if (!len || line[len - 1] != '@')
		return -1;
	for (i = 0; cmd_opt_tables[i].command; i++)
		if (strlen(cmd_opt_tables[i].command) == len - 1 &&
		    !strncmp(cmd_opt_tables[i].command, line, len - 1)) {
			*ret = i;
			return 0;
		}
	return -1;
}

static void put_version(FILE *out, const char *line, const char *version)
{
	const char *at;

	while ((at = strstr(line, "@VERSION@"))) {
		fwrite(line, 1, (size_t)(at - line), out);
		fputs(version, out);
		line = at + strlen("@VERSION@");
	}
	fputs(line, out);
}

int main(int argc, char **argv)
{
	char line[4096];
	unsigned char used[64] = {0};
	FILE *in, *out;
	size_t i, n = 0;
	int bad = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: mkman IN OUT VERSION\n");
		return 2;
	}
	while (cmd_opt_tables[n].command)
		n++;
	if (n > sizeof(used)) {
		fprintf(stderr, "mkman: more than %zu tables\n", sizeof(used));
		return 1;
	}
	in = fopen(argv[1], "r");
	out = in ? fopen(argv[2], "w") : NULL;
	if (!in || !out) {
		perror(in ? argv[2] : argv[1]);
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (strncmp(line, MARKER, strlen(MARKER))) {
			put_version(out, line, argv[3]);
			continue;
		}
		if (table_of(line, &i) < 0) {
			fprintf(stderr, "mkman: %s: no option table for: %s", argv[1], line);
			bad = 1;
			continue;
		}
		opt_roff(out, cmd_opt_tables[i].opts);
		used[i] = 1;
	}
	for (i = 0; i < n; i++)
		if (!used[i]) {
			fprintf(stderr, "mkman: %s: no '@OPTIONS %s@' line\n", argv[1],
				cmd_opt_tables[i].command);
			bad = 1;
		}
	if (ferror(in) || fclose(out) != 0) {
		perror(argv[2]);
		bad = 1;
	}
	fclose(in);
	if (bad)
		remove(argv[2]);
	return bad;
}
