/*
 * runtime/api/dispatch.h - parallel_for_each (amp/kernel.h): what the rest
 * of the api layer needs of it.
 */
#ifndef AMP_API_DISPATCH_H
#define AMP_API_DISPATCH_H

/* Release what kernels' dispatch keeps per accelerator (a padded domain's
 * sink), before the contexts go (amp_shutdown). Expects the lock. */
void amp__dispatch_shutdown(void);

#endif
