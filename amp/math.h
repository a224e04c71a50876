/*
 * amp/math.h - C++ AMP's fast_math and precise_math functions on the host,
 * under the names kernels use (fast_math_sqrt, precise_math_sqrtf ...), so
 * that code written once for both sides (AMP_SHARED_FUNCTION, amp/kernel.h,
 * C++ AMP's restrict(cpu, amp)) compiles as C for the host too.
 *
 * As in C++ AMP, fast_math takes and returns float. precise_math_NAME takes
 * and returns double and precise_math_NAMEf float; in kernels both are
 * OpenCL's overloaded built-ins, so precise_math_NAME of a float is float
 * there, and on the host the double result converts back on assignment.
 * On the host the functions are <math.h>'s: fast_math is as precise as
 * precise_math there, which C++ AMP allows (fast_math promises speed, not
 * a difference). The names are exactly the kernels' (a test compares the
 * two lists); each is a static inline function, not a macro, so that a
 * kernel body that uses one is not changed by the host's preprocessor.
 * Include this header only where it is wanted: it defines names outside
 * the amp_ prefix, as C++ AMP's namespaces did. A program that calls them
 * links the C math library (-lm), as <math.h>'s own functions need.
 */
#ifndef AMP_MATH_H
#define AMP_MATH_H

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

/* <math.h>'s constants, which code ported from C++ AMP uses (M_PI, M_E
 * ...). The C library defines them only outside strict ISO C (-std=c11
 * without _DEFAULT_SOURCE or _XOPEN_SOURCE); here they are defined where it
 * did not, with the C library's own values, so a later definition of its
 * is the same. Kernels have them too (as floats on a device without double
 * precision). */
#ifndef M_E
#define M_E 2.7182818284590452354
#endif
#ifndef M_LOG2E
#define M_LOG2E 1.4426950408889634074
#endif
#ifndef M_LOG10E
#define M_LOG10E 0.43429448190325182765
#endif
#ifndef M_LN2
#define M_LN2 0.69314718055994530942
#endif
#ifndef M_LN10
#define M_LN10 2.30258509299404568402
#endif
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#ifndef M_PI_2
#define M_PI_2 1.57079632679489661923
#endif
#ifndef M_PI_4
#define M_PI_4 0.78539816339744830962
#endif
#ifndef M_1_PI
#define M_1_PI 0.31830988618379067154
#endif
#ifndef M_2_PI
#define M_2_PI 0.63661977236758134308
#endif
#ifndef M_2_SQRTPI
#define M_2_SQRTPI 1.12837916709551257390
#endif
#ifndef M_SQRT2
#define M_SQRT2 1.41421356237309504880
#endif
#ifndef M_SQRT1_2
#define M_SQRT1_2 0.70710678118654752440
#endif

/* pi and 1/sqrt(2), which C11's <math.h> does not define. */
#define AMP_MATH_PI 3.14159265358979323846
#define AMP_MATH_PI_F 3.14159265358979323846f
#define AMP_MATH_SQRT1_2 0.70710678118654752440
#define AMP_MATH_SQRT1_2_F 0.70710678118654752440f

/* sin(pi x) and cos(pi x) as OpenCL's sinpi and cospi give them: x is
 * brought into [0, 2) exactly (fmod is exact), so that integers and halves
 * give exact zeros and ones (sin(M_PI * x) gives 1.2e-16 at 1), and a
 * large x, which is an even integer, gives what it should (cosf(M_PI *
 * 1e30f) is -0.62, cospi 1). Then each quarter turn is a sine or cosine of
 * at most pi/4. */
static inline double amp__math_sinpi(double x)
{
    if (!isfinite(x))
        return x - x;
    double r = fmod(fabs(x), 2.0), s;
    if (r <= 0.25)
        s = sin(AMP_MATH_PI * r);
    else if (r <= 0.75)
        s = cos(AMP_MATH_PI * (0.5 - r));
    else if (r <= 1.25)
        s = sin(AMP_MATH_PI * (1.0 - r));
    else if (r <= 1.75)
        s = -cos(AMP_MATH_PI * (1.5 - r));
    else
        s = sin(AMP_MATH_PI * (r - 2.0));
    return x < 0 || (x == 0 && signbit(x)) ? -s : s;
}
static inline double amp__math_cospi(double x)
{
    if (!isfinite(x))
        return x - x;
    double r = fmod(fabs(x), 2.0);
    if (r <= 0.25)
        return cos(AMP_MATH_PI * r);
    if (r <= 0.75)
        return sin(AMP_MATH_PI * (0.5 - r));
    if (r <= 1.25)
        return -cos(AMP_MATH_PI * (1.0 - r));
    if (r <= 1.75)
        return sin(AMP_MATH_PI * (r - 1.5));
    return cos(AMP_MATH_PI * (2.0 - r));
}
/* tan(pi x): -0 at odd integers and +0 at even ones (of x's sign), and
 * +-infinity at the halves between, as OpenCL's tanpi. */
