/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DROP_ACCOUNTING_H
#define MRC_DROP_ACCOUNTING_H

#include "ns3/mrc-frame.h"
#include "ns3/mrc-lazy.h"

#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Drop statistics shared by the elements that drop packets (MrcTrimmingQueue,
 * MrcSwitchNetDevice), as ns-3's QueueDisc keeps its per-reason counts: one counter per named
 * reason and one "Drop" trace source (packet, reason), fired once per drop. Each element
 * declares its reasons as an enum ending with DROP_REASON_COUNT and its reasons' names, and
 * registers the trace source with MrcMakeLazyTraceSourceAccessor(&Element::m_dropTrace): the
 * trace source is made when something connects to it (queues and ports exist by the million).
 * @tparam N number of reasons
 */
template<std::size_t N>
class MrcDropAccounting
{
public:
    virtual ~MrcDropAccounting() = default;

    /**
     * @param reason a reason (below N)
     * @return packets dropped for it
     */
    uint64_t GetDropped(uint32_t reason) const
    {
        return m_dropped[reason];
    }

    /** @return packets dropped, all reasons */
    uint64_t GetDroppedTotal() const
    {
        uint64_t s = 0;
        for (auto d : m_dropped)
        {
            s += d;
        }
        return s;
    }

protected:
    /**
     * Count a drop and fire the trace, then empty the frame. A compact frame is given a Packet
     * only when the trace is connected (MrcFrame::GetPacket).
     * @param frame the frame (emptied)
     * @param reason its reason
     */
    void Drop(MrcFrame&& frame, uint32_t reason)
    {
        ++m_dropped[reason];
        if (auto trace = m_dropTrace.Peek())
        {
            (*trace)(Ptr<const Packet>(frame.GetPacket()), reason);
        }
        frame.Reset();
    }

    std::array<uint64_t, N> m_dropped{};                              //!< drops per reason
    MrcLazy<TracedCallback<Ptr<const Packet>, uint32_t>> m_dropTrace; //!< Drop trace source
};

} // namespace ns3

#endif /* MRC_DROP_ACCOUNTING_H */
