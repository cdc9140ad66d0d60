/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_comch internals: the server and client contexts (one shared "endpoint" core), their
 * connections, and the wire protocol spoken over the links of the card's Comch transport.
 *
 * A connection = a link of the transport (set-up, control messages, liveness: a dead peer's
 * link reads EOF) + a shared-memory channel that carries the messages themselves, polled by
 * doca_pe_progress. Both belong to softhw (softhw/comch/comch.h), reached through the
 * device's ops table (doca_dev->comch); this library keeps the DOCA semantics.
 */
#ifndef SOFTDOCA_COMCH_PRIV_H
#define SOFTDOCA_COMCH_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "doca_comch.h"
#include "doca_comch_consumer.h"
#include "doca_comch_producer.h"
#include "common/priv/ctx_priv.h"
#include "common/priv/dev_priv.h"
#include "softhw/comch/comch.h"

/* ---- wire protocol (socket messages; both sides are softdoca of the same version) ---- */

#define COMCH_WIRE_MAGIC 0x48434d43u /* "CMCH" */
#define COMCH_WIRE_VERSION 2 /* 2: doorbells are sockets (base/bell.h); an eventfd is refused */
#define COMCH_REASON_LEN 160

enum comch_wire_type {
	COMCH_WIRE_HELLO = 1,    /* client -> server: its limits; fd: the client's doorbell */
	COMCH_WIRE_WELCOME,      /* server -> client: agreed geometry; fds: segment, server's doorbell */
	COMCH_WIRE_REJECT,       /* server -> client: why not (then the server closes) */
	COMCH_WIRE_BYE,          /* either way: orderly disconnection */
	COMCH_WIRE_CONSUMER_NEW, /* a consumer appeared; fds: its data ring, its doorbell */
	COMCH_WIRE_CONSUMER_ACK, /* the peer registered that consumer: it may start */
	COMCH_WIRE_CONSUMER_GONE,/* a consumer stopped: producers must not address it any more */
};

struct comch_wire_hdr {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
};

struct comch_wire_hello {
	struct comch_wire_hdr hdr;
	uint32_t max_msg_size;
	uint32_t recv_queue_size;
	int32_t pid;
};

struct comch_wire_welcome {
	struct comch_wire_hdr hdr;
	uint32_t conn_id;
	struct softhw_chan_geom geom;
};

struct comch_wire_reject {
	struct comch_wire_hdr hdr;
	int32_t error; /* doca_error_t the client reports */
	char reason[COMCH_REASON_LEN];
};

struct comch_wire_consumer {
	struct comch_wire_hdr hdr;
	uint32_t consumer_id;
	uint32_t imm_data_len;
	struct softhw_chan_geom geom; /* CONSUMER_NEW: the consumer's data ring */
};

union comch_wire_msg {
	struct comch_wire_hdr hdr;
	struct comch_wire_hello hello;
	struct comch_wire_welcome welcome;
	struct comch_wire_reject reject;
	struct comch_wire_consumer consumer;
};

/* ---- objects ---- */

/* How long an orderly disconnection waits for the peer's answer before it gives up. */
#define COMCH_BYE_TIMEOUT_NS (2ull * 1000000000ull)
/*
 * A client the server accepted has this long to say HELLO (softdoca's does at once): connections
 * that never speak would otherwise hold the server's pending places for good and keep every other
 * client out. SOFTDOCA_COMCH_HELLO_MS overrides it (tests).
 */
#define COMCH_HELLO_TIMEOUT_NS (5ull * 1000000000ull)
/*
 * How often a client with no server tries to connect again: after COMCH_RETRY_NS first, twice as
 * long after each miss up to COMCH_RETRY_MAX_NS. A client started long before its server then
 * wakes its process a few times a second, not a hundred; one started beside it still finds it
 * within milliseconds.
 */
#define COMCH_RETRY_NS (10ull * 1000000ull)
#define COMCH_RETRY_MAX_NS (160ull * 1000000ull)
/* Links and timers are looked at no more than this often while polling. */
#define COMCH_SERVICE_NS (1000000ull)
/* Message bytes a send task carries inline; longer ones go to a buffer of the task. */
#define COMCH_INLINE_MSG 256

enum comch_conn_state {
	COMCH_CONN_HANDSHAKE = 0, /* socket up, waiting for HELLO (server) or WELCOME (client) */
	COMCH_CONN_UP,            /* messages flow */
	COMCH_CONN_CLOSING,       /* we sent BYE; waiting for the peer's BYE or EOF */
	COMCH_CONN_PEER_GONE,     /* the peer left (BYE or EOF); what it sent is still delivered */
	COMCH_CONN_DEAD,          /* torn down; the disconnection is reported, then it is freed */
};

