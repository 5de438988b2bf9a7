#include "sample_dom.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <simdjson.h>

extern "C" {
#include "format.h"
#include "record_rules.h"
#include "rigor/plugin.h"
#include "sample_record.h"
}

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

static_assert(RIGOR_SAMPLE_DOM_PADDING >= simdjson::SIMDJSON_PADDING,
              "the read buffer must pad lines as simdjson reads them");

namespace {

/* Where parse keeps each top-level member it found: the table's members at their id, then the
 * index members of record_rules.h that samples do not carry (block, position), which the rules
 * bound all the same. */
constexpr unsigned n_slots = RIGOR_SAMPLE_MEMBER_COUNT + RIGOR_INDEX_COUNT;
constexpr unsigned slot_other = n_slots;
/* The most members an object of the table holds. */
constexpr size_t max_children = 16;

/* Keys are short: words compared inline beat a call to memcmp for each. */
[[gnu::always_inline]] inline bool same_key(std::string_view a, std::string_view b) {
  size_t n = a.size(), i = 0;
  if (n != b.size()) return false;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return false;
  }
  if (i + 4 <= n) {
    uint32_t x, y;
    std::memcpy(&x, a.data() + i, 4);
    std::memcpy(&y, b.data() + i, 4);
    if (x != y) return false;
    i += 4;
  }
  for (; i < n; i++)
    if (a[i] != b[i]) return false;
  return true;
}

/* The table turned into lookups, once. */
struct sample_keys {
  /* Top-level keys in an open-addressed hash: one comparison per member, most of the time. */
  static constexpr size_t n_hashed = 128;
  std::string_view hashed_key[n_hashed];
  unsigned hashed_slot[n_hashed];
  unsigned rule_slot[RIGOR_INDEX_COUNT];
  bool walked[n_slots + 1] = {}; /* slots whose reader walks every member of their object */
  /* The top-level members, in table order, and the members of each object that readers fill. */
  int top[RIGOR_SAMPLE_MEMBER_COUNT];
  size_t n_top = 0;
  int constants[RIGOR_SAMPLE_MEMBER_COUNT]; /* the members of fixed value */
  size_t n_constants = 0;
  std::string_view child_key[RIGOR_SAMPLE_MEMBER_COUNT][max_children];
  int child_id[RIGOR_SAMPLE_MEMBER_COUNT][max_children];
  size_t n_children[RIGOR_SAMPLE_MEMBER_COUNT] = {};

  /* Length, first and last byte tell the keys of a sample apart, but for a probe or two. */
  static size_t hash(std::string_view k) {
    size_t n = k.size();
    return n == 0 ? 0 : (n * 7 + size_t(uint8_t(k[0])) * 3 + size_t(uint8_t(k[n - 1]))) % n_hashed;
  }

  sample_keys() {
    for (size_t i = 0; i < n_hashed; i++)
      hashed_slot[i] = slot_other;
    for (unsigned i = 0; i < RIGOR_INDEX_COUNT; i++) {
      rule_slot[i] = RIGOR_SAMPLE_MEMBER_COUNT + i;
      for (int id = 0; id < RIGOR_SAMPLE_MEMBER_COUNT; id++)
        if (rigor_sample_members[id].kind == RIGOR_SAMPLE_INDEX &&
            rigor_sample_members[id].rule == int(i))
          rule_slot[i] = unsigned(id);
      if (rule_slot[i] >= RIGOR_SAMPLE_MEMBER_COUNT)
        add(rigor__index_members[i].name, rule_slot[i]);
    }
    for (int id = 0; id < RIGOR_SAMPLE_MEMBER_COUNT; id++) {
      const rigor_sample_member_t &m = rigor_sample_members[id];
      if (m.parent == RIGOR_SAMPLE_TOP) {
        add(m.key, unsigned(id));
        top[n_top++] = id;
        if (m.kind == RIGOR_SAMPLE_CONST) constants[n_constants++] = id;
        walked[id] = m.kind == RIGOR_SAMPLE_OBJECT || m.kind == RIGOR_SAMPLE_METRICS;
      } else if (m.read_into != RIGOR_SAMPLE_NOWHERE) {
        size_t &n = n_children[m.parent];
        child_key[m.parent][n] = m.key;
        child_id[m.parent][n++] = id;
      }
    }
  }

