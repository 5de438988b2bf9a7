/* The pto_vf trace parser: every line through vf_line_parse, then the whole input as a pair of
 * dumps (split at the first NUL byte) through the merging scanner. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pto_vf_line.h"
#include "pto_vf_reader.h"
#include "pto_vf_scan.h"

static void parse_lines(const char *data, size_t size) {
  vf_reader_t r;
  vf_reader_from_memory(&r, data, size);
  const char *line;
  size_t len;
  while (vf_reader_next(&r, &line, &len) > 0) {
    vf_line_t out;
    if (vf_line_parse(line, len, &out) == VF_LINE_OK) {
      uint64_t value;
      vf_operand_hex(out.operands, "addr", &value);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  parse_lines(text, size);
  const char *nul = memchr(text, '\0', size);
  size_t starts_len = nul ? (size_t)(nul - text) : size;
  size_t ends_off = nul ? starts_len + 1 : size;
  vf_reader_t starts, ends;
  vf_reader_from_memory(&starts, text, starts_len);
  vf_reader_from_memory(&ends, text + ends_off, size - ends_off);
  vf_summary_t sum;
  vf_summary_init(&sum);
  vf_scan_core(&starts, &ends, 0, &sum, NULL, NULL);
  return 0;
}
