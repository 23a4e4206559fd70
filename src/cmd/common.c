// SPDX-License-Identifier: MIT
#include "cmd/common.h"
#include "cmd/bind.h"
#include "render/spark.h"
#include "cmd/paths.h"
#include "cmd/opt/tables.h"
#include "util/fileio.h"
#include "util/leftovers.h"
#include "util/signals.h"
#include "util/snapshot.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/*
 * One line on stderr, whatever a value in it holds: a control character (a
 * newline or an escape sequence in an option's value, a path, a device's
 * string) is written as \xNN, and the line goes out in one write.
 */
__attribute__((format(printf, 2, 0))) static void log_line(const char *prefix, const char *fmt,
							   va_list ap)
{
	struct strbuf msg = STRBUF_INIT, line = STRBUF_INIT;
	const unsigned char *p;

	strbuf_vaddf(&msg, fmt, ap);
	strbuf_adds(&line, prefix);
	for (p = (const unsigned char *)msg.buf; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			strbuf_addf(&line, "\\x%02x", *p);
		else
			strbuf_addch(&line, (char)*p);
	}
	strbuf_addch(&line, '\n');
	fwrite(line.buf, 1, line.len, stderr);
	strbuf_release(&msg);
	strbuf_release(&line);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_line("usbperf: ", fmt, ap);
	va_end(ap);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_line("usbperf: warning: ", fmt, ap);
	va_end(ap);
}

void log_deprecated(const char *cmd, const char *old, const char *now)
{
	log_warn("%s %s is deprecated: it is %s now", cmd, old, now);
}

int common_option(int c, const char *arg, struct global_opts *g)
{
	switch (c) {
	case 'F':
		if (format_parse(arg, &g->format) < 0) {
			log_error("invalid --format '%s': expected text, json or csv", arg);
			return -1;
		}
		if (g->cmd && check_format(g, g->cmd->name, g->cmd->formats) < 0)
			return -1;
		return 1;
	case 'o':
		if (!*arg) {
			log_error("invalid --output '': empty path");
			return -1;
		}
		g->output = arg;
		return 1;
	case 'q':
		g->quiet = true;
		g->progress = false;
		return 1;
	case OPT_WIDE:
		/* text: every column, prose unwrapped (render/spark.h) */
		text_set_wide(true);
		return 1;
	}
	return 0;
}

int global_option(int argc, char **argv, int *i, struct global_opts *g)
{
	const char *a = argv[*i], *val = NULL;
	int opt = 0;

	if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
		opt = 'q';
	else if (!strcmp(a, "--wide"))
		opt = OPT_WIDE;
	else if (!strcmp(a, "-F") || !strcmp(a, "--format"))
		opt = 'F';
	else if (!strcmp(a, "-o") || !strcmp(a, "--output"))
		opt = 'o';
	else if (!strncmp(a, "--format=", 9))
		opt = 'F', val = a + 9;
	else if (!strncmp(a, "--output=", 9))
		opt = 'o', val = a + 9;
	if (!opt && (!strncmp(a, "--quiet=", 8) || !strncmp(a, "--version=", 10) ||
		     !strncmp(a, "--help=", 7) || !strncmp(a, "--wide=", 7))) {
		log_error("option '%.*s' takes no value", (int)strcspn(a, "="), a);
		return -1;
	}
	if (!opt)
		return 0;
	if (opt != 'q' && opt != OPT_WIDE && !val) {
		if (*i + 1 >= argc) {
			log_error("option '%s' needs a value", a);
			return -1;
		}
		val = argv[++*i];
	}
	return common_option(opt, val, g) < 0 ? -1 : 1;
}

static const char *const format_names[] = {"text", "json", "csv"};

int check_format(const struct global_opts *g, const char *what, unsigned formats)
{
	const char *const *names = format_names;
	struct strbuf can = STRBUF_INIT;
	unsigned i, n = 0, left;

	if (formats & (1u << g->format))
		return 0;
	for (i = 0; i < 3; i++)
		n += !!(formats & (1u << i));
	left = n;
	for (i = 0; i < 3; i++) {
		if (!(formats & (1u << i)))
			continue;
		strbuf_adds(&can, names[i]);
		left--;
		strbuf_adds(&can, left > 1 ? ", " : left == 1 ? " or " : "");
	}
	log_error("%s: --format %s is not available (%s%s)", what, names[g->format], can.buf,
		  n == 1 ? " only" : "");
	strbuf_release(&can);
	return -1;
}

