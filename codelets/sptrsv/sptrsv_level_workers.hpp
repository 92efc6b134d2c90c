// What StarPU says about the combined workers the level-scheduled parallel tasks run on (StarPU glue:
// callers link hetsparse_codelets).
#pragma once

namespace hetsparse::codelets {

// The widest combined worker StarPU has built (1 when none: the scheduler runs parallel tasks on
// one worker), 0 when StarPU is not running.
int widest_parallel_worker();
// The width (combined worker size) of the last parallel task that ran, 0 before any.
int last_parallel_task_width();

}  // namespace hetsparse::codelets
