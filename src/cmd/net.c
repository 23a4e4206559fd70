// SPDX-License-Identifier: MIT
/* usbperf net server | client HOST: parse options, run, render. */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "classes/net/sweep.h"
#include "classes/net/fields.h"
#include "classes/net/net.h"
#include "classes/net/sock.h"
#include "render/text_stream.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/xalloc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define DEFAULT_TIMEOUT_S 10.0

void usage_net(void)
{
	printf("usage: usbperf net server [options]\n"
	       "       usbperf net client HOST [options]\n"
	       "\n"
	       "Network throughput over iperf3's protocol: the client runs against 'iperf3 -s' or\n"
	       "'usbperf net server', the server takes 'iperf3 -c' or 'usbperf net client'. TCP\n"
	       "and UDP, several streams, reverse and both ways; totals as both ends counted\n"
	       "them, CPU of both ends, and the USB link's ceiling when the interface is on USB.\n"
	       "\n");
	opt_usage(stdout, net_options);
	printf("\n"
	       "Text output: the interval rows as each interval ends (line by line, to a pipe\n"
	       "too), then the test and the totals, last. JSON, CSV and -o FILE are one\n"
	       "document written at the end (the rows then show on stderr if it is a terminal).\n"
	       "A warning names an end that used over 90 %% of a CPU: the rate may be the CPU's.\n"
	       "\n"
	       "Rates: MB/s = 10^6 B/s, Mbit/s = 10^6 bit/s. Exit: 0 ok, 2 bad input (nothing\n"
	       "written), 3 runtime error (partial results printed), 128+N stopped by signal N.\n");
}

struct net_opts {
	bool server;
	unsigned port;
	int family;
	const char *bind_addr, *bind_dev, *host, *sysroot;
	double interval_s, timeout_s;
	bool one_off;
	bool monitor;
	bool v4, v6;
	bool time_set, bytes_set, blocks_set, len_set, rate_set;
	struct net_params p;
	/* --length-sweep: a test per UDP datagram length (TCP: per MSS) */
	uint64_t *lens;
	size_t nlens;
};

static int bad(const char *opt, const char *arg, const char *what)
{
	log_error("invalid %s '%s': expected %s", opt, arg, what);
	return -EINVAL;
}

/* whole seconds in [min, max], as iperf3's protocol carries them */
static int whole_seconds(const char *opt, const char *arg, double min, double max, uint64_t *ret)
{
	double v;

	if (parse_duration(arg, min, max, &v) < 0 || v != floor(v)) {
		char what[48];

		snprintf(what, sizeof(what), "whole seconds, %.0f..%.0f", min, max);
		return bad(opt, arg, what);
	}
	*ret = (uint64_t)v;
	return 0;
}

static int opt_common(int c, const char *arg, struct net_opts *o)
{
	uint64_t v;

	switch (c) {
	case 'p':
		if (parse_u64(arg, 1, 65535, &v) < 0)
			return bad("--port", arg, "a port 1..65535");
		o->port = (unsigned)v;
		return 1;
	case 'B':
		if (!*arg)
			return bad("--bind", arg, "an address");
		o->bind_addr = arg;
		return 1;
	case NET_O_BIND_DEV:
		if (!*arg || strlen(arg) >= IF_NAMESIZE || strchr(arg, '/') || !if_nametoindex(arg))
			return bad("--bind-dev", arg, "the name of an interface of this machine");
		o->bind_dev = arg;
		return 1;
	case '4':
		o->v4 = true;
		o->family = AF_INET;
		return 1;
	case NET_O_MONITOR:
		o->monitor = true;
		return 1;
	case '6':
		o->v6 = true;
		o->family = AF_INET6;
		return 1;
	case 'i':
		if (parse_duration(arg, 0, 60, &o->interval_s) < 0 ||
		    (o->interval_s > 0 && o->interval_s < 0.1))
			return bad("--interval", arg, "0 (none) or 0.1..60 seconds");
		return 1;
	case NET_O_TIMEOUT:
		if (parse_duration(arg, 0.1, 3600, &o->timeout_s) < 0)
			return bad("--timeout", arg, "0.1..3600 seconds");
		return 1;
	case NET_O_SYSROOT:
		o->sysroot = arg;
		return 1;
	}
	return 0;
}