/* "/real/dir/name" for a path whose last part may not exist yet; NULL if its directory does not */
static char *canonical(const char *path)
{
	char *copy = strdup(path), *copy2 = strdup(path), *dir, *ret = NULL;
	struct strbuf sb = STRBUF_INIT;

	if (copy && copy2 && (dir = realpath(dirname(copy), NULL))) {
		strbuf_addf(&sb, "%s/%s", dir, basename(copy2));
		ret = strbuf_detach(&sb);
		free(dir);
	}
	free_all(copy, copy2);
	return ret;
}

/* a device node: its number is what names the device, whatever the node's name or inode */
static bool is_node(const struct stat *st)
{
	return S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode);
}

bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ca, *cb;
	bool same;

	if (!a || !b)
		return false;
	/* stat follows symbolic links: a link to the node is the node */
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0) {
		if (is_node(&sa) && is_node(&sb))
			return (sa.st_mode & S_IFMT) == (sb.st_mode & S_IFMT) &&
			       sa.st_rdev == sb.st_rdev;
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	}
	/* not both there yet: the same name in the same directory is the same file to be */
	ca = canonical(a);
	cb = canonical(b);
	same = ca && cb && !strcmp(ca, cb);
	free_all(ca, cb);
	return same;
}

int refuse_outputs_clash(const char *const *options, const char *const *paths, size_t n)
{
	struct stat st;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; paths[i] && j < n; j++) {
			if (!paths[j] || !same_file(paths[i], paths[j]) ||
			    (stat(paths[i], &st) == 0 && S_ISCHR(st.st_mode)))
				continue;
			log_error("refusing to write %s '%s': %s names the same file", options[j],
				  paths[j], options[i]);
			return -EEXIST;
		}
	return 0;
}

#define TMP_SUFFIX_MAX 16 /* ".tmp-" and a pid */

/*
 * The character devices an output may be written through: /dev/null (1:3),
 * a terminal (the tty majors of devices.txt: 4 ttyN/ttySN, 5:0 /dev/tty,
 * 5:1 /dev/console, 136-143 /dev/pts/N), and whatever this process's
 * stdout or stderr already is (/dev/stdout, /dev/fd/1). Any other node is a
 * device (raw flash, an I2C bus, a HID or video node) that a report would
 * be written into (issue 28.2).
 */
static bool output_node_allowed(const struct stat *st)
{
	unsigned ma = major(st->st_rdev), mi = minor(st->st_rdev);
	struct stat fd;

	if ((ma == 1 && mi == 3) || ma == 4 || (ma == 5 && mi <= 1) || (ma >= 136 && ma <= 143))
		return true;
	for (int i = 1; i <= 2; i++)
		if (fstat(i, &fd) == 0 && S_ISCHR(fd.st_mode) && fd.st_rdev == st->st_rdev)
			return true;
	return false;
}

/* the directory an output goes into is there and writable */
static int check_parent_dir(const char *option, const char *path)
{
	char *copy = strdup(path), *dir;
	struct stat st;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	dir = dirname(copy);
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		log_error("cannot write %s '%s': no directory '%s'", option, path, dir);
		r = -EINVAL;
	} else if (access(dir, W_OK) < 0) {
		log_error("cannot write %s '%s': %s", option, path, strerror(errno));
		r = -EINVAL;
	}
	free(copy);
	return r;
}

