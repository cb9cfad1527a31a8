/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SLOT_POOL_H
#define MRC_SLOT_POOL_H

#include <cstddef>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Storage for the arrays of a growing ring (a queue's slots), aligned to a cache line.
 *
 * A ring doubles its array when full and never shrinks while the simulation runs. Through
 * glibc's malloc, each such array of 1 KiB or more is a large request, and a large request
 * first consolidates every fast bin (all the small blocks the packets freed): in the 1024-host
 * permutation, 230 of the run's 338 consolidations. Arrays of at least MIN_POOLED bytes are
 * therefore carved from blocks of SLAB_BYTES and, once given back (the ring grew, or its queue
 * was destroyed), kept on a free list of their size for the next ring that grows to it.
 * Smaller arrays are allocated and freed as before (an aligned operator new), so that a fabric
 * of millions of ports with a packet or two per queue gives their memory back to malloc.
 *
 * The pool is shared by everything in the process, guarded by a mutex (taken only when a ring
 * grows or is freed), and lives until the process ends: its blocks stay reachable, and arrays
 * given back are reused, not returned to the system.
 */
class MrcSlotPool
{
public:
    /** Alignment of every array: a cache line. */
    static constexpr std::size_t ALIGN = 64;
    /** Arrays from this size up come from the pool's blocks (malloc's large requests). */
    static constexpr std::size_t MIN_POOLED = 1024;
    /** The size of a block the pool carves arrays from (larger arrays get a block each). */
    static constexpr std::size_t SLAB_BYTES = std::size_t(1) << 20;

    /**
     * An array of bytes, aligned to ALIGN.
     * @param bytes its size: a power of two, at least ALIGN
     * @return its first byte (uninitialized)
     */
    static void* Take(std::size_t bytes);

    /**
     * Give an array back.
     * @param p what Take returned (null is ignored)
     * @param bytes the size it was taken with
     */
    static void Give(void* p, std::size_t bytes);

    /**
     * @return false in a build with AddressSanitizer, where every array is its own allocation
     * (so that the sanitizer checks each) and nothing is kept
     */
    static bool IsPooling();

    /** @return the bytes the pool holds in its blocks (for tests and reports) */
    static std::size_t GetReservedBytes();

    /**
     * @param bytes an array size: a power of two, at least MIN_POOLED
     * @return how many arrays of that size wait on the free list
     */
    static std::size_t GetFreeCount(std::size_t bytes);
};

} // namespace ns3

#endif /* MRC_SLOT_POOL_H */
