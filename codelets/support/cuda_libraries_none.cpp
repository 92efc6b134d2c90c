// CPU-only build: there are no CUDA workers, so no handles; asking for one is a logic error.
#include "hetsparse/error.hpp"
#include "codelets/support/cuda_libraries.hpp"

namespace hetsparse::rt::cuda {
namespace {
[[noreturn]] void no_cuda() { throw RuntimeFailure("hetsparse was built without CUDA"); }
}  // namespace

void init_libraries() {}
void shutdown_libraries() {}
cudaStream_t local_stream() { no_cuda(); }
cublasHandle_t local_cublas() { no_cuda(); }
cusparseHandle_t local_cusparse() { no_cuda(); }
cusolverDnHandle_t local_cusolver() { no_cuda(); }
DeviceWorkspace& local_workspace() { no_cuda(); }
void* local_workspace(std::size_t) { no_cuda(); }
int* local_info() { no_cuda(); }
int local_worker_key() { no_cuda(); }
InlineCuda::InlineCuda(int) { no_cuda(); }
InlineCuda::~InlineCuda() = default;
cudaStream_t InlineCuda::stream() const { no_cuda(); }
void InlineCuda::wait(const std::string&) const { no_cuda(); }
void InlineCuda::wait_quietly() const noexcept {}
void InlineCuda::copy_to_host(void*, const void*, std::size_t, const std::string&) const { no_cuda(); }
void InlineCuda::stage_to_host(unsigned, const void*, std::size_t, const std::string&) const { no_cuda(); }
void InlineCuda::take_staged(unsigned, void*, std::size_t, const std::string&) const { no_cuda(); }

}  // namespace hetsparse::rt::cuda

namespace hetsparse::rt::cuda {
CudaSummary cuda_summary() {
  CudaSummary s;
  s.error = "hetsparse was built without CUDA";
  return s;
}
}  // namespace hetsparse::rt::cuda
