// SPDX-License-Identifier: MIT
/*
 * usbperf i2c /dev/i2c-N --addr A: transfer rate and latency against
 * message size for one address, next to the payload ceiling of the bus
 * clock. Read-only unless --destructive; only the address given is touched.
 */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "model/findings.h"
#include "classes/i2c/fields.h"
#include "util/parse.h"
#include "util/signals.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void usage_i2c(void)
{
	printf("usage: usbperf i2c /dev/i2c-N --addr A [--sizes LIST] [--clock HZ]\n"
	       "                  [--time S] [--count N] [--ops LIST] [--destructive]\n"
	       "                  [--register R] [--force] [options]\n"
	       "\n"
	       "Messages/s, payload B/s and latency (p50, p99, max) against message size for\n"
	       "one I2C address, with the CPU they cost, next to the payload ceiling of the\n"
	       "bus clock (start, address byte, 9 bit times a byte, stop). Transfers go\n"
	       "through I2C_RDWR, or SMBus I2C-block (32 B at most) on an SMBus-only adapter.\n"
	       "Only the address given is touched; read-only unless --destructive.\n"
	       "\n");
	opt_usage(stdout, i2c_options);
	printf("\n"
	       "A NAK is counted; a pass ends after %u in a row (nothing is retried forever).\n"
	       "Exit: 0 ok, 1 a write read back differently, 2 bad input or refused (nothing\n"
	       "sent), 3 runtime error (the address never answered), 128+N stopped by signal N.\n",
	       I2C_NAK_LIMIT);
}


struct i2c_opts {
	const char *addr;
	uint64_t *sizes;
	size_t nsizes;
	uint64_t clock_hz, count, reg;
	double seconds;
	unsigned ops;
	bool ops_given, destructive, force;
	const char *sysroot;
};

#include "cmd/i2c.opts.h"
static int i2c_opt(int c, const char *arg, void *ctx)
{
	struct i2c_opts *o = ctx;

	switch (c) {
	case I2C_O_SIZES:
		free(o->sizes);
		o->sizes = NULL;
		if (parse_size_list(arg, 1, I2C_MAX_SIZE, I2C_MAX_SIZES, &o->sizes, &o->nsizes) <
		    0) {
			log_error("invalid --sizes '%s': expected up to %d sizes of 1..%u B, e.g. "
				  "1,16,32",
				  arg, I2C_MAX_SIZES, I2C_MAX_SIZE);
			return -EINVAL;
		}
		return 0;
	case I2C_O_CLOCK:
		if (i2c_clock_parse(arg, &o->clock_hz) < 0) {
			log_error("invalid --clock '%s': expected Hz from 1k to 10M, e.g. 400k",
				  arg);
			return -EINVAL;
		}
		return 0;
	case I2C_O_OPS:
		if (i2c_ops_parse(arg, &o->ops) < 0) {
			log_error("invalid --ops '%s': expected read, write-read, write", arg);
			return -EINVAL;
		}
		o->ops_given = true;
		return 0;
	case I2C_O_REGISTER:
		if ((!strncmp(arg, "0x", 2) ? parse_hex(arg, 0xff, &o->reg)
					    : parse_u64(arg, 0, 0xff, &o->reg)) < 0) {
			log_error("invalid --register '%s': expected a byte, 0..0xff", arg);
			return -EINVAL;
		}
		return 0;
	default:
		return -ENOENT;
	}
}

struct i2c_out {
	char **warnings;
	size_t nwarnings;
};

__attribute__((format(printf, 2, 3))) static void note(struct i2c_out *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warnings_vaddf(&out->warnings, &out->nwarnings, fmt, ap);
	va_end(ap);
}

