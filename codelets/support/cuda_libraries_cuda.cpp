// CUDA build: library handles created on each CUDA worker with its StarPU stream.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <cusparse.h>
#include <starpu.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>

#include "hetsparse/error.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "kernels/supernode/supernode_subtree_gpu.hpp"

namespace hetsparse::rt::cuda {
namespace {

struct WorkerLibraries {
  cublasHandle_t cublas = nullptr;
  cusparseHandle_t cusparse = nullptr;
  cusolverDnHandle_t cusolver = nullptr;
  DeviceWorkspace workspace;
  int* info = nullptr;
  bool failed = false;
  cudaStream_t stream = nullptr;  // an InlineCuda scope's own (workers use StarPU's)
  int device = -1;                // an InlineCuda scope's device
  void* pinned = nullptr;         // an InlineCuda scope's staging for small copies to the host
  // Its slots for copies begun and finished later (InlineCuda::stage_to_host), after `pinned`'s
  // kPinnedBytes, each with the event its copy records.
  std::array<cudaEvent_t, InlineCuda::kStagingSlots> staged{};
};
std::array<WorkerLibraries, STARPU_NMAXWORKERS> g_libs;
std::array<WorkerLibraries, STARPU_MAXCUDADEVS> g_inline;  // per device, made by the first scope there
std::mutex g_inline_mutex;
thread_local WorkerLibraries* t_inline = nullptr;  // the InlineCuda scope the thread is in
constexpr std::size_t kSubtreeStagingBytes = std::size_t(8) << 20;
// A copy to pageable memory is staged by the driver, a few microseconds more than one to pinned
// memory: what an iterative solver pays for each scalar it reads.
constexpr std::size_t kPinnedBytes = 4096;
constexpr std::size_t kStagingBytes = InlineCuda::kStagingSlots * InlineCuda::kStagedBytes;

WorkerLibraries& inline_handles();

// The calling worker's libraries, or the InlineCuda scope's (its handles not made here).
WorkerLibraries& mine() {
  if (t_inline) return *t_inline;
  int id = starpu_worker_get_id();
  if (id < 0 || starpu_worker_get_type(id) != STARPU_CUDA_WORKER || !g_libs[id].cublas)
    throw RuntimeFailure("CUDA library handles requested outside a CUDA worker");
  return g_libs[id];
}

// The library handles bound to stream s, and the devInfo int: false when one failed.
bool make_handles(WorkerLibraries& l, cudaStream_t s) {
  bool ok = cublasCreate(&l.cublas) == CUBLAS_STATUS_SUCCESS && cublasSetStream(l.cublas, s) == CUBLAS_STATUS_SUCCESS;
  ok = ok && cusparseCreate(&l.cusparse) == CUSPARSE_STATUS_SUCCESS &&
       cusparseSetStream(l.cusparse, s) == CUSPARSE_STATUS_SUCCESS;
  ok = ok && cusolverDnCreate(&l.cusolver) == CUSOLVER_STATUS_SUCCESS &&
       cusolverDnSetStream(l.cusolver, s) == CUSOLVER_STATUS_SUCCESS;
  return ok && cudaMalloc(reinterpret_cast<void**>(&l.info), sizeof(int)) == cudaSuccess;
}

void destroy_handles(WorkerLibraries& l, cudaStream_t s) {
  cudaStreamSynchronize(s);
  if (l.cusolver) cusolverDnDestroy(l.cusolver);
  if (l.cusparse) cusparseDestroy(l.cusparse);
  if (l.cublas) cublasDestroy(l.cublas);
  if (l.workspace.ptr) cudaFree(l.workspace.ptr);
  if (l.info) cudaFree(l.info);
  l = WorkerLibraries{};
}

void create_on_worker(void*) {
  WorkerLibraries& l = g_libs[starpu_worker_get_id_check()];
  bool ok = make_handles(l, starpu_cuda_get_local_stream());
  // Workspaces come from the device's stream-ordered pool. Its default release threshold (0) hands
  // freed memory back to the driver at every synchronization, so each regrowth would map new pages.
  int device = 0;
  cudaMemPool_t pool = nullptr;
  std::uint64_t keep = ~std::uint64_t(0);
  ok = ok && cudaGetDevice(&device) == cudaSuccess && cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess &&
       cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) == cudaSuccess;
  // The GPU subtree tasks' job tables are staged in pinned memory: allocated here, not between kernels.
  try {
    if (ok) kernels::reserve_subtree_staging(kSubtreeStagingBytes);
  } catch (const std::exception&) {
    ok = false;
  }
  l.failed = !ok;
}

void destroy_on_worker(void*) { destroy_handles(g_libs[starpu_worker_get_id_check()], starpu_cuda_get_local_stream()); }

// The library handles of the InlineCuda scope the thread is in, made on the first request: an inline
// solve needs none, and creating cuBLAS and cuSOLVER handles costs a first call tens of milliseconds.
WorkerLibraries& inline_handles() {
  WorkerLibraries& l = *t_inline;
  std::lock_guard<std::mutex> lock(g_inline_mutex);
  if (!l.cublas && !make_handles(l, l.stream)) {
    cudaStream_t s = l.stream;
    const int device = l.device;
    void* pinned = l.pinned;
    const auto staged = l.staged;
    destroy_handles(l, s);  // clears the record: put the stream, device and staging back
    l.stream = s;
    l.device = device;
    l.pinned = pinned;
    l.staged = staged;
    throw CudaError("creating the inline cuBLAS/cuSPARSE/cuSOLVER handles of CUDA device " + std::to_string(device) +
                    " failed");
  }
  return l;
}

// Device `device`'s inline stream, made on first use (the device is current); its handles come later.
WorkerLibraries& inline_libraries(int device) {
  if (device < 0 || device >= static_cast<int>(g_inline.size()))
    throw InvalidArgument("InlineCuda: CUDA device " + std::to_string(device) + " out of range");
  std::lock_guard<std::mutex> lock(g_inline_mutex);
  WorkerLibraries& l = g_inline[static_cast<std::size_t>(device)];
  if (l.stream) return l;
  cudaStream_t s = nullptr;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess)
    throw CudaError("creating the inline stream of CUDA device " + std::to_string(device) + " failed");
  bool ok = cudaMallocHost(&l.pinned, kPinnedBytes + kStagingBytes) == cudaSuccess;
  for (cudaEvent_t& e : l.staged) ok = ok && cudaEventCreateWithFlags(&e, cudaEventDisableTiming) == cudaSuccess;
  if (!ok) {
    for (cudaEvent_t& e : l.staged)
      if (e) cudaEventDestroy(e);
    if (l.pinned) cudaFreeHost(l.pinned);
    cudaStreamDestroy(s);
    l = WorkerLibraries{};
    throw CudaError("allocating the inline staging of CUDA device " + std::to_string(device) + " failed");
  }
  l.stream = s;
  l.device = device;
  return l;
}