static int opt_sizes(int c, const char *arg, struct net_opts *o)
{
	struct net_params *p = &o->p;

	switch (c) {
	case 'n':
		o->bytes_set = true;
		return parse_size(arg, 1, INT64_MAX, &p->bytes) < 0
			       ? bad("--bytes", arg, "a size, e.g. 100M or 1GB")
			       : 1;
	case 'k':
		o->blocks_set = true;
		return parse_u64(arg, 1, INT64_MAX, &p->blocks) < 0
			       ? bad("--blocks", arg, "a number of blocks")
			       : 1;
	case NET_O_LENGTH_SWEEP:
		free(o->lens);
		o->lens = NULL;
		return parse_size_list(arg, 16, NET_MAX_UDP_LEN, NET_SWEEP_MAX, &o->lens,
				       &o->nlens) < 0
			       ? bad("--length-sweep", arg,
				     "lengths 16..65507, e.g. 64,512,1472 (at most 32)")
			       : 1;
	case 'l':
		o->len_set = true;
		return parse_size(arg, 1, NET_MAX_LEN, &p->len) < 0
			       ? bad("--length", arg, "a size up to 1M")
			       : 1;
	case 'w':
		return parse_size(arg, 1024, 512u << 20, &p->window) < 0
			       ? bad("--window", arg, "a size 1K..512M")
			       : 1;
	case 'b':
		o->rate_set = true;
		return net_parse_rate(arg, INT64_MAX, &p->rate_bps) < 0
			       ? bad("--bitrate", arg, "bit/s, e.g. 100M or 1.5G (0 unlimited)")
			       : 1;
	}
	return 0;
}

static int opt_client(int c, const char *arg, struct net_opts *o)
{
	struct net_params *p = &o->p;
	uint64_t v;
	int r;

	switch (c) {
	case 'u':
		p->proto = NET_UDP;
		return 1;
	case 't':
		o->time_set = true;
		r = whole_seconds("--time", arg, 1, NET_MAX_TIME_S, &p->time_s);
		return r < 0 ? r : 1;
	case 'O':
		r = whole_seconds("--omit", arg, 0, NET_MAX_OMIT_S, &p->omit_s);
		return r < 0 ? r : 1;
	case 'P':
		if (parse_u64(arg, 1, NET_MAX_STREAMS, &p->parallel) < 0)
			return bad("--parallel", arg, "1..128 streams");
		return 1;
	case 'R':
		p->reverse = true;
		return 1;
	case NET_O_BIDIR:
		p->bidir = true;
		return 1;
	case 'M':
		if (parse_u64(arg, 88, 9216, &p->mss) < 0)
			return bad("--mss", arg, "88..9216 bytes");
		return 1;
	case 'N':
		p->nodelay = true;
		return 1;
	case 'C':
		if (!*arg || strlen(arg) >= sizeof(p->congestion))
			return bad("--congestion", arg, "an algorithm name such as cubic");
		snprintf(p->congestion, sizeof(p->congestion), "%s", arg);
		return 1;
	case 'S':
		if (parse_u64(arg, 0, 255, &v) < 0)
			return bad("--tos", arg, "0..255");
		p->tos = v;
		return 1;
	case NET_O_UDP64:
		p->udp_64bit = true;
		return 1;
	}
	return opt_sizes(c, arg, o);
}

static const char *family_name(int family)
{
	return family == AF_INET ? "IPv4" : family == AF_INET6 ? "IPv6" : "IP";
}

