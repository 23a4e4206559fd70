// SPDX-License-Identifier: MIT
/*
 * Networks as a class of `usbperf run` (run/class.h): a USB network
 * interface against --peer, net:HOST, or the host's loopback when nothing
 * is on USB. TCP each way against a usbperf or iperf3 server, each rate
 * next to the goodput the USB link allows after its framing.
 */
#include "classes/net/net.h"
#include "classes/net/sweep.h"
#include "run/class_kit.h"
#include "run/pass_sys.h"
#include "run/run_priv.h"
#include "platform/usbmon/findings.h"
#include "platform/usb/topology.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* this class (defined at the end): its rows and plan items name it */
extern const struct measure_class run_class_net;

/* the class's options of run */
struct net_opts {
	const char *peer;  /* --peer HOST: a usbperf or iperf3 server for USB netdevs */
	uint64_t *lengths; /* --length-sweep: with --peer, a UDP pass per datagram length */
	size_t nlengths;
};

static const struct net_opts *nopts(const struct run_options *o)
{
	return run_class_opts(o, &run_class_net);
}

static int set_peer(void *opts, char *const *words, char **ret_why)
{
	struct net_opts *n = opts;

	if (!*words[0]) {
		*ret_why = xstrdup("invalid --peer '': expected a host running usbperf net server "
				   "or iperf3 -s");
		return -EINVAL;
	}
	n->peer = words[0];
	return 0;
}

static int set_lengths(void *opts, char *const *words, char **ret_why)
{
	struct net_opts *n = opts;
	uint64_t *lens = NULL;
	size_t nlens = 0;
	struct strbuf why = STRBUF_INIT;

	if (parse_size_list(words[0], 16, 65507, 32, &lens, &nlens) < 0) {
		strbuf_addf(&why,
			    "invalid --length-sweep '%s': expected UDP datagram lengths 16..65507, "
			    "e.g. 64,512,1472 (at most 32)",
			    words[0]);
		*ret_why = strbuf_detach(&why);
		return -EINVAL;
	}
	free(n->lengths);
	n->lengths = lens;
	n->nlengths = nlens;
	return 0;
}

static void net_opts_release(void *opts)
{
	struct net_opts *n = opts;

	free(n->lengths);
}

static int net_check_options(const struct run_options *o, char **ret_why)
{
	if (nopts(o)->nlengths && !nopts(o)->peer) {
		*ret_why = xstrdup("--length-sweep measures through a network link: give --peer HOST");
		return -EINVAL;
	}
	return 0;
}

static const struct class_option net_options[] = {
    {"peer", "HOST", 1, false,
     "measure USB network interfaces: TCP each way to HOST (usbperf\n"
     "net server or iperf3 -s) through each interface",
     set_peer},
    {"length-sweep", "LIST", 1, false,
     "with --peer: also a UDP pass per datagram length of LIST\n"
     "(16..65507, e.g. 64,512,1472), as fast as the sender goes,\n"
     "next to the link's ceilings for frames of that size, and\n"
     "its loss",
     set_lengths},
};

#define NET_QUICK_S 5
/* wire bytes that were not payload: said from this share, a warning this far over the model */
#define NET_OVERHEAD_PCT 3.0
#define NET_OVERHEAD_EXCESS 10.0
#define NET_FULL_S 10
/* not iperf3's 5201: a server the user runs there stays undisturbed */
#define RUN_LOOPBACK_PORT 5299u

/* seconds a network pass measures: --time (whole seconds, at least 1), else the default */
static uint64_t net_pass_s(const struct run_options *o)
{
	if (o->time_s > 0)
		return o->time_s < 1 ? 1 : (uint64_t)ceil(o->time_s);
	return o->full ? NET_FULL_S : NET_QUICK_S;
}

/* a network plan item: the server, and the way to it */
struct net_item {
	char *host;	/* the usbperf/iperf3 server */
	char *iface;	/* through this interface (SO_BINDTODEVICE), NULL: the route's */
	unsigned port;	/* 0: iperf3's 5201 */
	bool loopback;	/* a usbperf server this process starts on 127.0.0.1:port */
};

