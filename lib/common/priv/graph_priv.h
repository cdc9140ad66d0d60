/* SPDX-License-Identifier: BSD-3-Clause */
/* What the progress engine needs of doca_graph (private to libdoca_common). */
#ifndef SOFTDOCA_GRAPH_PRIV_H
#define SOFTDOCA_GRAPH_PRIV_H

struct doca_task;

/*
 * A task a graph node submitted has completed (task->graph_slot is set, task->status holds
 * the outcome, the library's ops->complete has run). Called by pe.c instead of the task's
 * own callbacks; moves the graph instance on.
 */
void softdoca_graph_task_done(struct doca_task *task);

#endif /* SOFTDOCA_GRAPH_PRIV_H */
