// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: random attribute contents in a realistic tree. A fixture
 * (FIXTURE: the hand-made PC USB tree for fuzz_sysfs, the RK3588 board with
 * its gadget side for fuzz_sysinfo) is loaded once; each input is a list of
 * records [index lo, index hi, length, bytes...] that replace the contents
 * of the chosen files, then the `usbperf list` and `usbperf sysinfo`
 * pipelines run: probes, findings, text and JSON.
 */
#include "platform/sys/sysinfo.h"
#include "platform/usb/topology.h"
#include "render/render.h"
#include "render/text_blocks.h"
#include "util/snapshot.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct vnode *base;
static size_t nbase, *files, nfiles;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	FILE *f = fopen(FIXTURE, "r");
	char buf[65536];
	size_t n, i;

	(void)argc, (void)argv;
	if (!f)
		abort();
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	if (snapshot_parse_buf(sb.buf, sb.len, &base, &nbase, &err) < 0) {
		fprintf(stderr, "%s: %s\n", FIXTURE, err.buf);
		abort();
	}
	files = calloc(nbase, sizeof(*files));
	for (i = 0; i < nbase; i++)
		if (base[i].kind == VNODE_FILE && !base[i].unread)
			files[nfiles++] = i;
	strbuf_release(&sb);
	strbuf_release(&err);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vnode *v = calloc(nbase, sizeof(*v));
	struct usb_topology t;
	struct finding_list fl = FINDING_LIST_INIT;
	struct report rep = {.command = "list"};
	struct strbuf out = STRBUF_INIT;
	size_t i;

	for (i = 0; i < nbase; i++) {
		v[i] = base[i];
		v[i].path = strdup(base[i].path);
		v[i].data = malloc(base[i].len + 1);
		memcpy(v[i].data, base[i].data, base[i].len + 1);
	}
	while (size >= 3) {
		size_t idx = files[(data[0] | (size_t)data[1] << 8) % nfiles], len = data[2];

		data += 3;
		size -= 3;
		if (len > size)
			len = size;
		free(v[idx].data);
		v[idx].data = malloc(len + 1);
		memcpy(v[idx].data, data, len);
		v[idx].data[len] = '\0';
		v[idx].len = len;
		data += len;
		size -= len;
	}
	if (sysroot_set_nodes(v, nbase) < 0)
		abort(); /* the fixture's paths are unique */
	if (usb_topology_probe(&t) == 0) {
		usb_topology_findings(&t, &fl);
		render_usb_tree(&t, &out);
		render_findings_text(fl.v, fl.n, &out);
		report_add_table(&rep, "devices", NULL, &usb_device_desc, t.dev, t.ndev,
				 sizeof(*t.dev));
		report_add_table(&rep, "nodes", NULL, &usb_node_desc, t.node, t.nnode,
				 sizeof(*t.node));
		report_add_table(&rep, "findings", NULL, &finding_desc, fl.v, fl.n, sizeof(*fl.v));
		render_json(&rep, &out);
		render_text(&rep, &out);
		finding_list_release(&fl);
		usb_topology_release(&t);
	}
	{
		struct sysinfo_facts si;
		struct finding_list sfl = FINDING_LIST_INIT;
		struct report srep = {.command = "sysinfo"};

		if (sysinfo_probe(&si) == 0) {
			sysinfo_findings(&si, &sfl);
			sysinfo_describe(&si, &sfl, &srep);
			render_text(&srep, &out);
			render_json(&srep, &out);
		}
		finding_list_release(&sfl);
		sysinfo_release(&si);
	}
	strbuf_release(&out);
	sysroot_set(NULL);
	return 0;
}
