#!/usr/bin/env python3
"""Keep only one GPU architecture's machine code in libcudss.so.1 (no CUDA tool needed).

The cuDSS wheel's library is 167 MB, 157 MB of it the .nv_fatbin section: one fat binary per
translation unit, each holding cubins for sm_75 ... sm_120 and compute_100 PTX. For one GPU (the
lent H100: sm_90) the other images are dead weight, and the 143 MB the library takes under xz is
more than one upload to the GPU machine may carry. Each fat binary is rewritten in place to hold only
the wanted arch's cubins (its header's size shrinks, the bytes after it become zeros, which xz
squeezes to nothing), so every address in the library stays where it was. A fat binary without the
wanted arch is left whole. Layout (CUDA's fatbin format, as cuobjdump reads it): a container header
{u32 magic 0xBA55ED50, u16 version, u16 header size, u64 entries size}, then entries
{u16 kind (1 PTX, 2 ELF), u16, u32 header size, u64 payload size, u32, u32, u16, u16, u32 arch, ...}.

  cudss_prune.py IN OUT [--arch 90]
"""
import argparse
import struct
import sys

MAGIC = 0xBA55ED50


def fatbin_section(data):
    """(offset, size) of .nv_fatbin in a 64-bit little-endian ELF."""
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3A)
    def sh(i):
        return struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize)  # name, type, flags, addr, offset, size
    stroff = sh(shstrndx)[4]
    for i in range(shnum):
        name, _, _, _, off, size = sh(i)
        end = data.index(b'\0', stroff + name)
        if data[stroff + name:end] == b'.nv_fatbin':
            return off, size
    sys.exit('no .nv_fatbin section')


def prune(data, arch):
    off, size = fatbin_section(data)
    p, end = off, off + size
    kept_bytes = containers = pruned = 0
    while p < end:
        magic, _, hsize, fsize = struct.unpack_from('<IHHQ', data, p)
        if magic != MAGIC:  # alignment padding between containers
            if any(data[p:p + 8]):
                sys.exit('unexpected bytes at 0x%x in .nv_fatbin' % p)
            p += 8
            continue
        containers += 1
        q, cend, keep = p + hsize, p + hsize + fsize, []
        while q < cend:
            kind, _, ehsize, psize = struct.unpack_from('<HHIQ', data, q)
            earch, = struct.unpack_from('<I', data, q + 28)
            if kind == 2 and earch == arch:
                keep.append(bytes(data[q:q + ehsize + psize]))
            q += ehsize + psize
        if keep:
            body = b''.join(keep)
            struct.pack_into('<Q', data, p + 8, len(body))
            data[p + hsize:cend] = body + bytes(fsize - len(body))
            pruned += 1
        kept_bytes += hsize + (len(body) if keep else fsize)
        p = cend
    return containers, pruned, kept_bytes, size


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('input')
    ap.add_argument('output')
    ap.add_argument('--arch', type=int, default=90, help='SM version to keep (90: H100, H200)')
    a = ap.parse_args()
    data = bytearray(open(a.input, 'rb').read())
    containers, pruned, kept, size = prune(data, a.arch)
    open(a.output, 'wb').write(data)
    print('%s: %d fat binaries, %d cut to sm_%d; fatbin %.1f MB -> %.1f MB live' %
          (a.output, containers, pruned, a.arch, size / 1e6, kept / 1e6))


if __name__ == '__main__':
    main()
