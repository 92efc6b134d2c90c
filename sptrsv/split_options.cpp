// Split modes by name.
#include "sptrsv/split_options.hpp"

#include "hetsparse/error.hpp"

namespace hetsparse::sptrsv {

SplitMode parse_split_mode(const std::string& name) {
  for (SplitMode m : {SplitMode::Off, SplitMode::Auto, SplitMode::CpuGpu, SplitMode::CpuCpu, SplitMode::GpuGpu})
    if (name == to_string(m)) return m;
  throw InvalidArgument("unknown split mode '" + name + "' (off, auto, cpu-gpu, cpu-cpu or gpu-gpu)");
}

const char* to_string(SplitMode m) {
  switch (m) {
    case SplitMode::Off: return "off";
    case SplitMode::Auto: return "auto";
    case SplitMode::CpuGpu: return "cpu-gpu";
    case SplitMode::CpuCpu: return "cpu-cpu";
    case SplitMode::GpuGpu: return "gpu-gpu";
  }
  return "?";
}

planners::SplitPolicy forced_policy(SplitMode mode) {
  switch (mode) {
    case SplitMode::CpuGpu: return planners::SplitPolicy::CpuGpu;
    case SplitMode::CpuCpu: return planners::SplitPolicy::CpuCpu;
    case SplitMode::GpuGpu: return planners::SplitPolicy::GpuGpu;
    default: break;
  }
  throw InvalidArgument(std::string("split mode '") + to_string(mode) + "' forces no policy");
}

}  // namespace hetsparse::sptrsv
