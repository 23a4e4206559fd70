// SPDX-License-Identifier: MIT
/* The schema of `usbperf list`'s MMC tables: hosts, cards, partitions. */
#include "platform/mmc/mmc.h"

#include "platform/mmc/fields.fields.h"