static const struct class_metric net_metrics[] = {
    CLASS_RATE("mbit_s", "Mbit/s", "rate"),
    CLASS_METRIC("retransmits", "segments", "retransmits", false),
    CLASS_CPU("self_cpu_pct", "cpu", "usbperf's own"),
    /* on the wire: the interface's USB device on usbmon (not with --no-monitor) */
    CLASS_RATE("wire_mb_s", "MB/s", "wire"),
    CLASS_METRIC("urb_size", "B", "URB size", true),
    CLASS_METRIC("overhead_pct", "%", "wire overhead", false),
    CLASS_METRIC("usb_errors", "errors", "USB errors", false),
    /* --length-sweep's UDP passes */
    CLASS_METRIC("loss_pct", "%", "loss", false),
};

static struct net_item *item_new(struct run_plan_item *it, const char *host, const char *iface,
				 unsigned port)
{
	struct net_item *n = calloc(1, sizeof(*n));

	if (!n)
		abort();
	n->host = xstrdup(host);
	n->iface = xstrdup(iface);
	n->port = port;
	it->state = n;
	return n;
}

static void add_net_device(struct run_result *r, struct run_plan_item *it,
			   const struct net_report *rep)
{
	struct run_device *d = class_add_device(r, it, rep->on_usb ? "usb-net" : "host-net");

	if (d && rep->on_usb)
		run_device_attach(d, &rep->usb);
}

/* a monitored pass's wire figures: metric rows of their own */
static void add_wire_rows(struct run_result *r, const struct run_plan_item *it, const char *pass,
			  const struct net_report *rep)
{
	const double v[] = {rep->wire_mb_s, (double)rep->urb_size, rep->overhead_pct,
			    (double)rep->usb_errors};
	static const char *const key[] = {"wire_mb_s", "urb_size", "overhead_pct", "usb_errors"};

	if (!rep->monitored)
		return;
	for (size_t j = 0; j < sizeof(key) / sizeof(key[0]); j++) {
		struct run_metric *m;

		if (isnan(v[j]) || v[j] == (double)U64_UNKNOWN)
			continue;
		m = run_class_add_metric(&r->rec, &run_class_net, it->device_key, pass, key[j]);
		m->value = v[j];
		m->repeats = 1;
	}
}

/*
 * What the wire said: the bytes that were not payload against what the driver's
 * framing alone costs (the rest is Ethernet/IP/TCP headers and the other way's
 * ACKs), and errors.
 */
static void wire_findings(struct run_result *r, const struct run_plan_item *it, const char *pass,
			  const struct net_report *rep, bool reverse)
{
	struct usbmon_device_view dv = {
	    .subject = it->device_key, .driver = rep->usb.driver, .max_sectors_kb = U64_UNKNOWN};
	struct usbmon_pass_view v = {.pass = pass,
				     .urbs = rep->wire.urbs,
				     .usb_errors = rep->usb_errors,
				     .wire_bytes = rep->wire_bytes,
				     .inflight_mean = NAN,
				     .inflight_max = NAN,
				     .busy_pct = NAN,
				     .protocol_pct = NAN};
	struct strbuf ev = STRBUF_INIT;
	double frame = reverse ? rep->frame_rx_bytes : rep->frame_tx_bytes, model = NAN;
	char urb[24];

	if (!rep->monitored)
		return;
	usbmon_findings(&dv, &v, 1, &r->rec.findings);
	if (isnan(rep->overhead_pct) || rep->overhead_pct < NET_OVERHEAD_PCT)
		return;
	/* a full-size TCP segment: what its frame costs on the bus beyond its payload */
	if (isfinite(frame) && rep->mtu != U64_UNKNOWN && rep->mtu > 52 + 14)
		model = 100.0 * (frame - (double)(rep->mtu - 52)) / frame;
	strbuf_addf(&ev,
		    "%s: %llu B on the wire (usbmon, both ways) for %llu B of payload: %.1f%% not "
		    "payload",
		    pass, (unsigned long long)rep->wire_bytes,
		    (unsigned long long)rep->payload_bytes, rep->overhead_pct);
	if (isfinite(model))
		strbuf_addf(&ev, "; full-size frames under %s framing would cost %.1f%%",
			    rep->usb.driver ? rep->usb.driver : "the driver's", model);
	if (rep->urb_size != U64_UNKNOWN) {
		format_size(rep->urb_size, urb, sizeof(urb));
		strbuf_addf(&ev, "; dominant transfer %s", urb);
	}
	if (isfinite(model) && rep->overhead_pct > model + NET_OVERHEAD_EXCESS)
		finding_add(&r->rec.findings, FINDING_WARN, "usbmon.net_overhead", it->device_key,
			    "the network's traffic costs the bus much more than its framing: "
			    "small frames or transfers, or many ACKs",
			    ev.buf,
			    "larger writes (-l), TCP segmentation offload and GRO on both ends, "
			    "and for NCM gadgets a larger NTB (the function's ntb size)");
	else
		finding_add(&r->rec.findings, FINDING_INFO, "usbmon.net_overhead", it->device_key,
			    "a share of the wire carries no payload: framing, headers and ACKs",
			    ev.buf,
			    "nothing to change while it is near what full-size frames cost");
	strbuf_release(&ev);
}