  void add(std::string_view key, unsigned slot) {
    size_t h = hash(key);
    while (hashed_slot[h] != slot_other)
      h = (h + 1) % n_hashed;
    hashed_key[h] = key;
    hashed_slot[h] = slot;
  }

  unsigned slot_of(std::string_view k) const {
    for (size_t h = hash(k); hashed_slot[h] != slot_other; h = (h + 1) % n_hashed)
      if (same_key(hashed_key[h], k)) return hashed_slot[h];
    return slot_other;
  }
};

const sample_keys &keys() {
  static const sample_keys k;
  return k;
}

/* jansson refuses integers above INT64_MAX, which simdjson reads as unsigned. */
bool holds_unsigned(element e) {
  array a;
  object o;
  switch (e.type()) {
  case element_type::UINT64:
    return true;
  case element_type::ARRAY:
    if (!e.get_array().get(a))
      for (element v : a)
        if (holds_unsigned(v)) return true;
    return false;
  case element_type::OBJECT:
    if (!e.get_object().get(o))
      for (auto kv : o)
        if (holds_unsigned(kv.value)) return true;
    return false;
  default:
    return false;
  }
}

/* A scalar is checked on the spot; only containers need the walk. */
bool holds_unsigned_fast(element e) {
  element_type t = e.type();
  return t == element_type::UINT64 ||
         ((t == element_type::ARRAY || t == element_type::OBJECT) && holds_unsigned(e));
}

/* jansson refuses a \u0000 escape (without JSON_ALLOW_NUL); simdjson decodes it. */
bool has_nul_escape(const char *s, size_t len) {
  const char *end = s + len;
  for (const char *p = s; (p = static_cast<const char *>(std::memchr(p, '\\', end - p)));) {
    if (end - p >= 6 && std::memcmp(p + 1, "u0000", 5) == 0) return true;
    p += p + 1 < end ? 2 : 1;
  }
  return false;
}

double number_of(const element *e) {
  double d;
  return e && !e->get_double().get(d) ? d : NAN;
}

const char *string_of(const element *e) {
  const char *s;
  return e && !e->get_c_str().get(s) ? s : nullptr;
}

/* The members of object `e` named in `keys`, the last of each when a name repeats (as jansson
 * keeps it), NULL where absent; false when some member is for jansson. */
bool members_of(const element *e, const std::string_view *keys, size_t n, const element **out,
                element *store) {
  for (size_t i = 0; i < n; i++)
    out[i] = nullptr;
  object o;
  if (!e || e->get_object().get(o)) return true;
  for (auto kv : o) {
    if (holds_unsigned_fast(kv.value)) return false;
    for (size_t i = 0; i < n; i++)
      if (same_key(kv.key, keys[i])) {
        store[i] = kv.value;
        out[i] = &store[i];
        break;
      }
  }
  return true;
}

} // namespace

struct rigor_sample_dom {
  simdjson::dom::parser parser;
  std::vector<rigor_sample_metric_t> metrics;
  std::vector<element> metric_values;
  std::unordered_map<std::string_view, size_t> metric_slot; /* for many metrics */
  std::vector<double> raw;
  element point_params;
  bool has_point_params = false;
};

