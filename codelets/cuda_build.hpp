// Whether this build has CUDA codelets. HETSPARSE_WITH_CUDA is a public compile definition of the
// codelet targets, so every file above them sees the same value; code branches on kCudaBuild with
// `if constexpr` instead of #ifdef (see codelets/support/starpu_binding.hpp).
#pragma once
#include "runtime/kernel.hpp"

namespace hetsparse::codelets {

#ifdef HETSPARSE_WITH_CUDA
inline constexpr bool kCudaBuild = true;
#else
inline constexpr bool kCudaBuild = false;
#endif

// The devices of a kernel with a CPU and a CUDA implementation: CUDA only in a CUDA build.
inline constexpr rt::DeviceMask kCpuAndCuda =
    kCudaBuild ? rt::DeviceMask(rt::Device::Cpu) | rt::Device::Cuda : rt::DeviceMask(rt::Device::Cpu);

}  // namespace hetsparse::codelets