int check_writable(const char *option, const char *path)
{
	const char *base;
	struct stat st;

	if (!path)
		return 0;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	/* room for write_file_atomic's ".tmp-PID" beside it */
	if (strlen(path) + TMP_SUFFIX_MAX >= PATH_MAX || strlen(base) + TMP_SUFFIX_MAX > NAME_MAX) {
		log_error("invalid %s '%.40s...': file name too long", option, path);
		return -EINVAL;
	}
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		log_error("invalid %s '%s': names a directory, not a file", option, path);
		return -EINVAL;
	}
	if (stat(path, &st) < 0)
		return check_parent_dir(option, path);
	/* a regular file is replaced; a character device or FIFO is written through */
	if (S_ISDIR(st.st_mode)) {
		log_error("invalid %s '%s': is a directory", option, path);
		return -EINVAL;
	}
	if (S_ISREG(st.st_mode)) {
		/* a link is written through (write_file_atomic): the file's directory gets it */
		char *real = realpath(path, NULL);
		int r = check_parent_dir(option, real ? real : path);

		free(real);
		return r;
	}
	if (S_ISCHR(st.st_mode) && !output_node_allowed(&st)) {
		log_error("refusing to write %s '%s': it is a device node (%u:%u); an output is a "
			  "file, a FIFO, /dev/null or a terminal",
			  option, path, major(st.st_rdev), minor(st.st_rdev));
		return -EINVAL;
	}
	if (S_ISBLK(st.st_mode)) {
		log_error("refusing to write %s '%s': it is a block device; an output is a file, a "
			  "FIFO, /dev/null or a terminal",
			  option, path);
		return -EINVAL;
	}
	if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		log_error("invalid %s '%s': not a regular file", option, path);
		return -EINVAL;
	}
	if (access(path, W_OK) < 0) {
		log_error("cannot write %s '%s': %s", option, path, strerror(errno));
		return -EINVAL;
	}
	return 0;
}

/* ---- no output over an input ---- */

int inputs_add(struct inputs *in, const char *path, const char *what)
{
	struct input *grown;
	char *copy;

	if (!path)
		return 0;
	grown = realloc(in->v, (in->n + 1) * sizeof(*in->v));
	if (!grown)
		return -ENOMEM;
	in->v = grown;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	in->v[in->n++] = (struct input){copy, what};
	return 0;
}

void inputs_release(struct inputs *in)
{
	for (size_t i = 0; i < in->n; i++)
		free(in->v[i].path);
	free(in->v);
	in->v = NULL;
	in->n = 0;
}

int inputs_check_output(struct inputs *in, int r, const char *option, const char *output)
{
	if (r < 0)
		log_error("out of memory");
	else
		r = refuse_output_over(in, option, output);
	inputs_release(in);
	return r;
}

int refuse_output_over(const struct inputs *in, const char *option, const char *output)
{
	for (size_t i = 0; output && i < in->n; i++) {
		if (same_file(output, in->v[i].path)) {
			log_error("refusing to write %s '%s': it is %s", option, output,
				  in->v[i].what);
			return -EEXIST;
		}
	}
	return 0;
}


int check_output(const struct global_opts *g)
{
	return check_writable("--output", g->output);
}

int check_output_targets(const struct global_opts *g, const char *const *targets, size_t n,
			 const char *what)
{
	struct inputs in = {0};
	int r = check_output(g);

	for (size_t i = 0; r == 0 && i < n; i++)
		r = inputs_add(&in, targets[i], what);
	if (r == -EINVAL) {
		inputs_release(&in);
		return r;
	}
	return inputs_check_output(&in, r, "--output", g->output);
}

int check_output_target(const struct global_opts *g, const char *target, const char *what)
{
	return check_output_targets(g, &target, 1, what);
}

