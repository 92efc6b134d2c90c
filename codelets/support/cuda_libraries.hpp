// Per-CUDA-worker library handles (cuBLAS, cuSPARSE, cuSOLVER) bound to the worker's StarPU stream,
// plus a per-worker device workspace. Call the accessors only from inside a CUDA codelet: on a CUDA
// worker, or in the calling thread inside an InlineCuda scope (Runtime::run_inline).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

// Same forward declarations as the CUDA headers, so this header needs no CUDA include.
struct cublasContext;
struct cusparseContext;
struct cusolverDnContext;
typedef struct cublasContext* cublasHandle_t;
typedef struct cusparseContext* cusparseHandle_t;
typedef struct cusolverDnContext* cusolverDnHandle_t;
typedef struct CUstream_st* cudaStream_t;

namespace hetsparse::rt::cuda {

// A device buffer that codelets may grow (stream-ordered) and the runtime frees at shutdown.
struct DeviceWorkspace {
  void* ptr = nullptr;
  std::size_t bytes = 0;
};

void init_libraries();      // on every CUDA worker, after starpu_init; no-op without CUDA
void shutdown_libraries();  // before starpu_shutdown

cudaStream_t local_stream();  // the worker's StarPU stream
cublasHandle_t local_cublas();
cusparseHandle_t local_cusparse();
cusolverDnHandle_t local_cusolver();
DeviceWorkspace& local_workspace();
// The local workspace grown (stream-ordered) to at least `bytes`.
void* local_workspace(std::size_t bytes);
int* local_info();  // one device int, for cuSOLVER's devInfo

// Keys of per-worker state (a prepared scheme, say): the StarPU worker id on a worker; inside an
// InlineCuda scope, kInlineWorkerKey + the device, which no worker has.
constexpr int kInlineWorkerKey = 1 << 20;
int local_worker_key();

// The calling thread standing in for a CUDA worker of `device` while a codelet's CUDA function runs in
// it (Runtime::run_inline): the device is current, and the accessors above answer with the device's
// inline stream, handles and workspace (one set per device, made on first use, freed by
// shutdown_libraries()). One scope per device at a time: the Runtime serialises them. RuntimeFailure
// in a build without CUDA.
class InlineCuda {
 public:
  explicit InlineCuda(int device);
  ~InlineCuda();  // restores the thread's previous device and scope; does not wait for the stream
  InlineCuda(const InlineCuda&) = delete;
  InlineCuda& operator=(const InlineCuda&) = delete;
  cudaStream_t stream() const;
  void wait(const std::string& what) const;  // for the stream; CudaError "WHAT failed on the GPU: ..."
  void wait_quietly() const noexcept;        // the same, errors ignored (on an exception's way out)
  // Copies `bytes` of device memory to host memory after the work queued on the stream; CudaError
  // "WHAT failed on the GPU: ..." on an error.
  void copy_to_host(void* dst, const void* device_src, std::size_t bytes, const std::string& what) const;
  // copy_to_host in two halves: stage queues the copy of `bytes` (at most kStagedBytes) into pinned
  // slot `slot` (below kStagingSlots) after the work queued so far; take waits for that copy alone.
  static constexpr unsigned kStagingSlots = 8;
  static constexpr std::size_t kStagedBytes = 256;
  void stage_to_host(unsigned slot, const void* device_src, std::size_t bytes, const std::string& what) const;
  void take_staged(unsigned slot, void* dst, std::size_t bytes, const std::string& what) const;

 private:
  int previous_device_ = -1;
  void* previous_ = nullptr;  // the enclosing scope's libraries, if any
  void* libs_ = nullptr;
};

}  // namespace hetsparse::rt::cuda

namespace hetsparse::rt::cuda {
// What `hetsparse info` prints about CUDA: runtime/driver versions and devices ("" parts when absent).
struct CudaSummary {
  bool built_with_cuda = false;
  int runtime_version = 0, driver_version = 0;
  std::string error;  // why no device could be listed
  struct Device {
    std::string name;
    int major = 0, minor = 0, sms = 0;
    double memory_gib = 0;
    std::string pci_bus_id;  // "0000:1b:00.0": where hwloc finds the device's NUMA node
  };
  std::vector<Device> devices;
};
CudaSummary cuda_summary();
}  // namespace hetsparse::rt::cuda
