#include "pto_vf_pair.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static size_t hash_key(uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  return (size_t)key;
}

void vf_pair_init(vf_pair_t *p) {
  memset(p, 0, sizeof *p);
}

static void pending_free(vf_pending_t *q) {
  free(q->slots);
  free(q->nodes);
  memset(q, 0, sizeof *q);
}

void vf_pair_free(vf_pair_t *p) {
  pending_free(&p->side[0]);
  pending_free(&p->side[1]);
}

static vf_queue_slot_t *find_slot(const vf_pending_t *q, uint64_t key) {
  if (q->n_slots == 0) return NULL;
  size_t mask = q->n_slots - 1;
  for (size_t i = hash_key(key) & mask;; i = (i + 1) & mask) {
    vf_queue_slot_t *s = &q->slots[i];
    if (s->head == 0) return NULL;
    if (s->key == key) return s;
  }
}

static vf_queue_slot_t *insert_slot(vf_pending_t *q, uint64_t key) {
  size_t mask = q->n_slots - 1;
  for (size_t i = hash_key(key) & mask;; i = (i + 1) & mask) {
    vf_queue_slot_t *s = &q->slots[i];
    if (s->head == 0) {
      s->key = key;
      q->used_slots++;
      return s;
    }
    if (s->key == key) return s;
  }
}

static int grow_slots(vf_pending_t *q) {
  size_t n = q->n_slots ? q->n_slots * 2 : 64;
  vf_queue_slot_t *old = q->slots;
  size_t old_n = q->n_slots;
  q->slots = calloc(n, sizeof *q->slots);
  if (!q->slots) {
    q->slots = old;
    return -ENOMEM;
  }
  q->n_slots = n;
  q->used_slots = 0;
  for (size_t i = 0; i < old_n; i++)
    if (old[i].head) {
      vf_queue_slot_t *s = insert_slot(q, old[i].key);
      s->head = old[i].head;
      s->tail = old[i].tail;
    }
  free(old);
  return 0;
}

/* Backward-shift deletion keeps linear probing correct without tombstones. */
static void remove_slot(vf_pending_t *q, vf_queue_slot_t *s) {
  size_t mask = q->n_slots - 1;
  size_t i = (size_t)(s - q->slots);
  size_t j = i;
  for (;;) {
    j = (j + 1) & mask;
    if (q->slots[j].head == 0) break;
    size_t home = hash_key(q->slots[j].key) & mask;
    if (((j - home) & mask) >= ((j - i) & mask)) {
      q->slots[i] = q->slots[j];
      i = j;
    }
  }
  q->slots[i].head = 0;
  q->used_slots--;
}

static uint32_t node_alloc(vf_pending_t *q) {
  if (!q->free_list) {
    size_t old = q->n_nodes;
    size_t n = old ? old * 2 : 64;
    if (n >= UINT32_MAX) return 0;
    vf_node_t *nodes = realloc(q->nodes, n * sizeof *nodes);
    if (!nodes) return 0;
    q->nodes = nodes;
    q->n_nodes = n;
    for (size_t k = n; k > old; k--) {
      nodes[k - 1].next = q->free_list;
      q->free_list = (uint32_t)k;
    }
  }
  uint32_t idx = q->free_list;
  q->free_list = q->nodes[idx - 1].next;
  return idx;
}

static int push(vf_pending_t *q, uint64_t key, const vf_event_t *ev) {
  if ((q->used_slots + 1) * 2 > q->n_slots && grow_slots(q) != 0) return -ENOMEM;
  uint32_t idx = node_alloc(q);
  if (!idx) return -ENOMEM;
  q->nodes[idx - 1].ev = *ev;
  q->nodes[idx - 1].next = 0;
  vf_queue_slot_t *s = insert_slot(q, key);
  if (s->head == 0)
    s->head = idx;
  else
    q->nodes[s->tail - 1].next = idx;
  s->tail = idx;
  q->count++;
  return 0;
}

static int pop(vf_pending_t *q, uint64_t key, vf_event_t *out) {
  vf_queue_slot_t *s = find_slot(q, key);
  if (!s) return 0;
  uint32_t idx = s->head;
  *out = q->nodes[idx - 1].ev;
  s->head = q->nodes[idx - 1].next;
  if (s->head == 0) remove_slot(q, s);
  q->nodes[idx - 1].next = q->free_list;
  q->free_list = idx;
  q->count--;
  return 1;
}

int vf_pair_offer(vf_pair_t *p, vf_side_t side, uint64_t key, const vf_event_t *ev,
                  vf_event_t *match) {
  if (pop(&p->side[!side], key, match)) return 1;
  int rc = push(&p->side[side], key, ev);
  if (rc) return rc;
  size_t waiting = p->side[0].count + p->side[1].count;
  if (waiting > p->peak) p->peak = waiting;
  return 0;
}

size_t vf_pair_waiting(const vf_pair_t *p, vf_side_t side) {
  return p->side[side].count;
}

void vf_pair_drain(vf_pair_t *p, vf_side_t side, void (*fn)(void *arg, const vf_event_t *ev),
                   void *arg) {
  vf_pending_t *q = &p->side[side];
  for (size_t i = 0; i < q->n_slots; i++)
    for (uint32_t idx = q->slots[i].head; idx; idx = q->nodes[idx - 1].next)
      fn(arg, &q->nodes[idx - 1].ev);
  pending_free(q);
}
