#pragma once
// OOC_HD marks functions that run on both sides: __host__ __device__ under nvcc, nothing in a
// host-only compiler. Programs and the cost model are written once with it.
#if defined(__CUDACC__)
#define OOC_HD __host__ __device__
#define OOC_FORCEINLINE __forceinline__
#else
#define OOC_HD
#define OOC_FORCEINLINE inline __attribute__((always_inline))
#endif
