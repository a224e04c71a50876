/*
 * runtime/data/ledger.h - the ledger of every transfer (amp/transfer.h):
 * the process-wide counts, each data source's own, and the trace that
 * AMP_TRACE=transfers prints. Whoever moves data (coherence.c, texture.c)
 * adds the transfer here, so that the ledger sees every byte.
 *
 * All functions expect the runtime lock to be held.
 */
#ifndef AMP_DATA_LEDGER_H
#define AMP_DATA_LEDGER_H

#include <stdint.h>

#include "amp/transfer.h"
#include "device/accel.h"

/*
 * Count a transfer of bytes in dir for reason on acc: in the process-wide
 * ledger, and in *own when it is not NULL (a data source's). Under
 * AMP_TRACE=transfers it is printed with what names the data: label (a
 * view's capture name, or "texture t"), then place and address ("host
 * memory", 0x...), each left out when NULL.
 */
void amp__ledger_add(amp_transfer_stats *own, amp_transfer_direction dir,
                     amp_transfer_reason reason, uint64_t bytes, const amp_accelerator *acc,
                     const char *label, const char *place, const void *address);

/* The process-wide ledger, and its reset (amp_transfer_get_stats,
 * amp_transfer_reset_stats). */
void amp__ledger_global(amp_transfer_stats *out);
void amp__ledger_reset_global(void);

#endif