struct comch_remote_consumer;

struct doca_comch_connection {
	struct comch_ep *ep;
	struct doca_comch_connection *next;   /* endpoint's list */
	enum comch_conn_state state;
	int sock;                              /* the transport's link; -1: none */
	struct softhw_chan ch;
	union doca_data user_data;
	uint32_t id;
	uint32_t max_msg;                      /* agreed largest message */
	uint32_t tx_waiting;                   /* submitted sends waiting for a credit ... */
	struct doca_comch_task_send *wait_head;/* ... oldest first: only the oldest may go next */
	struct doca_comch_task_send *wait_tail;
	uint64_t deadline_ns;                  /* CLOSING: give up waiting for the peer; HANDSHAKE (server): its HELLO */
	doca_error_t reset_status;             /* why a send on a dead connection fails */
	bool report_connect;                   /* server: connection callback still to deliver */
	bool report_disconnect;                /* server: disconnection callback still to deliver */
	bool drop_rx;                          /* our side is leaving: discard what still arrives */
	uint64_t counters[5];                  /* live, indexed by enum doca_comch_counter */
	uint64_t saved[5];                     /* as of the last doca_comch_connection_update_info */
	/* fast path */
	struct comch_remote_consumer *remote_consumers; /* consumers on the peer side */
	struct doca_comch_consumer *local_consumers;    /* consumers of this side */
	uint32_t next_consumer_id;
	uint32_t next_producer_id;
	uint32_t num_consumers;
	uint32_t num_producers;
	uint32_t fp_refs;                      /* producers + consumers alive: keep the connection */
	/*
	 * Order between the link and the ring: consumer announcements and retirements travel on
	 * the link, messages on the ring. Each message carries how many of those its sender had
	 * sent (aux of its ring record); the receiver reports the consumer events first, as DOCA
	 * does (NVIDIA's storage application relies on it).
	 */
	uint64_t fp_ctrl_sent;                 /* atomic: consumer PEs send them too */
	uint64_t fp_ctrl_seen;                 /* the peer's, received */
	bool orphan;                           /* reported gone; freed by the last fp object */
	bool admitted;                         /* server: its port's guard counts it (released at teardown) */
	struct softhw_peer peer;               /* server: the client process */
};

struct doca_comch_event_msg_recv {
	int unused;
};
struct doca_comch_event_connection_status_changed {
	int unused;
};
struct doca_comch_event_consumer {
	int unused;
};

/* What a server and a client share: the context, configuration, transport and connections. */
struct comch_ep {
	struct doca_ctx ctx; /* first: the ctx ops receive it */
	bool is_server;
	const char *kind;    /* "server" / "client", for log lines */
	struct doca_dev *dev;
	const struct softhw_caps *caps;
	const struct softhw_card *card;
	const struct softhw_comch_ops *hw; /* the device's Comch transport */
	char name[128];      /* the server name */
	char rendezvous[160];/* "<host function PCI>/<name>": unique per card and host function */
	uint32_t max_msg_size;
	uint32_t recv_queue_size;
	doca_comch_event_msg_recv_cb_t recv_cb;
	doca_comch_event_consumer_cb_t new_consumer_cb;
	doca_comch_event_consumer_cb_t expired_consumer_cb;
	/* running state */
	struct softhw_comch_port *port; /* links + listener + timer; wakes a sleeping PE */
	bool keep_timer;     /* the client retries connecting: the tick must go on */
	uint64_t retry_ns;   /* while it does: its retry period now (COMCH_RETRY_NS, doubling) */
	uint64_t tick_ns;    /* the port's tick as set (0: off): it comes within this from now */
	uint64_t hello_timeout_ns; /* server: COMCH_HELLO_TIMEOUT_NS, or the environment's */
	uint64_t hello_timeouts;   /* server: clients closed for want of a HELLO (the log's count) */
	int service_due;     /* set by the waker thread: look at the port on the next progress */
	uint64_t next_service_ns;
	struct doca_comch_connection *conns;
	struct doca_comch_connection *cursor; /* round-robin position for receiving */
	bool warned_no_recv_cb;
	uint32_t fp_orphans; /* connections gone but still used by producers / consumers */
	int in_progress;     /* inside its progress step: user callbacks may run, and destroy it */
	uint32_t callbacks;  /* event callbacks run (comch_ep_progress: a step that ran none goes on) */
	bool destroyed;      /* destroyed from one of them: freed when the progress step returns */
	struct doca_comch_event_msg_recv recv_event;
	struct doca_comch_event_connection_status_changed status_event;
	struct doca_comch_event_consumer consumer_event;
};

