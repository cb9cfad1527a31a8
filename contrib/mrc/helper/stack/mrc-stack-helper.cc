/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-stack-helper.h"

#include "ns3/mrc-header.h"

#include "ns3/integer.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace ns3
{

MrcStackHelper::MrcStackHelper()
{
    m_l4Factory.SetTypeId("ns3::MrcL4Protocol");
    m_qpFactory.SetTypeId("ns3::MrcQueuePair");
    m_selectorFactory.SetTypeId("ns3::MrcAdaptiveSpray");
    m_ccFactory.SetTypeId("ns3::MrcNscc");
    m_recoveryFactory.SetTypeId("ns3::MrcSelectiveRecovery");
}

void
MrcStackHelper::SetPathSelector(const std::string& type,
                                const std::string& n1,
                                const AttributeValue& v1)
{
    m_selectorFactory = ObjectFactory();
    m_selectorFactory.SetTypeId(type);
    if (!n1.empty())
    {
        m_selectorFactory.Set(n1, v1);
    }
}

void
MrcStackHelper::SetPathSelectorAttribute(const std::string& name, const AttributeValue& value)
{
    m_selectorFactory.Set(name, value);
}

void
MrcStackHelper::SetCongestionControl(const std::string& type,
                                     const std::string& n1,
                                     const AttributeValue& v1)
{
    m_ccFactory = ObjectFactory();
    m_ccFactory.SetTypeId(type);
    if (!n1.empty())
    {
        m_ccFactory.Set(n1, v1);
    }
}

void
MrcStackHelper::SetCongestionControlAttribute(const std::string& name, const AttributeValue& value)
{
    m_ccFactory.Set(name, value);
}

void
MrcStackHelper::SetLossRecovery(const std::string& type,
                                const std::string& n1,
                                const AttributeValue& v1)
{
    m_recoveryFactory = ObjectFactory();
    m_recoveryFactory.SetTypeId(type);
    if (!n1.empty())
    {
        m_recoveryFactory.Set(n1, v1);
    }
}

void
MrcStackHelper::SetLossRecoveryAttribute(const std::string& name, const AttributeValue& value)
{
    m_recoveryFactory.Set(name, value);
}

void
MrcStackHelper::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    m_qpFactory.Set(name, value);
}

void
MrcStackHelper::SetProtocolAttribute(const std::string& name, const AttributeValue& value)
{
    m_l4Factory.Set(name, value);
}

void
MrcStackHelper::GetQueuePairAttribute(const std::string& name, AttributeValue& value) const
{
    m_qpFactory.Create<MrcQueuePair>()->GetAttribute(name, value);
}

void
MrcStackHelper::SetRoceBaseline()
{
    SetPathSelector("ns3::MrcSinglePath");
    SetCongestionControl("ns3::MrcDcqcn");
    SetLossRecovery("ns3::MrcGoBackNRecovery");
    // The receiver is DCQCN's notification point: one CNP per QP per 4 us at most (NVIDIA
    // ConnectX's min_time_between_cnps; MrcDcqcn's defaults are the same NIC's reaction point).
    SetQueuePairAttribute("CnpInterval", TimeValue(MicroSeconds(4)));
    // InfiniBand's local ACK timeout, 4.096 us x 2^t, at NCCL's default t = 20 (NCCL_IB_TIMEOUT,
    // about 4.3 s), and its retry count 7 (NCCL_IB_RETRY_CNT): deployed values, not scaled.
    SetQueuePairAttribute("AckTimeoutUnit", TimeValue(RoceAckTimeoutUnit()));
    SetQueuePairAttribute("AckTimeoutExponent", UintegerValue(RoceAckTimeoutExponent()));
    SetQueuePairAttribute("RetryLimit", UintegerValue(RoceRetryLimit()));
}

Time
MrcStackHelper::RoceAckTimeoutUnit()
{
    return NanoSeconds(4096);
}

uint32_t
MrcStackHelper::RoceAckTimeoutExponent()
{
    return 20;
}

uint32_t
MrcStackHelper::RoceRetryLimit()
{
    return 7;
}

void
MrcStackHelper::Install(Ptr<MrcClosTopology> fabric)
{
    m_fabric = fabric;
    UintegerValue payload;
    m_qpFactory.Create<MrcQueuePair>()->GetAttribute("PayloadSize", payload);
    const Time baseRtt
        = fabric->GetBaseRtt(MrcIpv6Fields::HEADER_BYTES + MrcHeader::SIZE + payload.Get());
    Ptr<MrcL4Protocol> first;
    for (uint32_t h = 0; h < fabric->GetNHosts(); ++h)
    {
        Ptr<MrcL4Protocol> l4 = m_l4Factory.Create<MrcL4Protocol>();
        l4->SetAttribute("PathSelector", TypeIdValue(m_selectorFactory.GetTypeId()));
        l4->SetAttribute("CongestionControl", TypeIdValue(m_ccFactory.GetTypeId()));
        l4->SetAttribute("LossRecovery", TypeIdValue(m_recoveryFactory.GetTypeId()));
        l4->SetQueuePairFactory(m_qpFactory);
        l4->SetPathSelectorFactory(m_selectorFactory);
        l4->SetCongestionOpsFactory(m_ccFactory);
        l4->SetRecoveryOpsFactory(m_recoveryFactory);
        if (first)
        {
            // The same factories and types: one set of objects to fork for every host.
            l4->SharePrototypes(first);
        }
        else
        {
            first = l4;
        }
        std::vector<Ptr<MrcNetDevice>> ports;
        for (uint32_t p = 0; p < fabric->GetNPlanes(); ++p)
        {
            ports.push_back(fabric->GetHostPort(h, p));
        }
        fabric->GetHost(h)->AggregateObject(l4);
        l4->Setup(h, ports, fabric, fabric->GetNicRate(), baseRtt);
    }
}

std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>
MrcStackHelper::Connect(uint32_t a, uint32_t b, int32_t port)
{
    return GetL4(a)->ConnectPair(GetL4(b), port);
}

Ptr<MrcL4Protocol>
MrcStackHelper::GetL4(uint32_t host) const
{
    NS_ABORT_MSG_IF(m_fabric == nullptr, "MrcStackHelper: Install() first");
    return m_fabric->GetHost(host)->GetObject<MrcL4Protocol>();
}

Ptr<MrcClosTopology>
MrcStackHelper::GetFabric() const
{
    return m_fabric;
}

int64_t
MrcStackHelper::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (uint32_t h = 0; h < m_fabric->GetNHosts(); ++h)
    {
        used += GetL4(h)->AssignStreams(stream + used);
    }
    return used;
}

} // namespace ns3
