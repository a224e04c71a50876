/* C++ AMP's short vectors (graphics::float_4 ...): OpenCL's vectors, made
   with float_4(x, y, z, w) as in C++ AMP or (float4)(x, y, z, w). One value
   makes every component (float_3(1.0f)) or, of another vector, each
   converted as C converts it (int_3(f), C++ AMP's explicit conversion, which
   OpenCL C spells convert_int3). */
#define AMP_PICK_VECTOR(_1, _2, _3, _4, which, ...) which
#define AMP_MAKE_VECTOR(type) amp_make_##type
#define AMP_VECTOR(type, ...) AMP_PICK_VECTOR(__VA_ARGS__, (type)(__VA_ARGS__), \
    (type)(__VA_ARGS__), (type)(__VA_ARGS__), AMP_MAKE_VECTOR(type)(__VA_ARGS__))

typedef int2 int_2;
int2 __attribute__((overloadable)) amp_make_int2(int s) { return (int2)(s); }
int2 __attribute__((overloadable)) amp_make_int2(uint s) { return (int2)(s); }
int2 __attribute__((overloadable)) amp_make_int2(long s) { return (int2)(s); }
int2 __attribute__((overloadable)) amp_make_int2(ulong s) { return (int2)(s); }
int2 __attribute__((overloadable)) amp_make_int2(float s) { return (int2)(s); }
int2 __attribute__((overloadable)) amp_make_int2(int2 v) { return convert_int2(v); }
int2 __attribute__((overloadable)) amp_make_int2(uint2 v) { return convert_int2(v); }
int2 __attribute__((overloadable)) amp_make_int2(float2 v) { return convert_int2(v); }
#ifdef cl_khr_fp64
int2 __attribute__((overloadable)) amp_make_int2(double s) { return (int2)(s); }
int2 __attribute__((overloadable)) amp_make_int2(double2 v) { return convert_int2(v); }
#endif
#define int_2(...) AMP_VECTOR(int2, __VA_ARGS__)

typedef int3 int_3;
int3 __attribute__((overloadable)) amp_make_int3(int s) { return (int3)(s); }
int3 __attribute__((overloadable)) amp_make_int3(uint s) { return (int3)(s); }
int3 __attribute__((overloadable)) amp_make_int3(long s) { return (int3)(s); }
int3 __attribute__((overloadable)) amp_make_int3(ulong s) { return (int3)(s); }
int3 __attribute__((overloadable)) amp_make_int3(float s) { return (int3)(s); }
int3 __attribute__((overloadable)) amp_make_int3(int3 v) { return convert_int3(v); }
int3 __attribute__((overloadable)) amp_make_int3(uint3 v) { return convert_int3(v); }
int3 __attribute__((overloadable)) amp_make_int3(float3 v) { return convert_int3(v); }
#ifdef cl_khr_fp64
int3 __attribute__((overloadable)) amp_make_int3(double s) { return (int3)(s); }
int3 __attribute__((overloadable)) amp_make_int3(double3 v) { return convert_int3(v); }
#endif
#define int_3(...) AMP_VECTOR(int3, __VA_ARGS__)

typedef int4 int_4;
int4 __attribute__((overloadable)) amp_make_int4(int s) { return (int4)(s); }
int4 __attribute__((overloadable)) amp_make_int4(uint s) { return (int4)(s); }
int4 __attribute__((overloadable)) amp_make_int4(long s) { return (int4)(s); }
int4 __attribute__((overloadable)) amp_make_int4(ulong s) { return (int4)(s); }
int4 __attribute__((overloadable)) amp_make_int4(float s) { return (int4)(s); }
int4 __attribute__((overloadable)) amp_make_int4(int4 v) { return convert_int4(v); }
int4 __attribute__((overloadable)) amp_make_int4(uint4 v) { return convert_int4(v); }
int4 __attribute__((overloadable)) amp_make_int4(float4 v) { return convert_int4(v); }
#ifdef cl_khr_fp64
int4 __attribute__((overloadable)) amp_make_int4(double s) { return (int4)(s); }
int4 __attribute__((overloadable)) amp_make_int4(double4 v) { return convert_int4(v); }
#endif
#define int_4(...) AMP_VECTOR(int4, __VA_ARGS__)

typedef uint2 uint_2;
uint2 __attribute__((overloadable)) amp_make_uint2(int s) { return (uint2)(s); }
uint2 __attribute__((overloadable)) amp_make_uint2(uint s) { return (uint2)(s); }
uint2 __attribute__((overloadable)) amp_make_uint2(long s) { return (uint2)(s); }
uint2 __attribute__((overloadable)) amp_make_uint2(ulong s) { return (uint2)(s); }
uint2 __attribute__((overloadable)) amp_make_uint2(float s) { return (uint2)(s); }
uint2 __attribute__((overloadable)) amp_make_uint2(int2 v) { return convert_uint2(v); }
uint2 __attribute__((overloadable)) amp_make_uint2(uint2 v) { return convert_uint2(v); }
uint2 __attribute__((overloadable)) amp_make_uint2(float2 v) { return convert_uint2(v); }
#ifdef cl_khr_fp64
uint2 __attribute__((overloadable)) amp_make_uint2(double s) { return (uint2)(s); }
uint2 __attribute__((overloadable)) amp_make_uint2(double2 v) { return convert_uint2(v); }
#endif
#define uint_2(...) AMP_VECTOR(uint2, __VA_ARGS__)

