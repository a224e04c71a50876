/* C++ AMP's short vectors (graphics::float_4 ...): OpenCL's vectors, made
   with float_4(x, y, z, w) as in C++ AMP or (float4)(x, y, z, w). */

typedef int2 int_2;
#define int_2(...) ((int2)(__VA_ARGS__))
typedef int3 int_3;
#define int_3(...) ((int3)(__VA_ARGS__))
typedef int4 int_4;
#define int_4(...) ((int4)(__VA_ARGS__))
typedef uint2 uint_2;
#define uint_2(...) ((uint2)(__VA_ARGS__))
typedef uint3 uint_3;
#define uint_3(...) ((uint3)(__VA_ARGS__))
typedef uint4 uint_4;
#define uint_4(...) ((uint4)(__VA_ARGS__))
typedef float2 float_2;
#define float_2(...) ((float2)(__VA_ARGS__))
typedef float3 float_3;
#define float_3(...) ((float3)(__VA_ARGS__))
typedef float4 float_4;
#define float_4(...) ((float4)(__VA_ARGS__))
typedef double2 double_2;
#define double_2(...) ((double2)(__VA_ARGS__))
typedef double3 double_3;
#define double_3(...) ((double3)(__VA_ARGS__))
typedef double4 double_4;
#define double_4(...) ((double4)(__VA_ARGS__))
