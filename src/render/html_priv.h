/* SPDX-License-Identifier: MIT */
#pragma once
/* What the parts of the HTML report share (render/html.c, html_verdicts.c). */
#include "check/check.h"
#include "render/svg.h"
#include "report/model.h"
#include "run/compare.h"
#include "util/strbuf.h"
#include "version.h"

/* a page's start: the doctype, its meta lines and "<title>", the title to follow */
#define HTML_DOC_START                                                                           \
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"                       \
	"<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"                  \
	"<meta name=\"generator\" content=\"usbperf " USBPERF_VERSION "\"><title>"
/* escaped text, "-" for NULL */
void html_esc(struct strbuf *out, const char *s);
/* before, s escaped, after; nothing at all for a NULL s (a fact that may be unknown) */
void html_opt(struct strbuf *out, const char *before, const char *s, const char *after);
/* a number with prec decimals, "-" for NaN */
void html_num(struct strbuf *out, double v, int prec);
/* decimals that keep about four significant digits */
int html_prec(double v);
/* a table cell: escaped text ("-" for NULL); a right-aligned number */
void html_td(struct strbuf *out, const char *s);
void html_td_num(struct strbuf *out, double v);
/* "high" -> "high-speed (480M)"; unknown names as they are */
const char *html_speed_label(const char *name);
/* "run 2" in its colour and the run's id */
void html_run_heading(struct strbuf *out, const struct report_model *m, size_t i);

void html_findings(struct strbuf *out, const struct report_model *m);
/* at a glance: a line per device and run with its verdict; the runs' notes */
void html_glance_verdicts(struct strbuf *out, const struct report_model *m);
void html_glance_notes(struct strbuf *out, const struct report_model *m);
/* topology: the device found at path and not measured, with why; true if there was one */
bool html_unmeasured_node(struct strbuf *out, const struct run_record *r, const char *path);
/* ... and those not on USB (on_usb(key) false), as items of the "not on USB" list */
void html_unmeasured_off_usb(struct strbuf *out, const struct run_record *r,
			     bool (*on_usb)(const char *), bool *other);
/* cmp[i - 1]: run 0 against run i */
void html_comparison(struct strbuf *out, const struct report_model *m,
		     const struct compare_result *cmp);
/* the checks (not the metrics only measured) with their results */
void html_checks(struct strbuf *out, const struct report_model *m, const struct check_result *c);
/* a device's URB size histograms per monitored pass, folded (html_wire.c) */
void html_wire_section(struct strbuf *out, const struct report_model *m,
		       const struct rm_device *d);
/* a device's figures, one row per pass and run (html_figures.c) */
void html_figures_table(struct strbuf *out, const struct report_model *m,
			const struct rm_device *d);
/*
 * A histogram's bars: for each bin b below maxbins that test's class names
 * ("<prefix><b>"), the device's figure of that pass in every run that has
 * it, under the bin's label; at most cap bars. Returns how many.
 */
size_t html_bin_bars(const struct report_model *m, const struct rm_device *d, const char *test,
		     const char *pass, const char *prefix, unsigned maxbins, struct svg_bar *bars,
		     size_t cap);
