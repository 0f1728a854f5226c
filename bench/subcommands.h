/* Entry points of the subcommands, one file each under bench/. */
#ifndef BENCH_SUBCOMMANDS_H
#define BENCH_SUBCOMMANDS_H

#include <stdio.h>

int sg_info_main(int argc, char **argv);
void sg_info_usage(FILE *f);
int sg_copy_main(int argc, char **argv);
void sg_copy_usage(FILE *f);
int transpose_main(int argc, char **argv);
void transpose_usage(FILE *f);

#endif