struct doca_comch_server {
	struct comch_ep ep; /* first */
	struct doca_dev_rep *rep;
	struct softhw_comch_admission admission; /* who its listener admits, how many */
	uint32_t num_conns;  /* connections past the handshake, not yet reported gone */
	uint32_t next_conn_id;
	doca_comch_event_connection_status_changed_cb_t connect_cb;
	doca_comch_event_connection_status_changed_cb_t disconnect_cb;
};

struct doca_comch_client {
	struct comch_ep ep; /* first */
	struct doca_comch_connection conn;
	uint64_t next_retry_ns;
	bool announced_wait; /* "no server yet" logged once per start */
	doca_error_t start_failure; /* a refusal that ends STARTING */
};

enum { COMCH_TASK_SEND = 0 };

struct doca_comch_task_send {
	struct doca_task base; /* first: doca_comch_task_send_as_task */
	struct doca_comch_connection *conn;
	struct doca_comch_task_send *wait_next; /* connection's queue of sends waiting for a credit */
	uint32_t len;
	uint8_t *msg;        /* inline_msg or heap */
	uint8_t *heap;       /* grows as needed; freed with the pool */
	uint32_t heap_cap;
	uint8_t inline_msg[COMCH_INLINE_MSG];
};

/* ---- fast path (comch_fastpath.c) ---- */

/* Ahead of every producer message in a consumer's ring. */
struct comch_fp_rec {
	uint32_t producer_id;
	uint32_t imm_len;
	uint8_t imm[32];
};

#define COMCH_FP_MAX_IMM 32
#define COMCH_FP_MIN_SLOTS 4
#define COMCH_FP_MAX_SLOTS 64

/* A consumer of the peer, as producers of this side see it. */
struct comch_remote_consumer {
	struct comch_remote_consumer *next;
	uint32_t id;
	uint32_t imm_data_len;
	uint32_t max_msg;        /* largest message its slots hold */
	struct softhw_chan ch;   /* side B of the consumer's ring: we send B->A */
	/*
	 * Expired (atomic: producers on other PEs' threads read it); final_head says what it
	 * consumed. Its ring stays mapped until the connection is released, so a producer that
	 * has not seen `gone` yet still reads mapped memory.
	 */
	bool gone;
	uint64_t final_head;
	uint64_t final_posted;   /* the receives it had posted then */
	bool report_new;
	bool report_expired;
};

struct doca_comch_consumer {
	struct doca_ctx ctx; /* first */
	struct doca_comch_connection *conn;
	struct doca_comch_consumer *next; /* conn->local_consumers */
	struct doca_mmap *mmap;
	uint32_t id;
	uint32_t imm_data_len;
	struct softhw_chan ch;   /* side A of our ring: we receive B->A */
	int acked;               /* the peer registered us (set by the connection's context) */
	struct doca_comch_consumer_task_post_recv *wait_head, *wait_tail; /* posted, oldest first */
};

struct doca_comch_consumer_task_post_recv {
	struct doca_task base; /* first */
	struct doca_buf *buf;
	struct doca_comch_consumer_task_post_recv *wait_next;
	uint32_t producer_id;
	uint32_t imm_len;
	uint8_t imm[COMCH_FP_MAX_IMM];
};

struct doca_comch_producer {
	struct doca_ctx ctx; /* first */
	struct doca_comch_connection *conn;
	uint32_t id;
	uint32_t unconsumed; /* written, not yet consumed by their consumer */
	struct doca_comch_producer_task_send *wait_head, *wait_tail; /* not written yet, oldest first */
};

struct doca_comch_producer_task_send {
	struct doca_task base; /* first */
	const struct doca_buf *buf;
	uint8_t *imm;
	uint32_t imm_len;
	uint32_t consumer_id;
	struct doca_comch_producer_task_send *wait_next;
	struct comch_remote_consumer *rc; /* resolved at submission */
	bool written;
	uint64_t rec_idx;
	doca_error_t fail;               /* set when it can no longer be delivered */
};

/* ---- shared by the server, the client and the fast path (comch_ep.c) ---- */

extern const struct softdoca_ctx_ops comch_server_ops;
extern const struct softdoca_ctx_ops comch_client_ops;

uint64_t comch_now_ns(void);
uint64_t comch_coarse_ns(void);

static inline struct comch_ep *comch_ep_of(struct doca_ctx *ctx)
{
	return (struct comch_ep *)ctx;
}

static inline bool comch_ctx_is_comch(const struct doca_ctx *ctx)
{
	return ctx != NULL && (ctx->ops == &comch_server_ops || ctx->ops == &comch_client_ops);
}

void comch_ep_init(struct comch_ep *ep, struct doca_dev *dev, const char *name, const char *host_pci, bool is_server,
		   const struct softdoca_ctx_ops *ops);
