// A kernel as planners and runtimes see it: a name, the devices it has an implementation for in this
// build, how its tasks run and how a runtime should predict their duration. Plain data, no StarPU:
// the StarPU Runtime binds each Kernel to a starpu_codelet (codelets/support/starpu_binding.hpp),
// the RecordingRuntime and the Cholesky auto-tuner only read these fields.
#pragma once
#include <cstdint>

namespace hetsparse::rt {

enum class Device : std::uint8_t { Cpu = 1, Cuda = 2 };

// A set of devices.
class DeviceMask {
 public:
  constexpr DeviceMask() = default;
  constexpr DeviceMask(Device d) : bits_(static_cast<std::uint8_t>(d)) {}  // NOLINT: a device is a mask of one
  constexpr DeviceMask operator|(DeviceMask o) const { return DeviceMask(bits_ | o.bits_); }
  constexpr bool has(Device d) const { return (bits_ & static_cast<std::uint8_t>(d)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool operator==(DeviceMask o) const { return bits_ == o.bits_; }

 private:
  constexpr explicit DeviceMask(unsigned bits) : bits_(static_cast<std::uint8_t>(bits)) {}
  std::uint8_t bits_ = 0;
};

// Sequential: one worker. Spmd / ForkJoin: a parallel CPU task over a combined worker of any width
// (every member runs the function / the function starts its own threads on the members' cores).
enum class TaskKind : std::uint8_t { Sequential, Spmd, ForkJoin };

// How a runtime predicts a task's duration. History: mean time per data-size footprint (kernels called
// on a few shapes). FlopsRegression: a * flops^b + c fitted over every run (shapes that rarely repeat,
// e.g. supernodal updates). FlopsHistory: mean time per quarter-octave of the task's flops (tasks whose
// data are whole vectors but which touch a slice of them, e.g. one level range of a solve).
enum class PerfModel : std::uint8_t { History, FlopsRegression, FlopsHistory };

struct Kernel {
  const char* name = "";
  DeviceMask devices = Device::Cpu;
  TaskKind kind = TaskKind::Sequential;
  PerfModel model = PerfModel::History;
};

}  // namespace hetsparse::rt