void destroy_inline_libraries() {
  std::lock_guard<std::mutex> lock(g_inline_mutex);
  int current = -1;
  cudaGetDevice(&current);
  for (WorkerLibraries& l : g_inline) {
    if (!l.stream) continue;
    cudaSetDevice(l.device);
    cudaStream_t s = l.stream;
    if (l.pinned) cudaFreeHost(l.pinned);
    for (cudaEvent_t e : l.staged)
      if (e) cudaEventDestroy(e);
    destroy_handles(l, s);
    cudaStreamDestroy(s);
  }
  if (current >= 0) cudaSetDevice(current);
}

}  // namespace

void init_libraries() {
  if (starpu_cuda_worker_get_count() == 0) return;
  starpu_execute_on_each_worker_ex(create_on_worker, nullptr, STARPU_CUDA, "hetsparse_cuda_libraries_init");
  for (unsigned id = 0; id < starpu_worker_get_count(); ++id)
    if (g_libs[id].failed) throw CudaError("creating cuBLAS/cuSPARSE/cuSOLVER handles failed on worker " + std::to_string(id));
}

void shutdown_libraries() {
  destroy_inline_libraries();
  if (starpu_cuda_worker_get_count() == 0) return;
  starpu_execute_on_each_worker_ex(destroy_on_worker, nullptr, STARPU_CUDA, "hetsparse_cuda_libraries_fini");
}

cudaStream_t local_stream() { return t_inline ? t_inline->stream : starpu_cuda_get_local_stream(); }
// The same with its handles: made on the first request in an InlineCuda scope.
WorkerLibraries& mine_with_handles() { return t_inline ? inline_handles() : mine(); }

cublasHandle_t local_cublas() { return mine_with_handles().cublas; }
cusparseHandle_t local_cusparse() { return mine_with_handles().cusparse; }
cusolverDnHandle_t local_cusolver() { return mine_with_handles().cusolver; }
DeviceWorkspace& local_workspace() { return mine().workspace; }
void* local_workspace(std::size_t bytes) {
  DeviceWorkspace& w = mine().workspace;
  if (w.bytes >= bytes) return w.ptr;
  cudaStream_t s = local_stream();
  if (w.ptr) cudaFreeAsync(w.ptr, s);
  // Grown by half again at least, in whole 2 MiB pages: a factorization asks for ever larger
  // workspaces as its fronts grow, and a regrowth per task would reallocate hundreds of times.
  constexpr std::size_t kPage = std::size_t(2) << 20;
  const std::size_t want = (std::max(bytes, w.bytes + w.bytes / 2) + kPage - 1) / kPage * kPage;
  w = DeviceWorkspace{};
  if (cudaMallocAsync(&w.ptr, want, s) != cudaSuccess)
    throw CudaError("cudaMallocAsync of a " + std::to_string(want) + "-byte workspace failed");
  w.bytes = want;
  return w.ptr;
}
int* local_info() { return mine_with_handles().info; }
int local_worker_key() { return t_inline ? kInlineWorkerKey + t_inline->device : starpu_worker_get_id_check(); }

