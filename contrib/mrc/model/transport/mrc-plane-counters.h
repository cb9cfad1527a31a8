/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PLANE_COUNTERS_H
#define MRC_PLANE_COUNTERS_H

#include <algorithm>
#include <cstdint>
#include <memory>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief One 64-bit counter per network plane, held inside its owner for up to eight planes.
 *
 * A queue pair counts every data packet it sends and receives by plane. With the counters in a
 * heap array of their own (a `std::vector`), each count was a read of one more cache line: on
 * a large fabric, where a queue pair's lines are cold when its packet comes, a cache miss per
 * packet on each side. Here the counters of up to eight planes (one cache line) sit in the
 * owning object, whose lines are loaded ahead of its packets (MrcEventPrefetch); more planes
 * take a heap array.
 */
class MrcPlaneCounters
{
public:
    /** Planes counted inside the object. */
    static constexpr uint32_t INLINE = 8;

    MrcPlaneCounters() = default;

    /**
     * Copy the counters (a queue pair forked from a prototype, CopyObject).
     * @param o the counters copied
     */
    MrcPlaneCounters(const MrcPlaneCounters& o)
    {
        *this = o;
    }

    /**
     * Copy the counters.
     * @param o the counters copied
     * @return this
     */
    MrcPlaneCounters& operator=(const MrcPlaneCounters& o)
    {
        if (this != &o)
        {
            m_planes = o.m_planes;
            std::copy(o.m_inline, o.m_inline + INLINE, m_inline);
            m_more.reset(o.m_more ? new uint64_t[o.m_planes] : nullptr);
            if (m_more)
            {
                std::copy(o.m_more.get(), o.m_more.get() + o.m_planes, m_more.get());
            }
        }
        return *this;
    }

    /**
     * Count this many planes, every counter at zero.
     * @param planes the number of planes
     */
    void Reset(uint32_t planes)
    {
        m_planes = planes;
        m_more.reset(planes > INLINE ? new uint64_t[planes]() : nullptr);
        for (auto& c : m_inline)
        {
            c = 0;
        }
    }

    /**
     * Add one to a plane's counter; a plane out of range is ignored.
     * @param plane the plane
     */
    void Increment(uint32_t plane)
    {
        if (plane < m_planes)
        {
            ++Data()[plane];
        }
    }

    /**
     * @param plane the plane
     * @return its counter (0 for a plane out of range)
     */
    uint64_t Get(uint32_t plane) const
    {
        return plane < m_planes ? (m_planes > INLINE ? m_more[plane] : m_inline[plane]) : 0;
    }

private:
    /** @return the counters */
    uint64_t* Data()
    {
        return m_planes > INLINE ? m_more.get() : m_inline;
    }

    uint64_t m_inline[INLINE] = {};     //!< the counters, for up to INLINE planes
    std::unique_ptr<uint64_t[]> m_more; //!< the counters, for more planes
    uint32_t m_planes = 0;              //!< planes counted
};

} // namespace ns3

#endif /* MRC_PLANE_COUNTERS_H */