/* an existing character device or FIFO (/dev/stdout, a pipe) is written through, not replaced */
static int write_through(const char *path, const char *buf, size_t len)
{
	struct stat st;
	int fd, ret;

	fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ||
	    S_ISBLK(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	ret = fd_write_all(fd, buf, len);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

int write_file_atomic(const char *path, const char *buf, size_t len)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *name = path;
	char *real = NULL;
	struct stat st;
	int fd, ret;

	if (stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
		ret = write_through(path, buf, len);
		if (ret < 0)
			log_error("cannot write '%s': %s", path, strerror(-ret));
		return ret;
	}
	/*
	 * a link is written through, not replaced: renamed over, /dev/stdout (a
	 * link to /proc/self/fd/1) would become a file in /dev
	 */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (real = realpath(path, NULL)))
		name = real;
	/* a reader of the file never sees half of it: write aside, then rename */
	strbuf_addf(&tmp, "%s.tmp-%ld", name, (long)getpid());
	/*
	 * A signal that ends the process removes the file aside (util/signals.h):
	 * registered once created, not before (a file already under that name
	 * is not ours), with no signal between the two
	 */
	signals_hold(true);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	ret = fd < 0 ? -errno : 0;
	if (fd >= 0)
		signals_set_output(tmp.buf);
	signals_hold(false);
	/* and a SIGKILL leaves it: the next usbperf removes it (util/leftovers.h) */
	if (fd >= 0)
		leftovers_add(tmp.buf, fd);
	if (fd < 0) {
		log_error("cannot create '%s': %s", tmp.buf, strerror(-ret));
		goto out;
	}
	ret = fd_write_all(fd, buf, len);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	/* after a signal nothing is committed: the command ends with 128+N */
	signals_hold(true);
	if (!ret && signal_stop)
		ret = -EINTR;
	if (!ret && rename(tmp.buf, name) < 0)
		ret = -errno;
	if (ret < 0)
		unlink(tmp.buf);
	signals_set_output(NULL);
	signals_hold(false);
	if (ret < 0 && ret != -EINTR)
		log_error("cannot write '%s': %s", path, strerror(-ret));
out:
	strbuf_release(&tmp);
	free(real);
	return ret;
}

int emit_report(const struct global_opts *g, const struct report *r)
{
	struct strbuf out = STRBUF_INIT;
	int ret;

	ret = render(r, g->format, &out);
	if (ret < 0) {
		log_error("cannot render the result as %s",
			  g->format == FORMAT_CSV ? "csv (no table in it)" : "requested");
		goto out;
	}
	if (!g->output) {
		ret = fd_write_all(STDOUT_FILENO, out.buf, out.len);
		if (ret < 0)
			log_error("cannot write the result to stdout: %s", strerror(-ret));
		goto out;
	}
	ret = write_file_atomic(g->output, out.buf, out.len);
out:
	strbuf_release(&out);
	return ret;
}

static int emit_schema(const struct global_opts *g, const struct report *r)
{
	struct strbuf out = STRBUF_INIT;
	int ret;

	if (g->format == FORMAT_JSON)
		render_json_schema(r, &out);
	else
		render_schema(r, &out);
	ret = g->output ? write_file_atomic(g->output, out.buf, out.len)
			: fd_write_all(STDOUT_FILENO, out.buf, out.len);
	if (ret < 0 && !g->output)
		log_error("cannot write the schema to stdout: %s", strerror(-ret));
	strbuf_release(&out);
	return ret;
}

static bool has_schema(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--schema"))
			return true;
	return false;
}

int schema_command(const struct command *c, int argc, char **argv, struct global_opts *g)
{
	struct report r = {.command = c->name};
	char what[48];

	if (!has_schema(argc, argv))
		return -1;
	for (int i = 1; i < argc; i++) {
		int taken;

		if (!strcmp(argv[i], "--schema"))
			continue;
		taken = global_option(argc, argv, &i, g);
		if (taken < 0)
			return EXIT_USAGE;
		if (taken == 0) {
			log_error("%s --schema: unexpected '%s' (only -F and -o go with it)", c->name,
				  argv[i]);
			return EXIT_USAGE;
		}
	}
	if (!c->schema) {
		log_error("%s --schema: '%s' writes no JSON", c->name, c->name);
		return EXIT_USAGE;
	}
	/* Markdown about the JSON, or the JSON Schema itself: there is no CSV of it */
	snprintf(what, sizeof(what), "%s --schema", c->name);
	if (check_format(g, what, FMT_TEXT | FMT_JSON) < 0 || check_output(g) < 0)
		return EXIT_USAGE;
	c->schema(&r);
	return emit_schema(g, &r) < 0 ? EXIT_RUNTIME : EXIT_OK;
}

int emit_text(const struct global_opts *g, const char *buf, size_t len)
{
	int ret = g->output ? write_file_atomic(g->output, buf, len)
			    : fd_write_all(STDOUT_FILENO, buf, len);

	if (ret < 0 && !g->output)
		log_error("cannot write the result to stdout: %s", strerror(-ret));
	return ret;
}

