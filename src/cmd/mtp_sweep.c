// SPDX-License-Identifier: MIT
/*
 * usbperf mtp --buffer-sweep LIST: on a machine that is both sides of the
 * link, usbperf's own MTP gadget (gadget up mtp, umtprd) is brought up with
 * each read/write buffer size in turn, measured from the host side by a
 * fresh usbperf process, and taken down again: the rate against the
 * device's buffers, the tuning the vendor guides describe.
 */
#include "cmd/mtp.h"
#include "classes/mtp/fields.h"
#include "classes/mtp/sweep.h"
#include "util/signals.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int mtp_run_sweep(struct mtp_opts *o, struct global_opts *g)
{
	struct report rep = {.command = "mtp"};
	struct mtp_sweep_result res = {0};
	struct finding_list fl = FINDING_LIST_INIT;
	const struct mtp_sweep_plan plan = {
	    .sizes = o->sizes,
	    .nsizes = o->nsizes,
	    .repeat = o->repeat,
	    .folder = o->folder,
	    .storage = o->storage,
	};
	int status = EXIT_OK;

	for (size_t b = 0; b < o->nbuffers && status == EXIT_OK && !signal_stop; b++) {
		char *why = NULL;
		int r = mtp_sweep_one(&plan, o->buffers[b], &res, &why);

		if (r < 0 && why)
			log_error("mtp: --buffer-sweep: %s", why);
		/* no UDC, a module missing, one already there: refused, as gadget up refuses */
		if (r == -EEXIST || r == -ENODEV || r == -ENOENT || r == -EBUSY || r == -EINVAL)
			status = EXIT_USAGE;
		else if (r < 0)
			status = EXIT_RUNTIME;
		free(why);
	}
	if (res.dev.device)
		report_add_object(&rep, "device", NULL, &mtp_device_desc, &res.dev);
	report_add_table(&rep, "buffer_sweep",
			 "umtprd's read/write buffers against the rate (MB/s = 10^6 B/s)",
			 &mtp_sweep_desc, res.rows, res.nrows, sizeof(*res.rows));
	mtp_sweep_findings(res.rows, res.nrows, res.dev.device ? res.dev.device : "mtp", &fl);
	report_add_table(&rep, "findings", "Findings", &finding_desc, fl.v, fl.n,
			 sizeof(struct finding));
	if ((res.nrows || res.dev.device) && emit_report(g, &rep) < 0 && status == EXIT_OK)
		status = EXIT_RUNTIME;
	finding_list_release(&fl);
	mtp_sweep_result_release(&res);
	return status;
}