namespace {

/* Past this many metrics a repeated name is found through a hash rather than a scan. */
constexpr size_t metric_scan_max = 16;

/* The numeric members of "metrics", each name once with its last value, at its first place. */
bool read_metrics(rigor_sample_dom *d, const element *e, const rigor_sample_metric_t **out,
                  size_t *n_out) {
  d->metrics.clear();
  d->metric_values.clear();
  d->metric_slot.clear();
  object o;
  if (e && !e->get_object().get(o))
    for (auto it = o.begin(); it != o.end(); ++it) {
      element value = it.value();
      if (holds_unsigned_fast(value)) return false;
      std::string_view name = it.key();
      size_t n = d->metrics.size(), slot = n;
      if (n < metric_scan_max) {
        for (size_t i = 0; i < n; i++)
          if (name == d->metrics[i].name) {
            slot = i;
            break;
          }
      } else {
        if (d->metric_slot.empty())
          for (size_t i = 0; i < n; i++)
            d->metric_slot.emplace(std::string_view(d->metrics[i].name), i);
        auto found = d->metric_slot.emplace(name, n);
        if (!found.second) slot = found.first->second;
      }
      if (slot == n) {
        d->metrics.push_back({it.key_c_str(), NAN});
        d->metric_values.push_back(value);
      } else {
        d->metric_values[slot] = value;
      }
    }
  size_t kept = 0;
  for (size_t i = 0; i < d->metrics.size(); i++) {
    double v;
    if (d->metric_values[i].get_double().get(v)) continue;
    d->metrics[kept++] = {d->metrics[i].name, v};
  }
  d->metrics.resize(kept);
  *out = d->metrics.data();
  *n_out = d->metrics.size();
  return true;
}

void read_reals(rigor_sample_dom *d, const element *e, const double **out, size_t *n) {
  d->raw.clear();
  array raw;
  if (!e || e->get_array().get(raw)) return;
  for (element v : raw)
    d->raw.push_back(number_of(&v));
  *out = d->raw.data();
  *n = d->raw.size();
}

/* The index members: absent or null read as -1, anything else must be an integer in bounds. */
bool indices_in_bounds(const element *const *found) {
  for (unsigned i = 0; i < RIGOR_INDEX_COUNT; i++) {
    const element *e = found[keys().rule_slot[i]];
    if (!e || e->is_null()) continue;
    const rigor_index_member_t *m = &rigor__index_members[i];
    int64_t v;
    if (e->type() != element_type::INT64 || e->get_int64().get(v) || v < m->min || v > m->max)
      return false;
  }
  return true;
}

/* Member `m` where the table says the reader puts it; false when the line is for jansson. */
[[gnu::always_inline]] inline bool read_member(rigor_sample_dom *d, const rigor_sample_member_t &m,
                                               const element *e, rigor_sample_t *out) {
  char *at = reinterpret_cast<char *>(out) + m.read_into;
  int64_t index;
  switch (m.kind) {
  case RIGOR_SAMPLE_INDEX: /* in bounds: indices_in_bounds checked it */
    *reinterpret_cast<int64_t *>(at) =
        e && !e->is_null() && !e->get_int64().get(index) ? index : -1;
    return true;
  case RIGOR_SAMPLE_TEXT:
    *reinterpret_cast<const char **>(at) = string_of(e);
    return true;
  case RIGOR_SAMPLE_STATUS:
    *reinterpret_cast<rigor_sample_status_t *>(at) = rigor_sample_status_parse(string_of(e));
    return true;
  case RIGOR_SAMPLE_REAL:
  case RIGOR_SAMPLE_UINT:
    *reinterpret_cast<double *>(at) = number_of(e);
    return true;
  case RIGOR_SAMPLE_OBJECT:
    *reinterpret_cast<bool *>(at) = e && e->type() == element_type::OBJECT;
    return true;
  case RIGOR_SAMPLE_REALS:
    read_reals(d, e, reinterpret_cast<const double **>(at),
               reinterpret_cast<size_t *>(at + sizeof(const double *)));
    return true;
  case RIGOR_SAMPLE_METRICS:
    return read_metrics(d, e, reinterpret_cast<const rigor_sample_metric_t **>(at),
                        reinterpret_cast<size_t *>(at + sizeof(const rigor_sample_metric_t *)));
  case RIGOR_SAMPLE_CONST:
  case RIGOR_SAMPLE_JSON:
    return true;
  }
  return true;
}

/* An object member's members, each read where the table says; false when one is for jansson. */
bool read_object(rigor_sample_dom *d, int id, const element *e, rigor_sample_t *out) {
  const sample_keys &k = keys();
  size_t n = k.n_children[id];
  const element *at[max_children];
  element store[max_children];
  if (!members_of(e, k.child_key[id], n, at, store)) return false;
  for (size_t i = 0; i < n; i++)
    if (!read_member(d, rigor_sample_members[k.child_id[id][i]], at[i], out)) return false;
  return true;
}

/* The fixed members hold their values (the schema, the type "sample"). */
bool constants_hold(const element *const *found) {
  const sample_keys &k = keys();
  for (size_t c = 0; c < k.n_constants; c++) {
    const rigor_sample_member_t &m = rigor_sample_members[k.constants[c]];
    const char *value = string_of(found[k.constants[c]]);
    if (!value || std::strcmp(value, m.constant) != 0) return false;
  }
  return true;
}

int parse(rigor_sample_dom *d, const char *line, size_t len, rigor_sample_t *out) {
  d->has_point_params = false;
  d->metrics.clear();
  d->raw.clear();
  if (has_nul_escape(line, len)) return 0;
  object root;
  if (d->parser.parse(line, len, false).get_object().get(root)) return 0;
  const sample_keys &k = keys();
  element store[n_slots];
  const element *found[n_slots] = {};
  for (auto kv : root) {
    unsigned slot = k.slot_of(kv.key);
    /* The last object of a walked member is checked by its reader, everything else here. */
    bool walked = k.walked[slot] && kv.value.type() == element_type::OBJECT;
    if ((!walked && holds_unsigned_fast(kv.value)) ||
        (k.walked[slot] && found[slot] && holds_unsigned(*found[slot])))
      return 0;
    if (slot == slot_other) continue;
    store[slot] = kv.value;
    found[slot] = &store[slot];
  }
  if (!constants_hold(found) || !string_of(found[RIGOR_SAMPLE_MEMBER_EXPERIMENT]) ||
      !indices_in_bounds(found))
    return 0;
  *out = rigor_sample_t{};
  for (size_t t = 0; t < k.n_top; t++) {
    int id = k.top[t];
    const rigor_sample_member_t &m = rigor_sample_members[id];
    if (m.read_into != RIGOR_SAMPLE_NOWHERE && !read_member(d, m, found[id], out)) return 0;
    if (m.kind == RIGOR_SAMPLE_OBJECT && !read_object(d, id, found[id], out)) return 0;
  }
  if (found[RIGOR_SAMPLE_MEMBER_POINT_PARAMS]) {
    d->point_params = *found[RIGOR_SAMPLE_MEMBER_POINT_PARAMS];
    d->has_point_params = true;
  }
  out->from_dom = d;
  return 1;
}

json_t *to_json(element e) {
  object obj;
  array arr;
  std::string_view str;
  int64_t integer;
  double real;
  bool boolean;
  switch (e.type()) {
  case element_type::OBJECT: {
    json_t *o = json_object();
    if (e.get_object().get(obj)) return o;
    for (auto it = obj.begin(); o && it != obj.end(); ++it) {
      json_t *v = to_json(it.value());
      if (!v || json_object_set_new(o, it.key_c_str(), v) != 0) {
        json_decref(o);
        o = nullptr;
      }
    }
    return o;
  }
  case element_type::ARRAY: {
    json_t *a = json_array();
    if (e.get_array().get(arr)) return a;
    for (element v : arr) {
      if (!a || json_array_append_new(a, to_json(v)) != 0) {
        json_decref(a);
        return nullptr;
      }
    }
    return a;
  }
  case element_type::STRING:
    return e.get_string().get(str) ? nullptr : json_stringn(str.data(), str.size());
  case element_type::INT64:
    return e.get_int64().get(integer) ? nullptr : json_integer(json_int_t(integer));
  case element_type::DOUBLE:
    return e.get_double().get(real) ? nullptr : json_real(real);
  case element_type::BOOL:
    return e.get_bool().get(boolean) ? nullptr : json_boolean(boolean);
  case element_type::NULL_VALUE:
    return json_null();
  case element_type::UINT64:
    break; /* never kept: the line went to jansson */
  }
  return nullptr;
}

} // namespace

extern "C" rigor_sample_dom_t *rigor__sample_dom_new(void) {
  return new (std::nothrow) rigor_sample_dom;
}

extern "C" void rigor__sample_dom_free(rigor_sample_dom_t *d) {
  delete d;
}

extern "C" int rigor__sample_dom_parse(rigor_sample_dom_t *d, const char *line, size_t len,
                                       rigor_sample_t *out) {
  try {
    return parse(d, line, len, out);
  } catch (const std::bad_alloc &) {
    return RIGOR_ENOMEM;
  }
}

extern "C" json_t *rigor__sample_dom_point_params(rigor_sample_dom_t *d) {
  return d->has_point_params ? to_json(d->point_params) : nullptr;
}
