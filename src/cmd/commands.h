/* SPDX-License-Identifier: MIT */
#pragma once
#include "cmd/common.h"

int cmd_disk(int argc, char **argv, struct global_opts *g);
void usage_disk(void);
int cmd_limits(int argc, char **argv, struct global_opts *g);
void usage_limits(void);
int cmd_sysinfo(int argc, char **argv, struct global_opts *g);
void usage_sysinfo(void);
int cmd_help(int argc, char **argv, struct global_opts *g);
void usage_help(void);
int cmd_version(int argc, char **argv, struct global_opts *g);
void usage_version(void);
int cmd_list(int argc, char **argv, struct global_opts *g);
void usage_list(void);
int cmd_net(int argc, char **argv, struct global_opts *g);
void usage_net(void);
int cmd_snapshot(int argc, char **argv, struct global_opts *g);
void usage_snapshot(void);