int open_sysroot(const char *arg)
{
	struct strbuf err = STRBUF_INIT;
	int r = sysroot_open(arg, &err);

	if (r == -EINVAL && err.len)
		log_error("invalid --sysroot '%s': %s", arg, err.buf);
	else if (r == -ENOTDIR)
		log_error("invalid --sysroot '%s': neither a directory nor a snapshot file", arg);
	else if (r < 0 && strlen(arg) > 64) /* a name too long: its start, its length */
		log_error("invalid --sysroot '%.64s...' (%zu bytes): %s", arg, strlen(arg),
			  strerror(-r));
	else if (r < 0)
		log_error("invalid --sysroot '%s': %s", arg, strerror(-r));
	strbuf_release(&err);
	return r;
}

void bad_option(const char *cmd, int ret, char **argv)
{
	char shortopt[3] = {'-', (char)optopt, '\0'};
	const char *prev = optind > 0 ? argv[optind - 1] : NULL;
	struct strbuf word = STRBUF_INIT;

	/*
	 * A long option is named by what was typed (argv[optind - 1], without
	 * "=value"); optopt then holds its internal code, not a letter.
	 */
	if (prev && !strncmp(prev, "--", 2))
		strbuf_add(&word, prev, strcspn(prev, "="));
	else
		strbuf_adds(&word, optopt > 0 && optopt < 128 ? shortopt : (prev ? prev : "?"));
	if (ret == ':')
		log_error("%s: option '%s' needs a value (see 'usbperf %s -h')", cmd, word.buf, cmd);
	else if (optopt && prev && !strncmp(prev, "--", 2) && strchr(prev, '='))
		/* getopt names a known option given "=value" by its code; an unknown one by 0 */
		log_error("%s: option '%s' takes no value", cmd, word.buf);
	else
		log_error("%s: unknown option '%s' (see 'usbperf %s -h')", cmd, word.buf, cmd);
	strbuf_release(&word);
}

struct option_handler {
	const struct cmd_opt *table;
	const struct opt_bind *binds;
	int (*opt)(int c, const char *arg, void *ctx);
	void *ctx;
};

static int option_loop(int argc, char **argv, struct global_opts *g, const char *cmd,
		       const char *shortopts, const struct option *longopts, void (*usage)(void),
		       const struct option_handler *h)
{
	int c, r;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		r = common_option(c, optarg, g);
		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		if (c == 'h') {
			usage();
			return 1;
		}
		r = opt_bind_take(h->binds, h->table, c, optarg, h->ctx);
		if (r == 0)
			r = h->opt ? h->opt(c, optarg, h->ctx) : -ENOENT;
		else if (r > 0)
			r = 0;
		if (r == -ENOENT)
			bad_option(cmd, c, argv);
		if (r < 0)
			return -1;
	}
	return 0;
}

/* the table's options, then the common ones it does not list itself */
static size_t table_longopts(const struct cmd_opt *t, struct option *lo, size_t max,
			     char *so, size_t somax)
{
	static const struct option common[] = {
	    {"format", required_argument, NULL, 'F'}, {"output", required_argument, NULL, 'o'},
	    {"quiet", no_argument, NULL, 'q'},	      {"help", no_argument, NULL, 'h'},
	    {"wide", no_argument, NULL, OPT_WIDE},
	};
	size_t n = 0, len = strlen(COMMON_SHORT_OPTIONS), i;

	memcpy(so, COMMON_SHORT_OPTIONS, len + 1);
	for (; (t->name || t->help) && n < max; t++) {
		if (!t->name || (t->flags & OPT_AGAIN))
			continue;
		lo[n++] = (struct option){t->name, t->arg ? required_argument : no_argument, NULL,
					  t->key};
		if (t->key < OPT_KEY && !strchr(COMMON_SHORT_OPTIONS, t->key) && len + 3 < somax) {
			so[len++] = (char)t->key;
			if (t->arg)
				so[len++] = ':';
			so[len] = '\0';
		}
	}
	for (i = 0; i < sizeof(common) / sizeof(common[0]) && n < max; i++) {
		size_t j;

		for (j = 0; j < n && strcmp(lo[j].name, common[i].name); j++)
			;
		if (j == n)
			lo[n++] = common[i];
	}
	return n;
}

