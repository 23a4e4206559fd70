/* SPDX-License-Identifier: MIT */
#pragma once
#include <stdarg.h>
/* What every subcommand shares: global options, error reporting, writing the result. */
#include "cmd/opt/shared.h"
#include "render/render.h"
#include "util/strbuf.h"

#include <getopt.h>
#include <stdbool.h>

/* exit statuses, documented in usbperf(1), EXIT STATUS */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,	  /* ran, but the result fails: verify mismatch, regression (compare) */
	EXIT_USAGE = 2,	  /* bad input or refused: nothing was written */
	EXIT_RUNTIME = 3, /* a runtime error ended the measurement; partial results printed */
};

struct command;

struct global_opts {
	const struct command *cmd; /* set by run_command before dispatch */
	enum output_format format;
	const char *output;
	bool quiet;
	bool progress; /* stderr is a terminal and not --quiet */
};

struct command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv, struct global_opts *g);
	void (*usage)(void);
	unsigned formats; /* FMT_* the command can write; --format is checked against it */
	bool measures;	  /* polls signal_stop; any other command ends at the first signal */
	/*
	 * every section its JSON may hold, in r (data NULL): what --schema
	 * prints (render/schema.c); NULL for a command that writes no JSON
	 */
	void (*schema)(struct report *r);
};

#define FMT_TEXT (1u << FORMAT_TEXT)
#define FMT_JSON (1u << FORMAT_JSON)
#define FMT_CSV (1u << FORMAT_CSV)
#define FMT_ALL (FMT_TEXT | FMT_JSON | FMT_CSV)

extern const struct command commands[];
extern const unsigned ncommands;

/* the leading ":" makes getopt return ':' for a missing value */
#define COMMON_SHORT_OPTIONS ":F:o:qh"

/* Handle a common option: 1 handled, 0 not common, -1 bad (message printed). */
int common_option(int c, const char *arg, struct global_opts *g);
/*
 * argv[*i] as a global option before the command (or beside --schema), its
 * value taken from the next word when it has one (*i advanced): 1 handled, 0
 * not a global option, -1 bad (one line logged)
 */
int global_option(int argc, char **argv, int *i, struct global_opts *g);
/*
 * --format against what WHAT ("import", "history --check") can write: one
 * line "WHAT: --format csv is not available (text or json)", -1. The
 * command table's mask is checked as soon as -F is parsed; a mode that
 * writes less calls this after its options.
 */
int check_format(const struct global_opts *g, const char *what, unsigned formats);
/*
 * Validate --output before any work: a file name that fits, not a directory,
 * socket or device node, in an existing writable directory. A FIFO is
 * written through, and of character devices only /dev/null, a terminal, or
 * what stdout or stderr already is: any other node is a device a report
 * would be written into. One line logged, -EINVAL.
 */
int check_output(const struct global_opts *g);
/*
 * The one output check of a command that measures something named: as
 * check_output(), and --output is none of the targets (as same_file():
 * through links, by inode, by device number for nodes), what: "the device
 * being measured". A target NULL is none. One line logged, -EINVAL/-EEXIST.
 */
int check_output_target(const struct global_opts *g, const char *target, const char *what);
int check_output_targets(const struct global_opts *g, const char *const *targets, size_t n,
			 const char *what);
/* The same for a file option ("--html"). */
int check_writable(const char *option, const char *path);
/*
 * a and b are the same file (st_dev and st_ino; two device nodes of the same
 * kind and number), or will be (same name, same directory); links followed
 */
bool same_file(const char *a, const char *b);
/*
 * The files a command reads (or measures), so that no output replaces one:
 * inputs_add() a path (NULL: none) and what it is ("the criteria file");
 * names are copied; -ENOMEM.
 */
