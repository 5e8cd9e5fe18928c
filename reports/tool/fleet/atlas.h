/*
 * `tlbscope-report atlas`: one self-contained HTML page over the fleet
 * database: per environment (hardware, virtualised, emulated, simulated:
 * never pooled), one column per CPU model with its headline figures
 * (headline.h), each the median over the model's runs with its spread
 * (minimum to maximum) and how many runs and machines it rests on, then one
 * range chart per figure comparing the models side by side.
 */
#ifndef TLBSCOPE_FLEET_ATLAS_H
#define TLBSCOPE_FLEET_ATLAS_H

#include <stdio.h>

#include "reports/tool/fleet/fdb.h"

/* 0, or -1 with the reason on `err` */
int atlas_write(struct fdb *db, FILE *out, FILE *err);

#endif
