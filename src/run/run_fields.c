// SPDX-License-Identifier: MIT
/* The schema of `usbperf run`: one field table per struct (text, JSON, CSV, SQL). */
#include "model/record_fields.h"
#include "run/run.h"

#include "run/run_fields.fields.h"

