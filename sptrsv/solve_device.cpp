#include "sptrsv/solve_device.hpp"

#include "hetsparse/error.hpp"
#include "sparse/named_values.hpp"

namespace hetsparse::sptrsv {
namespace {
constexpr Named<SolveDevice> kSolveDevices[] = {{SolveDevice::Auto, "auto"},
                                                {SolveDevice::Any, "any"},
                                                {SolveDevice::Cpu, "cpu"},
                                                {SolveDevice::Gpu, "gpu"},
                                                {SolveDevice::Gpu, "cuda"}};
}  // namespace

SolveDevice parse_solve_device(const std::string& name) { return parse_named(name, kSolveDevices, "solve device"); }

const char* to_string(SolveDevice d) { return name_of(d, kSolveDevices); }

rt::Where solve_where(SolveDevice device, bool cuda_available) {
  switch (device) {
    case SolveDevice::Auto: return cuda_available ? rt::Where::Cuda : rt::Where::Cpu;
    case SolveDevice::Any: return rt::Where::Any;
    case SolveDevice::Cpu: return rt::Where::Cpu;
    case SolveDevice::Gpu: return rt::Where::Cuda;
  }
  return rt::Where::Any;
}

}  // namespace hetsparse::sptrsv