static void add_net_row(struct run_result *r, const struct run_plan_item *it, const char *pass,
			const struct net_report *rep, const struct net_sum_row *s)
{
	struct run_row *row;
	struct run_metric *m;

	m = run_class_add_metric(&r->rec, &run_class_net, it->device_key, pass, "mbit_s");
	m->value = s->mbit_s;
	m->repeats = 1;
	if (s->ceiling_mbit_s > 0)
		m->ceiling = s->ceiling_mbit_s;
	if (s->retransmits >= 0) {
		m = run_class_add_metric(&r->rec, &run_class_net, it->device_key, pass,
					 "retransmits");
		m->value = (double)s->retransmits;
		m->repeats = 1;
	}
	add_wire_rows(r, it, pass, rep);
	/* the CPU this end used, as a disk pass records it: show and report need it too */
	if (!isnan(rep->cpu_total)) {
		m = run_class_add_metric(&r->rec, &run_class_net, it->device_key, pass,
					 "self_cpu_pct");
		m->value = rep->cpu_total;
		m->repeats = 1;
	}
	row = run_add_row(r);
	row->device = it->device_key;
	row->target = it->path;
	row->pass = m->name;
	row->op = "net";
	row->bs = rep->len;
	row->qd = rep->streams;
	row->mb_s = s->mb_s;
	row->mib_s = s->mb_s * 1e6 / 1048576.0;
	row->mb_s_sd = row->iops = row->lat_p99_us = NAN;
	row->self_cpu_pct = rep->cpu_total;
	/* the goodput ceiling after framing, in MB/s like every other row */
	row->ceiling_mb_s = s->ceiling_mbit_s / 8;
	row->efficiency_pct = s->efficiency_pct;
	/* after the row: it points into the metric added last, which this may move */
	run_add_pass_sys(&r->rec, &run_class_net, it->device_key, pass, &rep->sys, 1);
}

static void efficiency_finding(struct run_result *r, const struct run_plan_item *it,
			       const char *pass, const struct net_sum_row *s)
{
	struct strbuf ev = STRBUF_INIT;

	if (isnan(s->efficiency_pct))
		return;
	strbuf_addf(&ev, "%s: %.1f Mbit/s received = %.0f%% of the %.1f Mbit/s the link allows "
			 "after USB framing",
		    pass, s->mbit_s, s->efficiency_pct, s->ceiling_mbit_s);
	if (s->efficiency_pct >= 75)
		finding_add(&r->rec.findings, FINDING_INFO, "run.net_bus_bound", it->device_key,
			    "network throughput is at the USB link's limit", ev.buf,
			    "only a faster USB link (SuperSpeed, a port and cable for it) raises it");
	else if (s->efficiency_pct < 40)
		finding_add(&r->rec.findings, FINDING_WARN, "run.net_below_link", it->device_key,
			    "network throughput far below what the USB link carries: the "
			    "adapter, the driver's aggregation, the peer or the CPU limits it",
			    ev.buf,
			    "check the peer (a wired host that does line rate), the CPU "
			    "('cpu' column), and for NCM/RNDIS gadgets the function's qmult");
	strbuf_release(&ev);
}

