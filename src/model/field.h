/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The model (src/model/): what a figure is, below everything else. One field
 * table per result type drives every representation: text column
 * headers, JSON keys, CSV headers (and later SQL columns), so they cannot
 * drift apart. A report is a list of sections, each an object (one record)
 * or a table (an array of records), plus free-text warnings.
 */
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum field_type {
	FT_STR,	 /* const char * (NULL -> unknown) */
	FT_U64,	 /* uint64_t (U64_UNKNOWN -> unknown) */
	FT_DBL,	 /* double (NaN -> unknown) */
	FT_BOOL, /* bool */
	FT_SIZE, /* uint64_t bytes, shown as 4K/1M in text (U64_UNKNOWN -> unknown) */
	FT_INT,	 /* int64_t, FIELD_INT_UNKNOWN -> unknown: sysfs values that may be absent or -1 */
};

/* An FT_U64/FT_SIZE that could not be read: "-" in text, null in JSON, empty in CSV. */
#define U64_UNKNOWN UINT64_MAX
/* The same for an FT_INT. */
#define FIELD_INT_UNKNOWN INT64_MIN

enum {
	FF_TEXT = 1 << 0,    /* shown in the text rendering (JSON and CSV show every field) */
	FF_PLUSMINUS = 1 << 1, /* text: printed as "±value" right after the previous column */
	FF_OPTIONAL = 1 << 2,  /* text: left out when unknown (a column: in every row) */
	FF_BAR = 1 << 3,       /* text: a bar after the column, against the column's largest
				  value (100 for a "%" unit), so the shape shows at a glance */
	FF_MAGNITUDE = 1 << 4, /* text: a double's decimals by its size (metric_prec), its
				  "±" in the same decimals: one precision in every view */
	FF_METRIC = 1 << 5,    /* text: a metric key ("mb_s"), shown by its metric_vocab label */
	FF_LIST = 1 << 6,      /* an FT_STR of items joined by FIELD_LIST_SEP: a JSON array of
				  strings, ", " between them in text, "; " in CSV */
	FF_CEILING_SHARE = 1 << 7, /* a % of a physical ceiling: above 100 it is no share but an
				      anomaly (a cache, an emulated link): text and HTML flag
				      it, JSON writes null and "<key>_anomaly": true */
	FF_WIDE = 1 << 8,	   /* text: a column shown only with --wide (the terminal's
				      table fits 100 columns) */
	FF_ALT = 1 << 9,	   /* text: the previous column's figure in another unit, in its
				      cell: "599.9 (572.1)" under "MB/s (MiB/s)" */
	FF_SAME = 1 << 10,	   /* text: left out when every row has the same value (one
				      device: named above the table, not on every row) */
	FF_PROSE = 1 << 11,	   /* text: a sentence, wrapped under its row ("  why: ..."),
				      not a column as wide as its longest */
};

/* between the items of an FF_LIST string: a character no device key or name holds */
#define FIELD_LIST_SEP '\x1f'

/*
 * What a percentage is a percentage of, said in its unit: 199.87 "%" of a
 * machine's CPUs is unreadable, 199.87 "% of one CPU" is two CPUs kept busy.
 */
#define UNIT_PCT_ONE_CPU "% of one CPU" /* 100: one CPU busy the whole time */
#define UNIT_PCT_ALL_CPUS "% of all CPUs" /* 100: every CPU busy the whole time */
#define UNIT_PCT_TIME "% of time"	  /* of the pass's wall time (PSI, device busy) */
#define UNIT_PCT_CLOCK "% of top clock"	  /* of the CPU's highest clock */
#define UNIT_PCT_IRQS "% of IRQs"	  /* of the controller's interrupts */

struct field {
	const char *key;    /* JSON key, CSV column, SQL column: snake_case with unit suffix */
	const char *header; /* text column header or label */
	const char *unit;   /* "MB/s", "us", "%", NULL */
	/*
	 * The name the history stores it under (its SQL column) when the key
	 * was renamed for one vocabulary across commands ("device_key" is
	 * "device" now): run files and exports that still have it are read.
	 * NULL: the key.
	 */
	const char *stored;
	/*
	 * The rest packed into 8 bytes: every result type's table is in the
	 * board binary (40 bytes a field, not 56: 1,500 fields, 24 KB of its 2 MB)
	 */
	uint32_t offset;
	enum field_type type : 8;
	unsigned char prec; /* decimals of a double */
	unsigned short flags;
};

struct record_desc {
	const char *name;
	const struct field *fields;
	size_t nfields;
};

#define FIELD(st, member, key, header, unit, type, prec, flags)                                  \
	{key, header, unit, NULL, offsetof(st, member), type, prec, flags}