void comch_ep_fini(struct comch_ep *ep);
/* Frees the server / client the endpoint is the first member of; deferred while it progresses. */
void comch_ep_free(struct comch_ep *ep);
/* Runs the context's progress step; a callback inside may stop and destroy the context. */
bool comch_ep_progress(struct doca_ctx *ctx, bool (*step)(struct doca_ctx *ctx));
doca_error_t comch_ep_open(struct comch_ep *ep);
void comch_ep_close(struct comch_ep *ep);
void comch_ep_watch(struct comch_ep *ep, int fd, uint64_t tag);
void comch_ep_unwatch(struct comch_ep *ep, int fd);
void comch_ep_timer(struct comch_ep *ep, bool on);
void comch_ep_timer_by(struct comch_ep *ep, uint64_t deadline_ns);
bool comch_ep_arm(struct comch_ep *ep);
bool comch_ep_service_needed(struct comch_ep *ep);
typedef void (*comch_handshake_fn)(struct doca_comch_connection *conn, const union comch_wire_msg *m, size_t len,
				   const int *fds, int nfds);
/* Handles what the port has: accepts (server), control messages, EOFs, deadlines. */
bool comch_ep_poll(struct comch_ep *ep, void (*on_listen)(struct comch_ep *ep), comch_handshake_fn handshake);

/* Reads every control message waiting on the connection's link; false if there was none. */
bool comch_conn_read(struct doca_comch_connection *conn, comch_handshake_fn handshake);

#define COMCH_TAG_LISTENER SOFTHW_COMCH_TAG_LISTENER

/* Connections */
void comch_conn_init(struct doca_comch_connection *conn, struct comch_ep *ep, int sock);
doca_error_t comch_conn_send_ctrl(struct doca_comch_connection *conn, const void *msg, size_t len, const int *fds,
				  int nfds);
void comch_conn_bye(struct doca_comch_connection *conn);
void comch_conn_peer_gone(struct doca_comch_connection *conn, doca_error_t why);
void comch_conn_teardown(struct doca_comch_connection *conn);
bool comch_conn_deliver(struct comch_ep *ep, comch_handshake_fn handshake);
bool comch_conn_handle_ctrl(struct doca_comch_connection *conn, const union comch_wire_msg *m, size_t len,
			    const int *fds, int nfds);
/* Takes the peer's doorbell for ch (softhw_chan_set_bell), saying so when it is refused. */
void comch_conn_take_bell(struct doca_comch_connection *conn, struct softhw_chan *ch, int fd);
void comch_conn_close_fds(struct doca_comch_connection *conn, const int *fds, int nfds);
bool comch_conn_has_rx(struct doca_comch_connection *conn);
void comch_wire_init(struct comch_wire_hdr *hdr, enum comch_wire_type type);
bool comch_wire_valid(const union comch_wire_msg *m, size_t len);

/* Send tasks (comch_send.c) */
doca_error_t comch_send_set_conf(struct comch_ep *ep, doca_comch_task_send_completion_cb_t ok_cb,
				 doca_comch_task_send_completion_cb_t err_cb, uint32_t num);
doca_error_t comch_send_alloc(struct comch_ep *ep, struct doca_comch_connection *peer, const void *msg, uint32_t len,
			      struct doca_comch_task_send **task);
doca_error_t comch_send_check(struct doca_task *task);
doca_error_t comch_send_prepare(struct doca_task *task);
void comch_send_pool_free(struct comch_ep *ep);

/* Fast path hooks (comch_fastpath.c) */
bool comch_fp_handle_ctrl(struct doca_comch_connection *conn, const union comch_wire_msg *m, const int *fds, int nfds);
/* New / expired remote consumer callbacks, one per call. */
bool comch_fp_progress(struct comch_ep *ep);
/* The same for one live connection: true if it ran a callback (look no further then). */
bool comch_fp_report_conn(struct doca_comch_connection *conn);
/*
 * A dead connection: one pending expired-consumer callback per call (true if it ran one; the
 * caller must not touch the connection after it). Due before the disconnection is reported;
 * consumers whose arrival was never reported get neither event.
 */
bool comch_fp_report_gone(struct doca_comch_connection *conn);
/* The connection is torn down: remote consumers expire, local fast-path objects fail their tasks. */
void comch_fp_conn_gone(struct doca_comch_connection *conn);
bool comch_fp_conn_busy(const struct doca_comch_connection *conn);
bool comch_fp_arm(struct comch_ep *ep);
/* Frees what the fast path keeps per connection (the peer's consumers); before the connection goes. */
void comch_fp_conn_release(struct doca_comch_connection *conn);

#endif /* SOFTDOCA_COMCH_PRIV_H */
