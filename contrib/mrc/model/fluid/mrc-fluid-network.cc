/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-fluid-network.h"

#include "ns3/mrc-choice-checker.h"
#include "ns3/mrc-header.h"
#include "ns3/mrc-ipv6-fields.h"
#include "ns3/mrc-switch-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFluidNetwork");
NS_OBJECT_ENSURE_REGISTERED(MrcFluidNetwork);

namespace
{
/** Cable states as CableState returns them. */
constexpr uint8_t IN_SERVICE = 0; //!< up and used
constexpr uint8_t LOSSY = 1;      //!< down within the bypass: traffic sent on it is lost
constexpr uint8_t RETIRED = 2;    //!< not used

/**
 * @param x a 64-bit value
 * @return a well-mixed hash of it (splitmix64's finaliser)
 */
uint64_t
Mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
} // namespace

TypeId
MrcFluidNetwork::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcFluidNetwork")
              .SetParent<Object>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcFluidNetwork>()
              .AddAttribute("Planes",
                            "Network planes (NIC ports per host)",
                            UintegerValue(8),
                            MakeUintegerAccessor(&MrcFluidNetwork::m_planes),
                            MakeUintegerChecker<uint32_t>(1, 64))
              .AddAttribute("HostsPerT0",
                            "Hosts under each T0",
                            UintegerValue(8),
                            MakeUintegerAccessor(&MrcFluidNetwork::m_hostsPerT0),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("T0sPerPlane",
                            "T0 switches per plane",
                            UintegerValue(8),
                            MakeUintegerAccessor(&MrcFluidNetwork::m_nT0),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("T1sPerPlane",
                            "T1 switches per plane",
                            UintegerValue(8),
                            MakeUintegerAccessor(&MrcFluidNetwork::m_nT1),
                            MakeUintegerChecker<uint32_t>(1, 65535))
              .AddAttribute("LinkRate",
                            "Rate of every link",
                            DataRateValue(DataRate("100Gbps")),
                            MakeDataRateAccessor(&MrcFluidNetwork::m_linkRate),
                            MakeDataRateChecker())
              .AddAttribute("LinkDelay",
                            "Propagation delay of every link (for latencies)",
                            TimeValue(MicroSeconds(1)),
                            MakeTimeAccessor(&MrcFluidNetwork::m_linkDelay),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("SwitchLatency",
                            "Forwarding latency of a switch (for latencies)",
                            TimeValue(NanoSeconds(500)),
                            MakeTimeAccessor(&MrcFluidNetwork::m_switchLatency),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("PayloadSize",
                            "Payload bytes per data packet: capacities are in payload bytes, "
                            "after the IPv6 and MRC headers",
                            UintegerValue(4096),
                            MakeUintegerAccessor(&MrcFluidNetwork::m_payload),
                            MakeUintegerChecker<uint32_t>(64, 8192))
              .AddAttribute("Scheme",
                            "mrc (EV spray over planes and T1s, failover by EV retirement) or "
                            "baseline (one hashed path per connection, routed failover)",
                            StringValue("mrc"),
                            MakeStringAccessor(&MrcFluidNetwork::m_scheme),
                            MakeMrcChoiceChecker({"mrc", "baseline"}))
              .AddAttribute("BypassTime",
                            "mrc: from a path's failure until its EVs are out of use and the "
                            "packets lost on it resent (measured: mrc-link-flap's bypass-us at "
                            "its defaults, 11.3 us)",
                            TimeValue(NanoSeconds(11300)),
                            MakeTimeAccessor(&MrcFluidNetwork::m_bypass),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("ProbeTime",
                            "mrc: from a path's return until its EVs are in service again (the "
                            "queue pair's ProbeInterval x ProbeSuccesses: 50 us x 3)",
                            TimeValue(MicroSeconds(150)),
                            MakeTimeAccessor(&MrcFluidNetwork::m_probeTime),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("DetectionDelay",
                            "baseline: a switch stops using a dead uplink this long after it "
                            "died (BFD-like; deployed: 3 x 50 ms)",
                            TimeValue(MilliSeconds(150)),
                            MakeTimeAccessor(&MrcFluidNetwork::m_detection),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("ReconvergenceDelay",
                            "baseline: remote switches route around a dead link this long after "
                            "its detection (BGP-like; deployed: seconds)",
                            TimeValue(Seconds(2)),
                            MakeTimeAccessor(&MrcFluidNetwork::m_reconvergence),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("AckTimeout",
                            "baseline: the local ACK timeout (InfiniBand: 4.096 us x 2^20)",
                            TimeValue(NanoSeconds(4294967296LL)),
                            MakeTimeAccessor(&MrcFluidNetwork::m_ackTimeout),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("RetryLimit",
                            "baseline: timeouts after the first before the queue pair fails",
                            UintegerValue(7),
                            MakeUintegerAccessor(&MrcFluidNetwork::m_retryLimit),
                            MakeUintegerChecker<uint32_t>(0, 255));
    return tid;
}

MrcFluidNetwork::MrcFluidNetwork()
    : m_planes(8)
    , m_hostsPerT0(8)
    , m_nT0(8)
    , m_nT1(8)
    , m_payload(4096)
    , m_retryLimit(7)
    , m_built(false)
    , m_baseline(false)
    , m_cablesPerPlane(0)
    , m_capacity(0)
    , m_touched(false)
    , m_recomputations(0)
{
}

MrcFluidNetwork::~MrcFluidNetwork() = default;

void
MrcFluidNetwork::DoDispose()
{
    m_next.Cancel();
    for (auto& c : m_cables)
    {
        c->SetStateObserver(nullptr, 0);
    }
    m_cables.clear();
    m_groups.clear();
    Object::DoDispose();
}

std::string
MrcFluidNetwork::Validate() const
{
    if (m_scheme != "mrc" && m_scheme != "baseline")
    {
        return "Scheme must be mrc or baseline (got '" + m_scheme + "')";
    }
    if (m_nT1 > 65535)
    {
        return "T1sPerPlane must be at most 65535";
    }
    const uint64_t cables
        = uint64_t(m_planes) * (uint64_t(m_hostsPerT0) * m_nT0 + uint64_t(m_nT0) * m_nT1);
    if (cables > (uint64_t(1) << 31))
    {
        return "the fabric has " + std::to_string(cables)
             + " cables; at most 2^31 are supported (fewer Planes, T0sPerPlane, HostsPerT0 or "
               "T1sPerPlane)";
    }
    if (m_linkRate.GetBitRate() == 0)
    {
        return "LinkRate must be positive";
    }
    return "";
}

void
MrcFluidNetwork::Build()
{
    const std::string err = Validate();
    NS_ABORT_MSG_IF(!err.empty(), "MrcFluidNetwork: " << err);
    NS_ABORT_MSG_IF(m_built, "MrcFluidNetwork: Build() called twice");
    m_built = true;
    m_baseline = m_scheme == "baseline";
    const uint32_t hosts = GetNHosts();
    m_cablesPerPlane = hosts + m_nT0 * m_nT1;
    const uint32_t n = m_planes * m_cablesPerPlane;
    m_cables.reserve(n);
    for (uint32_t c = 0; c < n; ++c)
    {
        Ptr<MrcChannel> ch = CreateObject<MrcChannel>();
        ch->SetStateObserver(this, c);
        m_cables.push_back(ch);
    }
    m_downAt.assign(n, -1);
    m_upAt.assign(n, 0);
    m_wasRetired.assign(n, 0);
    m_colOf.assign(2 * uint64_t(n) + 2 * uint64_t(m_planes) * m_nT0, -1);
    m_abnormal.assign(uint64_t(m_planes) * m_nT0, {});
    m_capacity = m_linkRate.GetBitRate() / 8.0 * m_payload
               / double(m_payload + MrcIpv6Fields::HEADER_BYTES + MrcHeader::SIZE);
    m_last = Simulator::Now();
}

int64_t
MrcFluidNetwork::AssignStreams(int64_t /* stream */)
{
    return 0; // no random draws: paths are hashed (baseline) or spread evenly (mrc)
}

uint32_t
MrcFluidNetwork::GetNHosts() const
{
    return m_hostsPerT0 * m_nT0;
}

uint32_t
MrcFluidNetwork::GetNPlanes() const
{
    return m_planes;
}

uint32_t
MrcFluidNetwork::GetNT0() const
{
    return m_nT0;
}

uint32_t
MrcFluidNetwork::GetNT1() const
{
    return m_nT1;
}

uint32_t
MrcFluidNetwork::GetNT2() const
{
    return 0;
}

uint32_t
MrcFluidNetwork::GetHostsPerT0() const
{
    return m_hostsPerT0;
}

uint32_t
MrcFluidNetwork::GetNUplinks(uint32_t /* plane */, uint32_t /* t0 */) const
{
    return m_nT1;
}

uint32_t
MrcFluidNetwork::GetT0Of(uint32_t h) const
{
    return h / m_hostsPerT0;
}

bool
MrcFluidNetwork::IsBaseline() const
{
    return m_baseline;
}

double
MrcFluidNetwork::GetLinkCapacity() const
{
    return m_capacity;
}

uint32_t
MrcFluidNetwork::HostCable(uint32_t plane, uint32_t h) const
{
    return plane * m_cablesPerPlane + h;
}

uint32_t
MrcFluidNetwork::UpCable(uint32_t plane, uint32_t t0, uint32_t t1) const
{
    return plane * m_cablesPerPlane + GetNHosts() + t0 * m_nT1 + t1;
}

Ptr<MrcChannel>
MrcFluidNetwork::GetHostLink(uint32_t h, uint32_t plane) const
{
    return m_cables[HostCable(plane, h)];
}

Ptr<MrcChannel>
MrcFluidNetwork::GetUplink(uint32_t plane, uint32_t i, uint32_t j) const
{
    return m_cables[UpCable(plane, i, j)];
}

Ptr<MrcChannel>
MrcFluidNetwork::GetSpineLink(uint32_t /* plane */, uint32_t /* t1 */, uint32_t /* k */) const
{
    return nullptr; // two tiers
}

std::vector<Ptr<MrcChannel>>
MrcFluidNetwork::GetSwitchLinks(uint32_t plane, uint32_t tier, uint32_t i) const
{
    std::vector<Ptr<MrcChannel>> links;
    if (tier == 0)
    {
        for (uint32_t k = 0; k < m_hostsPerT0; ++k)
        {
            links.push_back(m_cables[HostCable(plane, i * m_hostsPerT0 + k)]);
        }
        for (uint32_t j = 0; j < m_nT1; ++j)
        {
            links.push_back(m_cables[UpCable(plane, i, j)]);
        }
    }
    else if (tier == 1)
    {
        for (uint32_t t0 = 0; t0 < m_nT0; ++t0)
        {
            links.push_back(m_cables[UpCable(plane, t0, i)]);
        }
    }
    return links;
}

Ptr<MrcSwitchNetDevice>
MrcFluidNetwork::GetSwitchDevice(uint32_t /* plane */, uint32_t /* tier */, uint32_t /* i */) const
{
    return nullptr;
}

Time
MrcFluidNetwork::GetOneWayLatency(uint32_t src, uint32_t dst) const
{
    const int64_t links = GetT0Of(src) == GetT0Of(dst) ? 2 : 4;
    const Time frame = m_linkRate.CalculateBytesTxTime(m_payload + MrcIpv6Fields::HEADER_BYTES
                                                       + MrcHeader::SIZE);
    // After the last byte has left the sender (the bytes term): every link's delay, and at
    // each switch a store-and-forward of the last frame and the forwarding latency.
    return links * m_linkDelay + (links - 1) * (frame + m_switchLatency);
}

void
MrcFluidNetwork::NotifyLinkState(uint32_t id, bool up)
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const uint32_t inPlane = id % m_cablesPerPlane;
    if (inPlane >= GetNHosts())
    {
        // A T0-T1 cable: remember it on its T0's list (pruned once back in service).
        const uint32_t k = inPlane - GetNHosts();
        auto& list = m_abnormal[uint64_t(id / m_cablesPerPlane) * m_nT0 + k / m_nT1];
        const auto t1 = static_cast<uint16_t>(k % m_nT1);
        if (std::find(list.begin(), list.end(), t1) == list.end())
        {
            list.push_back(t1);
        }
    }
    if (up)
    {
        m_wasRetired[id] = (m_downAt[id] >= 0 && now - m_downAt[id] >= m_bypass.GetNanoSeconds());
        m_upAt[id] = now;
        m_downAt[id] = -1;
        if (!m_baseline && m_wasRetired[id])
        {
            Simulator::Schedule(m_probeTime, &MrcFluidNetwork::Touch, this);
        }
    }
    else
    {
        m_downAt[id] = now;
        if (m_baseline)
        {
            Simulator::Schedule(m_detection, &MrcFluidNetwork::Touch, this);
            Simulator::Schedule(m_detection + m_reconvergence, &MrcFluidNetwork::Touch, this);
        }
        else
        {
            Simulator::Schedule(m_bypass, &MrcFluidNetwork::Touch, this);
        }
    }
    Touch();
}

uint8_t
MrcFluidNetwork::CableState(uint32_t cable) const
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    if (m_downAt[cable] >= 0)
    {
        return now - m_downAt[cable] < m_bypass.GetNanoSeconds() ? LOSSY : RETIRED;
    }
    if (m_wasRetired[cable] && now - m_upAt[cable] < m_probeTime.GetNanoSeconds())
    {
        return RETIRED;
    }
    return IN_SERVICE;
}

uint32_t
MrcFluidNetwork::ConnOf(uint32_t src, uint32_t dst)
{
    const uint64_t key = (uint64_t(src) << 32) | dst;
    auto it = m_connOf.find(key);
    if (it != m_connOf.end())
    {
        return it->second;
    }
    Conn c;
    c.src = src;
    c.dst = dst;
    c.t1 = static_cast<uint32_t>(Mix(key) % m_nT1);
    m_conns.push_back(std::move(c));
    m_connOf.emplace(key, static_cast<uint32_t>(m_conns.size() - 1));
    return static_cast<uint32_t>(m_conns.size() - 1);
}

uint32_t
MrcFluidNetwork::AddGroup(const std::vector<Edge>& edges,
                          double bytesPerEdge,
                          Time latency,
                          DoneCallback done,
                          double roundBytes,
                          Time roundLatency)
{
    NS_ABORT_MSG_IF(!m_built, "MrcFluidNetwork: Build() first");
    NS_ABORT_MSG_IF(edges.empty() || !(bytesPerEdge > 0), "MrcFluidNetwork: empty group");
    Group g;
    g.conns.reserve(edges.size());
    for (const auto& e : edges)
    {
        NS_ABORT_MSG_IF(e.src >= GetNHosts() || e.dst >= GetNHosts() || e.src == e.dst,
                        "MrcFluidNetwork: bad edge " << e.src << " -> " << e.dst);
        g.conns.push_back(ConnOf(e.src, e.dst));
    }
    g.remaining = bytesPerEdge;
    g.bytes = bytesPerEdge;
    g.rate = 0;
    g.good = 1;
    g.latency = latency;
    g.roundBytes = roundBytes;
    g.roundLatency = roundLatency.GetSeconds();
    g.notBefore = Time(0);
    g.holdUntil = Time(0);
    g.blocked = false;
    g.stallStart = Time(0);
    g.stallRate = 0;
    g.stallRemaining = 0;
    g.active = true;
    g.done = done;
    // A new group has no rate until the next Update (this instant): the others' progress up
    // to now is counted then, at their old rates.
    m_groups.push_back(std::move(g));
    m_active.push_back(static_cast<uint32_t>(m_groups.size() - 1));
    Touch();
    return static_cast<uint32_t>(m_groups.size() - 1);
}

double
MrcFluidNetwork::Progress(const Group& g)
{
    const double r = g.rate * g.good;
    if (g.roundBytes <= 0 || r <= 0)
    {
        return r;
    }
    // Rounds of roundBytes, each followed by roundLatency: S / (S / r + L) on average.
    return r * g.roundBytes / (g.roundBytes + r * g.roundLatency);
}

void
MrcFluidNetwork::EnableTierAccounting()
{
    m_tierRate.assign(4 * uint64_t(m_planes), 0.0);
    m_tierBytes.assign(4 * uint64_t(m_planes), 0.0);
}

std::vector<double>
MrcFluidNetwork::GetTierBytes() const
{
    std::vector<double> out = m_tierBytes;
    const double dt = (Simulator::Now() - m_last).GetSeconds();
    for (std::size_t t = 0; t < out.size(); ++t)
    {
        out[t] += m_tierRate[t] * dt;
    }
    return out;
}

uint32_t
MrcFluidNetwork::GetTierLinks(uint32_t tier) const
{
    return tier < 2 ? GetNHosts() : m_nT0 * m_nT1;
}

double
MrcFluidNetwork::GetRate(uint32_t group) const
{
    return m_groups.at(group).active ? m_groups[group].rate : 0;
}

uint32_t
MrcFluidNetwork::GetNActiveGroups() const
{
    return static_cast<uint32_t>(m_active.size());
}

uint64_t
MrcFluidNetwork::GetRecomputations() const
{
    return m_recomputations;
}

void
MrcFluidNetwork::Touch()
{
    if (!m_touched)
    {
        m_touched = true;
        Simulator::ScheduleNow(&MrcFluidNetwork::Update, this);
    }
}

void
MrcFluidNetwork::Accumulate(uint32_t link, double share, double capacity)
{
    int32_t col = m_colOf[link];
    if (col < 0)
    {
        col = static_cast<int32_t>(m_colLink.size());
        m_colOf[link] = col;
        m_colLink.push_back(link);
        m_colCap.push_back(capacity);
        m_acc.push_back(0);
    }
    if (m_acc[col] == 0)
    {
        m_touchedCols.push_back(col);
    }
    m_acc[col] += share;
}

void
MrcFluidNetwork::Uplinks(uint32_t plane, uint32_t t0, uint32_t& retired, uint32_t& lossy)
{
    retired = 0;
    lossy = 0;
    auto& list = m_abnormal[uint64_t(plane) * m_nT0 + t0];
    for (std::size_t i = 0; i < list.size();)
    {
        const uint8_t st = CableState(UpCable(plane, t0, list[i]));
        if (st == IN_SERVICE && m_downAt[UpCable(plane, t0, list[i])] < 0)
        {
            list[i] = list.back(); // back in service: forget it
            list.pop_back();
            continue;
        }
        retired += st == RETIRED ? 1 : 0;
        lossy += st == LOSSY ? 1 : 0;
        ++i;
    }
}

void
MrcFluidNetwork::Reroute(Conn& c)
{
    const uint32_t a = GetT0Of(c.src);
    const uint32_t b = GetT0Of(c.dst);
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const uint32_t ua = UpCable(0, a, c.t1);
    const uint32_t ub = UpCable(0, b, c.t1);
    const bool moveSrc = m_downAt[ua] >= 0 && now - m_downAt[ua] >= m_detection.GetNanoSeconds();
    const bool moveDst = m_downAt[ub] >= 0
                      && now - m_downAt[ub] >= (m_detection + m_reconvergence).GetNanoSeconds();
    if (!moveSrc && !moveDst)
    {
        return;
    }
    // Resilient hashing: only this flow moves, to the next T1 both ends can still use.
    for (uint32_t k = 1; k < m_nT1; ++k)
    {
        const uint32_t t1 = (c.t1 + k) % m_nT1;
        if (m_downAt[UpCable(0, a, t1)] < 0 && m_downAt[UpCable(0, b, t1)] < 0)
        {
            c.t1 = t1;
            return;
        }
    }
}

bool
MrcFluidNetwork::AddEdgeShares(Conn& c, Group& g, double& lostShare)
{
    lostShare = 0;
    const uint32_t a = GetT0Of(c.src);
    const uint32_t b = GetT0Of(c.dst);
    if (m_baseline)
    {
        if (a != b)
        {
            Reroute(c);
        }
        const uint32_t plane = 0;
        const uint32_t cables[4] = {HostCable(plane, c.src),
                                    a != b ? UpCable(plane, a, c.t1) : 0,
                                    a != b ? UpCable(plane, b, c.t1) : 0,
                                    HostCable(plane, c.dst)};
        for (uint32_t i = 0; i < 4; ++i)
        {
            if ((i == 0 || i == 3 || a != b) && m_downAt[cables[i]] >= 0)
            {
                return false;
            }
        }
        Accumulate(2 * cables[0], 1.0, m_capacity);
        if (a != b)
        {
            Accumulate(2 * cables[1], 1.0, m_capacity);
            Accumulate(2 * cables[2] + 1, 1.0, m_capacity);
        }
        Accumulate(2 * cables[3] + 1, 1.0, m_capacity);
        return true;
    }
    // mrc: weights of the EVs in service (lossy ones still carry traffic, which is lost).
    auto lossy = [this, &g](uint32_t cable)
    {
        const Time until = NanoSeconds(m_downAt[cable]) + m_bypass;
        if (until > g.notBefore)
        {
            g.notBefore = until;
        }
    };
    if (a == b)
    {
        // Under one T0: one path per plane, carrying that plane's EVs.
        double total = 0;
        uint8_t st[64];
        for (uint32_t p = 0; p < m_planes; ++p)
        {
            st[p] = std::max(CableState(HostCable(p, c.src)), CableState(HostCable(p, c.dst)));
            total += st[p] == RETIRED ? 0 : 1;
        }
        if (total == 0)
        {
            return false;
        }
        for (uint32_t p = 0; p < m_planes; ++p)
        {
            if (st[p] == RETIRED)
            {
                continue;
            }
            const double share = 1.0 / total;
            const uint32_t hs = HostCable(p, c.src);
            const uint32_t hd = HostCable(p, c.dst);
            if (st[p] == LOSSY)
            {
                lostShare += share;
                for (uint32_t cable : {hs, hd})
                {
                    if (m_downAt[cable] >= 0)
                    {
                        lossy(cable);
                    }
                }
            }
            if (m_downAt[hs] < 0)
            {
                Accumulate(2 * hs, share, m_capacity);
            }
            if (m_downAt[hs] < 0 && m_downAt[hd] < 0)
            {
                Accumulate(2 * hd + 1, share, m_capacity);
            }
        }
        return true;
    }
    // Across T0s: adaptive spray keeps a plane's traffic even over the T1s in service (ECN
    // moves EVs off hot paths), so a T0's uplinks of a plane act as one pooled constraint of
    // (uplinks not retired) x C, and likewise the T1s' downlinks into a T0. Only T0s with a
    // cable out of service need a look at their cables.
    const uint64_t bundles = 2 * uint64_t(m_planes) * m_cablesPerPlane;
    double weights[64];
    double lostIn[64];
    double lostUp[64];
    double capUp[64];
    double capDown[64];
    uint32_t planes = 0;
    for (uint32_t p = 0; p < m_planes; ++p)
    {
        weights[p] = 0;
        const uint32_t hs = HostCable(p, c.src);
        const uint32_t hd = HostCable(p, c.dst);
        const uint8_t ends = std::max(CableState(hs), CableState(hd));
        if (ends == RETIRED)
        {
            continue;
        }
        uint32_t retA = 0;
        uint32_t lossA = 0;
        uint32_t retB = 0;
        uint32_t lossB = 0;
        Uplinks(p, a, retA, lossA);
        Uplinks(p, b, retB, lossB);
        // T1s both ends can use (a T1 down on both sides counts twice: close enough).
        const uint32_t bad = std::min(m_nT1, retA + retB);
        if (bad >= m_nT1)
        {
            continue;
        }
        const double paths = m_nT1 - bad;
        weights[p] = 1;
        ++planes;
        lostUp[p] = ends == LOSSY && m_downAt[hs] >= 0 ? 1.0 : std::min(1.0, lossA / paths);
        lostIn[p] = ends == LOSSY ? 1.0 : std::min(1.0, (lossA + lossB) / paths);
        capUp[p] = double(m_nT1 - retA) * m_capacity;
        capDown[p] = double(m_nT1 - retB) * m_capacity;
        if (ends == LOSSY)
        {
            for (uint32_t cable : {hs, hd})
            {
                if (m_downAt[cable] >= 0)
                {
                    lossy(cable);
                }
            }
        }
        if (lossA + lossB > 0)
        {
            for (uint32_t t0 : {a, b})
            {
                for (uint16_t t1 : m_abnormal[uint64_t(p) * m_nT0 + t0])
                {
                    const uint32_t cable = UpCable(p, t0, t1);
                    if (m_downAt[cable] >= 0 && CableState(cable) == LOSSY)
                    {
                        lossy(cable);
                    }
                }
            }
        }
    }
    if (planes == 0)
    {
        return false;
    }
    const double share = 1.0 / planes;
    for (uint32_t p = 0; p < m_planes; ++p)
    {
        if (weights[p] == 0)
        {
            continue;
        }
        const uint32_t hs = HostCable(p, c.src);
        const uint32_t hd = HostCable(p, c.dst);
        if (m_downAt[hs] >= 0)
        {
            lostShare += share;
            continue; // lost at the NIC port
        }
        Accumulate(2 * hs, share, m_capacity);
        const uint64_t up = bundles + 2 * (uint64_t(p) * m_nT0 + a);
        const uint64_t down = bundles + 2 * (uint64_t(p) * m_nT0 + b) + 1;
        Accumulate(static_cast<uint32_t>(up), share, capUp[p]);
        Accumulate(static_cast<uint32_t>(down), share * (1 - lostUp[p]), capDown[p]);
        if (m_downAt[hd] < 0)
        {
            Accumulate(2 * hd + 1, share * (1 - lostIn[p]), m_capacity);
        }
        lostShare += share * lostIn[p];
    }
    return true;
}

void
MrcFluidNetwork::Update()
{
    m_touched = false;
    const Time now = Simulator::Now();
    const double dt = (now - m_last).GetSeconds();
    m_last = now;
    for (std::size_t t = 0; t < m_tierRate.size(); ++t)
    {
        m_tierBytes[t] += m_tierRate[t] * dt;
    }
    for (uint32_t id : m_active)
    {
        Group& g = m_groups[id];
        if (dt > 0 && g.rate > 0)
        {
            g.remaining = std::max(0.0, g.remaining - Progress(g) * dt);
        }
    }
    // Groups whose bytes are through end now (after their latency).
    std::vector<uint32_t> finished;
    for (uint32_t id : m_active)
    {
        const Group& g = m_groups[id];
        const double eps = std::max(1e-9 * g.bytes, 1e-6);
        if (g.remaining <= eps && now >= g.notBefore && !g.blocked && now >= g.holdUntil)
        {
            finished.push_back(id);
        }
    }
    for (uint32_t id : finished)
    {
        Finish(id, true);
    }

    // Incidence rows of the groups that can send.
    m_outer.assign(1, 0);
    m_inner.clear();
    m_values.clear();
    m_rowGroup.clear();
    std::vector<uint32_t> failed;
    for (uint32_t id : m_active)
    {
        Group& g = m_groups[id];
        const double before = Progress(g); // what it would have sent into an outage
        g.rate = 0;
        if (now < g.holdUntil)
        {
            continue; // baseline: waiting for its retransmission timeout
        }
        const bool wasBlocked = g.blocked;
        g.blocked = false;
        double lost = 0;
        for (uint32_t c : g.conns)
        {
            double edgeLost = 0;
            if (!AddEdgeShares(m_conns[c], g, edgeLost))
            {
                g.blocked = true;
                break;
            }
            lost = std::max(lost, edgeLost);
        }
        if (g.blocked)
        {
            for (int32_t col : m_touchedCols)
            {
                m_acc[col] = 0;
            }
            m_touchedCols.clear();
            if (!wasBlocked)
            {
                g.stallStart = now;
                g.stallRate = before;
                g.stallRemaining = g.remaining;
                if (m_baseline)
                {
                    Simulator::Schedule((m_retryLimit + 1) * m_ackTimeout + NanoSeconds(1),
                                        &MrcFluidNetwork::CheckStall,
                                        this,
                                        id,
                                        now);
                }
            }
            continue;
        }
        if (wasBlocked && m_baseline)
        {
            // The path works again. A flow that had sent everything it had into the outage
            // has no later packet to draw a NAK: it waits for its timeout.
            const Time stalled = now - g.stallStart;
            if (g.stallRate * stalled.GetSeconds() >= g.stallRemaining && g.stallRemaining > 0)
            {
                const int64_t rto = m_ackTimeout.GetNanoSeconds();
                const int64_t k = std::max<int64_t>(1, (stalled.GetNanoSeconds() + rto - 1) / rto);
                if (k > int64_t(m_retryLimit) + 1)
                {
                    failed.push_back(id);
                }
                else
                {
                    g.holdUntil = g.stallStart + NanoSeconds(k * rto);
                    if (g.holdUntil > now)
                    {
                        Simulator::Schedule(g.holdUntil - now, &MrcFluidNetwork::Touch, this);
                    }
                }
                for (int32_t col : m_touchedCols)
                {
                    m_acc[col] = 0;
                }
                m_touchedCols.clear();
                if (g.holdUntil > now || k > int64_t(m_retryLimit) + 1)
                {
                    continue;
                }
                // The timeout fired right now: rebuild the row below.
                for (uint32_t c : g.conns)
                {
                    double edgeLost = 0;
                    AddEdgeShares(m_conns[c], g, edgeLost);
                }
            }
        }
        g.good = 1.0 - lost;
        std::sort(m_touchedCols.begin(), m_touchedCols.end());
        for (int32_t col : m_touchedCols)
        {
            m_inner.push_back(col);
            m_values.push_back(m_acc[col]);
            m_acc[col] = 0;
        }
        m_touchedCols.clear();
        if (m_inner.size() == size_t(m_outer.back()))
        {
            g.blocked = true; // no link at all: cannot happen with a host port, but be safe
            continue;
        }
        m_outer.push_back(static_cast<int32_t>(m_inner.size()));
        m_rowGroup.push_back(id);
    }
    for (uint32_t id : failed)
    {
        Finish(id, false);
    }
    Solve();
    ++m_recomputations;

    // The next end of a group.
    Time next = Time::Max();
    for (uint32_t id : m_active)
    {
        const Group& g = m_groups[id];
        if (g.blocked || now < g.holdUntil)
        {
            continue;
        }
        const double eps = std::max(1e-9 * g.bytes, 1e-6);
        Time end = Time::Max();
        if (g.remaining <= eps)
        {
            end = std::max(now, g.notBefore);
        }
        else if (Progress(g) > 0)
        {
            const double ns = std::ceil(g.remaining / Progress(g) * 1e9);
            end = std::max(now + NanoSeconds(static_cast<int64_t>(std::max(1.0, ns))), g.notBefore);
        }
        next = std::min(next, end);
    }
    m_next.Cancel();
    if (next != Time::Max())
    {
        m_next = Simulator::Schedule(next - now, &MrcFluidNetwork::Update, this);
    }
}

void
MrcFluidNetwork::Solve()
{
    const auto rows = static_cast<Eigen::Index>(m_rowGroup.size());
    const auto cols = static_cast<Eigen::Index>(m_colLink.size());
    if (rows == 0)
    {
        std::fill(m_tierRate.begin(), m_tierRate.end(), 0.0);
        ResetColumns();
        return;
    }
    using SpMat = Eigen::SparseMatrix<double, Eigen::RowMajor, int32_t>;
    Eigen::Map<const SpMat> a(rows,
                              cols,
                              static_cast<Eigen::Index>(m_inner.size()),
                              m_outer.data(),
                              m_inner.data(),
                              m_values.data());
    // Progressive filling: raise every unfrozen group's rate until a link saturates, freeze
    // the groups crossing saturated links, repeat.
    Eigen::VectorXd unfrozen = Eigen::VectorXd::Ones(rows);
    Eigen::VectorXd rate = Eigen::VectorXd::Zero(rows);
    Eigen::VectorXd capLeft = Eigen::Map<const Eigen::VectorXd>(m_colCap.data(), cols);
    Eigen::VectorXd load(cols);
    Eigen::VectorXd saturated(cols);
    Eigen::VectorXd hit(rows);
    const double tiny = 1e-12;
    Eigen::Index left = rows;
    while (left > 0)
    {
        load.noalias() = a.transpose() * unfrozen;
        double delta = std::numeric_limits<double>::infinity();
        for (Eigen::Index c = 0; c < cols; ++c)
        {
            if (load[c] > tiny)
            {
                delta = std::min(delta, capLeft[c] / load[c]);
            }
        }
        if (!std::isfinite(delta))
        {
            break;
        }
        delta = std::max(delta, 0.0);
        rate += delta * unfrozen;
        capLeft -= delta * load;
        for (Eigen::Index c = 0; c < cols; ++c)
        {
            saturated[c] = (load[c] > tiny && capLeft[c] <= 1e-9 * m_colCap[c]) ? 1.0 : 0.0;
        }
        hit.noalias() = a * saturated;
        for (Eigen::Index r = 0; r < rows; ++r)
        {
            if (unfrozen[r] > 0 && hit[r] > 0)
            {
                unfrozen[r] = 0;
                --left;
            }
        }
    }
    for (Eigen::Index r = 0; r < rows; ++r)
    {
        m_groups[m_rowGroup[r]].rate = rate[r];
    }
    if (!m_tierRate.empty())
    {
        // Wire bytes per second on each (plane, tier): what the groups send (lost traffic
        // included, round latencies excluded), through every column they load.
        std::fill(m_tierRate.begin(), m_tierRate.end(), 0.0);
        const double wire
            = double(m_payload + MrcIpv6Fields::HEADER_BYTES + MrcHeader::SIZE) / m_payload;
        const uint64_t links = 2 * uint64_t(m_planes) * m_cablesPerPlane;
        for (Eigen::Index r = 0; r < rows; ++r)
        {
            const Group& g = m_groups[m_rowGroup[r]];
            const double sent = g.good > 0 ? Progress(g) / g.good : g.rate;
            for (int32_t k = m_outer[r]; k < m_outer[r + 1]; ++k)
            {
                const uint64_t key = m_colLink[m_inner[k]];
                uint32_t plane = 0;
                uint32_t tier = 0;
                if (key < links)
                {
                    const uint64_t cable = key / 2;
                    plane = static_cast<uint32_t>(cable / m_cablesPerPlane);
                    tier = (cable % m_cablesPerPlane < GetNHosts() ? 0 : 2) + (key % 2);
                }
                else
                {
                    const uint64_t b = key - links;
                    plane = static_cast<uint32_t>(b / 2 / m_nT0);
                    tier = 2 + static_cast<uint32_t>(b % 2);
                }
                m_tierRate[plane * 4 + tier] += sent * m_values[k] * wire;
            }
        }
    }
    ResetColumns();
}

void
MrcFluidNetwork::ResetColumns()
{
    for (uint32_t link : m_colLink)
    {
        m_colOf[link] = -1;
    }
    m_colLink.clear();
    m_colCap.clear();
    m_acc.clear();
}

void
MrcFluidNetwork::Finish(uint32_t id, bool ok)
{
    Group& g = m_groups[id];
    if (!g.active)
    {
        return;
    }
    g.active = false;
    g.rate = 0;
    g.conns.clear();
    g.conns.shrink_to_fit();
    m_active.erase(std::find(m_active.begin(), m_active.end(), id));
    DoneCallback done = g.done;
    g.done = DoneCallback();
    Simulator::Schedule(ok ? g.latency : Time(0),
                        [done, id, ok]()
                        {
                            done(id, ok);
                        });
}

void
MrcFluidNetwork::CheckStall(uint32_t id, Time since)
{
    Group& g = m_groups[id];
    if (g.active && g.blocked && g.stallStart == since)
    {
        Finish(id, false);
        Touch();
    }
}

} // namespace ns3
