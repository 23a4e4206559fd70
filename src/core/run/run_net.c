// SPDX-License-Identifier: MIT
/*
 * Network targets of `usbperf run`: a USB network interface against --peer,
 * or net:HOST. TCP each way against a usbperf or iperf3 server, each rate
 * next to the goodput the USB link allows after its framing.
 */
#include "core/net/net.h"
#include "core/run/run_priv.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#define NET_QUICK_S 5
#define NET_FULL_S 10

/* the receiver's count of one direction: what arrived is what counts */
static const struct net_sum_row *received(const struct net_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nrows; i++)
		if (!strcmp(rep->rows[i].stream, "sum") && !strcmp(rep->rows[i].role, "receiver"))
			return &rep->rows[i];
	return NULL;
}

static void add_net_device(struct run_result *r, struct run_plan_item *it,
			   const struct net_report *rep)
{
	struct run_device *d;
	size_t i;

	for (i = 0; i < r->rec.ndevices; i++)
		if (!strcmp(r->rec.devices[i].key, it->device_key))
			return;
	d = run_record_add_device(&r->rec);
	d->key = xstrdup(it->device_key);
	d->kind = xstrdup(rep->on_usb ? "usb-net" : "host-net");
	d->target = xstrdup(it->path);
	if (rep->on_usb)
		run_device_attach(d, &rep->usb);
}

static void add_net_row(struct run_result *r, const struct run_plan_item *it, const char *pass,
			const struct net_report *rep, const struct net_sum_row *s)
{
	struct run_row *row;
	struct run_metric *m;

	m = run_record_add_metric(&r->rec, it->device_key, "net", pass, "mbit_s", "Mbit/s", true);
	m->value = s->mbit_s;
	m->repeats = 1;
	if (s->retransmits >= 0) {
		m = run_record_add_metric(&r->rec, it->device_key, "net", pass, "retransmits", "segments",
					  false);
		m->value = (double)s->retransmits;
		m->repeats = 1;
	}
	/* the CPU this end used, as a disk pass records it: show and report need it too */
	if (!isnan(rep->cpu_total)) {
		m = run_record_add_metric(&r->rec, it->device_key, "net", pass, "self_cpu_pct", "%",
					  false);
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
int run_net_target(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		   char **ret_why)
{
	static const struct {
		const char *pass;
		bool reverse;
	} dirs[] = {{"tcp send", false}, {"tcp receive", true}};
	size_t i;
	int rc = 0;

	for (i = 0; i < 2 && !(o->stop && *o->stop); i++) {
		struct net_client_config c = {
			.host = it->net_host,
			.port = it->net_port ? it->net_port : NET_DEFAULT_PORT,
			.bind_dev = it->net_iface,
			.timeout_s = 10,
			.stop = o->stop,
		};
		struct net_report rep = {0};
		const struct net_sum_row *s;

		net_params_defaults(&c.p, NET_TCP);
		c.p.time_s = o->full ? NET_FULL_S : NET_QUICK_S;
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
		s = received(&rep);
		if (s) {
			add_net_row(r, it, dirs[i].pass, &rep, s);
			efficiency_finding(r, it, dirs[i].pass, s);
		}
		for (size_t j = 0; j < rep.nwarnings; j++)
			run_note(r, "%s: %s", it->path, rep.warnings[j]);
		net_report_release(&rep);
	}
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

int run_net_loopback(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		     char **ret_why)
{
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
			.port = it->net_port,
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
	rc = run_net_target(o, r, it, ret_why);
	kill(pid, SIGTERM);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return rc;
}

double run_net_pass_seconds(const struct run_options *o)
{
	/* the omitted first second (TCP slow start) is run on top of the measured time */
	return (o->full ? NET_FULL_S : NET_QUICK_S) + 1;
}