/* the option checks that need no device; EXIT_OK or EXIT_USAGE (logged) */
static int check_opts(struct i2c_opts *o, unsigned *addr)
{
	struct strbuf why = STRBUF_INIT;
	int r;

	if (!o->addr) {
		log_error("i2c: give the address, e.g. --addr 0x50");
		return EXIT_USAGE;
	}
	r = i2c_addr_parse(o->addr, addr, &why);
	if (r < 0)
		log_error("%s", why.buf);
	strbuf_release(&why);
	if (r < 0)
		return EXIT_USAGE;
	if (!o->ops_given)
		o->ops = 1u << I2C_OP_READ | 1u << I2C_OP_WRITE_READ |
			 (o->destructive ? 1u << I2C_OP_WRITE : 0);
	if ((o->ops & 1u << I2C_OP_WRITE) && !o->destructive) {
		log_error("--ops write needs --destructive: it overwrites the device's registers");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static void add_notes(const struct i2c_target *t, const struct i2c_opts *o, struct i2c_out *out)
{
	if (t->method == I2C_METHOD_SMBUS_BLOCK && (o->ops & 1u << I2C_OP_READ))
		note(out,
		     "i2c-%u (%s) is SMBus-only: transfers are SMBus I2C-block (32 B at most), "
		     "which has no plain read (a read writes the register byte first)",
		     t->ad.bus, t->ad.name);
	if (t->capped)
		note(out,
		     "%zu default sizes left out: past the %u B an SMBus I2C-block transfer "
		     "carries",
		     t->capped, I2C_SMBUS_MAX);
	/* an unknown clock is a finding (i2c.clock_unknown), not said twice */
	if (o->clock_hz && t->ad.clock_hz && o->clock_hz != t->ad.clock_hz)
		note(out, "--clock %llu Hz differs from the device tree's %llu Hz ('%s')",
		     (unsigned long long)o->clock_hz, (unsigned long long)t->ad.clock_hz,
		     t->ad.clock_from);
	if (t->driver)
		note(out, "0x%02x is kernel driver '%s''s: used with --force (I2C_SLAVE_FORCE)",
		     t->addr, t->driver);
}

/* what the passes say for the exit status; logs once */
static int judge(const struct i2c_target *t, const char *node, const struct i2c_pass *p, size_t n,
		 struct i2c_out *out)
{
	uint64_t msgs = 0, naks = 0, errs = 0, mism = 0;
	int nak = 0, bus = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		msgs += p[i].messages;
		naks += p[i].naks;
		errs += p[i].errors;
		mism += p[i].mismatches;
		if (p[i].nak_err)
			nak = p[i].nak_err;
		if (p[i].bus_err)
			bus = p[i].bus_err;
	}
	if (naks)
		note(out, "0x%02x on i2c-%u did not acknowledge %llu times (NAK: %s)", t->addr,
		     t->ad.bus, (unsigned long long)naks, strerror(-nak));
	if (errs)
		note(out, "i2c-%u had %llu bus errors talking to 0x%02x (%s: %s)", t->ad.bus,
		     (unsigned long long)errs, t->addr, i2c_err_what(bus), strerror(-bus));
	if (!msgs && n) {
		if (naks)
			log_error("i2c: 0x%02x on '%s' never answered: NAK, no device there?",
				  t->addr, node);
		else
			log_error("i2c: no transfer to 0x%02x on '%s' went through: bus errors "
				  "(%s: %s), not a NAK",
				  t->addr, node, i2c_err_what(bus), strerror(-bus));
		return EXIT_RUNTIME;
	}
	if (errs)
		log_error("i2c: %llu transfers to 0x%02x on '%s' failed with bus errors (%s: %s)",
			  (unsigned long long)errs, t->addr, node, i2c_err_what(bus),
			  strerror(-bus));
	if (mism) {
		log_error("i2c: %llu bytes written to 0x%02x on '%s' read back differently",
			  (unsigned long long)mism, t->addr, node);
		return EXIT_FAIL;
	}
	return errs ? EXIT_RUNTIME : EXIT_OK;
}

void schema_i2c(struct report *r)
{
	static struct i2c_device_view dv;

	i2c_device_describe(&dv, r);
	i2c_passes_describe(NULL, 0, r);
	i2c_ceilings_describe(NULL, 0, r);
	report_add_table(r, "findings", "Findings", &finding_desc, NULL, 0, sizeof(struct finding));
}

int cmd_i2c(int argc, char **argv, struct global_opts *g)
{
	struct i2c_opts o = {.seconds = 0.5};
	struct i2c_target t = I2C_TARGET_INIT;
	struct i2c_pass passes[3 * I2C_MAX_SIZES];
	struct i2c_ceiling_row ceil[I2C_MAX_CEILINGS];
	struct i2c_device_view dv = {0};
	struct strbuf why = STRBUF_INIT, fn = STRBUF_INIT;
	struct report rep = {.command = "i2c"};
	struct i2c_out out = {0};
	struct finding_list fl = FINDING_LIST_INIT;
	struct strbuf subject = STRBUF_INIT;
	struct i2c_fd f;
	struct i2c_io io;
	unsigned addr = 0;
	size_t n = 0, nc, i;
	int r, status;

	r = parse_bound(argc, argv, g, "i2c", i2c_options, usage_i2c, i2c_binds, i2c_opt, &o);
	if (r != 0) {
		free(o.sizes);
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	status = EXIT_USAGE;
	if (optind != argc - 1) {
		log_error(optind >= argc ? "i2c: give the adapter, e.g. /dev/i2c-1"
					 : "i2c: one adapter only, got '%s' too",
			  argv[argc - 1]);
		goto out;
	}
	status = check_opts(&o, &addr);
	if (status != EXIT_OK)
		goto out;
	status = EXIT_USAGE;
	if (check_output_target(g, argv[optind], "the device being measured") < 0 ||
	    (o.sysroot && open_sysroot(o.sysroot) < 0))
		goto out;
	{
		struct i2c_want w = {o.sizes, o.nsizes, o.clock_hz, o.force, o.destructive};

		r = i2c_target_open(argv[optind], addr, &w, &t, &why);
	}
	if (r < 0) {
		log_error("%s", r == -ENOMEM ? "out of memory" : why.buf);
		status = r == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	f = (struct i2c_fd){t.fd, t.addr, t.method};
	i2c_io_fd(&io, &f);
	{
		struct i2c_plan p = {
		    .sizes = t.sizes,
		    .nsizes = t.nsizes,
		    .method = t.method,
		    .ops = o.ops,
		    .offset = (unsigned)o.reg,
		    .seconds = o.seconds,
		    .max_messages = o.count,
		    .clock_hz = t.clock_hz,
		    .stop = (volatile int *)&signal_stop,
		};

		r = i2c_passes_run(&io, &p, passes, &n);
	}
	if (r < 0) {
		log_error("i2c: cannot measure '%s': %s", argv[optind], strerror(-r));
		status = EXIT_RUNTIME;
		goto out_target;
	}
	add_notes(&t, &o, &out);
	status = judge(&t, argv[optind], passes, n, &out);
	i2c_funcs_names(t.funcs, &fn);
	dv = (struct i2c_device_view){
	    .node = argv[optind],
	    .adapter = t.ad.name,
	    .bus = t.ad.bus,
	    .clock_hz = t.clock_hz ? t.clock_hz : U64_UNKNOWN,
	    .clock_from = t.clock_from,
	    .funcs = fn.buf,
	    .method = i2c_method_name(t.method),
	    .claimed_by = t.driver,
	    .forced = t.forced,
	    .mode = o.destructive ? "destructive" : "read-only",
	    .offset = o.reg,
	};
	snprintf(dv.addr_buf, sizeof(dv.addr_buf), "0x%02x", t.addr);
	snprintf(dv.funcs_buf, sizeof(dv.funcs_buf), "0x%08lx", t.funcs);
	dv.address = dv.addr_buf;
	dv.funcs_hex = dv.funcs_buf;
	i2c_device_describe(&dv, &rep);
	i2c_passes_describe(passes, n, &rep);
	nc = i2c_ceilings_fill(passes, n, ceil);
	i2c_ceilings_describe(ceil, nc, &rep);
	strbuf_addf(&subject, "i2c-%u:0x%02x", t.ad.bus, t.addr);
	i2c_findings(subject.buf, passes, n, t.clock_hz, t.clock_from, &fl);
	if (fl.n)
		report_add_table(&rep, "findings", "Findings", &finding_desc, fl.v, fl.n,
				 sizeof(fl.v[0]));
	rep.warnings = out.warnings;
	rep.nwarnings = out.nwarnings;
	if (emit_report(g, &rep) < 0)
		status = EXIT_RUNTIME;
	else if (signal_stop)
		status = 128 + signal_stop;
out_target:
	i2c_target_release(&t);
out:
	for (i = 0; i < out.nwarnings; i++)
		free(out.warnings[i]);
	free(out.warnings);
	finding_list_release(&fl);
	strbuf_release(&subject);
	strbuf_release(&why);
	strbuf_release(&fn);
	free(o.sizes);
	return status;
}
