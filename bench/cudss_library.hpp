// libcudss.so.1 loaded at run time (dlopen), with typed pointers to the cuDSS calls the benchmark
// makes. Run-time loading keeps the library out of the build and off machines that lack it (CI, the
// GPU machine in most calls: it is 167 MB): bench_cholesky runs without it and says why cuDSS was
// skipped. Needs cudss.h at build time (HETSPARSE_CUDSS_ROOT, see bench/CMakeLists.txt).
#pragma once
#include <cudss.h>

#include <string>

namespace hetsparse::bench {

// Where the library is looked for: $HETSPARSE_CUDSS_LIB (the file, or the folder holding
// libcudss.so.1), else "libcudss.so.1" through the loader's search (LD_LIBRARY_PATH, rpath, ldconfig).
std::string cudss_library_request();

class CudssLibrary {
 public:
  // Opens `request` (a path, or a bare name for the loader's search). ok() false when it cannot be
  // opened or lacks a symbol: skip_reason() then says which and what to set.
  explicit CudssLibrary(const std::string& request = cudss_library_request());
  ~CudssLibrary();
  CudssLibrary(const CudssLibrary&) = delete;
  CudssLibrary& operator=(const CudssLibrary&) = delete;

  bool ok() const { return ok_; }
  const std::string& skip_reason() const { return reason_; }
  std::string version() const;  // "1.0.0", from cudssGetProperty

  decltype(&::cudssCreate) create = nullptr;
  decltype(&::cudssDestroy) destroy = nullptr;
  decltype(&::cudssConfigCreate) config_create = nullptr;
  decltype(&::cudssConfigDestroy) config_destroy = nullptr;
  decltype(&::cudssDataCreate) data_create = nullptr;
  decltype(&::cudssDataDestroy) data_destroy = nullptr;
  decltype(&::cudssDataGet) data_get = nullptr;
  decltype(&::cudssMatrixCreateCsr) matrix_create_csr = nullptr;
  decltype(&::cudssMatrixCreateDn) matrix_create_dn = nullptr;
  decltype(&::cudssMatrixDestroy) matrix_destroy = nullptr;
  decltype(&::cudssExecute) execute = nullptr;
  decltype(&::cudssGetProperty) get_property = nullptr;

 private:
  template <class F>
  bool bind(F& fn, const char* name);
  void* handle_ = nullptr;
  bool ok_ = false;
  std::string reason_;
};

}  // namespace hetsparse::bench
