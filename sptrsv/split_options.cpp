// Split modes by name.
#include "sptrsv/split_options.hpp"

#include "hetsparse/error.hpp"
#include "sparse/named_values.hpp"

namespace hetsparse::sptrsv {
namespace {
constexpr Named<SplitMode> kSplitModes[] = {{SplitMode::Off, "off"},
                                            {SplitMode::Auto, "auto"},
                                            {SplitMode::CpuGpu, "cpu-gpu"},
                                            {SplitMode::CpuCpu, "cpu-cpu"},
                                            {SplitMode::GpuGpu, "gpu-gpu"}};
}  // namespace

SplitMode parse_split_mode(const std::string& name) { return parse_named(name, kSplitModes, "split mode"); }

const char* to_string(SplitMode m) { return name_of(m, kSplitModes); }

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
