#include "apps/sptrsv_options.hpp"

namespace hetsparse::cli {

void add_sptrsv_options(ArgParser& p) {
  p.option("triangle", "lower|upper", "which triangle of the input is T", "lower")
      .flag("unit", "T has a unit diagonal (stored diagonal entries are ignored)")
      .option("variant", "NAME|auto",
              "scheme for solves on a CUDA worker: a GPU variant, cusparse, clusterlevels[:key=val,...], wavefront[:key=val,...], ag:key=val,..., powK:BASE (K = 2, 4, 8, 16) or auto", "auto")
      .option("select", "search|model",
              "how auto chooses (default: the model trained for this GPU or its architecture, else a fixed rule; search times the candidates, seconds)", "default")
      .option("expected-solves", "N", "solves expected with this matrix: auto weighs a scheme's preparation and a split's setup against them",
              "100")
      .option("device", "auto|any|cpu|gpu",
              "where the solves run: auto = the GPU when there is one (solves of host vectors on one CPU core where a cost model predicts them faster there), any = the scheduler decides", "auto")
      .flag("solve-tasks", "synchronous GPU solves as StarPU tasks, which traces show (default: run in the calling "
                           "thread on the GPU, no task's round trip)")
      .option("cpu-mode", "serial|parallel-task|level-tasks",
              "solves on CPU workers: one serial task, one StarPU parallel task over a combined worker (default "
              "scheduler then peager), or per-level tasks",
              "serial")
      .option("cpu-min-entries", "N", "level-scheduled modes: smallest share of a level in entries (0: default)", "0")
      .option("split", "off|auto|cpu-gpu|cpu-cpu|gpu-gpu",
              "split execution: auto = the split model picks a split or a unified solve; a policy forces that split "
              "(default scheduler then peager, for the CPUs' level-scheduled parallel task)",
              "off")
      .option("split-model", "FILE", "split model thresholds (default: data/split_model_<gpu>.tsv, else the paper's)",
              "")
      .option("split-measure", "off|on[:margin=M,max-ms=T,candidates=K,rounds=R,solves=S,extra=E]",
              "split auto: time the nearest predicted policies at setup where the model cannot separate them "
              "(predicted within M x, best under T ms; R rounds of S back-to-back solves each, E more for a close call)", "on")
      .option("analysis", "auto|host|gpu",
              "where T is analysed: gpu = on the GPU when the solves and the scheme allow it, auto = the same but "
              "triangles of at most 4000 rows and 45000 entries on the host (sooner there), host = on the host", "auto")
      .option("analyses", "N",
              "analyse T this many times in this process, each with a fresh solver and its warm-up solve; the report "
              "is the last one's (preprocess_first_s: the first's, which also pays the process's first use of each "
              "kernel and library)", "1")
      .flag("analyze", "print every structural feature of T (and the split model's)")
      .option("iterations", "N", "timed solves (the median is reported)", "10")
      .option("seed", "S", "seed of the random b", "1");
}

}  // namespace hetsparse::cli
