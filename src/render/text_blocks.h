/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Text renderings that are not tables: the USB tree of `usbperf list` and
 * findings as blocks (a finding's evidence and fix are sentences, too long
 * for a column). JSON and CSV of the same data go through the field tables.
 */
#include "model/findings.h"
#include "platform/usb/topology.h"
#include "util/strbuf.h"

void render_usb_tree(const struct usb_topology *t, struct strbuf *out);
void render_findings_text(const struct finding *f, size_t n, struct strbuf *out);
/* one finding: its level, subject and message, evidence and fix wrapped (text_wrap) */
void render_finding_block(const struct finding *f, struct strbuf *out);