InlineCuda::InlineCuda(int device) : previous_(t_inline) {
  if (cudaGetDevice(&previous_device_) != cudaSuccess) previous_device_ = -1;
  if (cudaSetDevice(device) != cudaSuccess) throw CudaError("InlineCuda: cudaSetDevice(" + std::to_string(device) + ") failed");
  try {
    WorkerLibraries& l = inline_libraries(device);
    libs_ = &l;
    t_inline = &l;
  } catch (...) {
    if (previous_device_ >= 0) cudaSetDevice(previous_device_);
    throw;
  }
}

InlineCuda::~InlineCuda() {
  t_inline = static_cast<WorkerLibraries*>(previous_);
  if (previous_device_ >= 0) cudaSetDevice(previous_device_);
}

cudaStream_t InlineCuda::stream() const { return static_cast<WorkerLibraries*>(libs_)->stream; }

void InlineCuda::wait(const std::string& what) const {
  if (const cudaError_t e = cudaStreamSynchronize(stream()); e != cudaSuccess)
    throw CudaError(what + " failed on the GPU: " + cudaGetErrorString(e));
}

void InlineCuda::wait_quietly() const noexcept { cudaStreamSynchronize(stream()); }

void InlineCuda::copy_to_host(void* dst, const void* device_src, std::size_t bytes, const std::string& what) const {
  void* pinned = static_cast<WorkerLibraries*>(libs_)->pinned;
  void* to = bytes <= kPinnedBytes ? pinned : dst;
  cudaError_t e = cudaMemcpyAsync(to, device_src, bytes, cudaMemcpyDeviceToHost, stream());
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream());
  if (e != cudaSuccess) throw CudaError(what + " failed on the GPU: " + cudaGetErrorString(e));
  if (to != dst) std::memcpy(dst, to, bytes);
}

void InlineCuda::stage_to_host(unsigned slot, const void* device_src, std::size_t bytes, const std::string& what) const {
  if (slot >= kStagingSlots || bytes > kStagedBytes)
    throw InvalidArgument(what + ": staging slot " + std::to_string(slot) + " of " + std::to_string(bytes) + " bytes");
  const auto& l = *static_cast<WorkerLibraries*>(libs_);
  char* to = static_cast<char*>(l.pinned) + kPinnedBytes + slot * kStagedBytes;
  cudaError_t e = cudaMemcpyAsync(to, device_src, bytes, cudaMemcpyDeviceToHost, l.stream);
  if (e == cudaSuccess) e = cudaEventRecord(l.staged[slot], l.stream);
  if (e != cudaSuccess) throw CudaError(what + " failed on the GPU: " + cudaGetErrorString(e));
}

void InlineCuda::take_staged(unsigned slot, void* dst, std::size_t bytes, const std::string& what) const {
  if (slot >= kStagingSlots || bytes > kStagedBytes)
    throw InvalidArgument(what + ": staging slot " + std::to_string(slot) + " of " + std::to_string(bytes) + " bytes");
  const auto& l = *static_cast<WorkerLibraries*>(libs_);
  if (const cudaError_t e = cudaEventSynchronize(l.staged[slot]); e != cudaSuccess)
    throw CudaError(what + " failed on the GPU: " + cudaGetErrorString(e));
  std::memcpy(dst, static_cast<const char*>(l.pinned) + kPinnedBytes + slot * kStagedBytes, bytes);
}

}  // namespace hetsparse::rt::cuda

namespace hetsparse::rt::cuda {

CudaSummary cuda_summary() {
  CudaSummary s;
  s.built_with_cuda = true;
  cudaRuntimeGetVersion(&s.runtime_version);
  cudaDriverGetVersion(&s.driver_version);
  int n = 0;
  if (cudaError_t e = cudaGetDeviceCount(&n); e != cudaSuccess) {
    // Without libcuda (no NVIDIA driver: a machine without a GPU) the runtime says "driver version
    // is insufficient", which reads as if an upgrade would help.
    s.error = s.driver_version == 0 ? "no NVIDIA driver found, so no usable GPU"
                                    : std::string(cudaGetErrorString(e)) + " (driver " +
                                          std::to_string(s.driver_version) + ", runtime " +
                                          std::to_string(s.runtime_version) + ")";
    cudaGetLastError();
    return s;
  }
  for (int d = 0; d < n; ++d) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
    char bus[32] = {0};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, d) != cudaSuccess) bus[0] = '\0';
    s.devices.push_back(
        {p.name, p.major, p.minor, p.multiProcessorCount, double(p.totalGlobalMem) / (1 << 30), bus});
  }
  return s;
}

}  // namespace hetsparse::rt::cuda
