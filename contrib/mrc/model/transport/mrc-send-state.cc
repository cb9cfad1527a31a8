/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-send-state.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcSendState);

TypeId
MrcSendState::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcSendState")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcSendState>()
                            .AddTraceSource("Cwnd",
                                            "Congestion window, bytes",
                                            MakeTraceSourceAccessor(&MrcSendState::m_cwnd),
                                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

MrcSendState::MrcSendState() = default;
MrcSendState::~MrcSendState() = default;

void
MrcSendState::DeclareLost(uint32_t psn, uint8_t cause)
{
    TxPkt& p = Pkt(psn);
    if (p.acked || p.lost)
    {
        return;
    }
    p.lost = true;
    p.cause = cause;
    m_inflight -= p.len;
    m_retxQueue.push_back(psn);
}

void
MrcSendState::Rewind(uint32_t psn, uint8_t cause)
{
    m_retxQueue.clear();
    for (uint32_t q = std::max(psn, m_psnBase); q < m_nextPsn; ++q)
    {
        TxPkt& p = Pkt(q);
        if (p.acked)
        {
            continue;
        }
        if (!p.lost)
        {
            m_inflight -= p.len;
        }
        p.lost = true;
        p.cause = cause;
        m_retxQueue.push_back(q);
    }
}

void
MrcSendState::OnRttSample(Time now, Time rtt, bool karn)
{
    m_lastRtt = rtt;
    if (!karn)
    {
        return;
    }
    // Windowed maximum over two buckets of RTT_MAX_BUCKET base RTTs each.
    if (now - m_rttMaxStart >= m_baseRtt * RTT_MAX_BUCKET)
    {
        m_rttMax[1]
            = now - m_rttMaxStart >= m_baseRtt * (2 * RTT_MAX_BUCKET) ? Time(0) : m_rttMaxBucket;
        m_rttMaxBucket = Time(0);
        m_rttMaxStart = now;
    }
    m_rttMaxBucket = std::max(m_rttMaxBucket, rtt);
    m_rttMin = m_rttMin.IsZero() ? rtt : std::min(m_rttMin, rtt);
    m_rttMax[0] = std::max(m_rttMaxBucket, m_rttMax[1]);
}

} // namespace ns3