/* TCP send, then receive (-R), against the peer */
/* --length-sweep: a UDP pass per datagram length, next to the link's ceilings for it */
static int net_lengths(const struct run_options *o, struct run_result *r,
		       const struct run_plan_item *it, char **ret_why)
{
	const struct net_item *n = class_item(it, &run_class_net);
	struct net_client_config c = {
	    .host = n->host,
	    .port = n->port ? n->port : NET_DEFAULT_PORT,
	    .bind_dev = n->iface,
	    .timeout_s = 10,
	    .stop = o->stop,
	};
	struct net_sweep *s = calloc(1, sizeof(*s));
	size_t i;
	int rc;

	if (!s)
		abort();
	net_params_defaults(&c.p, NET_UDP);
	c.p.time_s = net_pass_s(o);
	c.p.rate_bps = 0; /* as fast as the sender goes: the loss says what did not fit */
	rc = net_length_sweep(&c, nopts(o)->lengths, nopts(o)->nlengths, s, ret_why);
	for (i = 0; rc == 0 && i < s->n; i++) {
		const struct net_sweep_row *x = &s->rows[i];
		struct run_metric *m;
		char pass[32];

		if (x->error) {
			run_note(r, "%s: udp %llu B not measured", it->path,
				 (unsigned long long)x->length);
			continue;
		}
		snprintf(pass, sizeof(pass), "udp %llu B", (unsigned long long)x->length);
		m = run_class_add_metric(&r->rec, &run_class_net, it->device_key, pass, "mbit_s");
		m->value = x->mbit_s;
		m->repeats = 1;
		if (x->ceiling_mbit_s > 0)
			m->ceiling = x->ceiling_mbit_s;
		if (isfinite(x->loss_pct)) {
			m = run_class_add_metric(&r->rec, &run_class_net, it->device_key, pass,
						 "loss_pct");
			m->value = x->loss_pct;
			m->repeats = 1;
		}
	}
	net_sweep_release(s);
	free(s);
	return rc;
}

static int net_target(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		      char **ret_why)
{
	const struct net_item *n = class_item(it, &run_class_net);
	static const struct {
		const char *pass;
		bool reverse;
	} dirs[] = {{"tcp send", false}, {"tcp receive", true}};
	size_t i;
	int rc = 0;

	for (i = 0; i < 2 && !(o->stop && *o->stop); i++) {
		struct net_client_config c = {
		    .host = n->host,
		    .port = n->port ? n->port : NET_DEFAULT_PORT,
		    .bind_dev = n->iface,
		    .timeout_s = 10,
		    .monitor = !o->no_monitor && !n->loopback,
		    .stop = o->stop,
		};
		struct net_report rep = {0};
		const struct net_sum_row *s;

		net_params_defaults(&c.p, NET_TCP);
		c.p.time_s = net_pass_s(o);
		c.p.omit_s = 1;
		c.p.reverse = dirs[i].reverse;
		rc = net_client_run(&c, &rep);
		if (rc < 0) {
			struct strbuf w = STRBUF_INIT;

			strbuf_addf(&w, "%s: %s", it->path,
				    rep.error_msg ? rep.error_msg : strerror(-rc));
			*ret_why = strbuf_detach(&w);
			net_report_release(&rep);
			return rc;
		}
		if (rep.on_usb && !it->device_key_from_usb) {
			free(it->device_key);
			it->device_key = xstrdup(rep.usb.device);
			it->device_key_from_usb = true;
		}
		add_net_device(r, it, &rep);
		s = net_report_received(&rep);
		if (s) {
			add_net_row(r, it, dirs[i].pass, &rep, s);
			efficiency_finding(r, it, dirs[i].pass, s);
			wire_findings(r, it, dirs[i].pass, &rep, dirs[i].reverse);
		}
		if (rep.on_usb && !rep.monitored && rep.monitor_why)
			run_note(r, "%s: %s not monitored on the wire: %s", it->path, dirs[i].pass,
				 rep.monitor_why);
		for (size_t j = 0; j < rep.nwarnings; j++)
			run_note(r, "%s: %s", it->path, rep.warnings[j]);
		net_report_release(&rep);
	}
	if (rc == 0 && nopts(o)->nlengths)
		rc = net_lengths(o, r, it, ret_why);
	return rc;
}

