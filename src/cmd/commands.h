/* SPDX-License-Identifier: MIT */
#pragma once
#include "cmd/common.h"

int cmd_disk(int argc, char **argv, struct global_opts *g);
void usage_disk(void);
int cmd_limits(int argc, char **argv, struct global_opts *g);
void usage_limits(void);
int cmd_gadget(int argc, char **argv, struct global_opts *g);
void usage_gadget(void);
int cmd_sysinfo(int argc, char **argv, struct global_opts *g);
void usage_sysinfo(void);
int cmd_help(int argc, char **argv, struct global_opts *g);
void usage_help(void);
int cmd_version(int argc, char **argv, struct global_opts *g);
void usage_version(void);
int cmd_list(int argc, char **argv, struct global_opts *g);
void usage_list(void);
int cmd_video(int argc, char **argv, struct global_opts *g);
void usage_video(void);
int cmd_hid(int argc, char **argv, struct global_opts *g);
void usage_hid(void);
int cmd_bulk(int argc, char **argv, struct global_opts *g);
void usage_bulk(void);
int cmd_mtp(int argc, char **argv, struct global_opts *g);
void usage_mtp(void);
int cmd_net(int argc, char **argv, struct global_opts *g);
void usage_net(void);
int cmd_snapshot(int argc, char **argv, struct global_opts *g);
void usage_snapshot(void);
int cmd_run(int argc, char **argv, struct global_opts *g);
void usage_run(void);
int cmd_history(int argc, char **argv, struct global_opts *g);
void usage_history(void);
int cmd_show(int argc, char **argv, struct global_opts *g);
void usage_show(void);
int cmd_compare(int argc, char **argv, struct global_opts *g);
void usage_compare(void);
int cmd_baseline(int argc, char **argv, struct global_opts *g);
void usage_baseline(void);
int cmd_report(int argc, char **argv, struct global_opts *g);
void usage_report(void);
int cmd_export(int argc, char **argv, struct global_opts *g);
void usage_export(void);
int cmd_import(int argc, char **argv, struct global_opts *g);
void usage_import(void);
int cmd_check(int argc, char **argv, struct global_opts *g);
void usage_check(void);
