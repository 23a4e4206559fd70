/* SPDX-License-Identifier: MIT */
#pragma once
/* What the TCP and UDP stream loops share; only for stream*.c. */
#include "classes/net/stream.h"

#include <stddef.h>

/* Poke the main loop: a thread ended, or a limit was passed. */
void net_stream_wake(struct net_shared *sh);
bool net_stream_running(const struct net_stream *s);
/* Take one block from the shared byte or block budget; false when it is spent. */
bool net_stream_claim(struct net_shared *sh);
/* Give back blocks claimed but not sent. */
void net_stream_unclaim(struct net_shared *sh, uint64_t blocks);
/* Sleep until byte offset `sent` is due on the rate's schedule; false if the run ended. */
bool net_stream_pace(struct net_stream *s, uint64_t sent);
void net_stream_add(struct net_stream *s, size_t bytes, uint64_t blocks, uint64_t packets);
/* Soft errors a stream rides over (EAGAIN, EINTR, ENOBUFS). */
bool net_stream_transient(int err);
/* A stream failed: kept as its error while the test was running. */
void net_stream_end(struct net_stream *s, int err);
/* Bytes counted by a receiver, towards a receive limit. */
void net_stream_received(struct net_stream *s, size_t n);

/* Datagrams (slots of len bytes) per system call. */
unsigned net_udp_batch(uint64_t len);
/* Slot size and batch of a UDP stream (a receiver asks for GRO); the buffer size it needs. */
int net_udp_setup(struct net_stream *s, size_t *ret_bytes);
void net_udp_send(struct net_stream *s);
void net_udp_recv(struct net_stream *s);
