/* Text from plugins and files, made safe to record: JSON strings must be valid UTF-8. */
#ifndef RIGOR_UTF8_H
#define RIGOR_UTF8_H

/* Replaces, in place, every byte that does not begin or continue a valid UTF-8 sequence (and
 * every control character but tab and newline) with '?'. Returns s. */
char *rigor_utf8_sanitize(char *s);

#endif
