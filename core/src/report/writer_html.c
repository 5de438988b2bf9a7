#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "writers.h"

enum { CELL_MAX = 4096, LONG_TEXT = 40 };

/* Verdicts that mean the figure can be used as it is. */
static bool good_verdict(const char *s) {
  static const char *const good[] = {"stable", "same",        "faster", "ok",
                                     "exact",  "improvement", "met",    NULL};
  for (size_t i = 0; good[i]; i++)
    if (strcmp(s, good[i]) == 0) return true;
  return false;
}

/* Columns of sentences (why a verdict, what a note says) wrap at any width rather than push the
 * table past the page's edge. */
static bool prose_column(const char *header) {
  static const char *const prose[] = {"why", "reason", "note", "notes", NULL};
  for (size_t i = 0; prose[i]; i++)
    if (strcmp(header, prose[i]) == 0) return true;
  return false;
}

static void table(const rigor_table_t *t, FILE *out) {
  char text[CELL_MAX];
  rigor_unit_t *units = rigor_table_units(t);
  if (!units) return;
  if (t->title[0]) {
    fputs("<h3>", out);
    rigor_html_escape(out, t->title);
    fputs("</h3>\n", out);
  }
  fputs("<div class=\"scroll\"><table", out);
  if (t->name[0]) {
    fputs(" data-table=\"", out);
    rigor_html_escape(out, t->name);
    fputc('"', out);
  }
  fputs(">\n<tr>", out);
  size_t verdict_col = t->n_cols;
  for (size_t c = 0; c < t->n_cols; c++) {
    if (t->show[c] == RIGOR_SHOW_DATA) continue;
    rigor_table_header_human(t, c, &units[c], text, sizeof text);
    fputs(rigor_table_is_numeric(t, c) ? "<th>" : "<th class=\"text\">", out);
    rigor_html_escape(out, text);
    fputs("</th>", out);
    if (strcmp(t->headers[c], "verdict") == 0) verdict_col = c;
  }
  fputs("</tr>\n", out);
  for (size_t r = 0; r < t->n_rows; r++) {
    fputs("<tr>", out);
    for (size_t c = 0; c < t->n_cols; c++) {
      if (t->show[c] == RIGOR_SHOW_DATA) continue;
      rigor_table_cell_human(t, r, c, &units[c], text, sizeof text);
      if (c == verdict_col)
        fprintf(out, "<td class=\"%s\">", good_verdict(text) ? "good" : "bad");
      else if (rigor_table_cell_numeric(t, r, c))
        fputs("<td>", out);
      else if (prose_column(t->headers[c]))
        fputs("<td class=\"text prose\">", out);
      else
        fputs(strlen(text) > LONG_TEXT ? "<td class=\"text long\">" : "<td class=\"text\">", out);
      rigor_html_escape(out, text);
      fputs("</td>", out);
    }
    fputs("</tr>\n", out);
  }
  fputs("</table></div>\n", out);
  free(units);
}

static void context(const rigor_part_t *p, FILE *out) {
  const rigor_table_t *t = p->table;
  fputs("<table class=\"context\">\n", out);
  if (t->n_cols > 2) {
    fputs("<tr><th></th>", out);
    for (size_t c = 1; c < t->n_cols; c++) {
      fputs("<th>", out);
      rigor_html_escape(out, t->headers[c]);
      fputs("</th>", out);
    }
    fputs("</tr>\n", out);
  }
  for (size_t r = 0; r < t->n_rows; r++) {
    fputs("<tr><th>", out);
    rigor_html_escape(out, rigor_table_cell(t, r, 0)->text);
    fputs("</th>", out);
    /* Sides that differ are marked, as compare's identity check would read them. */
    const char *first = t->n_cols > 1 ? rigor_table_cell(t, r, 1)->text : NULL;
    bool differ = false;
    for (size_t c = 2; c < t->n_cols; c++) {
      const char *v = rigor_table_cell(t, r, c)->text;
      differ = differ || strcmp(v ? v : "", first ? first : "") != 0;
    }
    for (size_t c = 1; c < t->n_cols; c++) {
      fputs(differ ? "<td class=\"differs\">" : "<td>", out);
      rigor_html_escape(out, rigor_table_cell(t, r, c)->text);
      fputs("</td>", out);
    }
    fputs("</tr>\n", out);
  }
  fputs("</table>\n", out);
  if (json_array_size(p->warnings)) {
    fputs("<ul class=\"warnings\">\n", out);
    size_t k;
    json_t *w;
    json_array_foreach(p->warnings, k, w) {
      fputs("<li><b>warning</b> ", out);
      rigor_html_escape(out, json_string_value(w));
      fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);
  }
}

/* Colours from Okabe and Ito's palette, which readers with any common colour-vision deficiency
 * tell apart; verdicts are also spelled out in the cell. */
static const char style[] =
    "body{font-family:system-ui,sans-serif;margin:1.5em 2em;color:#222;background:#fff;"
    "max-width:1600px}\n"
    "h1{font-size:1.6em}h2{font-size:1.3em;border-bottom:1px solid #ccc;margin-top:2em}\n"
    "h3{font-size:1em;margin:1.2em 0 0.3em}h4{font-size:0.95em;margin:1em 0 0.2em}\n"
    "div.scroll{overflow-x:auto}\n"
    "table{border-collapse:collapse;margin:0.3em 0 1.2em}\n"
    "th,td{border:1px solid #bbb;padding:2px 6px;text-align:right;font-size:13px;"
    "white-space:nowrap;font-variant-numeric:tabular-nums}\n"
    "th{background:#eee;white-space:normal;vertical-align:bottom}\n"
    "th.text,td.text{text-align:left}\n"
    "td.long{white-space:normal;min-width:20em}\n"
    "td.prose{white-space:normal;overflow-wrap:anywhere;min-width:10em;max-width:40em}\n"
    "td.good{background:#d4e6f4}\ntd.bad{background:#fbe2c0}\n"
    "table.context th{text-align:left;background:#f4f4f4}\n"
    "table.context td{text-align:left;white-space:normal;overflow-wrap:anywhere}\n"
    "td.differs{background:#fbe2c0}\n"
    "ul.warnings{background:#fdf3e1;border-left:4px solid #e69f00;padding:0.4em 1em 0.4em 2em}\n"
    "svg.chart{display:block;width:100%;height:auto;border:1px solid #ddd;margin:0.2em 0}\n"
    "svg.chart text{font-size:12px;fill:#222}\nsvg.chart .title{font-size:13px}\n"
    "svg.chart .small{font-size:10px;fill:#555}\n"
    ".legend{font-size:12px;color:#444;margin:0.2em 0 1em}\n";

int rigor_write_html(const rigor_doc_t *doc, FILE *out) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
  rigor_html_escape(out, doc->title);
  fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
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
    case RIGOR_PART_CONTEXT:
      context(p, out);
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

void rigor_html_escape(FILE *out, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '<':
      fputs("&lt;", out);
      break;
    case '>':
      fputs("&gt;", out);
      break;
    case '&':
      fputs("&amp;", out);
      break;
    case '"':
      fputs("&quot;", out);
      break;
    default:
      fputc(*s, out);
    }
  }
}
