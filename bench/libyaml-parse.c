/* libyaml's bare event parse of one file: the floor of any loader built on libyaml (bench/throughput's ceiling
 * section). Reads FILE into memory, then parses it REPEATS times (default 10) with yaml_parser_parse, dropping
 * every event, and prints the best time in milliseconds. Exits 1 on a read or parse error. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <yaml.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: libyaml-parse FILE [REPEATS]\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file || fseek(file, 0, SEEK_END) != 0) {
        perror(argv[1]);
        return 1;
    }
    long size = ftell(file);
    rewind(file);
    unsigned char *bytes = malloc(size > 0 ? (size_t)size : 1);
    if (!bytes || fread(bytes, 1, (size_t)size, file) != (size_t)size) {
        fprintf(stderr, "%s: could not read\n", argv[1]);
        return 1;
    }
    fclose(file);
    int repeats = argc > 2 ? atoi(argv[2]) : 10;
    if (repeats < 1) repeats = 1;
    double best = -1;
    for (int round = 0; round < repeats; round++) {
        struct timespec start, end;
        clock_gettime(CLOCK_MONOTONIC, &start);
        yaml_parser_t parser;
        yaml_event_t event;
        if (!yaml_parser_initialize(&parser)) return 1;
        yaml_parser_set_input_string(&parser, bytes, (size_t)size);
        for (;;) {
            if (!yaml_parser_parse(&parser, &event)) {
                fprintf(stderr, "%s: libyaml: %s\n", argv[1], parser.problem ? parser.problem : "parse error");
                return 1;
            }
            int done = event.type == YAML_STREAM_END_EVENT;
            yaml_event_delete(&event);
            if (done) break;
        }
        yaml_parser_delete(&parser);
        clock_gettime(CLOCK_MONOTONIC, &end);
        double ms = (double)(end.tv_sec - start.tv_sec) * 1e3 + (double)(end.tv_nsec - start.tv_nsec) / 1e6;
        if (best < 0 || ms < best) best = ms;
    }
    printf("%.3f\n", best);
    free(bytes);
    return 0;
}