/*
 * No USB here: the host's loopback, against a usbperf server in a child
 * process, so the first run on any machine measures the network path too.
 */
static void ready(void *ctx, const char *msg)
{
	int fd = *(int *)ctx;

	if (fd >= 0 && strstr(msg, "listening")) {
		(void)!write(fd, "", 1);
		close(fd);
		*(int *)ctx = -1;
	}
}

static int net_loopback(const struct run_options *o, struct run_result *r,
			struct run_plan_item *it, char **ret_why)
{
	const struct net_item *n = class_item(it, &run_class_net);
	int pfd[2], status, rc;
	pid_t pid;
	char c;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (pid == 0) {
		static volatile int child_stop;
		struct net_server_config sc = {
			.port = n->port,
			.bind_addr = "127.0.0.1",
			.timeout_s = 10,
			.stop = &child_stop,
			.on_event = ready,
			.ctx = &pfd[1],
		};
		char *why = NULL;

		close(pfd[0]);
		/* a parent killed with -9 must not leave a server behind */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() == 1)
			_exit(0);
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		net_server_run(&sc, &why);
		_exit(0); /* the parent's buffers and cleanups are not the child's */
	}
	close(pfd[1]);
	/* listening, or gone (EOF): then the client reports the refusal */
	while (read(pfd[0], &c, 1) < 0 && errno == EINTR)
		;
	close(pfd[0]);
	rc = net_target(o, r, it, ret_why);
	kill(pid, SIGTERM);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return rc;
}

/* every USB network interface, against --peer; without one, say how to include it */
static void net_discover(const struct run_options *o, struct run_result *r)
{
	const struct usb_topology *t = r->topo;
	struct strbuf why = STRBUF_INIT, path = STRBUF_INIT;

	for (size_t i = 0; i < t->nnode; i++) {
		const struct usb_node *u = &t->node[i];
		struct run_plan_item *it;

		if (strcmp(u->kind, USB_NODE_NET))
			continue;
		if (!nopts(o)->peer) {
			run_note(r,
				 "%s (USB %s) is a network interface: 'usbperf run --peer HOST' "
				 "measures it against a usbperf or iperf3 server (usbperf net "
				 "server, iperf3 -s) reached through it",
				 u->name, u->device);
			run_unmeasured_add(r, u->device, "usb-net", u->name,
					   "a network interface: measured only with --peer HOST (a "
					   "usbperf net server or iperf3 -s reached through it)");
			continue;
		}
		strbuf_reset(&path);
		strbuf_reset(&why);
		strbuf_addf(&path, "net:%s via %s", nopts(o)->peer, u->name);
		strbuf_addf(&why,
			    "%s is a USB network interface: TCP each way to --peer %s through it",
			    u->name, nopts(o)->peer);
		it = run_plan_add(r, &run_class_net, path.buf, u->device, "usb-net", false, why.buf);
		it->on_usb = true;
		it->device_key_from_usb = true;
		item_new(it, nopts(o)->peer, u->name, 0);
	}
	strbuf_release(&path);
	strbuf_release(&why);
}