typedef uint3 uint_3;
uint3 __attribute__((overloadable)) amp_make_uint3(int s) { return (uint3)(s); }
uint3 __attribute__((overloadable)) amp_make_uint3(uint s) { return (uint3)(s); }
uint3 __attribute__((overloadable)) amp_make_uint3(long s) { return (uint3)(s); }
uint3 __attribute__((overloadable)) amp_make_uint3(ulong s) { return (uint3)(s); }
uint3 __attribute__((overloadable)) amp_make_uint3(float s) { return (uint3)(s); }
uint3 __attribute__((overloadable)) amp_make_uint3(int3 v) { return convert_uint3(v); }
uint3 __attribute__((overloadable)) amp_make_uint3(uint3 v) { return convert_uint3(v); }
uint3 __attribute__((overloadable)) amp_make_uint3(float3 v) { return convert_uint3(v); }
#ifdef cl_khr_fp64
uint3 __attribute__((overloadable)) amp_make_uint3(double s) { return (uint3)(s); }
uint3 __attribute__((overloadable)) amp_make_uint3(double3 v) { return convert_uint3(v); }
#endif
#define uint_3(...) AMP_VECTOR(uint3, __VA_ARGS__)

typedef uint4 uint_4;
uint4 __attribute__((overloadable)) amp_make_uint4(int s) { return (uint4)(s); }
uint4 __attribute__((overloadable)) amp_make_uint4(uint s) { return (uint4)(s); }
uint4 __attribute__((overloadable)) amp_make_uint4(long s) { return (uint4)(s); }
uint4 __attribute__((overloadable)) amp_make_uint4(ulong s) { return (uint4)(s); }
uint4 __attribute__((overloadable)) amp_make_uint4(float s) { return (uint4)(s); }
uint4 __attribute__((overloadable)) amp_make_uint4(int4 v) { return convert_uint4(v); }
uint4 __attribute__((overloadable)) amp_make_uint4(uint4 v) { return convert_uint4(v); }
uint4 __attribute__((overloadable)) amp_make_uint4(float4 v) { return convert_uint4(v); }
#ifdef cl_khr_fp64
uint4 __attribute__((overloadable)) amp_make_uint4(double s) { return (uint4)(s); }
uint4 __attribute__((overloadable)) amp_make_uint4(double4 v) { return convert_uint4(v); }
#endif
#define uint_4(...) AMP_VECTOR(uint4, __VA_ARGS__)

typedef float2 float_2;
float2 __attribute__((overloadable)) amp_make_float2(int s) { return (float2)(s); }
float2 __attribute__((overloadable)) amp_make_float2(uint s) { return (float2)(s); }
float2 __attribute__((overloadable)) amp_make_float2(long s) { return (float2)(s); }
float2 __attribute__((overloadable)) amp_make_float2(ulong s) { return (float2)(s); }
float2 __attribute__((overloadable)) amp_make_float2(float s) { return (float2)(s); }
float2 __attribute__((overloadable)) amp_make_float2(int2 v) { return convert_float2(v); }
float2 __attribute__((overloadable)) amp_make_float2(uint2 v) { return convert_float2(v); }
float2 __attribute__((overloadable)) amp_make_float2(float2 v) { return convert_float2(v); }
#ifdef cl_khr_fp64
float2 __attribute__((overloadable)) amp_make_float2(double s) { return (float2)(s); }
float2 __attribute__((overloadable)) amp_make_float2(double2 v) { return convert_float2(v); }
#endif
#define float_2(...) AMP_VECTOR(float2, __VA_ARGS__)

typedef float3 float_3;
float3 __attribute__((overloadable)) amp_make_float3(int s) { return (float3)(s); }
float3 __attribute__((overloadable)) amp_make_float3(uint s) { return (float3)(s); }
float3 __attribute__((overloadable)) amp_make_float3(long s) { return (float3)(s); }
float3 __attribute__((overloadable)) amp_make_float3(ulong s) { return (float3)(s); }
float3 __attribute__((overloadable)) amp_make_float3(float s) { return (float3)(s); }
float3 __attribute__((overloadable)) amp_make_float3(int3 v) { return convert_float3(v); }
float3 __attribute__((overloadable)) amp_make_float3(uint3 v) { return convert_float3(v); }
float3 __attribute__((overloadable)) amp_make_float3(float3 v) { return convert_float3(v); }
#ifdef cl_khr_fp64
float3 __attribute__((overloadable)) amp_make_float3(double s) { return (float3)(s); }
float3 __attribute__((overloadable)) amp_make_float3(double3 v) { return convert_float3(v); }
#endif
#define float_3(...) AMP_VECTOR(float3, __VA_ARGS__)

