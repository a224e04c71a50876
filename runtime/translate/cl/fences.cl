/* Memory fences without a barrier (C++ AMP's free fence functions). */

#define all_memory_fence(barrier) mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define global_memory_fence(barrier) mem_fence(CLK_GLOBAL_MEM_FENCE)
#define tile_static_memory_fence(barrier) mem_fence(CLK_LOCAL_MEM_FENCE)
