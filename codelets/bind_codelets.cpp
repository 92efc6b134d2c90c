// Every kernel of codelets/ bound to its StarPU glue: the one list a new codelet joins.
#include "codelets/support/starpu_binding.hpp"

namespace hetsparse::codelets {

void bind_gemm(rt::StarpuBindings&);
void bind_syrk(rt::StarpuBindings&);
void bind_trsm(rt::StarpuBindings&);
void bind_potrf(rt::StarpuBindings&);
void bind_vector(rt::StarpuBindings&);
void bind_spmv(rt::StarpuBindings&);
void bind_spmv_part(rt::StarpuBindings&);
void bind_supernode(rt::StarpuBindings&);
void bind_supernode_solve(rt::StarpuBindings&);
void bind_sptrsv(rt::StarpuBindings&);
void bind_sptrsv_levels(rt::StarpuBindings&);
void bind_krylov(rt::StarpuBindings&);
void bind_ic0(rt::StarpuBindings&);
void bind_split(rt::StarpuBindings&);

void bind_codelets(rt::StarpuBindings& b) {
  bind_gemm(b);
  bind_syrk(b);
  bind_trsm(b);
  bind_potrf(b);
  bind_vector(b);
  bind_spmv(b);
  bind_spmv_part(b);
  bind_supernode(b);
  bind_supernode_solve(b);
  bind_sptrsv(b);
  bind_sptrsv_levels(b);
  bind_krylov(b);
  bind_ic0(b);
  bind_split(b);
}

}  // namespace hetsparse::codelets