/* AF_INET or AF_INET6 for an address literal, AF_UNSPEC for a name */
static int literal_family(const char *s)
{
	unsigned char a[sizeof(struct in6_addr)];

	if (inet_pton(AF_INET, s, a) == 1)
		return AF_INET;
	if (inet_pton(AF_INET6, s, a) == 1)
		return AF_INET6;
	return AF_UNSPEC;
}

/* the kernel's sockets take the algorithm: ask it now, not after the connection */
static int check_congestion(const struct net_params *p)
{
	struct strbuf avail = STRBUF_INIT;
	int r;

	if (!p->congestion[0])
		return 0;
	r = net_congestion_check(p->congestion, &avail);
	if (r < 0)
		log_error("net client: congestion control '%s' is not %s (available: %s)",
			  p->congestion, r == -EPERM ? "allowed for this user" : "available",
			  avail.len ? avail.buf : "unknown");
	strbuf_release(&avail);
	return r < 0 ? -EINVAL : 0;
}

/* the options name things this machine has: asked of the kernel, before any connection */
static int check_machine(const struct net_opts *o)
{
	const char *name = o->server ? "net server" : "net client";
	int r;

	if (!o->server && check_congestion(&o->p) < 0)
		return -EINVAL;
	if (!o->bind_addr)
		return 0;
	r = net_local_addr_check(o->bind_addr, o->family);
	if (r < 0) {
		log_error("%s: invalid --bind '%s': not %s address of this machine", name,
			  o->bind_addr,
			  o->family == AF_UNSPEC ? "an"
			  : o->family == AF_INET ? "an IPv4"
						 : "an IPv6");
		return -EINVAL;
	}
	return 0;
}

static int check_host(const struct net_opts *o)
{
	int hf;

	if (!*o->host) {
		log_error("net client: empty HOST");
		return -EINVAL;
	}
	hf = literal_family(o->host);
	if (hf != AF_UNSPEC && o->family != AF_UNSPEC && hf != o->family) {
		log_error("net client: HOST '%s' is not an %s address (%s)", o->host,
			  family_name(o->family), o->family == AF_INET ? "-4" : "-6");
		return -EINVAL;
	}
	if (hf != AF_UNSPEC && o->bind_addr && literal_family(o->bind_addr) != AF_UNSPEC &&
	    literal_family(o->bind_addr) != hf) {
		log_error("net client: --bind '%s' cannot reach HOST '%s': not an %s address",
			  o->bind_addr, o->host, family_name(hf));
		return -EINVAL;
	}
	return 0;
}

/* the options that only mean something for one protocol */
static int check_protocol(const struct net_params *p)
{
	const char *tcp_only = p->congestion[0] ? "--congestion"
			       : p->mss		? "--mss"
			       : p->nodelay	? "--no-delay"
						: NULL;

	if (p->proto == NET_UDP && tcp_only) {
		log_error("net client: %s is a TCP option, not for --udp", tcp_only);
		return -EINVAL;
	}
	if (p->proto != NET_UDP && p->udp_64bit) {
		log_error("net client: --udp-64bit is for --udp tests");
		return -EINVAL;
	}
	return 0;
}

