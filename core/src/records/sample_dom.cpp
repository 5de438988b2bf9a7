#include "sample_dom.h"

#include <cmath>
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
}

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

static_assert(RIGOR_SAMPLE_DOM_PADDING >= simdjson::SIMDJSON_PADDING,
              "the read buffer must pad lines as simdjson reads them");

namespace {

/* The top-level members a sample reader uses; the index members come first, in the order of
 * rigor_index_t. */
enum member : unsigned {
  M_RUN = RIGOR_INDEX_RUN,
  M_ATTEMPT = RIGOR_INDEX_ATTEMPT,
  M_VARIANT = RIGOR_INDEX_VARIANT,
  M_BLOCK = RIGOR_INDEX_BLOCK,
  M_POSITION = RIGOR_INDEX_POSITION,
  M_CYCLE = RIGOR_INDEX_CYCLE,
  M_POINT = RIGOR_INDEX_POINT,
  M_ARM = RIGOR_INDEX_ARM,
  M_SLOT = RIGOR_INDEX_SLOT,
  M_SCHEMA = RIGOR_INDEX_COUNT,
  M_TYPE,
  M_EXPERIMENT,
  M_STATUS,
  M_WINDOW,
  M_POINT_LABEL,
  M_POINT_PARAMS,
  M_TIME_S,
  M_ITERS,
  M_AGG,
  M_BYTES,
  M_FLOPS,
  M_BUS_FACTOR,
  M_RATES,
  M_CHECK,
  M_METRICS,
  M_ITERATIONS,
  M_COUNT,
  M_OTHER = M_COUNT,
};

/* Switching on the length first keeps the lookup to a comparison or two per member. */
member member_of(std::string_view k) {
  switch (k.size()) {
  case 3:
    return k == "run" ? M_RUN : k == "agg" ? M_AGG : k == "arm" ? M_ARM : M_OTHER;
  case 4:
    return k == "type" ? M_TYPE : k == "slot" ? M_SLOT : M_OTHER;
  case 5:
    switch (k[0]) {
    case 'b':
      return k == "bytes" ? M_BYTES : k == "block" ? M_BLOCK : M_OTHER;
    case 'c':
      return k == "cycle" ? M_CYCLE : k == "check" ? M_CHECK : M_OTHER;
    case 'p':
      return k == "point" ? M_POINT : M_OTHER;
    case 'i':
      return k == "iters" ? M_ITERS : M_OTHER;
    case 'f':
      return k == "flops" ? M_FLOPS : M_OTHER;
    case 'r':
      return k == "rates" ? M_RATES : M_OTHER;
    }
    return M_OTHER;
  case 6:
    return k == "schema"   ? M_SCHEMA
           : k == "status" ? M_STATUS
           : k == "window" ? M_WINDOW
           : k == "time_s" ? M_TIME_S
                           : M_OTHER;
  case 7:
    return k == "attempt"   ? M_ATTEMPT
           : k == "variant" ? M_VARIANT
           : k == "metrics" ? M_METRICS
                            : M_OTHER;
  case 8:
    return k == "position" ? M_POSITION : M_OTHER;
  case 10:
    return k == "experiment"   ? M_EXPERIMENT
           : k == "bus_factor" ? M_BUS_FACTOR
           : k == "iterations" ? M_ITERATIONS
                               : M_OTHER;
  case 11:
    return k == "point_label" ? M_POINT_LABEL : M_OTHER;
  case 12:
    return k == "point_params" ? M_POINT_PARAMS : M_OTHER;
  }
  return M_OTHER;
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
template <size_t N>
bool members_of(const element *e, const std::string_view (&keys)[N], const element *(&out)[N],
                element (&store)[N]) {
  for (size_t i = 0; i < N; i++)
    out[i] = nullptr;
  object o;
  if (!e || e->get_object().get(o)) return true;
  for (auto kv : o) {
    if (holds_unsigned_fast(kv.value)) return false;
    for (size_t i = 0; i < N; i++)
      if (kv.key == keys[i]) {
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
bool read_metrics(rigor_sample_dom *d, const element *e, rigor_sample_t *out) {
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
  out->metrics = d->metrics.data();
  out->n_metrics = d->metrics.size();
  return true;
}

bool read_iterations(rigor_sample_dom *d, const element *e, rigor_sample_t *out) {
  static const std::string_view keys[] = {"n",   "min", "max",  "p50", "p95",
                                          "p99", "cv",  "mean", "raw"};
  const element *at[9];
  element store[9];
  d->raw.clear();
  out->it_n = out->it_min = out->it_max = out->it_p50 = out->it_p95 = out->it_p99 = out->it_mean =
      out->it_cv = NAN;
  if (!members_of(e, keys, at, store)) return false;
  if (!e || e->type() != element_type::OBJECT) return true;
  out->has_iterations = true;
  out->it_n = number_of(at[0]);
  out->it_min = number_of(at[1]);
  out->it_max = number_of(at[2]);
  out->it_p50 = number_of(at[3]);
  out->it_p95 = number_of(at[4]);
  out->it_p99 = number_of(at[5]);
  out->it_cv = number_of(at[6]);
  out->it_mean = number_of(at[7]);
  array raw;
  if (!at[8] || at[8]->get_array().get(raw)) return true;
  for (element v : raw)
    d->raw.push_back(number_of(&v));
  out->raw = d->raw.data();
  out->n_raw = d->raw.size();
  return true;
}

/* The index members: absent or null read as -1, anything else must be an integer in bounds. */
bool read_indices(const element *const *found, rigor_sample_t *out) {
  int64_t value[RIGOR_INDEX_COUNT];
  for (unsigned i = 0; i < RIGOR_INDEX_COUNT; i++) {
    value[i] = -1;
    if (!found[i] || found[i]->is_null()) continue;
    const rigor_index_member_t *m = &rigor__index_members[i];
    int64_t v;
    if (found[i]->type() != element_type::INT64 || found[i]->get_int64().get(v) || v < m->min ||
        v > m->max)
      return false;
    value[i] = v;
  }
  out->run = value[RIGOR_INDEX_RUN];
  out->attempt = value[RIGOR_INDEX_ATTEMPT];
  out->variant = value[RIGOR_INDEX_VARIANT];
  out->point = value[RIGOR_INDEX_POINT];
  out->cycle = value[RIGOR_INDEX_CYCLE];
  out->arm = value[RIGOR_INDEX_ARM];
  out->slot = value[RIGOR_INDEX_SLOT];
  return true;
}

/* Members whose reader walks every member of their object (and checks what it holds). */
bool read_whole(member m) {
  return m == M_RATES || m == M_CHECK || m == M_METRICS || m == M_ITERATIONS;
}

int parse(rigor_sample_dom *d, const char *line, size_t len, rigor_sample_t *out) {
  d->has_point_params = false;
  if (has_nul_escape(line, len)) return 0;
  object root;
  if (d->parser.parse(line, len, false).get_object().get(root)) return 0;
  element store[M_COUNT];
  const element *found[M_COUNT] = {};
  for (auto kv : root) {
    member m = member_of(kv.key);
    /* The last object of a walked member is checked by its reader, everything else here. */
    bool walked = read_whole(m) && kv.value.type() == element_type::OBJECT;
    if ((!walked && holds_unsigned_fast(kv.value)) ||
        (read_whole(m) && found[m] && holds_unsigned(*found[m])))
      return 0;
    if (m == M_OTHER) continue;
    store[m] = kv.value;
    found[m] = &store[m];
  }
  const char *schema = string_of(found[M_SCHEMA]), *type = string_of(found[M_TYPE]);
  if (!schema || std::strcmp(schema, RIGOR_RESULT_SCHEMA) != 0 || !type ||
      std::strcmp(type, "sample") != 0)
    return 0;
  *out = rigor_sample_t{};
  out->experiment = string_of(found[M_EXPERIMENT]);
  if (!out->experiment || !read_indices(found, out)) return 0;
  out->status = string_of(found[M_STATUS]);
  out->window = string_of(found[M_WINDOW]);
  out->point_label = string_of(found[M_POINT_LABEL]);
  out->time_s = number_of(found[M_TIME_S]);
  out->iters = number_of(found[M_ITERS]);
  out->agg = number_of(found[M_AGG]);
  out->bytes = number_of(found[M_BYTES]);
  out->flops = number_of(found[M_FLOPS]);
  out->bus_factor = number_of(found[M_BUS_FACTOR]);

  static const std::string_view rate_keys[] = {"bytes_per_s", "flops_per_s", "busbw_bytes_per_s"};
  const element *rate[3];
  element rate_store[3];
  static const std::string_view check_keys[] = {"wrong"};
  const element *wrong[1];
  element wrong_store[1];
  if (!members_of(found[M_RATES], rate_keys, rate, rate_store) ||
      !members_of(found[M_CHECK], check_keys, wrong, wrong_store) ||
      !read_metrics(d, found[M_METRICS], out) || !read_iterations(d, found[M_ITERATIONS], out))
    return 0;
  out->bytes_per_s = number_of(rate[0]);
  out->flops_per_s = number_of(rate[1]);
  out->busbw_bytes_per_s = number_of(rate[2]);
  out->check_wrong = number_of(wrong[0]);
  if (found[M_POINT_PARAMS]) {
    d->point_params = *found[M_POINT_PARAMS];
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
