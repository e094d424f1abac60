#pragma once
// Portable atomics for programs: the same call maps to a CUDA atomic in device code and to
// std::atomic_ref on the host, so a program's relax() is written once (docs/programs.md, "The
// contract"). Each returns the value held before the operation.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ooc/core/hd.hpp"

namespace ooc {

namespace detail {
template <class T>
inline T host_fetch_min(T* addr, T value) {
  std::atomic_ref<T> ref(*addr);
  T old = ref.load(std::memory_order_relaxed);
  while (value < old && !ref.compare_exchange_weak(old, value, std::memory_order_relaxed)) {
  }
  return old;
}
template <class T>
inline T host_fetch_max(T* addr, T value) {
  std::atomic_ref<T> ref(*addr);
  T old = ref.load(std::memory_order_relaxed);
  while (old < value && !ref.compare_exchange_weak(old, value, std::memory_order_relaxed)) {
  }
  return old;
}
}  // namespace detail

// Minimum for unsigned integers and non-negative floats (distances). For floats the device path
// compares bit patterns, which orders non-negative IEEE values correctly.
template <class T>
OOC_HD OOC_FORCEINLINE T atomic_min(T* addr, T value) {
  static_assert(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, float> ||
                    std::is_same_v<T, std::uint64_t>,
                "atomic_min: uint32_t, uint64_t or non-negative float");
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) {
    return __int_as_float(atomicMin(reinterpret_cast<int*>(addr), __float_as_int(value)));
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    return atomicMin(reinterpret_cast<unsigned long long*>(addr),
                     static_cast<unsigned long long>(value));
  } else {
    return atomicMin(addr, value);
  }
#else
  return detail::host_fetch_min(addr, value);
#endif
}

template <class T>
OOC_HD OOC_FORCEINLINE T atomic_max(T* addr, T value) {
  static_assert(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, float>,
                "atomic_max: uint32_t or non-negative float");
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) {
    return __int_as_float(atomicMax(reinterpret_cast<int*>(addr), __float_as_int(value)));
  } else {
    return atomicMax(addr, value);
  }
#else
  return detail::host_fetch_max(addr, value);
#endif
}

template <class T>
OOC_HD OOC_FORCEINLINE T atomic_add(T* addr, T value) {
  static_assert(
      std::is_same_v<T, std::uint32_t> || std::is_same_v<T, float> || std::is_same_v<T, double>,
      "atomic_add: uint32_t, float or double");
#if defined(__CUDA_ARCH__)
  return atomicAdd(addr, value);
#else
  return std::atomic_ref<T>(*addr).fetch_add(value, std::memory_order_relaxed);
#endif
}

template <class T>
OOC_HD OOC_FORCEINLINE T atomic_exchange(T* addr, T value) {
  static_assert(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, float>,
                "atomic_exchange: uint32_t or float");
#if defined(__CUDA_ARCH__)
  return atomicExch(addr, value);
#else
  return std::atomic_ref<T>(*addr).exchange(value, std::memory_order_relaxed);
#endif
}

// Sets the bits of `value` in *addr; returns what it held (uint32_t).
template <class T>
OOC_HD OOC_FORCEINLINE T atomic_or(T* addr, T value) {
  static_assert(std::is_same_v<T, std::uint32_t>, "atomic_or: uint32_t");
#if defined(__CUDA_ARCH__)
  return atomicOr(addr, value);
#else
  return std::atomic_ref<T>(*addr).fetch_or(value, std::memory_order_relaxed);
#endif
}

// Writes `desired` where *addr holds `expected`; returns what it held (uint32_t).
template <class T>
OOC_HD OOC_FORCEINLINE T atomic_cas(T* addr, T expected, T desired) {
  static_assert(std::is_same_v<T, std::uint32_t>, "atomic_cas: uint32_t");
#if defined(__CUDA_ARCH__)
  return atomicCAS(addr, expected, desired);
#else
  std::atomic_ref<T>(*addr).compare_exchange_strong(expected, desired, std::memory_order_relaxed);
  return expected;
#endif
}

// A plain load that other threads may be writing with the atomics above.
template <class T>
OOC_HD OOC_FORCEINLINE T atomic_load(const T* addr) {
#if defined(__CUDA_ARCH__)
  return *static_cast<const volatile T*>(addr);
#else
  return std::atomic_ref<T>(*const_cast<T*>(addr)).load(std::memory_order_relaxed);
#endif
}

}  // namespace ooc