/* nothing on USB: the host's loopback, against a usbperf server run for it */
static void net_discover_host(const struct run_options *o, struct run_result *r)
{
	struct run_plan_item *it;

	(void)o;
	it = run_plan_add(r, &run_class_net, "net:127.0.0.1 (loopback)", "loopback", "host-net",
			  false,
			  "no USB network interface here: the host's loopback, against a usbperf "
			  "server run for it");
	item_new(it, "127.0.0.1", NULL, RUN_LOOPBACK_PORT)->loopback = true;
}

static bool net_claims(const char *target, const struct stat *st)
{
	(void)st;
	return !strncmp(target, "net:", 4);
}

static int net_check_target(const struct run_options *o, const char *target, char **ret_why)
{
	struct strbuf why = STRBUF_INIT;

	(void)o;
	if (target[4])
		return 0;
	strbuf_addf(&why, "target '%s': expected net:HOST (a usbperf or iperf3 server)", target);
	*ret_why = strbuf_detach(&why);
	return -EINVAL;
}

static void net_plan_target(const struct run_options *o, struct run_result *r,
			    struct run_plan_item *it)
{
	(void)o;
	(void)r;
	free(it->device_key);
	it->device_key = xstrdup(it->path);
	it->kind = "net";
	free(it->why);
	it->why = xstrdup("named on the command line: TCP each way");
	item_new(it, it->path + 4, NULL, 0);
}

static int net_measure(const struct run_options *o, struct run_result *r,
		       struct run_plan_item *it, char **ret_why)
{
	const struct net_item *n = class_item(it, &run_class_net);

	return n->loopback ? net_loopback(o, r, it, ret_why) : net_target(o, r, it, ret_why);
}

static void net_estimate(const struct run_options *o, const struct run_plan_item *it,
			 struct estimate *e, struct class_estimate *ret)
{
	(void)it;
	(void)e;
	/* TCP each way; the omitted first second (slow start) runs on top of the measured time */
	*ret = (struct class_estimate){"network", (unsigned)(2 + nopts(o)->nlengths),
				       net_pass_s(o) + 1};
}

static void net_release(struct run_plan_item *it)
{
	struct net_item *n = class_item(it, &run_class_net);

	if (!n)
		return;
	free_all(n->host, n->iface, n);
	it->state = NULL;
}

/* the analysis is efficiency_finding's, made as each pass is measured */
static const struct class_headline net_headline[] = {{"", "mbit_s"}};

/* how far each of its findings explains the figures (verdict.c): lower first */
static const struct class_finding_weight net_weights[] = {
    {"run.net_bus_bound", RUN_LIMITER_BUS, 30},
    {"run.net_below_link", RUN_LIMITER_UNKNOWN, 30},
};

/* what to run next where the adapter, the network or the peer may be the limit */
static const char *net_next_step(const struct run_record *r, const struct run_verdict *v)
{
	(void)r;
	if (v->limiter && !strcmp(v->limiter, RUN_LIMITER_UNKNOWN) &&
	    run_verdict_says(v, "adapter, the network or the peer"))
		return "'usbperf net client' against another peer, and 'usbperf list' for the "
		       "adapter's speed and driver";
	return NULL;
}

const struct measure_class run_class_net = {
    .name = "net",
    .options = net_options,
    .noptions = sizeof(net_options) / sizeof(net_options[0]),
    .opts_size = sizeof(struct net_opts),
    .opts_release = net_opts_release,
    .check_options = net_check_options,
    .what = "network interfaces",
    .discover = net_discover,
    .discover_host = net_discover_host,
    .claims = net_claims,
    .check_target = net_check_target,
    .plan_target = net_plan_target,
    .estimate = net_estimate,
    .measure = net_measure,
    .release = net_release,
    .metrics = net_metrics,
    .nmetrics = sizeof(net_metrics) / sizeof(net_metrics[0]),
    .headline = net_headline,
    .nheadline = sizeof(net_headline) / sizeof(net_headline[0]),
    .finding_weights = net_weights,
    .nfinding_weights = sizeof(net_weights) / sizeof(net_weights[0]),
    .next_step = net_next_step,
};
