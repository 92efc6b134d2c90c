// kernels::StagedUpload, which the SpTRSV matrix uploads go through (the GPU analysis of a host CSR,
// DeviceTriangular): arrays over several pinned chunks and fill threads arrive exactly, a converting
// fill narrows offsets as they are staged, and uploads in turn reuse the buffer. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/common/staged_upload_cuda.hpp"
#include "tests/support/cuda_test_support.hpp"

namespace hetsparse::test {
namespace {

bool have_gpu() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

TEST(StagedUploadCuda, ArraysOverSeveralChunksArriveExactly) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> values(5'000'003);  // 40 MB: three 16 MB chunks, the last partial
  for (double& v : values) v = u(rng);
  std::vector<std::int64_t> offsets(6'000'001);  // narrowed to 4 B: two chunks
  for (std::size_t i = 0; i < offsets.size(); ++i) offsets[i] = static_cast<std::int64_t>(3 * i + (i % 7));
  const std::vector<double> small = {1.5, -2.25, 3.0};
  DeviceArray<double> d_values(values.size()), d_small(small.size());
  DeviceArray<std::int32_t> d_offsets(offsets.size());
  for (int round = 0; round < 2; ++round) {  // the second reuses the process's staging buffer
    {
      kernels::StagedUpload upload(nullptr);
      upload.copy(d_values.get(), values.data(), values.size());
      const std::int64_t* src = offsets.data();
      upload.copy(d_offsets.get(), offsets.size(), sizeof(std::int32_t), [src](void* dst, std::size_t first, std::size_t n) {
        auto* out = static_cast<std::int32_t*>(dst);
        for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::int32_t>(src[first + i]);
      });
      upload.copy(d_small.get(), small.data(), small.size());
      upload.copy(d_small.get(), small.data(), 0);  // nothing
      upload.finish();
    }
    EXPECT_EQ(d_values.download(nullptr), values) << "round " << round;
    EXPECT_EQ(d_small.download(nullptr), small) << "round " << round;
    const std::vector<std::int32_t> got = d_offsets.download(nullptr);
    ASSERT_EQ(got.size(), offsets.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (got[i] != offsets[i]) {
        ADD_FAILURE() << "offset " << i << ": " << got[i] << " != " << offsets[i] << ", round " << round;
        break;
      }
    }
    for (double& v : values) v = -v;  // new contents for the second round
  }
}

}  // namespace
}  // namespace hetsparse::test