/* a field whose key was renamed: stored (and read from older files) as stored */
#define FIELD_RENAMED(st, member, key, stored, header, unit, type, prec, flags)                 \
	{key, header, unit, stored, offsetof(st, member), type, prec, flags}
/* the SQL column of a field */
#define FIELD_COLUMN(f) ((f)->stored ? (f)->stored : (f)->key)
#define RECORD_DESC(name, arr) {name, arr, sizeof(arr) / sizeof(arr[0])}

/* SECTION_INLINE: the record's fields at the top level (a schema's REPORT_SHAPE_RECORD) */
enum section_kind { SECTION_OBJECT, SECTION_TABLE, SECTION_INLINE };

/* what the JSON's top level is: for the schema of a command (render_json_schema) */
enum report_shape {
	REPORT_SHAPE_ENVELOPE, /* "usbperf", "command", the sections, "warnings" (render_json) */
	REPORT_SHAPE_RECORD,   /* one run as the history keeps it (show -F json) */
	REPORT_SHAPE_EXPORT,   /* "usbperf_export", "usbperf", "runs": [record...] */
};

struct report_section {
	const char *key;   /* JSON key */
	const char *title; /* text heading, NULL for none */
	enum section_kind kind;
	const struct record_desc *desc;
	const void *data;
	size_t count;	/* records (1 for an object) */
	size_t stride;	/* sizeof one record */
	/* a table whose records each hold an array too (gadget up's functions' endpoints) */
	const char *child_key;
	const struct record_desc *child_desc;
};

#define REPORT_MAX_SECTIONS 32

struct report {
	const char *command;
	enum report_shape shape;
	struct report_section sec[REPORT_MAX_SECTIONS];
	size_t nsec;
	char *const *warnings;
	size_t nwarnings;
};

void report_add_object(struct report *r, const char *key, const char *title,
		       const struct record_desc *d, const void *data);
void report_add_table(struct report *r, const char *key, const char *title,
		      const struct record_desc *d, const void *data, size_t count, size_t stride);
/* fields at the top level of the JSON (a record's, REPORT_SHAPE_RECORD; version's) */
void report_add_inline(struct report *r, const char *key, const struct record_desc *d,
		       const void *data);

bool field_known(const struct field *f, const void *rec);

/*
 * The one place a field's bytes are read and written by its type; every
 * format (text, JSON, the database, a double for a chart) goes through it.
 * field_visit calls the visitor's function for F's type with its value in
 * REC, or unknown() for a value field_known calls unknown (when unknown is
 * NULL the typed function gets the sentinel: NaN, NULL, U64_UNKNOWN, ...),
 * and returns what that returned; a NULL function returns 0.
 */
struct field_visitor {
	int (*unknown)(void *ctx, const struct field *f);
	int (*str)(void *ctx, const struct field *f, const char *v);
	int (*u64)(void *ctx, const struct field *f, uint64_t v); /* FT_U64 and FT_SIZE */
	int (*i64)(void *ctx, const struct field *f, int64_t v);
	int (*dbl)(void *ctx, const struct field *f, double v);
	int (*boolean)(void *ctx, const struct field *f, bool v);
};
int field_visit(const struct field *f, const void *rec, const struct field_visitor *v,
		void *ctx);
/*
 * The other way: F of REC from a source that reads a value by kind (a
 * database column); str returns an allocated string (NULL: none), which REC
 * then owns. Integers of every width come through i64 (a U64 as its bits).
 */
struct field_source {
	char *(*str)(void *ctx, const struct field *f);
	int64_t (*i64)(void *ctx, const struct field *f);
	double (*dbl)(void *ctx, const struct field *f);
};
void field_fill(const struct field *f, void *rec, const struct field_source *src, void *ctx);
/* F of REC unknown: NULL, U64_UNKNOWN, FIELD_INT_UNKNOWN, NaN; a bool false */
void field_set_unknown(const struct field *f, void *rec);
/* an FF_CEILING_SHARE above 100: not a share to read, an anomaly to flag */
bool field_anomaly(const struct field *f, const void *rec);
/* what text and HTML write instead of such a share */
#define FIELD_ANOMALY_TEXT "anomaly"
#define FIELD_ANOMALY_NOTE                                                                       \
	"anomaly: a figure above its ceiling, not the link's (a cache, an emulated link): no "   \
	"share of the ceiling to read"
/* A field's value as text (no unit); unknown is "-" for humans, "" for machines. */
void field_format(const struct field *f, const void *rec, bool human, struct strbuf *out);

#include "model/vocab.h"
