#include "bench/cudss_library.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdlib>

namespace hetsparse::bench {
namespace {
constexpr const char* kSoname = "libcudss.so.1";
constexpr const char* kHint = "set HETSPARSE_CUDSS_LIB to the file or its folder, or LD_LIBRARY_PATH";

bool is_directory(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
}  // namespace

std::string cudss_library_request() {
  const char* env = std::getenv("HETSPARSE_CUDSS_LIB");
  if (!env || !*env) return kSoname;
  const std::string p = env;
  return is_directory(p) ? p + "/" + kSoname : p;
}

template <class F>
bool CudssLibrary::bind(F& fn, const char* name) {
  fn = reinterpret_cast<F>(::dlsym(handle_, name));
  if (!fn && reason_.empty()) reason_ = std::string(kSoname) + " has no symbol " + name + " (not cuDSS 1.x?)";
  return fn != nullptr;
}

CudssLibrary::CudssLibrary(const std::string& request) {
  // RTLD_LOCAL: cuDSS's own dependencies (cuBLAS, NVRTC) stay out of the benchmark's symbol space.
  handle_ = ::dlopen(request.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* err = ::dlerror();
    reason_ = std::string(kSoname) + " not found (" + (err ? err : request + ": dlopen failed") + "): " + kHint;
    return;
  }
  // & on every bind: each missing symbol is looked up, the first one named.
  ok_ = bind(create, "cudssCreate") & bind(destroy, "cudssDestroy") & bind(config_create, "cudssConfigCreate") &
        bind(config_destroy, "cudssConfigDestroy") & bind(data_create, "cudssDataCreate") &
        bind(data_destroy, "cudssDataDestroy") & bind(data_get, "cudssDataGet") &
        bind(matrix_create_csr, "cudssMatrixCreateCsr") & bind(matrix_create_dn, "cudssMatrixCreateDn") &
        bind(matrix_destroy, "cudssMatrixDestroy") & bind(execute, "cudssExecute") &
        bind(get_property, "cudssGetProperty");
}

CudssLibrary::~CudssLibrary() {
  if (handle_) ::dlclose(handle_);
}

std::string CudssLibrary::version() const {
  if (!ok_) return "";
  int v[3] = {0, 0, 0};
  get_property(MAJOR_VERSION, &v[0]);
  get_property(MINOR_VERSION, &v[1]);
  get_property(PATCH_LEVEL, &v[2]);
  return std::to_string(v[0]) + "." + std::to_string(v[1]) + "." + std::to_string(v[2]);
}

}  // namespace hetsparse::bench