typedef float4 float_4;
float4 __attribute__((overloadable)) amp_make_float4(int s) { return (float4)(s); }
float4 __attribute__((overloadable)) amp_make_float4(uint s) { return (float4)(s); }
float4 __attribute__((overloadable)) amp_make_float4(long s) { return (float4)(s); }
float4 __attribute__((overloadable)) amp_make_float4(ulong s) { return (float4)(s); }
float4 __attribute__((overloadable)) amp_make_float4(float s) { return (float4)(s); }
float4 __attribute__((overloadable)) amp_make_float4(int4 v) { return convert_float4(v); }
float4 __attribute__((overloadable)) amp_make_float4(uint4 v) { return convert_float4(v); }
float4 __attribute__((overloadable)) amp_make_float4(float4 v) { return convert_float4(v); }
#ifdef cl_khr_fp64
float4 __attribute__((overloadable)) amp_make_float4(double s) { return (float4)(s); }
float4 __attribute__((overloadable)) amp_make_float4(double4 v) { return convert_float4(v); }
#endif
#define float_4(...) AMP_VECTOR(float4, __VA_ARGS__)

typedef double2 double_2;
double2 __attribute__((overloadable)) amp_make_double2(int s) { return (double2)(s); }
double2 __attribute__((overloadable)) amp_make_double2(uint s) { return (double2)(s); }
double2 __attribute__((overloadable)) amp_make_double2(long s) { return (double2)(s); }
double2 __attribute__((overloadable)) amp_make_double2(ulong s) { return (double2)(s); }
double2 __attribute__((overloadable)) amp_make_double2(float s) { return (double2)(s); }
double2 __attribute__((overloadable)) amp_make_double2(int2 v) { return convert_double2(v); }
double2 __attribute__((overloadable)) amp_make_double2(uint2 v) { return convert_double2(v); }
double2 __attribute__((overloadable)) amp_make_double2(float2 v) { return convert_double2(v); }
#ifdef cl_khr_fp64
double2 __attribute__((overloadable)) amp_make_double2(double s) { return (double2)(s); }
double2 __attribute__((overloadable)) amp_make_double2(double2 v) { return convert_double2(v); }
#endif
#define double_2(...) AMP_VECTOR(double2, __VA_ARGS__)

typedef double3 double_3;
double3 __attribute__((overloadable)) amp_make_double3(int s) { return (double3)(s); }
double3 __attribute__((overloadable)) amp_make_double3(uint s) { return (double3)(s); }
double3 __attribute__((overloadable)) amp_make_double3(long s) { return (double3)(s); }
double3 __attribute__((overloadable)) amp_make_double3(ulong s) { return (double3)(s); }
double3 __attribute__((overloadable)) amp_make_double3(float s) { return (double3)(s); }
double3 __attribute__((overloadable)) amp_make_double3(int3 v) { return convert_double3(v); }
double3 __attribute__((overloadable)) amp_make_double3(uint3 v) { return convert_double3(v); }
double3 __attribute__((overloadable)) amp_make_double3(float3 v) { return convert_double3(v); }
#ifdef cl_khr_fp64
double3 __attribute__((overloadable)) amp_make_double3(double s) { return (double3)(s); }
double3 __attribute__((overloadable)) amp_make_double3(double3 v) { return convert_double3(v); }
#endif
#define double_3(...) AMP_VECTOR(double3, __VA_ARGS__)

typedef double4 double_4;
double4 __attribute__((overloadable)) amp_make_double4(int s) { return (double4)(s); }
double4 __attribute__((overloadable)) amp_make_double4(uint s) { return (double4)(s); }
double4 __attribute__((overloadable)) amp_make_double4(long s) { return (double4)(s); }
double4 __attribute__((overloadable)) amp_make_double4(ulong s) { return (double4)(s); }
double4 __attribute__((overloadable)) amp_make_double4(float s) { return (double4)(s); }
double4 __attribute__((overloadable)) amp_make_double4(int4 v) { return convert_double4(v); }
double4 __attribute__((overloadable)) amp_make_double4(uint4 v) { return convert_double4(v); }
double4 __attribute__((overloadable)) amp_make_double4(float4 v) { return convert_double4(v); }
#ifdef cl_khr_fp64
double4 __attribute__((overloadable)) amp_make_double4(double s) { return (double4)(s); }
double4 __attribute__((overloadable)) amp_make_double4(double4 v) { return convert_double4(v); }
#endif
#define double_4(...) AMP_VECTOR(double4, __VA_ARGS__)
