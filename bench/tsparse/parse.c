// The parse alone: every file named in a list (argv[1]) parsed with tree-sitter-rust;
// prints the bytes, nodes and the parse's thread CPU time. Used by bench/tsparse/pgo.sh.
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tree_sitter/api.h"
const TSLanguage *tree_sitter_rust(void);
int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: parse FILE_LIST (one path per line)\n"); return 2; }
  FILE *l = fopen(argv[1], "r");
  if (!l) { perror(argv[1]); return 1; }
  char path[4096];
  TSParser *p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_rust());
  size_t total = 0, nodes = 0;
  struct timespec a, b; double parse = 0;
  while (fgets(path, sizeof path, l)) {
    path[strcspn(path, "\n")] = 0;
    FILE *f = fopen(path, "rb"); if (!f) continue;
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    // Files over 1 MiB are skipped, as the index skips oversized files.
    if (n < 0 || n > 1<<20) { fclose(f); continue; }
    char *buf = malloc(n + 1);
    if (!buf) { fclose(f); fprintf(stderr, "%s: out of memory\n", path); return 1; }
    size_t got = fread(buf, 1, n, f); fclose(f);
    if (got != (size_t)n) { free(buf); continue; }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    TSTree *t = ts_parser_parse_string(p, NULL, buf, n);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    parse += (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
    nodes += ts_node_descendant_count(ts_tree_root_node(t));
    ts_tree_delete(t); free(buf); total += n;
  }
  printf("%zu bytes %zu nodes parse %.3f s %.2f MB/s\n", total, nodes, parse, total / parse / 1e6);
}
