/* Eight characters at a time in one 64-bit word (little-endian: the first character is the low
 * byte). Used by the fixed-layout fast path of the line parser; every function is exact per byte,
 * with no carries between bytes. */
#ifndef PTO_VF_SWAR_H
#define PTO_VF_SWAR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define VF_SWAR_AVAILABLE 1
#else
#define VF_SWAR_AVAILABLE 0
#endif

#define VF_SWAR_REP(b) (0x0101010101010101ULL * (uint8_t)(b))
#define VF_SWAR_HIGH   VF_SWAR_REP(0x80)

static inline uint64_t vf_swar_load(const char *p) {
  uint64_t w;
  memcpy(&w, p, sizeof w);
  return w;
}

/* High bit of each byte set where lo <= byte <= hi; `a` must have every high bit clear. */
static inline uint64_t vf_swar_in_range(uint64_t a, uint8_t lo, uint8_t hi) {
  return (a + VF_SWAR_REP(0x80 - lo)) & ~(a + VF_SWAR_REP(0x7F - hi)) & VF_SWAR_HIGH;
}

/* High bit of each byte set where the byte is an ASCII decimal digit. */
static inline uint64_t vf_swar_digits(uint64_t w) {
  return vf_swar_in_range(w & VF_SWAR_REP(0x7F), '0', '9') & ~w;
}

/* High bit of each byte set where the byte equals c. */
static inline uint64_t vf_swar_eq(uint64_t w, uint8_t c) {
  uint64_t x = w ^ VF_SWAR_REP(c);
  return ~(((x & VF_SWAR_REP(0x7F)) + VF_SWAR_REP(0x7F)) | x) & VF_SWAR_HIGH;
}

/* Index of the first byte whose high bit is set in `mask`, 8 when none is. */
static inline unsigned vf_swar_first(uint64_t mask) {
  return mask ? (unsigned)__builtin_ctzll(mask) / 8 : 8;
}

/* Value of eight decimal digits (all bytes must be digits). */
static inline uint64_t vf_swar_dec8(uint64_t w) {
  w -= VF_SWAR_REP('0');
  w = w * 10 + (w >> 8);
  return (((w & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
          (((w >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >>
         32;
}

/* Value of the first n (1..7) decimal digits of w: they are moved to the top and the bottom is
 * padded with '0' characters, which add leading zeros. */
static inline uint64_t vf_swar_dec_prefix(uint64_t w, unsigned n) {
  return vf_swar_dec8((w << (8 * (8 - n))) | (VF_SWAR_REP('0') >> (8 * n)));
}

/* High bit of each byte set where the byte is a hex letter of either case. */
static inline uint64_t vf_swar_hex_letters(uint64_t w) {
  return vf_swar_in_range((w & VF_SWAR_REP(0x7F)) | VF_SWAR_REP(0x20), 'a', 'f') & ~w;
}

static inline bool vf_swar_is_hex8(uint64_t w) {
  return (vf_swar_digits(w) | vf_swar_hex_letters(w)) == VF_SWAR_HIGH;
}

/* Value of eight hex digits (all bytes must be hex digits). Each byte's low nibble is its value,
 * plus 9 for letters; then nibbles pack pairwise. */
static inline uint64_t vf_swar_hex_value(uint64_t w) {
  uint64_t nib = (w & VF_SWAR_REP(0x0F)) + (vf_swar_hex_letters(w) >> 7) * 9;
  uint64_t t = ((nib << 4) | (nib >> 8)) & 0x00FF00FF00FF00FFULL;
  t = ((t << 8) | (t >> 16)) & 0x0000FFFF0000FFFFULL;
  return ((t << 16) | (t >> 32)) & 0xFFFFFFFFULL;
}

/* Eight hex digits, either case; false when any byte is not one. */
static inline bool vf_swar_hex8(uint64_t w, uint64_t *value) {
  if (!vf_swar_is_hex8(w)) return false;
  *value = vf_swar_hex_value(w);
  return true;
}

/* Value of the first n (1..7) hex digits of w, padded at the top like vf_swar_dec_prefix. */
static inline uint64_t vf_swar_hex_prefix(uint64_t w, unsigned n) {
  return vf_swar_hex_value((w << (8 * (8 - n))) | (VF_SWAR_REP('0') >> (8 * n)));
}

#endif
