// `hetsparse info`: workers, topology, scheduler, StarPU and CUDA versions.
#include <cstdio>

#include "cli/common.hpp"
#include "cli/json.hpp"
#include "apps/commands.hpp"
#include "cli/spmv_topology.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "runtime/starpu/runtime.hpp"

namespace hetsparse::cli {

int cmd_info(int argc, char** argv) {
  ArgParser p("hetsparse info", "Show what hetsparse runs on: StarPU workers, NUMA placement, GPUs, versions.");
  add_runtime_options(p);
  if (!p.parse(argc, argv)) return 0;
  rt::Runtime runtime(runtime_options(p));
  const rt::Topology topo = rt::machine_topology();
  const rt::cuda::CudaSummary cuda = rt::cuda::cuda_summary();
  if (p.has("json")) {
    std::vector<Json> workers, devices;
    for (const auto& w : runtime.workers())
      workers.push_back(Json()
                            .set("id", w.id)
                            .set("kind", rt::to_string(w.kind))
                            .set("name", w.name)
                            .set("memory_node", static_cast<int>(w.memory_node))
                            .set("device", w.device_id)
                            .set("core", w.bind_core)
                            .set("numa_node", w.numa_node));
    for (const auto& d : cuda.devices)
      devices.push_back(Json().set("name", d.name).set("compute_capability", std::to_string(d.major) + "." +
                                                                               std::to_string(d.minor))
                            .set("sms", d.sms).set("memory_gib", d.memory_gib));
    Json j;
    j.set("starpu_version", rt::starpu_version_string())
        .set("scheduler", runtime.options().scheduler)
        .set("perfmodel_dir", runtime.options().perfmodel_dir)
        .set("cuda_built", cuda.built_with_cuda)
        .set("cuda_runtime", cuda.runtime_version)
        .set("cuda_driver", cuda.driver_version)
        .set("cpu_model", topo.cpu_model)
        .set("packages", topo.packages)
        .set("numa_nodes", topo.numa_nodes)
        .set("cores", topo.cores)
        .set("pus", topo.pus)
        .set("gpus", devices)
        .set("workers", workers)
        .set("spmv_topology", topology_json(spmv_topology(runtime)));
    std::printf("%s\n", j.str().c_str());
    return 0;
  }
  std::printf("hetsparse %s, StarPU %s\n", HETSPARSE_VERSION, rt::starpu_version_string().c_str());
  std::printf("scheduler       %s\n", runtime.options().scheduler.c_str());
  std::printf("perf models     %s\n", runtime.options().perfmodel_dir.c_str());
  std::printf("machine         %s: %d package(s), %d NUMA node(s), %d cores, %d PUs\n", topo.cpu_model.c_str(),
              topo.packages, topo.numa_nodes, topo.cores, topo.pus);
  if (cuda.built_with_cuda)
    std::printf("CUDA            runtime %d, driver %d%s%s\n", cuda.runtime_version, cuda.driver_version,
                cuda.error.empty() ? "" : ", ", cuda.error.c_str());
  else
    std::printf("CUDA            not built in\n");
  for (const auto& d : cuda.devices)
    std::printf("GPU             %s (sm_%d%d, %d SMs, %.1f GiB)\n", d.name.c_str(), d.major, d.minor, d.sms,
                d.memory_gib);
  std::printf("workers         %d CPU, %d CUDA (on %d GPUs)\n", runtime.cpu_workers(), runtime.cuda_workers(),
              runtime.cuda_devices());
  std::printf("  %-4s %-5s %-6s %-5s %-5s %s\n", "id", "kind", "memnode", "core", "numa", "name");
  for (const auto& w : runtime.workers())
    std::printf("  %-4d %-5s %-7u %-5d %-5d %s\n", w.id, rt::to_string(w.kind), w.memory_node, w.bind_core,
                w.numa_node, w.name.c_str());
  for (const std::string& line : describe_topology(spmv_topology(runtime)))
    std::printf("spmv domains    %s\n", line.c_str());
  return 0;
}

}  // namespace hetsparse::cli
