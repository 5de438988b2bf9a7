#include <stdbool.h>
#include <string.h>

#include "html.h"
#include "writers.h"

enum { CELL_MAX = 4096 };

/* Verdicts that mean the figure can be used as it is. */
static bool good_verdict(const char *s) {
  static const char *const good[] = {"stable", "same", "faster", "ok", "exact", "met", NULL};
  for (size_t i = 0; good[i]; i++)
    if (strcmp(s, good[i]) == 0) return true;
  return false;
}

static void table(const rigor_table_t *t, FILE *out) {
  char text[CELL_MAX];
  if (t->title[0]) {
    fputs("<h3>", out);
    rigor_html_escape(out, t->title);
    fputs("</h3>\n", out);
  }
  fputs("<table>\n<tr>", out);
  size_t verdict_col = t->n_cols;
  for (size_t c = 0; c < t->n_cols; c++) {
    fputs("<th>", out);
    rigor_html_escape(out, t->headers[c]);
    fputs("</th>", out);
    if (strcmp(t->headers[c], "verdict") == 0) verdict_col = c;
  }
  fputs("</tr>\n", out);
  for (size_t r = 0; r < t->n_rows; r++) {
    fputs("<tr>", out);
    for (size_t c = 0; c < t->n_cols; c++) {
      rigor_table_cell_text(t, r, c, text, sizeof text);
      if (c == verdict_col)
        fprintf(out, "<td class=\"%s\">", good_verdict(text) ? "good" : "bad");
      else
        fputs(rigor_table_cell_numeric(t, r, c) ? "<td>" : "<td class=\"text\">", out);
      rigor_html_escape(out, text);
      fputs("</td>", out);
    }
    fputs("</tr>\n", out);
  }
  fputs("</table>\n", out);
}

int rigor_write_html(const rigor_doc_t *doc, FILE *out) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
  rigor_html_escape(out, doc->title);
  fputs("</title>\n<style>\n"
        "body{font-family:sans-serif;margin:2em;color:#222;background:#fff}\n"
        "table{border-collapse:collapse;margin:0.5em 0 1.5em}\n"
        "th,td{border:1px solid #bbb;padding:2px 8px;text-align:right;font-size:13px}\n"
        "td.text{text-align:left}\n"
        "th{background:#eee}\ntd.good{background:#d9f2d9}\ntd.bad{background:#f8d7d7}\n"
        "svg.chart{border:1px solid #ddd;font-size:11px}\n.legend{font-size:12px;color:#444}\n"
        "</style>\n</head>\n<body>\n",
        out);
  for (size_t i = 0; i < doc->n_parts; i++) {
    const rigor_part_t *p = &doc->parts[i];
    size_t k;
    json_t *note;
    switch (p->kind) {
    case RIGOR_PART_HEADING:
      fprintf(out, "<h%d>", p->level == 1 ? 1 : 2);
      rigor_html_escape(out, p->text);
      fprintf(out, "</h%d>\n", p->level == 1 ? 1 : 2);
      break;
    case RIGOR_PART_TABLE:
      table(p->table, out);
      break;
    case RIGOR_PART_NOTES:
      fputs("<ul>\n", out);
      json_array_foreach(p->notes, k, note) {
        fputs("<li>", out);
        rigor_html_escape(out, json_string_value(note));
        fputs("</li>\n", out);
      }
      fputs("</ul>\n", out);
      break;
    case RIGOR_PART_TEXT:
      fputs("<p>", out);
      rigor_html_escape(out, p->text);
      fputs("</p>\n", out);
      break;
    case RIGOR_PART_FIGURE:
      p->figure(p->figure_arg, out);
      break;
    }
  }
  fputs("</body>\n</html>\n", out);
  return ferror(out) ? RIGOR_EIO : 0;
}
