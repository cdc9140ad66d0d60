/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw channel: a message channel between the two processes of a soft card, the soft
 * equivalent of a PCIe message queue pair.
 *
 * One shared-memory segment (a memfd, passed over the rendezvous socket) holds two
 * single-producer / single-consumer rings of fixed-size records, one per direction. The
 * receiver polls its ring from its own progress loop: no system call and no thread hop on the
 * hot path. A receiver that goes to sleep arms its ring; the sender then rings the receiver's
 * doorbell (an eventfd the receiver passed at set-up) once, after publishing. The same holds
 * the other way for a sender waiting for room. Everything read from the segment is untrusted:
 * a peer that scribbles over it can only break its own channel, never crash this process.
 *
 * The ring operations are inline (the Comch library calls them per message); set-up lives in
 * channel.c, which libdoca_comch reaches through its ops table (softhw/comch/comch.h).
 */
#ifndef SOFTHW_CHANNEL_H
#define SOFTHW_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "doca_error.h"
#include "softhw/base/bell.h"

#define SOFTHW_CHAN_MAGIC 0x31616863736f73ULL /* "sochca1" */
#define SOFTHW_CHAN_VERSION 2 /* 2: a record's sequence in its own header */
#define SOFTHW_CHAN_LINE 64
#define SOFTHW_CHAN_MAX_SLOTS (1u << 20)
#define SOFTHW_CHAN_MAX_MSG (64u << 20)

/* Directions: the creator of the segment is side A, the side that attaches is side B. */
enum {
	SOFTHW_CHAN_A_TO_B = 0,
	SOFTHW_CHAN_B_TO_A = 1,
};

/* Shape of a segment; both sides agree on it in their handshake and check it. */
struct softhw_chan_geom {
	uint32_t max_msg;   /* largest record payload */
	uint32_t limit[2];  /* credits per direction: unconsumed records the receiver accepts */
	uint32_t slots[2];  /* ring size per direction: a power of two >= limit */
	uint32_t slot_size; /* record header + max_msg, in whole cache lines */
	uint64_t size;      /* of the whole segment */
};

/*
 * Control block of one direction; each side writes only its own cache line(s). What the sender
 * published is in the records themselves (softhw_chan_rec.seq).
 */
struct softhw_chan_ctl {
	_Alignas(SOFTHW_CHAN_LINE) uint32_t ctrl_seq; /* sender: bumped after an out-of-band control message */
	_Alignas(SOFTHW_CHAN_LINE) uint64_t head; /* receiver: records consumed */
	uint64_t posted; /* receiver: buffers posted for records, if it says (Comch's consumer) */
	_Alignas(SOFTHW_CHAN_LINE) uint32_t rx_armed; /* receiver sleeps: ring its bell after publishing */
	uint32_t tx_armed;                        /* sender waits for room: ring its bell after consuming */
	uint32_t rx_polls;                        /* receiver's owner keeps polling: nobody watches its bell
						   * (a user's hint: softhw/rnic/ring.c) */
};

/* Start of the segment; the two rings' slots follow. */
struct softhw_chan_shm {
	uint64_t magic;
	uint32_t version;
	uint32_t reserved;
	struct softhw_chan_geom geom;
	struct softhw_chan_ctl ctl[2];
};

/*
 * Header of one record. `seq` is written last (release): the record's position + 1 once it is
 * published. The receiver polls it where the data is, so a small record crosses between the
 * CPUs as one cache line; polling the tail first cost a second line, read before the record's.
 */
struct softhw_chan_rec {
	uint32_t len; /* payload bytes */
	uint32_t tag; /* user-defined record kind */
	uint64_t aux; /* user-defined word */
	uint64_t seq; /* position + 1: published */
};

/* A record as the receiver sees it: valid until softhw_chan_consume(). */
struct softhw_chan_msg {
	uint32_t tag;
	uint32_t len;
	uint64_t aux;
	uint8_t *data;
};

/* One direction as seen from this process. */
struct softhw_ring {
	struct softhw_chan_ctl *ctl;
	uint8_t *slots;
	uint32_t mask;
	uint32_t limit;
	uint32_t slot_size;
	uint32_t max_msg;
	uint64_t pos;  /* tx: next record to publish; rx: next record to consume */
	uint64_t seen; /* tx: last head read (rx: unused) */
	uint64_t posted; /* rx: buffers posted (softhw_chan_post), our own count: the peer can write the shared one */
};

struct softhw_chan {
	void *base;
	size_t size;
	struct softhw_ring tx;
	struct softhw_ring rx;
	int peer_bell;     /* the peer's doorbell (eventfd), -1 if none */
	uint32_t ctrl_seen; /* peer's ctrl_seq already acted on */
};

/* Geometry for records of max_msg bytes and the given credits (A->B, B->A). */
doca_error_t softhw_chan_geom_make(uint32_t max_msg, uint32_t limit_a2b, uint32_t limit_b2a,
				   struct softhw_chan_geom *geom);