struct input {
	char *path;
	const char *what;
};
struct inputs {
	struct input *v;
	size_t n;
};
int inputs_add(struct inputs *in, const char *path, const char *what);
void inputs_release(struct inputs *in);
/*
 * An output (--output, --junit, --html) that is the same file as one of the
 * inputs (st_dev and st_ino: links and other names count; or the same name
 * in the same directory, for files not there yet) is refused before any
 * work: "refusing to write --output 'F': it is the history database being
 * read", -EEXIST (exit 2).
 */
int refuse_output_over(const struct inputs *in, const char *option, const char *output);
/*
 * Two outputs of one command (--output and --junit...) naming the same file
 * (as same_file; a character device such as /dev/null may take both): the
 * second would replace the first. Refused before any work, one line, -EEXIST.
 */
int refuse_outputs_clash(const char *const *options, const char *const *paths, size_t n);
/* The usual end: r from the inputs_add() calls (-ENOMEM logged), the check, the list released */
int inputs_check_output(struct inputs *in, int r, const char *option, const char *output);

__attribute__((format(printf, 1, 2))) void log_error(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void log_warn(const char *fmt, ...);
/* "usbperf: warning: video --size is deprecated: it is --frame-size now" */
void log_deprecated(const char *cmd, const char *old, const char *now);

/* Render the report in the chosen format to stdout or --output (atomically). */
int emit_report(const struct global_opts *g, const struct report *r);

/*
 * `usbperf CMD --schema`: the JSON the command writes, as Markdown (text) or
 * a JSON Schema (-F json), to stdout or --output; only -F, -o and -q go
 * with it. -1 when argv has no --schema, else the exit status.
 */
int schema_command(const struct command *c, int argc, char **argv, struct global_opts *g);
/* Text rendered by the command itself (a tree) to stdout or --output. */
int emit_text(const struct global_opts *g, const char *buf, size_t len);

/*
 * A file the user named ('-': stdin), at most max bytes, handed to parse
 * (which fills err when it refuses, returning -EINVAL). One line logged on
 * any failure: "cannot open WHAT 'FILE': ...", "invalid WHAT 'FILE': why".
 * 0; -EINVAL for bad input (missing, too large, refused: exit 2); -errno.
 */
int load_input(const char *what, const char *file, size_t max,
	       int (*parse)(const char *buf, size_t len, void *ctx, struct strbuf *err),
	       void *ctx);

/* Write buf to path atomically (aside, then rename); logs and returns -errno on failure. */
int write_file_atomic(const char *path, const char *buf, size_t len);

/*
 * --sysroot ARG: a directory or a snapshot file becomes the root every probe
 * reads from. Logs the one-line error and returns -errno when it cannot.
 */
int open_sysroot(const char *arg);

/* getopt's own message is suppressed: one line of ours, naming the option */
void bad_option(const char *cmd, int ret, char **argv);

/* the longest option table parse_table takes */
#define PARSE_TABLE_MAX 64
/*
 * The option loop of every command, over its table (cmd/opt/opt.h): its
 * long options, its letters as short ones, and the common options it does
 * not list itself; -h prints usage(). The command's own options go to
 * opt(c, arg, ctx), which returns 0 when it took the option, -ENOENT when it
 * is not one of its own (named here by bad_option), or another negative
 * errno after logging. 0: parsed, operands from optind; 1: -h shown; -1: bad
 * input, one line logged.
 */
int parse_table(int argc, char **argv, struct global_opts *g, const char *cmd,
		const struct cmd_opt *t, void (*usage)(void),
		int (*opt)(int c, const char *arg, void *ctx), void *ctx);
/* parse_table, the options binds declares (cmd/bind.h) set in ctx before opt sees the rest */
struct opt_bind;
int parse_bound(int argc, char **argv, struct global_opts *g, const char *cmd,
		const struct cmd_opt *t, void (*usage)(void), const struct opt_bind *binds,
		int (*opt)(int c, const char *arg, void *ctx), void *ctx);

/* append one printf-formatted line to a report's warnings (v, n); dropped when out of memory */
void warnings_vaddf(char ***v, size_t *n, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
