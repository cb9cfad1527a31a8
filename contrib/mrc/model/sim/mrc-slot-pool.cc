/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-slot-pool.h"

#include "ns3/assert.h"

#include <mutex>
#include <new>
#include <vector>

namespace ns3
{

namespace
{

/** Size classes: powers of two from MrcSlotPool::MIN_POOLED up to 2^63 bytes. */
constexpr unsigned CLASSES = 64;

#if defined(__SANITIZE_ADDRESS__)
#    define MRC_SLOT_POOL_BYPASS 1
#elif defined(__has_feature)
#    if __has_feature(address_sanitizer)
#        define MRC_SLOT_POOL_BYPASS 1
#    endif
#endif

#ifdef MRC_SLOT_POOL_BYPASS
/** Under AddressSanitizer every array is its own allocation, so that it checks each one. */
constexpr std::size_t POOLED_FROM = ~std::size_t(0);
#else
/** Arrays from this size up come from the pool. */
constexpr std::size_t POOLED_FROM = MrcSlotPool::MIN_POOLED;
#endif

/**
 * The pool's state: its blocks, the free arrays of each size, and the block being carved.
 * Made once and never destroyed, so that a queue destroyed by a static destructor at exit can
 * still give its array back; everything it holds stays reachable through it.
 */
struct PoolState
{
    std::mutex lock;                       //!< guards everything below
    std::vector<void*> freeLists[CLASSES]; //!< per size class, arrays given back
    std::vector<char*> blocks;             //!< every block carved or handed out whole
    char* cursor = nullptr;                //!< next free byte of the current block
    char* end = nullptr;                   //!< end of the current block
    std::size_t reserved = 0;              //!< bytes in blocks
};

PoolState&
State()
{
    static PoolState* state = new PoolState;
    return *state;
}

/**
 * @param bytes a power of two
 * @return its base-2 logarithm
 */
unsigned
SizeClass(std::size_t bytes)
{
    return static_cast<unsigned>(__builtin_ctzll(bytes));
}

/**
 * @param bytes a block's size
 * @return a new block of that size, aligned to MrcSlotPool::ALIGN
 */
char*
NewBlock(std::size_t bytes)
{
    return static_cast<char*>(::operator new(bytes, std::align_val_t(MrcSlotPool::ALIGN)));
}

} // namespace

void*
MrcSlotPool::Take(std::size_t bytes)
{
    NS_ASSERT_MSG(bytes >= ALIGN && (bytes & (bytes - 1)) == 0,
                  "MrcSlotPool::Take: " << bytes << " is not a power of two of at least 64");
    if (bytes < POOLED_FROM)
    {
        return ::operator new(bytes, std::align_val_t(ALIGN));
    }
    PoolState& s = State();
    std::lock_guard<std::mutex> guard(s.lock);
    std::vector<void*>& list = s.freeLists[SizeClass(bytes)];
    if (!list.empty())
    {
        void* p = list.back();
        list.pop_back();
        return p;
    }
    if (bytes >= SLAB_BYTES)
    {
        char* block = NewBlock(bytes);
        s.blocks.push_back(block);
        s.reserved += bytes;
        return block;
    }
    if (static_cast<std::size_t>(s.end - s.cursor) < bytes)
    {
        // What is left of the current block (less than this array) is not used again.
        s.cursor = NewBlock(SLAB_BYTES);
        s.end = s.cursor + SLAB_BYTES;
        s.blocks.push_back(s.cursor);
        s.reserved += SLAB_BYTES;
    }
    void* p = s.cursor;
    s.cursor += bytes; // sizes are multiples of ALIGN, so every array stays aligned
    return p;
}

void
MrcSlotPool::Give(void* p, std::size_t bytes)
{
    if (p == nullptr)
    {
        return;
    }
    if (bytes < POOLED_FROM)
    {
        ::operator delete(p, std::align_val_t(ALIGN));
        return;
    }
    PoolState& s = State();
    std::lock_guard<std::mutex> guard(s.lock);
    s.freeLists[SizeClass(bytes)].push_back(p);
}

bool
MrcSlotPool::IsPooling()
{
    return POOLED_FROM != ~std::size_t(0);
}

std::size_t
MrcSlotPool::GetReservedBytes()
{
    PoolState& s = State();
    std::lock_guard<std::mutex> guard(s.lock);
    return s.reserved;
}

std::size_t
MrcSlotPool::GetFreeCount(std::size_t bytes)
{
    PoolState& s = State();
    std::lock_guard<std::mutex> guard(s.lock);
    return s.freeLists[SizeClass(bytes)].size();
}

} // namespace ns3
