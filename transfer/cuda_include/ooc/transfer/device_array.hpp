#pragma once
// Owning handles for device memory, streams and events: RAII over the CUDA runtime, every call
// checked. Internal to CUDA sources.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

#include "ooc/core/cuda_check.hpp"
#include "ooc/core/units.hpp"

namespace ooc {

template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(std::size_t n, const char* what) : size_(n) {
    if (n == 0) return;
    const cudaError_t err = cudaMalloc(&data_, n * sizeof(T));
    if (err != cudaSuccess) {
      cudaGetLastError();
      throw OutOfMemory(std::string("cannot allocate ") + format_bytes(n * sizeof(T)) +
                        " of device memory for " + what + " (" + cudaGetErrorString(err) + ")");
    }
  }
  DeviceArray(DeviceArray&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    DeviceArray(std::move(o)).swap(*this);
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() {
    if (data_ != nullptr) cudaFree(data_);
  }
  void swap(DeviceArray& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
  }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

class Stream {
 public:
  Stream() {
    OOC_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "creating a stream");
  }
  ~Stream() {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }
  Stream(Stream&& o) noexcept : stream_(std::exchange(o.stream_, nullptr)) {}
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream& operator=(Stream&&) = delete;
  cudaStream_t get() const noexcept { return stream_; }
  void synchronize(const char* doing) const { OOC_CUDA(cudaStreamSynchronize(stream_), doing); }

 private:
  cudaStream_t stream_ = nullptr;
};

class Event {
 public:
  explicit Event(bool timing = false) {
    OOC_CUDA(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming),
             "creating an event");
  }
  ~Event() {
    if (event_ != nullptr) cudaEventDestroy(event_);
  }
  Event(Event&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event& operator=(Event&&) = delete;
  cudaEvent_t get() const noexcept { return event_; }
  void record(cudaStream_t s, const char* doing) const {
    OOC_CUDA(cudaEventRecord(event_, s), doing);
  }
  // Makes stream `s` wait for this event.
  void wait_in(cudaStream_t s, const char* doing) const {
    OOC_CUDA(cudaStreamWaitEvent(s, event_, 0), doing);
  }
  void synchronize(const char* doing) const { OOC_CUDA(cudaEventSynchronize(event_), doing); }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace ooc