/* what a client option set means together; the defaults that depend on the protocol */
static int check_client(struct net_opts *o)
{
	struct net_params *p = &o->p;
	int r = check_host(o);

	if (r == 0)
		r = check_protocol(p);
	if (r < 0)
		return r;

	if (o->time_set + o->bytes_set + o->blocks_set > 1) {
		log_error("net client: give one end condition: --time, --bytes or --blocks");
		return -EINVAL;
	}
	if (p->reverse && p->bidir) {
		log_error("net client: --reverse and --bidir exclude each other");
		return -EINVAL;
	}
	if (o->nlens && (p->bidir || (p->proto == NET_UDP ? o->len_set : p->mss != 0))) {
		log_error("net client: --length-sweep sets %s itself, one direction at a time",
			  p->proto == NET_UDP ? "--length" : "--mss");
		return -EINVAL;
	}
	if (o->nlens && p->proto != NET_UDP)
		for (size_t i = 0; i < o->nlens; i++)
			if (o->lens[i] < 88 || o->lens[i] > 9216) {
				log_error("invalid --length-sweep %llu for TCP (an MSS): expected "
					  "88..9216 bytes",
					  (unsigned long long)o->lens[i]);
				return -EINVAL;
			}
	if (o->bytes_set || o->blocks_set)
		p->time_s = 0;
	if (!o->len_set)
		p->len = p->proto == NET_UDP ? NET_DEFAULT_UDP_LEN : NET_DEFAULT_TCP_LEN;
	if (p->proto == NET_UDP && (p->len < NET_MIN_UDP_LEN || p->len > NET_MAX_UDP_LEN)) {
		log_error("invalid --length %llu for UDP: expected %u..%u bytes",
			  (unsigned long long)p->len, NET_MIN_UDP_LEN, NET_MAX_UDP_LEN);
		return -EINVAL;
	}
	if (!o->rate_set)
		p->rate_bps = p->proto == NET_UDP ? NET_DEFAULT_UDP_RATE : 0;
	return 0;
}

/* an option as the user typed it, for a message: "-t" or "--udp-64bit" */
static void opt_name(int c, char *buf, size_t len)
{
	const struct cmd_opt *opt = opt_find(net_options, c);

	if (opt && c >= OPT_KEY)
		snprintf(buf, len, "--%s", opt->name);
	else
		snprintf(buf, len, "-%c", c > 32 && c < 127 ? c : '?');
}

/* one option of the role's: 0 taken, -ENOENT not net's, -EINVAL the other role's or bad */
static int net_option(int c, const char *arg, void *ctx)
{
	struct net_opts *o = ctx;
	char opt[32];
	int r = opt_common(c, arg, o);

	if (r == 0 && o->server && c == '1') {
		o->one_off = true;
		r = 1;
	}
	if (r == 0 && !o->server && c != '1' && c != '?' && c != ':')
		r = opt_client(c, arg, o);
	if (r != 0)
		return r < 0 ? r : 0;
	if (!opt_find(net_options, c))
		return -ENOENT;
	opt_name(c, opt, sizeof(opt));
	log_error("net %s: option '%s' is for the %s (see 'usbperf net -h')",
		  o->server ? "server" : "client", opt, o->server ? "client" : "server");
	return -EINVAL;
}

static int parse_args(int argc, char **argv, struct global_opts *g, struct net_opts *o)
{
	const char *name = o->server ? "net server" : "net client";
	int r = parse_table(argc, argv, g, "net", net_options, usage_net, net_option, o);

	if (r != 0)
		return r > 0 ? 1 : -EINVAL;
	if (!o->server) {
		if (optind >= argc) {
			log_error("net client: missing HOST (see 'usbperf net -h')");
			return -EINVAL;
		}
		o->host = argv[optind++];
	}
	if (optind < argc) {
		log_error("%s: unexpected argument '%s'", name, argv[optind]);
		return -EINVAL;
	}
	if (o->v4 && o->v6) {
		log_error("%s: -4 and -6 exclude each other", name);
		return -EINVAL;
	}
	return o->server ? 0 : check_client(o);
}

/*
 * The interval rows as they are measured. In text to stdout they are the
 * report's first part, streamed line by line (a pipe sees each as it ends),
 * and the end leaves them out; JSON, CSV and -o FILE are one document at
 * the end, and the rows then show as progress on stderr when it is a
 * terminal. Either way each row is printed once, through the field table.
 */
struct live {
	const struct global_opts *g;
	struct text_stream ts;
	bool to_stdout; /* streaming the text report's first part */
	bool failed;	/* stdout could not take a row (logged): nothing more goes there */
};

static void live_init(struct live *lv, const struct global_opts *g)
{
	*lv = (struct live){
		.g = g,
		.ts = TEXT_STREAM_INIT("intervals", &net_interval_desc),
		.to_stdout = g->format == FORMAT_TEXT && !g->output,
	};
}