/* Side A: creates the segment (a sealed-size memfd, returned for passing to B) and maps it. */
doca_error_t softhw_chan_create(const struct softhw_chan_geom *geom, struct softhw_chan *ch, int *memfd);
/* Side B: maps the segment received from A after checking it matches the agreed geometry. */
doca_error_t softhw_chan_attach(int memfd, const struct softhw_chan_geom *geom, struct softhw_chan *ch);
/* Unmaps the segment and closes the peer's doorbell. Safe on a zeroed or closed channel. */
void softhw_chan_close(struct softhw_chan *ch);

/*
 * Takes the peer's doorbell (an fd received from it: the ringing end of its bell, base/bell.h).
 * Anything but a socket is closed and never rung (false): a peer that passed something else, an
 * eventfd whose flags it keeps, must not be able to block our rings; it only loses its wake-ups.
 */
static inline bool softhw_chan_set_bell(struct softhw_chan *ch, int fd)
{
	if (ch->peer_bell >= 0)
		close(ch->peer_bell);
	ch->peer_bell = -1;
	if (!softhw_bell_usable(fd)) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	ch->peer_bell = fd;
	return true;
}

static inline bool softhw_chan_mapped(const struct softhw_chan *ch)
{
	return ch->base != NULL;
}

/* Where a direction's ring of slots starts in the segment (after the header, on a line). */
static inline uint64_t softhw_chan_ring_offset(const struct softhw_chan_geom *g, int dir)
{
	uint64_t off = (sizeof(struct softhw_chan_shm) + SOFTHW_CHAN_LINE - 1) & ~(uint64_t)(SOFTHW_CHAN_LINE - 1);

	if (dir == SOFTHW_CHAN_B_TO_A)
		off += (uint64_t)g->slots[SOFTHW_CHAN_A_TO_B] * g->slot_size;
	return off;
}

static inline struct softhw_chan_rec *softhw_ring_slot(const struct softhw_ring *r, uint64_t pos)
{
	return (struct softhw_chan_rec *)(r->slots + (size_t)(pos & r->mask) * r->slot_size);
}

/* ---- sending ---- */

/*
 * True if the receiver has n (<= limit) credits left (reads the peer's head only when the cache
 * says no).
 */
static inline bool softhw_chan_can_send_n(struct softhw_chan *ch, uint32_t n)
{
	struct softhw_ring *r = &ch->tx;

	if (r->pos - r->seen <= r->limit - n)
		return true;
	r->seen = __atomic_load_n(&r->ctl->head, __ATOMIC_ACQUIRE);
	return r->pos - r->seen <= r->limit - n; /* a head beyond pos (corrupted) wraps: no room */
}

/* True if the receiver has a credit left. */
static inline bool softhw_chan_can_send(struct softhw_chan *ch)
{
	return softhw_chan_can_send_n(ch, 1);
}

/* Where the next record's payload goes (max_msg bytes); the caller checked can_send(). */
static inline uint8_t *softhw_chan_slot(struct softhw_chan *ch)
{
	return (uint8_t *)(softhw_ring_slot(&ch->tx, ch->tx.pos) + 1);
}

