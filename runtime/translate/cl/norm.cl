/* C++ AMP's norm and unorm (graphics::norm, unorm_4 ...): floats kept in
   [-1, 1] and [0, 1], the values of norm and unorm textures. norm(x),
   unorm_4(r, g, b, a) and the other constructions clamp, as C++ AMP's do
   (an infinity gives the end of the range); a value declared without one is
   0. Arithmetic on them is float arithmetic: construct the result again
   (norm(a + b)) to keep it in range. */

typedef float norm;
#define norm(...) ((norm)clamp((float)(__VA_ARGS__), -1.0f, 1.0f))

typedef float2 norm_2;
#define norm_2(...) ((norm_2)clamp((float2)(__VA_ARGS__), -1.0f, 1.0f))

typedef float3 norm_3;
#define norm_3(...) ((norm_3)clamp((float3)(__VA_ARGS__), -1.0f, 1.0f))

typedef float4 norm_4;
#define norm_4(...) ((norm_4)clamp((float4)(__VA_ARGS__), -1.0f, 1.0f))

typedef float unorm;
#define unorm(...) ((unorm)clamp((float)(__VA_ARGS__), 0.0f, 1.0f))

typedef float2 unorm_2;
#define unorm_2(...) ((unorm_2)clamp((float2)(__VA_ARGS__), 0.0f, 1.0f))

typedef float3 unorm_3;
#define unorm_3(...) ((unorm_3)clamp((float3)(__VA_ARGS__), 0.0f, 1.0f))

typedef float4 unorm_4;
#define unorm_4(...) ((unorm_4)clamp((float4)(__VA_ARGS__), 0.0f, 1.0f))
