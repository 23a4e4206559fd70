/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * A run as text with its verdicts first: one line per device saying what
 * limits it, then the report's sections, then the findings grouped under
 * each device's verdict (those about no measured figure last, marked so),
 * then the run's notes. Used by `run` and `show`.
 */
#include "model/record.h"
#include "render/render.h"
#include "util/strbuf.h"

/* "verdict" and a line a device: "  2-1  bus: seq-read 1M 41.9 MB/s is ..." */
void render_verdicts_text(const struct run_record *r, struct strbuf *out);
/* the findings by device, under each verdict; a run without verdicts: as a flat list */
void render_findings_by_device(const struct run_record *r, struct strbuf *out);
/* "note: ..." a line */
void render_notes_text(const struct run_record *r, struct strbuf *out);
/* all of it around rep's sections (any findings section in rep is left to the grouping) */
int render_run_text(const struct run_record *r, const struct report *rep, struct strbuf *out);