static void live_rows(void *ctx, const struct net_interval_row *rows, size_t n)
{
	struct live *lv = ctx;
	struct strbuf out = STRBUF_INIT;
	int r;

	if (lv->failed || (!lv->to_stdout && !lv->g->progress))
		return;
	text_stream_rows(&lv->ts, rows, n, sizeof(*rows), &out);
	if (!lv->to_stdout)
		fputs(out.buf, stderr);
	else if ((r = emit_text(lv->g, out.buf, out.len)) < 0) {
		lv->failed = true;
		/* the reader went away (`| head`): the test stops now, as at SIGPIPE */
		if (r == -EPIPE && !signal_stop)
			signal_stop = SIGPIPE;
	}
	strbuf_release(&out);
}

/* The report: in text the intervals first (unless streamed already), the totals last. */
static int live_report(struct live *lv, const struct net_report *rep)
{
	const struct global_opts *g = lv->g;
	struct report view = {.command = "net"};
	struct strbuf out = STRBUF_INIT;
	int r;

	if (lv->failed)
		return -EPIPE;
	net_report_describe(rep, g->format != FORMAT_TEXT, &view);
	if (g->format != FORMAT_TEXT)
		return emit_report(g, &view);
	if (!lv->to_stdout && rep->interval_s > 0) {
		struct text_stream ts = TEXT_STREAM_INIT("intervals", &net_interval_desc);

		text_stream_rows(&ts, rep->intervals, rep->nintervals, sizeof(*rep->intervals),
				 &out);
	}
	if ((lv->to_stdout && lv->ts.started) || out.len)
		strbuf_addch(&out, '\n');
	render_text(&view, &out);
	r = emit_text(g, out.buf, out.len);
	strbuf_release(&out);
	/* the next test (a server's) starts a table of its own */
	lv->ts = (struct text_stream)TEXT_STREAM_INIT("intervals", &net_interval_desc);
	return r;
}

static void show_event(void *ctx, const char *msg)
{
	const struct global_opts *g = ctx;

	if (!g->quiet)
		fprintf(stderr, "usbperf: net: %s\n", msg);
}

/* the client's early warnings (a bound device the route does not use) */
static void client_event(void *ctx, const char *msg)
{
	(void)ctx;
	log_warn("%s", msg);
}

struct server_ctx {
	struct global_opts *g;
	struct live lv;
	bool write_failed;
};

static void server_report(void *ctx, const struct net_report *rep)
{
	struct server_ctx *sc = ctx;

	if (live_report(&sc->lv, rep) < 0)
		sc->write_failed = true;
}

static void server_event(void *ctx, const char *msg)
{
	struct server_ctx *sc = ctx;

	show_event(sc->g, msg);
}

static void server_interval(void *ctx, const struct net_interval_row *rows, size_t n)
{
	struct server_ctx *sc = ctx;

	live_rows(&sc->lv, rows, n);
}

static int run_server(struct global_opts *g, const struct net_opts *o)
{
	struct server_ctx sc = {.g = g};
	struct net_server_config c = {
		.port = o->port, .family = o->family, .bind_addr = o->bind_addr,
		.bind_dev = o->bind_dev, .one_off = o->one_off, .monitor = o->monitor,
		.interval_s = o->interval_s,
		.timeout_s = o->timeout_s, .stop = &signal_stop, .on_interval = server_interval,
		.on_event = server_event, .on_report = server_report, .ctx = &sc,
	};
	char *why = NULL;
	int r;

	live_init(&sc.lv, g);
	r = net_server_run(&c, &why);

	if (r < 0) {
		log_error("net server: %s", why ? why : strerror(-r));
		free(why);
		return EXIT_USAGE;
	}
	/* stopped by a signal, idle or mid-test: 128 + N, as every command */
	if (signal_stop)
		return 128 + signal_stop;
	return sc.write_failed ? EXIT_RUNTIME : EXIT_OK;
}