static inline double amp__math_tanpi(double x)
{
    return amp__math_sinpi(x) / amp__math_cospi(x);
}

/* ---- fast_math ---- */
static inline float fast_math_acos(float x)
{
    return acosf(x);
}
static inline float fast_math_acosf(float x)
{
    return acosf(x);
}
static inline float fast_math_asin(float x)
{
    return asinf(x);
}
static inline float fast_math_asinf(float x)
{
    return asinf(x);
}
static inline float fast_math_atan(float x)
{
    return atanf(x);
}
static inline float fast_math_atanf(float x)
{
    return atanf(x);
}
static inline float fast_math_atan2(float x, float y)
{
    return atan2f(x, y);
}
static inline float fast_math_atan2f(float x, float y)
{
    return atan2f(x, y);
}
static inline float fast_math_ceil(float x)
{
    return ceilf(x);
}
static inline float fast_math_ceilf(float x)
{
    return ceilf(x);
}
static inline float fast_math_cos(float x)
{
    return cosf(x);
}
static inline float fast_math_cosf(float x)
{
    return cosf(x);
}
static inline float fast_math_cosh(float x)
{
    return coshf(x);
}
static inline float fast_math_coshf(float x)
{
    return coshf(x);
}
static inline float fast_math_exp(float x)
{
    return expf(x);
}
static inline float fast_math_expf(float x)
{
    return expf(x);
}
static inline float fast_math_exp2(float x)
{
    return exp2f(x);
}
static inline float fast_math_exp2f(float x)
{
    return exp2f(x);
}
static inline float fast_math_fabs(float x)
{
    return fabsf(x);
}
static inline float fast_math_fabsf(float x)
{
    return fabsf(x);
}
static inline float fast_math_floor(float x)
{
    return floorf(x);
}
static inline float fast_math_floorf(float x)
{
    return floorf(x);
}
static inline float fast_math_fmax(float x, float y)
{
    return fmaxf(x, y);
}
static inline float fast_math_fmaxf(float x, float y)
{
    return fmaxf(x, y);
}
static inline float fast_math_fmin(float x, float y)
{
    return fminf(x, y);
}
static inline float fast_math_fminf(float x, float y)
{
    return fminf(x, y);
}
static inline float fast_math_fmod(float x, float y)
{
    return fmodf(x, y);
}
static inline float fast_math_fmodf(float x, float y)
{
    return fmodf(x, y);
}
static inline float fast_math_frexp(float x, int *exponent)
{
    return frexpf(x, exponent);
}
static inline float fast_math_frexpf(float x, int *exponent)
{
    return frexpf(x, exponent);
}
static inline int fast_math_isfinite(float x)
{
    return isfinite(x) != 0;
}
static inline int fast_math_isfinitef(float x)
{
    return isfinite(x) != 0;
}
static inline int fast_math_isinf(float x)
{
    return isinf(x) != 0;
}
static inline int fast_math_isinff(float x)
{
    return isinf(x) != 0;
}
static inline int fast_math_isnan(float x)
{
    return isnan(x) != 0;
}
static inline int fast_math_isnanf(float x)
{
    return isnan(x) != 0;
}
static inline float fast_math_ldexp(float x, int exponent)
{
    return ldexpf(x, exponent);
}
static inline float fast_math_ldexpf(float x, int exponent)
{
    return ldexpf(x, exponent);
}
static inline float fast_math_log(float x)
{
    return logf(x);
}
static inline float fast_math_logf(float x)
{
    return logf(x);
}
static inline float fast_math_log10(float x)
{
    return log10f(x);
}
static inline float fast_math_log10f(float x)
{
    return log10f(x);
}
static inline float fast_math_log2(float x)
{
    return log2f(x);
}
static inline float fast_math_log2f(float x)
{
    return log2f(x);
}
static inline float fast_math_modf(float x, float *integral)
{
    return modff(x, integral);
}
static inline float fast_math_modff(float x, float *integral)
{
    return modff(x, integral);
}
static inline float fast_math_pow(float x, float y)
{
    return powf(x, y);
}
static inline float fast_math_powf(float x, float y)
{
    return powf(x, y);
}
static inline float fast_math_round(float x)
{
    return roundf(x);
}
static inline float fast_math_roundf(float x)
{
    return roundf(x);
}
static inline float fast_math_rsqrt(float x)
{
    return 1.0f / sqrtf(x);
}
static inline float fast_math_rsqrtf(float x)
{
    return 1.0f / sqrtf(x);
}
static inline int fast_math_signbit(float x)
{
    return signbit(x) != 0;
}
static inline int fast_math_signbitf(float x)
{
    return signbit(x) != 0;
}
static inline float fast_math_sin(float x)
{
    return sinf(x);
}
static inline float fast_math_sinf(float x)
{
    return sinf(x);
}
static inline float fast_math_sinh(float x)
{
    return sinhf(x);
}
static inline float fast_math_sinhf(float x)
{
    return sinhf(x);
}
static inline float fast_math_sqrt(float x)
{
    return sqrtf(x);
}
static inline float fast_math_sqrtf(float x)
{
    return sqrtf(x);
}
static inline float fast_math_tan(float x)
{
    return tanf(x);
}
static inline float fast_math_tanf(float x)
{
    return tanf(x);
}
static inline float fast_math_tanh(float x)
{
    return tanhf(x);
}
static inline float fast_math_tanhf(float x)
{
    return tanhf(x);
}
static inline float fast_math_trunc(float x)
{
    return truncf(x);
}
static inline float fast_math_truncf(float x)
{
    return truncf(x);
}
static inline void fast_math_sincos(float x, float *s, float *c)
{
    *s = sinf(x);
    *c = cosf(x);
}
static inline void fast_math_sincosf(float x, float *s, float *c)
{
    *s = sinf(x);
    *c = cosf(x);
}

