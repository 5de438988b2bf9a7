/* Start/end pairing. Events wait in per-side queues keyed by instruction ID (or any other key the
 * caller chooses for lines without one); events with the same key pair first-in first-out. Memory
 * grows with the number of events still waiting for their partner, not with the trace length. */
#ifndef PTO_VF_PAIR_H
#define PTO_VF_PAIR_H

#include <stddef.h>
#include <stdint.h>

typedef enum { VF_SIDE_START = 0, VF_SIDE_END = 1 } vf_side_t;

typedef struct vf_event {
  uint64_t cycle;
  uint64_t pc;
  uint64_t id;
  uint64_t addr;
  uint64_t exec;      /* vf_execute_time */
  uint64_t real_exec; /* vf_real_execute_time */
  uint64_t instr_num;
  uint32_t fields; /* VF_FIELD_* bits valid in this event */
  uint16_t pipe;
  uint8_t has_id;
  uint8_t has_addr;
  char opcode[24];
} vf_event_t;

typedef struct vf_queue_slot {
  uint64_t key;
  uint32_t head, tail; /* node indices + 1; 0 = empty slot */
} vf_queue_slot_t;

typedef struct vf_node {
  vf_event_t ev;
  uint32_t next; /* node index + 1 */
} vf_node_t;

typedef struct vf_pending {
  vf_queue_slot_t *slots;
  size_t n_slots, used_slots;
  vf_node_t *nodes;
  size_t n_nodes;
  uint32_t free_list;
  size_t count;
} vf_pending_t;

typedef struct vf_pair {
  vf_pending_t side[2];
  size_t peak; /* most events waiting at once, both sides */
} vf_pair_t;

void vf_pair_init(vf_pair_t *p);
void vf_pair_free(vf_pair_t *p);
/* Returns 1 and fills *match when a waiting event on the other side has `key` (it leaves the
 * queue); 0 when `ev` was queued; -ENOMEM. */
int vf_pair_offer(vf_pair_t *p, vf_side_t side, uint64_t key, const vf_event_t *ev,
                  vf_event_t *match);
size_t vf_pair_waiting(const vf_pair_t *p, vf_side_t side);
/* Calls fn for each event still waiting on `side` and empties it. */
void vf_pair_drain(vf_pair_t *p, vf_side_t side, void (*fn)(void *arg, const vf_event_t *ev),
                   void *arg);

#endif
