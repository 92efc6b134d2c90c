// The wavefront scheme's host-side choices, without a GPU: the launch's blocks by the level profile,
// the slots a thread row holds, and the warp-row threshold by the level profile.
#include <gtest/gtest.h>

#include "kernels/sptrsv/sptrsv_wavefront.hpp"

namespace hetsparse::test {
namespace {

// The wavefront launch's blocks an SM: by the level profile (kLevelsInFlight fullest levels over
// the SMs' 256-thread blocks, at least one, at most eight), an explicit count, both capped by what fits.
TEST(WavefrontOptions, BlocksFollowTheLevelProfile) {
  const kernels::WavefrontOptions by_profile;
  EXPECT_EQ(kernels::wavefront_blocks_per_sm(by_profile, 2000, 8, 132), 1);    // 2D 2000²
  EXPECT_EQ(kernels::wavefront_blocks_per_sm(by_profile, 12312, 8, 132), 2);   // 3D 128³
  EXPECT_EQ(kernels::wavefront_blocks_per_sm(by_profile, 19230, 8, 132), 3);   // 3D 160³
  EXPECT_EQ(kernels::wavefront_blocks_per_sm(by_profile, 10000000, 8, 132), 8);
  EXPECT_EQ(kernels::wavefront_blocks_per_sm(by_profile, 10000000, 5, 132), 5);  // what fits
  EXPECT_EQ(kernels::wavefront_blocks_per_sm(by_profile, 0, 8, 132), 1);
  kernels::WavefrontOptions three;
  three.blocks_per_sm = 3;
  EXPECT_EQ(kernels::wavefront_blocks_per_sm(three, 10, 8, 132), 3);
  EXPECT_EQ(kernels::wavefront_blocks_per_sm(three, 10, 2, 132), 2);
}

// A thread row's slots: up to warp_row off-diagonals (longer rows go to a warp), at most kMaxWidth; every
// row when no row is a warp row.
TEST(WavefrontOptions, SlotsHoldTheThreadRows) {
  kernels::WavefrontOptions o;
  o.warp_row = 4;
  EXPECT_EQ(kernels::wavefront_slotted_longest(3, o), 3);
  EXPECT_EQ(kernels::wavefront_slotted_longest(500, o), 4);
  o.warp_row = 32;
  EXPECT_EQ(kernels::wavefront_slotted_longest(20, o), 16);
  o.warp_row = 0;
  EXPECT_EQ(kernels::wavefront_slotted_longest(12, o), 12);
  EXPECT_EQ(kernels::wavefront_slotted_longest(5000, o), 16);
  EXPECT_EQ(kernels::wavefront_width(kernels::wavefront_slotted_longest(5, kernels::WavefrontOptions{})), 6);
}

// The warp-row threshold by the level profile: the slots' width on narrow levels, kWideWarpRow from
// kWideLevelRows rows a level on average; a given one as it is.
TEST(WavefrontOptions, WarpRowFollowsTheLevelProfile) {
  const kernels::WavefrontOptions by_profile;
  EXPECT_EQ(kernels::wavefront_warp_row(by_profile, 6545, 42), kernels::WavefrontOptions::kNarrowWarpRow);  // EX5
  EXPECT_EQ(kernels::wavefront_warp_row(by_profile, 1 << 20, 1038), kernels::WavefrontOptions::kWideWarpRow);  // R-MAT 20:8
  EXPECT_EQ(kernels::wavefront_warp_row(by_profile, 999, 1), kernels::WavefrontOptions::kNarrowWarpRow);
  EXPECT_EQ(kernels::wavefront_warp_row(by_profile, 1000, 1), kernels::WavefrontOptions::kWideWarpRow);
  EXPECT_EQ(kernels::wavefront_warp_row(by_profile, 100, 0), kernels::WavefrontOptions::kNarrowWarpRow);
  kernels::WavefrontOptions given;
  given.warp_row = 0;
  EXPECT_EQ(kernels::wavefront_warp_row(given, 1 << 20, 10), 0);
  given.warp_row = 24;
  EXPECT_EQ(kernels::wavefront_warp_row(given, 10, 10), 24);
}

}  // namespace
}  // namespace hetsparse::test