/* ---- precise_math ---- */
static inline double precise_math_acos(double x)
{
    return acos(x);
}
static inline float precise_math_acosf(float x)
{
    return acosf(x);
}
static inline double precise_math_acosh(double x)
{
    return acosh(x);
}
static inline float precise_math_acoshf(float x)
{
    return acoshf(x);
}
static inline double precise_math_asin(double x)
{
    return asin(x);
}
static inline float precise_math_asinf(float x)
{
    return asinf(x);
}
static inline double precise_math_asinh(double x)
{
    return asinh(x);
}
static inline float precise_math_asinhf(float x)
{
    return asinhf(x);
}
static inline double precise_math_atan(double x)
{
    return atan(x);
}
static inline float precise_math_atanf(float x)
{
    return atanf(x);
}
static inline double precise_math_atan2(double x, double y)
{
    return atan2(x, y);
}
static inline float precise_math_atan2f(float x, float y)
{
    return atan2f(x, y);
}
static inline double precise_math_atanh(double x)
{
    return atanh(x);
}
static inline float precise_math_atanhf(float x)
{
    return atanhf(x);
}
static inline double precise_math_cbrt(double x)
{
    return cbrt(x);
}
static inline float precise_math_cbrtf(float x)
{
    return cbrtf(x);
}
static inline double precise_math_ceil(double x)
{
    return ceil(x);
}
static inline float precise_math_ceilf(float x)
{
    return ceilf(x);
}
static inline double precise_math_copysign(double x, double y)
{
    return copysign(x, y);
}
static inline float precise_math_copysignf(float x, float y)
{
    return copysignf(x, y);
}
static inline double precise_math_cos(double x)
{
    return cos(x);
}
static inline float precise_math_cosf(float x)
{
    return cosf(x);
}
static inline double precise_math_cosh(double x)
{
    return cosh(x);
}
static inline float precise_math_coshf(float x)
{
    return coshf(x);
}
static inline double precise_math_cospi(double x)
{
    return amp__math_cospi(x);
}
static inline float precise_math_cospif(float x)
{
    return (float)amp__math_cospi(x);
}
static inline double precise_math_erf(double x)
{
    return erf(x);
}
static inline float precise_math_erff(float x)
{
    return erff(x);
}
static inline double precise_math_erfc(double x)
{
    return erfc(x);
}
static inline float precise_math_erfcf(float x)
{
    return erfcf(x);
}
static inline double precise_math_exp(double x)
{
    return exp(x);
}
static inline float precise_math_expf(float x)
{
    return expf(x);
}
static inline double precise_math_exp10(double x)
{
    return pow(10.0, x);
}
static inline float precise_math_exp10f(float x)
{
    return powf(10.0f, x);
}
static inline double precise_math_exp2(double x)
{
    return exp2(x);
}
static inline float precise_math_exp2f(float x)
{
    return exp2f(x);
}
static inline double precise_math_expm1(double x)
{
    return expm1(x);
}
static inline float precise_math_expm1f(float x)
{
    return expm1f(x);
}
static inline double precise_math_fabs(double x)
{
    return fabs(x);
}
static inline float precise_math_fabsf(float x)
{
    return fabsf(x);
}
static inline double precise_math_fdim(double x, double y)
{
    return fdim(x, y);
}
static inline float precise_math_fdimf(float x, float y)
{
    return fdimf(x, y);
}
static inline double precise_math_floor(double x)
{
    return floor(x);
}
static inline float precise_math_floorf(float x)
{
    return floorf(x);
}
static inline double precise_math_fma(double x, double y, double z)
{
    return fma(x, y, z);
}
static inline float precise_math_fmaf(float x, float y, float z)
{
    return fmaf(x, y, z);
}
static inline double precise_math_fmax(double x, double y)
{
    return fmax(x, y);
}
static inline float precise_math_fmaxf(float x, float y)
{
    return fmaxf(x, y);
}
static inline double precise_math_fmin(double x, double y)
{
    return fmin(x, y);
}
static inline float precise_math_fminf(float x, float y)
{
    return fminf(x, y);
}
static inline double precise_math_fmod(double x, double y)
{
    return fmod(x, y);
}
static inline float precise_math_fmodf(float x, float y)
{
    return fmodf(x, y);
}
static inline double precise_math_frexp(double x, int *exponent)
{
    return frexp(x, exponent);
}
static inline float precise_math_frexpf(float x, int *exponent)
{
    return frexpf(x, exponent);
}
static inline double precise_math_hypot(double x, double y)
{
    return hypot(x, y);
}
static inline float precise_math_hypotf(float x, float y)
{
    return hypotf(x, y);
}
static inline int precise_math_ilogb(double x)
{
    return ilogb(x);
}
static inline int precise_math_ilogbf(float x)
{
    return ilogbf(x);
}
static inline int precise_math_isfinite(double x)
{
    return isfinite(x) != 0;
}
static inline int precise_math_isfinitef(float x)
{
    return isfinite(x) != 0;
}
static inline int precise_math_isinf(double x)
{
    return isinf(x) != 0;
}
static inline int precise_math_isinff(float x)
{
    return isinf(x) != 0;
}
static inline int precise_math_isnan(double x)
{
    return isnan(x) != 0;
}
static inline int precise_math_isnanf(float x)
{
    return isnan(x) != 0;
}
static inline int precise_math_isnormal(double x)
{
    return isnormal(x) != 0;
}
static inline int precise_math_isnormalf(float x)
{
    return isnormal(x) != 0;
}
static inline double precise_math_ldexp(double x, int exponent)
{
    return ldexp(x, exponent);
}
static inline float precise_math_ldexpf(float x, int exponent)
{
    return ldexpf(x, exponent);
}
static inline double precise_math_lgamma(double x)
{
    return lgamma(x);
}
static inline float precise_math_lgammaf(float x)
{
    return lgammaf(x);
}
static inline double precise_math_log(double x)
{
    return log(x);
}
static inline float precise_math_logf(float x)
{
    return logf(x);
}
static inline double precise_math_log10(double x)
{
    return log10(x);
}
static inline float precise_math_log10f(float x)
{
    return log10f(x);
}
static inline double precise_math_log1p(double x)
{
    return log1p(x);
}
static inline float precise_math_log1pf(float x)
{
    return log1pf(x);
}
static inline double precise_math_log2(double x)
{
    return log2(x);
}
static inline float precise_math_log2f(float x)
{
    return log2f(x);
}
static inline double precise_math_logb(double x)
{
    return logb(x);
}
static inline float precise_math_logbf(float x)
{
    return logbf(x);
}
static inline double precise_math_modf(double x, double *integral)
{
    return modf(x, integral);
}
static inline float precise_math_modff(float x, float *integral)
{
    return modff(x, integral);
}
static inline double precise_math_nan(int code)
{
    (void)code;
    return nan("");
}
static inline float precise_math_nanf(int code)
{
    (void)code;
    return nanf("");
}
static inline double precise_math_nextafter(double x, double y)
{
    return nextafter(x, y);
}
static inline float precise_math_nextafterf(float x, float y)
{
    return nextafterf(x, y);
}
static inline double precise_math_pow(double x, double y)
{
    return pow(x, y);
}
static inline float precise_math_powf(float x, float y)
{
    return powf(x, y);
}
static inline double precise_math_remainder(double x, double y)
{
    return remainder(x, y);
}
static inline float precise_math_remainderf(float x, float y)
{
    return remainderf(x, y);
}
static inline double precise_math_remquo(double x, double y, int *quotient)
{
    return remquo(x, y, quotient);
}
static inline float precise_math_remquof(float x, float y, int *quotient)
{
    return remquof(x, y, quotient);
}
static inline double precise_math_round(double x)
{
    return round(x);
}
static inline float precise_math_roundf(float x)
{
    return roundf(x);
}
static inline double precise_math_rsqrt(double x)
{
    return 1.0 / sqrt(x);
}
static inline float precise_math_rsqrtf(float x)
{
    return 1.0f / sqrtf(x);
}
static inline int precise_math_signbit(double x)
{
    return signbit(x) != 0;
}
static inline int precise_math_signbitf(float x)
{
    return signbit(x) != 0;
}
static inline double precise_math_sin(double x)
{
    return sin(x);
}
static inline float precise_math_sinf(float x)
{
    return sinf(x);
}
static inline double precise_math_sinh(double x)
{
    return sinh(x);
}
static inline float precise_math_sinhf(float x)
{
    return sinhf(x);
}
static inline double precise_math_sinpi(double x)
{
    return amp__math_sinpi(x);
}
static inline float precise_math_sinpif(float x)
{
    return (float)amp__math_sinpi(x);
}
static inline double precise_math_sqrt(double x)
{
    return sqrt(x);
}
static inline float precise_math_sqrtf(float x)
{
    return sqrtf(x);
}
static inline double precise_math_tan(double x)
{
    return tan(x);
}
static inline float precise_math_tanf(float x)
{
    return tanf(x);
}
static inline double precise_math_tanh(double x)
{
    return tanh(x);
}
static inline float precise_math_tanhf(float x)
{
    return tanhf(x);
}
static inline double precise_math_tanpi(double x)
{
    return amp__math_tanpi(x);
}
static inline float precise_math_tanpif(float x)
{
    return (float)amp__math_tanpi(x);
}
static inline double precise_math_tgamma(double x)
{
    return tgamma(x);
}
static inline float precise_math_tgammaf(float x)
{
    return tgammaf(x);
}
static inline double precise_math_trunc(double x)
{
    return trunc(x);
}
static inline float precise_math_truncf(float x)
{
    return truncf(x);
}
static inline double precise_math_nearbyint(double x)
{
    return nearbyint(x);
}
static inline float precise_math_nearbyintf(float x)
{
    return nearbyintf(x);
}
static inline double precise_math_rcbrt(double x)
{
    return 1.0 / cbrt(x);
}
static inline float precise_math_rcbrtf(float x)
{
    return 1.0f / cbrtf(x);
}
static inline double precise_math_scalbn(double x, int exponent)
{
    return scalbn(x, exponent);
}
static inline float precise_math_scalbnf(float x, int exponent)
{
    return scalbnf(x, exponent);
}
static inline double precise_math_phi(double x)
{
    return 0.5 * erfc(-x * AMP_MATH_SQRT1_2);
}
static inline float precise_math_phif(float x)
{
    return 0.5f * erfcf(-x * AMP_MATH_SQRT1_2_F);
}
static inline void precise_math_sincos(double x, double *s, double *c)
{
    *s = sin(x);
    *c = cos(x);
}
static inline void precise_math_sincosf(float x, float *s, float *c)
{
    *s = sinf(x);
    *c = cosf(x);
}

#ifdef __cplusplus
}
#endif

#endif
