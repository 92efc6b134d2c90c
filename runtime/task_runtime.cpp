// Names of the task interface's enums, and the device check both runtimes apply at submission.
#include "runtime/task_runtime.hpp"

namespace hetsparse::rt {

const char* to_string(Access a) {
  switch (a) {
    case Access::Read: return "R";
    case Access::Write: return "W";
    case Access::ReadWrite: return "RW";
    case Access::Scratch: return "SCRATCH";
    case Access::Commute: return "RW|COMMUTE";
  }
  return "?";
}

const char* to_string(Where w) {
  switch (w) {
    case Where::Any: return "any";
    case Where::Cpu: return "cpu";
    case Where::Cuda: return "cuda";
  }
  return "?";
}

bool can_run(DeviceMask devices, Where where) {
  switch (where) {
    case Where::Any: return !devices.empty();
    case Where::Cpu: return devices.has(Device::Cpu);
    case Where::Cuda: return devices.has(Device::Cuda);
  }
  return false;
}

}  // namespace hetsparse::rt