/* --length-sweep: one test per length, a table next to the link's ceilings */
static int run_sweep(struct global_opts *g, const struct net_opts *o)
{
	struct net_client_config c = {
		.host = o->host, .port = o->port, .family = o->family, .bind_addr = o->bind_addr,
		.bind_dev = o->bind_dev, .p = o->p, .timeout_s = o->timeout_s,
		.stop = &signal_stop, .on_event = client_event,
	};
	struct net_sweep *s = calloc(1, sizeof(*s));
	struct report view = {.command = "net client --length-sweep"};
	char *why = NULL;
	int r, status = EXIT_OK;

	if (!s) {
		log_error("net client: out of memory");
		return EXIT_RUNTIME;
	}
	r = net_length_sweep(&c, o->lens, o->nlens, s, &why);
	if (r < 0) {
		log_error("net client: %s", why ? why : strerror(-r));
		free_all(why, s);
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < s->n; i++)
		if (s->rows[i].error)
			status = EXIT_RUNTIME;
	net_sweep_describe(s, &view);
	if (emit_report(g, &view) < 0)
		status = EXIT_RUNTIME;
	if (signal_stop)
		status = 128 + signal_stop;
	net_sweep_release(s);
	free(s);
	return status;
}

static int run_client(struct global_opts *g, const struct net_opts *o)
{
	struct live lv;
	struct net_client_config c = {
		.host = o->host, .port = o->port, .family = o->family, .bind_addr = o->bind_addr,
		.bind_dev = o->bind_dev, .p = o->p, .interval_s = o->interval_s,
		.timeout_s = o->timeout_s, .monitor = o->monitor, .stop = &signal_stop,
		.on_interval = live_rows,
		.on_event = client_event, .ctx = &lv,
	};
	struct net_report rep = {0};
	int r, status = EXIT_OK;

	live_init(&lv, g);
	r = net_client_run(&c, &rep);

	if (r < 0) {
		log_error("net client: %s", rep.error_msg ? rep.error_msg : strerror(-r));
		status = rep.interrupted && signal_stop ? 128 + signal_stop : EXIT_RUNTIME;
		goto out;
	}
	if (live_report(&lv, &rep) < 0)
		status = EXIT_RUNTIME;
	if (rep.interrupted && signal_stop)
		status = 128 + signal_stop;
	else if (rep.error) {
		log_error("net client: %s", rep.error_msg ? rep.error_msg : strerror(-rep.error));
		status = EXIT_RUNTIME;
	}
out:
	net_report_release(&rep);
	return status;
}

void schema_net(struct report *r)
{
	static const struct net_report every = {.interval_s = 1};

	net_report_describe(&every, true, r);
}

int cmd_net(int argc, char **argv, struct global_opts *g)
{
	struct net_opts o = {.port = NET_DEFAULT_PORT, .family = AF_UNSPEC, .interval_s = 1,
			     .timeout_s = DEFAULT_TIMEOUT_S};
	int r;

	if (argc < 2) {
		log_error("net: expected 'server' or 'client HOST' (see 'usbperf net -h')");
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage_net();
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "server")) {
		o.server = true;
	} else if (strcmp(argv[1], "client")) {
		log_error("net: unknown mode '%s': expected 'server' or 'client HOST'", argv[1]);
		return EXIT_USAGE;
	}
	net_params_defaults(&o.p, NET_TCP);
	r = parse_args(argc - 1, argv + 1, g, &o);
	/* the output is checked before any socket: a measurement it cannot keep is not run */
	if (r > 0)
		r = EXIT_OK;
	else if (r < 0 || check_output(g) < 0 || (o.sysroot && open_sysroot(o.sysroot) < 0) ||
		 check_machine(&o) < 0)
		r = EXIT_USAGE;
	else
		r = o.server ? run_server(g, &o) : o.nlens ? run_sweep(g, &o) : run_client(g, &o);
	free(o.lens);
	return r;
}
