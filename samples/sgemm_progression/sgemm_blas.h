/*
 * samples/sgemm_progression/sgemm_blas.h - the device's BLAS on the same
 * product as the kernels (sgemm_blas.c): OpenBLAS on a CPU device, cuBLAS
 * on an NVIDIA GPU, CLBlast on another GPU, where the build found them.
 */
#ifndef SGEMM_BLAS_H
#define SGEMM_BLAS_H

#include <stddef.h>

#include <amp/amp.h>

/*
 * C = A * B (row-major, M x K times K x N) with the device's BLAS: one
 * untimed run, then up to repeat timed ones (fewer past 3 seconds), their
 * seconds in seconds[0 .. *runs - 1] (repeat at most 64), C the result.
 * name receives the BLAS's name, or why there is none. Returns 0; 1 when
 * no BLAS for the device was built in; -1 when it failed (name says so).
 */
int sgemm_blas_time(const amp_accelerator_info *info, const float *A, const float *B, float *C,
                    int M, int N, int K, int repeat, double *seconds, int *runs, char *name,
                    size_t size);

#endif
