/* Prints the syntax tree of each file given, as tree-sitter's S-expression, for one grammar:
 * scripts/vendor_check.sh builds it twice, against the published crates and against the
 * vendored ones, and compares what both print for the same files. */
#include <stdio.h>
#include <stdlib.h>
#include <tree_sitter/api.h>

const TSLanguage *GRAMMAR(void);

static char *read_file(const char *path, long *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc(*len + 1);
  if (fread(buf, 1, *len, f) != (size_t)*len) { fclose(f); free(buf); return NULL; }
  fclose(f);
  return buf;
}

int main(int argc, char **argv) {
  TSParser *parser = ts_parser_new();
  if (!ts_parser_set_language(parser, GRAMMAR())) { fprintf(stderr, "grammar version\n"); return 2; }
  for (int i = 1; i < argc; i++) {
    long len;
    char *src = read_file(argv[i], &len);
    if (!src) { fprintf(stderr, "cannot read %s\n", argv[i]); return 2; }
    TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)len);
    char *s = ts_node_string(ts_tree_root_node(tree));
    printf("%s\n%s\n", argv[i], s);
    free(s);
    ts_tree_delete(tree);
    free(src);
  }
  ts_parser_delete(parser);
  return 0;
}
