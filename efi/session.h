/*
 * The measurement session: takes the CPUs over, runs the experiments, gives
 * the CPUs back. Returns false when an AP could not be given back, in which
 * case the tool's image must not be unloaded (the AP may still execute it).
 */
#ifndef TLBSCOPE_EFI_SESSION_H
#define TLBSCOPE_EFI_SESSION_H

#include "core/run/run.h"

bool session_run(struct run *r);

#endif