/* Publishes the record whose payload was written at softhw_chan_slot(); len <= max_msg. */
static inline void softhw_chan_publish(struct softhw_chan *ch, uint32_t tag, uint64_t aux, uint32_t len)
{
	struct softhw_ring *r = &ch->tx;
	struct softhw_chan_rec *rec = softhw_ring_slot(r, r->pos);

	rec->len = len;
	rec->tag = tag;
	rec->aux = aux;
	__atomic_store_n(&rec->seq, r->pos + 1, __ATOMIC_RELEASE);
	r->pos++;
	/* Pairs with softhw_chan_arm_rx(): either the receiver sees the record or we see its flag. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&r->ctl->rx_armed, __ATOMIC_RELAXED) &&
	    __atomic_exchange_n(&r->ctl->rx_armed, 0, __ATOMIC_ACQ_REL))
		softhw_bell_ring(ch->peer_bell);
}

/* Copies and publishes one record; the caller checked can_send() and len <= max_msg. */
static inline void softhw_chan_send(struct softhw_chan *ch, uint32_t tag, uint64_t aux, const void *data, uint32_t len)
{
	if (len > 0)
		memcpy(softhw_chan_slot(ch), data, len);
	softhw_chan_publish(ch, tag, aux, len);
}

/* The sender is about to sleep waiting for room: true if there is room already. */
static inline bool softhw_chan_arm_tx(struct softhw_chan *ch)
{
	struct softhw_ring *r = &ch->tx;

	__atomic_store_n(&r->ctl->tx_armed, 1, __ATOMIC_SEQ_CST);
	r->seen = __atomic_load_n(&r->ctl->head, __ATOMIC_SEQ_CST);
	return r->pos - r->seen < r->limit;
}

/* ---- receiving ---- */

/*
 * The sequence a slot holds while the record at pos is not published yet: its previous lap's
 * (0 on the first lap, the segment starts zeroed).
 */
static inline uint64_t softhw_ring_seq_before(const struct softhw_ring *r, uint64_t pos)
{
	return pos > r->mask ? pos + 1 - ((uint64_t)r->mask + 1) : 0;
}

/* 1: a record is waiting (in *msg); 0: none; -1: the segment is corrupted (drop the channel). */
static inline int softhw_chan_peek(struct softhw_chan *ch, struct softhw_chan_msg *msg)
{
	struct softhw_ring *r = &ch->rx;
	const struct softhw_chan_rec *rec = softhw_ring_slot(r, r->pos);
	uint64_t seq = __atomic_load_n(&rec->seq, __ATOMIC_ACQUIRE);
	uint32_t len;

	if (seq != r->pos + 1) /* not published: anything but the last lap's is a scribbling peer */
		return seq == softhw_ring_seq_before(r, r->pos) ? 0 : -1;
	len = __atomic_load_n(&rec->len, __ATOMIC_RELAXED); /* read once: the peer may rewrite it */
	if (len > r->max_msg)
		return -1;
	msg->tag = rec->tag;
	msg->aux = rec->aux;
	msg->len = len;
	msg->data = (uint8_t *)(rec + 1);
	return 1;
}

/* Releases the record returned by peek(): its slot goes back to the sender. */
static inline void softhw_chan_consume(struct softhw_chan *ch)
{
	struct softhw_ring *r = &ch->rx;

	r->pos++;
	__atomic_store_n(&r->ctl->head, r->pos, __ATOMIC_RELEASE);
	/* Pairs with softhw_chan_arm_tx() of the sender. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&r->ctl->tx_armed, __ATOMIC_RELAXED) &&
	    __atomic_exchange_n(&r->ctl->tx_armed, 0, __ATOMIC_ACQ_REL))
		softhw_bell_ring(ch->peer_bell);
}

/*
 * The receiver posted n more buffers for the records to come (a user's word: the sender may take
 * a record as placed once a buffer waits for it, softhw_chan_posted). Wakes a sender that waits.
 */
static inline void softhw_chan_post(struct softhw_chan *ch, uint32_t n)
{
	struct softhw_ring *r = &ch->rx;

	r->posted += n;
	__atomic_store_n(&r->ctl->posted, r->posted, __ATOMIC_RELEASE);
	/* Pairs with softhw_chan_arm_tx() of the sender, as a consume does. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&r->ctl->tx_armed, __ATOMIC_RELAXED) &&
	    __atomic_exchange_n(&r->ctl->tx_armed, 0, __ATOMIC_ACQ_REL))
		softhw_bell_ring(ch->peer_bell);
}

/* Sender: the buffers the receiver says it posted (untrusted: a count to compare, no more). */
static inline uint64_t softhw_chan_posted(const struct softhw_chan *ch)
{
	return __atomic_load_n(&ch->tx.ctl->posted, __ATOMIC_ACQUIRE);
}

/*
 * The receiver is about to sleep: true if records are already waiting. Control hints are not
 * looked at: for a user that takes none (softhw_chan_ctrl_hinted), a hint the peer wrote would
 * stay unseen and keep its sleeper awake for ever.
 */
static inline bool softhw_chan_arm_rx_records(struct softhw_chan *ch)
{
	struct softhw_ring *r = &ch->rx;

	__atomic_store_n(&r->ctl->rx_armed, 1, __ATOMIC_SEQ_CST);
	/* (a sequence from neither lap also wakes it: its peek then finds the corruption) */
	return __atomic_load_n(&softhw_ring_slot(r, r->pos)->seq, __ATOMIC_SEQ_CST) != softhw_ring_seq_before(r, r->pos);
}

/* The receiver is about to sleep: true if records (or a control hint) are already waiting. */
static inline bool softhw_chan_arm_rx(struct softhw_chan *ch)
{
	return softhw_chan_arm_rx_records(ch) ||
	       __atomic_load_n(&ch->rx.ctl->ctrl_seq, __ATOMIC_RELAXED) != ch->ctrl_seen;
}

/* ---- out-of-band control hints (the control message itself travels over the socket) ---- */

/* After sending a control message over the socket: tells the peer to look at it now. */
static inline void softhw_chan_hint_ctrl(struct softhw_chan *ch)
{
	__atomic_fetch_add(&ch->tx.ctl->ctrl_seq, 1, __ATOMIC_RELEASE);
}

/* True (once per hint) when the peer announced a control message. */
static inline bool softhw_chan_ctrl_hinted(struct softhw_chan *ch)
{
	uint32_t seq = __atomic_load_n(&ch->rx.ctl->ctrl_seq, __ATOMIC_ACQUIRE);

	if (seq == ch->ctrl_seen)
		return false;
	ch->ctrl_seen = seq;
	return true;
}

#endif /* SOFTHW_CHANNEL_H */
