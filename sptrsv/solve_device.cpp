#include "sptrsv/solve_device.hpp"

#include "hetsparse/error.hpp"

namespace hetsparse::sptrsv {

SolveDevice parse_solve_device(const std::string& name) {
  if (name == "auto") return SolveDevice::Auto;
  if (name == "any") return SolveDevice::Any;
  if (name == "cpu") return SolveDevice::Cpu;
  if (name == "gpu" || name == "cuda") return SolveDevice::Gpu;
  throw InvalidArgument("unknown solve device '" + name + "' (auto, any, cpu or gpu)");
}

const char* to_string(SolveDevice d) {
  switch (d) {
    case SolveDevice::Auto: return "auto";
    case SolveDevice::Any: return "any";
    case SolveDevice::Cpu: return "cpu";
    case SolveDevice::Gpu: return "gpu";
  }
  return "?";
}

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