/*
 * 'usbperf CMD --completion-values OPTION': what the bash completion offers
 * after OPTION, from the table (opt_print_values); --format's from the
 * command's formats (any before a command: "help"). Listed nowhere: 1, as -h.
 */
/* the formats cmd writes ("limits uvc", "net client": its first word); any for "help" */
static unsigned command_formats(const char *cmd)
{
	for (unsigned i = 0; i < ncommands; i++) {
		size_t len = strlen(commands[i].name);

		if (!strncmp(cmd, commands[i].name, len) && (cmd[len] == '\0' || cmd[len] == ' ') &&
		    strcmp(cmd, "help"))
			return commands[i].formats;
	}
	return FMT_ALL;
}

static int completion_values(const char *cmd, const struct cmd_opt *t, const char *option)
{
	const struct cmd_opt *o = opt_lookup(t, option);

	if (!o)
		o = opt_lookup(global_options, option);
	if (o && o->key == 'F') {
		for (unsigned i = 0; i < 3; i++)
			if (command_formats(cmd) & (1u << i))
				printf("%s\n", format_names[i]);
	} else if (o) {
		opt_print_values(stdout, o);
	}
	return 1;
}

int parse_table(int argc, char **argv, struct global_opts *g, const char *cmd,
		const struct cmd_opt *t, void (*usage)(void),
		int (*opt)(int c, const char *arg, void *ctx), void *ctx)
{
	return parse_bound(argc, argv, g, cmd, t, usage, NULL, opt, ctx);
}

int parse_bound(int argc, char **argv, struct global_opts *g, const char *cmd,
		const struct cmd_opt *t, void (*usage)(void), const struct opt_bind *binds,
		int (*opt)(int c, const char *arg, void *ctx), void *ctx)
{
	const struct option_handler h = {t, binds, opt, ctx};
	struct option lo[PARSE_TABLE_MAX + 8];
	char so[2 * PARSE_TABLE_MAX + sizeof(COMMON_SHORT_OPTIONS)];
	size_t n;

	if (argc == 3 && !strcmp(argv[1], OPT_COMPLETION_VALUES))
		return completion_values(cmd, t, argv[2]);

	if (opt_count(t) > PARSE_TABLE_MAX)
		abort(); /* a table this long needs PARSE_TABLE_MAX raised */
	n = table_longopts(t, lo, PARSE_TABLE_MAX + 7, so, sizeof(so));
	lo[n] = (struct option){NULL, 0, NULL, 0};
	return option_loop(argc, argv, g, cmd, so, lo, usage, &h);
}

int load_input(const char *what, const char *file, size_t max,
	       int (*parse)(const char *buf, size_t len, void *ctx, struct strbuf *err),
	       void *ctx)
{
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	bool is_stdin = !strcmp(file, "-");
	int fd = STDIN_FILENO;
	int r;

	/* a path that cannot be an input is bad input, said in one line (paths.h) */
	if (!is_stdin && (r = input_open(what, file, &fd)) < 0)
		return r;
	r = read_fd_all(fd, max, &buf);
	if (!is_stdin)
		close(fd);
	if (r == -EFBIG) {
		log_error("invalid %s '%s': larger than %zu MiB", what, file, max >> 20);
		r = -EINVAL;
	} else if (r < 0 && !(r == -EINTR && signal_stop)) {
		log_error("cannot read %s '%s': %s", what, file, strerror(-r));
	}
	if (r == 0) {
		r = parse(buf.buf, buf.len, ctx, &err);
		if (r == -EINVAL)
			log_error("invalid %s '%s': %s", what, file, err.buf);
		else if (r < 0)
			log_error("cannot read %s '%s': %s", what, file, strerror(-r));
	}
	strbuf_release(&buf);
	strbuf_release(&err);
	return r;
}

void warnings_vaddf(char ***v, size_t *n, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;
	char **nv;

	strbuf_vaddf(&sb, fmt, ap);
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv) {
		strbuf_release(&sb);
		return;
	}
	*v = nv;
	(*v)[(*n)++] = strbuf_detach(&sb);
}
