// The wavefront solver's rows packed by position (see sptrsv_wavefront.hpp): what its solve kernel reads,
// and the pack that builds it on the device. Included by the wavefront .cu files only.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/common/device_allocations_cuda.hpp"
#include "kernels/sptrsv/sptrsv.hpp"

namespace hetsparse::kernels::wavefront {

// Set in a chunk's first position: the chunk is one row that a whole warp solves.
constexpr std::uint32_t kWarpRowBit = 0x80000000u;
constexpr int kChunkRows = 32;  // positions a warp claims at a time (a thread a row)

struct Packed {
  index_t n;
  const index_t* __restrict__ level_rows;  // position -> row
  const double* __restrict__ diagonal;     // by position
  const index_t* __restrict__ deps;        // slot k of position p at k * n + p: a position, or -1
  const double* __restrict__ values;       // the entry of that slot (0 for an unused one)
  // A row's entries past the slots (a warp row's: all of them), CSR by position; null when none has any.
  const std::int64_t* __restrict__ extra_ptr;
  const index_t* __restrict__ extra_deps;
  const double* __restrict__ extra_values;
  // Null: chunk c is positions [32c, 32c + 32). Else [chunk_start[c], chunk_start[c + 1]) with
  // kWarpRowBit masked off: runs of at most 32 thread rows, and each warp row alone.
  const std::uint32_t* __restrict__ chunk_start;
  std::uint32_t chunks;
};

struct PackShape {
  index_t longest = 0;   // the most off-diagonals of a row (the pack refuses a longer one)
  int width = 2;         // slots a position holds
  index_t warp_row = 0;  // rows of more off-diagonals than this are warp rows (0: none)
};

// Packs `device` (its level schedule required) into arrays `memory` owns, on `stream`, and waits for it.
// InvalidArgument when a row has more than shape.longest off-diagonals.
Packed pack(cudaStream_t stream, const TriangularDeviceView& device, const PackShape& shape,
            DeviceAllocations& memory);

}  // namespace hetsparse::kernels::wavefront
