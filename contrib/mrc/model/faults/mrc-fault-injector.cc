/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-fault-injector.h"

#include "ns3/mrc-channel.h"
#include "ns3/mrc-choice-checker.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-number-parser.h"
#include "ns3/mrc-switch-net-device.h"
#include "ns3/mrc-text.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cstdlib>
#include <memory>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFaultInjector");
NS_OBJECT_ENSURE_REGISTERED(MrcFaultInjector);

namespace
{

/**
 * @param tier an upward tier
 * @return its index among the injector's tiers of cables (host-t0, t0-t1, t1-t2)
 */
uint32_t
TierIndex(MrcLinkTier tier)
{
    return tier == MrcLinkTier::HOST_T0 ? 0 : (tier == MrcLinkTier::T0_T1 ? 1 : 2);
}

/** DownTimeDistribution: exponential with the mean (the default). */
const char* const DOWN_EXPONENTIAL = "exponential";
/** DownTimeDistribution: always the mean. */
const char* const DOWN_CONSTANT = "constant";

} // namespace

TypeId
MrcFaultInjector::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcFaultInjector")
              .SetParent<Object>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcFaultInjector>()
              .AddAttribute("DownTimeDistribution",
                            std::string("Down time of stochastic flaps: ") + DOWN_EXPONENTIAL
                                + " or " + DOWN_CONSTANT + " (the mean)",
                            StringValue(DOWN_EXPONENTIAL),
                            MakeStringAccessor(&MrcFaultInjector::m_downDist),
                            MakeMrcChoiceChecker({DOWN_EXPONENTIAL, DOWN_CONSTANT}))
              .AddAttribute("Periodic",
                            "Stochastic flaps are periodic (random phase) instead of Poisson",
                            BooleanValue(false),
                            MakeBooleanAccessor(&MrcFaultInjector::m_periodic),
                            MakeBooleanChecker())
              .AddTraceSource("Fault",
                              "A fault event (time, kind, target, state)",
                              MakeTraceSourceAccessor(&MrcFaultInjector::m_faultTrace),
                              "ns3::MrcFaultInjector::FaultTracedCallback");
    return tid;
}

MrcFaultInjector::MrcFaultInjector()
    : m_fabric(nullptr)
    , m_downDist(DOWN_EXPONENTIAL)
    , m_periodic(false)
{
    m_exp = CreateObject<ExponentialRandomVariable>();
    m_uniform = CreateObject<UniformRandomVariable>();
}

MrcFaultInjector::~MrcFaultInjector() = default;

void
MrcFaultInjector::DoDispose()
{
    m_fabric = nullptr;
    m_owner = nullptr;
    m_exp = nullptr;
    m_uniform = nullptr;
    m_tiers.clear();
    Object::DoDispose();
}

void
MrcFaultInjector::SetTargets(Ptr<Object> owner, const MrcFaultTargets* fabric)
{
    m_owner = owner;
    m_fabric = fabric;
    // Tiers of links, with names, for stochastic processes.
    m_tiers.assign(3, {});
    auto add = [this](uint32_t tier, Ptr<MrcChannel> link, const MrcFaultTargetId& id)
    {
        m_tiers[tier].first.push_back(link);
        m_tiers[tier].second.push_back(id.GetName());
    };
    for (uint32_t h = 0; h < fabric->GetNHosts(); ++h)
    {
        for (uint32_t p = 0; p < fabric->GetNPlanes(); ++p)
        {
            add(0, fabric->GetHostLink(h, p), MrcFaultTargetId::NicPort(h, p));
        }
    }
    for (uint32_t p = 0; p < fabric->GetNPlanes(); ++p)
    {
        for (uint32_t i = 0; i < fabric->GetNT0(); ++i)
        {
            for (uint32_t j = 0; j < fabric->GetNUplinks(p, i); ++j)
            {
                add(1,
                    fabric->GetUplink(p, i, j),
                    MrcFaultTargetId::Link(p, MrcLinkTier::T0_T1, i, j));
            }
        }
        for (uint32_t t1 = 0; t1 < fabric->GetNT1(); ++t1)
        {
            for (uint32_t k = 0; k < fabric->GetNT2(); ++k)
            {
                add(2,
                    fabric->GetSpineLink(p, t1, k),
                    MrcFaultTargetId::Link(p, MrcLinkTier::T1_T2, t1, k));
            }
        }
    }
}

bool
MrcFaultInjector::Resolve(const std::string& name, Target& t, std::string& error) const
{
    MrcFaultTargetId id;
    return MrcFaultTargetId::Parse(name, id, error) && Resolve(id, t, error);
}

bool
MrcFaultInjector::Resolve(const MrcFaultTargetId& id, Target& t, std::string& error) const
{
    NS_ABORT_MSG_IF(m_fabric == nullptr, "MrcFaultInjector: SetTargets() first");
    t = Target();
    t.kind = id.GetKind();
    auto bad = [&error, &id](const std::string& why)
    {
        error = "unknown target '" + id.GetName() + "': " + why
              + " (accepted: " + MrcFaultTargetId::GetForms() + ")";
        return false;
    };
    // The NIC ports of host h (every plane, or one), where the fabric has devices.
    auto addPorts = [this, &t](uint32_t h, uint32_t from, uint32_t to)
    {
        for (uint32_t p = from; p < to; ++p)
        {
            t.links.push_back(m_fabric->GetHostLink(h, p));
            Ptr<MrcNetDevice> d = m_fabric->GetHostPort(h, p);
            if (d)
            {
                t.ports.push_back(d);
            }
        }
    };
    const uint32_t plane = id.GetPlane();
    const uint32_t b = id.GetIndex();
    const uint32_t c = id.GetPeer();
    switch (id.GetKind())
    {
        case MrcFaultTargetId::Kind::NIC_PORT:
            if (id.GetHost() >= m_fabric->GetNHosts() || plane >= m_fabric->GetNPlanes())
            {
                return bad("no such host or plane");
            }
            addPorts(id.GetHost(), plane, plane + 1);
            return true;
        case MrcFaultTargetId::Kind::NIC:
            if (id.GetHost() >= m_fabric->GetNHosts())
            {
                return bad("no such host");
            }
            addPorts(id.GetHost(), 0, m_fabric->GetNPlanes());
            return true;
        case MrcFaultTargetId::Kind::NICS:
            for (uint32_t h = 0; h < m_fabric->GetNHosts(); ++h)
            {
                addPorts(h, 0, m_fabric->GetNPlanes());
            }
            return true;
        case MrcFaultTargetId::Kind::LINK:
            if (plane >= m_fabric->GetNPlanes())
            {
                return bad("no such plane");
            }
            if (id.GetLinkTier() == MrcLinkTier::T0_T1)
            {
                if (b >= m_fabric->GetNT0())
                {
                    return bad("no such T0");
                }
                if (c >= m_fabric->GetNUplinks(plane, b))
                {
                    return bad("no such T1 in the T0's pod");
                }
                t.links = {m_fabric->GetUplink(plane, b, c)};
                return true;
            }
            if (b >= m_fabric->GetNT1() || c >= m_fabric->GetNT2())
            {
                return bad("no such T1 or T2");
            }
            t.links = {m_fabric->GetSpineLink(plane, b, c)};
            return true;
        case MrcFaultTargetId::Kind::SWITCH:
        {
            if (plane >= m_fabric->GetNPlanes())
            {
                return bad("no such plane");
            }
            const uint32_t tier = id.GetSwitchTier();
            const uint32_t n = tier == 0 ? m_fabric->GetNT0()
                             : tier == 1 ? m_fabric->GetNT1()
                                         : m_fabric->GetNT2();
            if (b >= n)
            {
                return bad("no such switch");
            }
            t.sw = m_fabric->GetSwitchDevice(plane, tier, b);
            t.links = m_fabric->GetSwitchLinks(plane, tier, b);
            return true;
        }
    }
    return bad("malformed");
}

bool
MrcFaultInjector::Check(MrcFaultAction action,
                        const MrcFaultTargetId& target,
                        double rate,
                        std::string& error) const
{
    Target t;
    return Check(action, target, rate, t, error);
}

bool
MrcFaultInjector::Check(MrcFaultAction action,
                        const MrcFaultTargetId& target,
                        double rate,
                        Target& t,
                        std::string& error) const
{
    if (!Resolve(target, t, error))
    {
        return false;
    }
    const std::string a = "action '" + MrcFaultActionNames().GetName(action) + "'";
    const std::string name = target.GetName();
    using K = MrcFaultTargetId::Kind;
    const bool isHost = t.kind == K::NIC_PORT || t.kind == K::NIC || t.kind == K::NICS;
    if (action == MrcFaultAction::NIC_RX_LOSS)
    {
        if (!isHost)
        {
            error = a + " needs a host<H>/plane<P>, host<H> or hosts target, not '" + name + "'";
            return false;
        }
        if (!(rate > 0 && rate <= 1))
        {
            error = a + " needs a rate in (0, 1] (got " + MrcNumberParser::Show(rate) + ")";
            return false;
        }
        if (t.ports.empty())
        {
            error = a
                  + " needs packet-level NIC ports; the flow-level model (--model=fluid) has "
                    "none";
            return false;
        }
        return true;
    }
    if (rate != 0)
    {
        error = a + " takes no rate (only nic_rx_loss does)";
        return false;
    }
    if (t.kind == K::NIC || t.kind == K::NICS)
    {
        error = a + " needs a link, NIC port or switch target, not '" + name
              + "' (host<H> and hosts are for nic_rx_loss)";
        return false;
    }
    switch (action)
    {
        case MrcFaultAction::LINK_DOWN:
        case MrcFaultAction::LINK_UP:
        case MrcFaultAction::LINK_FLAP:
            if (t.kind == K::SWITCH)
            {
                error = a + " needs a link or NIC port target, not '" + name + "'";
                return false;
            }
            return true;
        case MrcFaultAction::NIC_PORT_DOWN:
            if (t.kind != K::NIC_PORT)
            {
                error = a + " needs a host<H>/plane<P> target, not '" + name + "'";
                return false;
            }
            return true;
        case MrcFaultAction::SWITCH_REBOOT:
        case MrcFaultAction::BLACKHOLE:
            if (t.kind != K::SWITCH)
            {
                error = a + " needs a switch target (plane<P>/t1-<J> ...), not '" + name + "'";
                return false;
            }
            if (action == MrcFaultAction::BLACKHOLE && t.sw == nullptr)
            {
                error = a
                      + " needs a packet-level switch; the flow-level model (--model=fluid) has "
                        "none (accepted there: "
                      + MrcFaultActionNames().GetNamesWhere(
                          [](MrcFaultAction x)
                          {
                              return x != MrcFaultAction::BLACKHOLE
                                  && x != MrcFaultAction::NIC_RX_LOSS;
                          })
                      + ")";
                return false;
            }
            return true;
        case MrcFaultAction::NIC_RX_LOSS:
            break;
    }
    return true;
}

bool
MrcFaultInjector::Schedule(Time at,
                           const std::string& action,
                           const std::string& target,
                           Time duration,
                           std::string& error,
                           double rate)
{
    MrcFaultAction a = MrcFaultAction::LINK_DOWN;
    if (!MrcFaultActionNames().Parse(action, a))
    {
        error = "unknown action '" + action + "' (accepted: " + MrcFaultActionNames().GetNames()
              + ")";
        return false;
    }
    MrcFaultTargetId id;
    return MrcFaultTargetId::Parse(target, id, error) && Schedule(at, a, id, duration, error, rate);
}

bool
MrcFaultInjector::Schedule(Time at,
                           MrcFaultAction action,
                           const MrcFaultTargetId& target,
                           Time duration,
                           std::string& error,
                           double rate)
{
    Target t;
    if (!Check(action, target, rate, t, error))
    {
        return false;
    }
    using Kind = MrcFaultEvent::Kind;
    const std::string name = target.GetName();
    const bool timed = duration.IsStrictlyPositive();
    switch (action)
    {
        case MrcFaultAction::NIC_RX_LOSS:
        {
            // The end restores what each port had when it started (an overlapping loss on some
            // of the same ports keeps its rate).
            auto saved = std::make_shared<std::vector<double>>();
            Simulator::Schedule(at, &MrcFaultInjector::SetRxLoss, this, t.ports, rate, name, saved);
            if (timed)
            {
                Simulator::Schedule(
                    at + duration, &MrcFaultInjector::SetRxLoss, this, t.ports, -1.0, name, saved);
            }
            break;
        }
        case MrcFaultAction::LINK_DOWN:
        case MrcFaultAction::LINK_UP:
        case MrcFaultAction::LINK_FLAP:
        case MrcFaultAction::NIC_PORT_DOWN:
        {
            const Kind kind
                = t.kind == MrcFaultTargetId::Kind::NIC_PORT ? Kind::NIC_PORT : Kind::LINK;
            const bool up = action == MrcFaultAction::LINK_UP;
            if (!up)
            {
                Simulator::Schedule(
                    at, &MrcFaultInjector::SetLinks, this, t.links, false, kind, name);
            }
            const bool ends
                = action == MrcFaultAction::LINK_FLAP || action == MrcFaultAction::NIC_PORT_DOWN;
            if (up || (ends && timed))
            {
                Simulator::Schedule(up ? at : at + duration,
                                    &MrcFaultInjector::SetLinks,
                                    this,
                                    t.links,
                                    true,
                                    kind,
                                    name);
            }
            break;
        }
        case MrcFaultAction::SWITCH_REBOOT:
            Simulator::Schedule(
                at, &MrcFaultInjector::SetLinks, this, t.links, false, Kind::SWITCH_REBOOT, name);
            if (timed)
            {
                Simulator::Schedule(at + duration,
                                    &MrcFaultInjector::SetLinks,
                                    this,
                                    t.links,
                                    true,
                                    Kind::SWITCH_REBOOT,
                                    name);
            }
            break;
        case MrcFaultAction::BLACKHOLE:
            Simulator::Schedule(at, &MrcFaultInjector::SetBlackhole, this, t.sw, true, name);
            if (timed)
            {
                Simulator::Schedule(
                    at + duration, &MrcFaultInjector::SetBlackhole, this, t.sw, false, name);
            }
            break;
    }
    m_scheduled.push_back(ScheduledAction{at, action, target, duration, rate});
    return true;
}

void
MrcFaultInjector::SetRxLoss(std::vector<Ptr<MrcNetDevice>> ports,
                            double rate,
                            std::string target,
                            std::shared_ptr<std::vector<double>> saved)
{
    const bool start = rate >= 0;
    for (std::size_t i = 0; i < ports.size(); ++i)
    {
        if (start)
        {
            saved->push_back(ports[i]->GetRxLossRate());
            ports[i]->SetRxLossRate(rate);
        }
        else
        {
            ports[i]->SetRxLossRate((*saved)[i]);
        }
    }
    Record(MrcFaultEvent::Kind::NIC_RX_LOSS,
           target,
           start ? MrcFaultEvent::State::START : MrcFaultEvent::State::END);
}

void
MrcFaultInjector::SetLinks(std::vector<Ptr<MrcChannel>> links,
                           bool up,
                           MrcFaultEvent::Kind kind,
                           std::string target)
{
    using State = MrcFaultEvent::State;
    for (auto& l : links)
    {
        l->SetUp(up);
    }
    if (kind == MrcFaultEvent::Kind::SWITCH_REBOOT)
    {
        Record(kind, target, up ? State::END : State::START);
    }
    else
    {
        Record(kind, target, up ? State::UP : State::DOWN);
    }
}

void
MrcFaultInjector::SetBlackhole(Ptr<MrcSwitchNetDevice> sw, bool on, std::string target)
{
    sw->SetBlackhole(on);
    Record(MrcFaultEvent::Kind::BLACKHOLE,
           target,
           on ? MrcFaultEvent::State::START : MrcFaultEvent::State::END);
}

void
MrcFaultInjector::Record(MrcFaultEvent::Kind kind,
                         const std::string& target,
                         MrcFaultEvent::State state)
{
    MrcFaultEvent e{Simulator::Now(), kind, target, state};
    NS_LOG_INFO(e.time.As(Time::US) << " " << MrcFaultEvent::KindNames().GetName(kind) << " "
                                    << target << " " << MrcFaultEvent::StateNames().GetName(state));
    m_events.push_back(e);
    m_faultTrace(e);
}

Time
MrcFaultInjector::DrawDownTime(Time meanDown)
{
    if (m_downDist == DOWN_CONSTANT)
    {
        return meanDown;
    }
    return NanoSeconds(
        static_cast<int64_t>(m_exp->GetValue(double(meanDown.GetNanoSeconds()), 0) + 1));
}

bool
MrcFaultInjector::AddFlapProcess(MrcLinkTier tier,
                                 double rate,
                                 bool perLink,
                                 Time meanDown,
                                 Time start,
                                 Time stop,
                                 std::string& error)
{
    NS_ABORT_MSG_IF(m_fabric == nullptr, "MrcFaultInjector: SetTargets() first");
    if (!MrcIsUpwardTier(tier))
    {
        error = "flap tier must be one of " + MrcLinkTierNames().GetNamesWhere(MrcIsUpwardTier)
              + " (got '" + MrcLinkTierNames().GetName(tier) + "')";
        return false;
    }
    const uint32_t idx = TierIndex(tier);
    if (m_downDist != DOWN_EXPONENTIAL && m_downDist != DOWN_CONSTANT)
    {
        error = std::string("DownTimeDistribution must be ") + DOWN_EXPONENTIAL + " or "
              + DOWN_CONSTANT + " (got '" + m_downDist + "')";
        return false;
    }
    if (!(rate > 0) || rate > 1e9)
    {
        error
            = "flap rate must be positive, in flaps per second (got " + std::to_string(rate) + ")";
        return false;
    }
    if (m_tiers[idx].first.empty())
    {
        error = "the fabric has no " + MrcLinkTierNames().GetName(tier) + " links";
        return false;
    }
    if (perLink)
    {
        for (uint32_t l = 0; l < m_tiers[idx].first.size(); ++l)
        {
            const double first
                = m_periodic ? m_uniform->GetValue(0, 1 / rate) : m_exp->GetValue(1 / rate, 0);
            Simulator::Schedule(start + Seconds(first),
                                &MrcFaultInjector::NextFlap,
                                this,
                                m_tiers[idx].first[l],
                                m_tiers[idx].second[l],
                                rate,
                                meanDown,
                                stop);
        }
    }
    else
    {
        const double first
            = m_periodic ? m_uniform->GetValue(0, 1 / rate) : m_exp->GetValue(1 / rate, 0);
        Simulator::Schedule(start + Seconds(first),
                            &MrcFaultInjector::NextTierFlap,
                            this,
                            idx,
                            rate,
                            meanDown,
                            stop);
    }
    return true;
}

void
MrcFaultInjector::NextFlap(
    Ptr<MrcChannel> link, std::string name, double rate, Time meanDown, Time stop)
{
    if (Simulator::Now() > stop)
    {
        return;
    }
    const Time down = DrawDownTime(meanDown);
    if (link->IsUp())
    {
        SetLinks({link}, false, MrcFaultEvent::Kind::LINK, name);
        Simulator::Schedule(down,
                            &MrcFaultInjector::SetLinks,
                            this,
                            std::vector<Ptr<MrcChannel>>{link},
                            true,
                            MrcFaultEvent::Kind::LINK,
                            name);
    }
    const double gap = m_periodic ? 1 / rate : m_exp->GetValue(1 / rate, 0);
    Simulator::Schedule(
        Seconds(gap), &MrcFaultInjector::NextFlap, this, link, name, rate, meanDown, stop);
}

void
MrcFaultInjector::NextTierFlap(uint32_t tier, double rate, Time meanDown, Time stop)
{
    if (Simulator::Now() > stop)
    {
        return;
    }
    const auto& links = m_tiers[tier].first;
    const uint32_t l = m_uniform->GetInteger(0, links.size() - 1);
    if (links[l]->IsUp())
    {
        const Time down = DrawDownTime(meanDown);
        SetLinks({links[l]}, false, MrcFaultEvent::Kind::LINK, m_tiers[tier].second[l]);
        Simulator::Schedule(down,
                            &MrcFaultInjector::SetLinks,
                            this,
                            std::vector<Ptr<MrcChannel>>{links[l]},
                            true,
                            MrcFaultEvent::Kind::LINK,
                            m_tiers[tier].second[l]);
    }
    const double gap = m_periodic ? 1 / rate : m_exp->GetValue(1 / rate, 0);
    Simulator::Schedule(
        Seconds(gap), &MrcFaultInjector::NextTierFlap, this, tier, rate, meanDown, stop);
}

const std::vector<MrcFaultInjector::ScheduledAction>&
MrcFaultInjector::GetScheduled() const
{
    return m_scheduled;
}

const std::vector<MrcFaultEvent>&
MrcFaultInjector::GetEvents() const
{
    return m_events;
}

int64_t
MrcFaultInjector::AssignStreams(int64_t stream)
{
    m_exp->SetStream(stream);
    m_uniform->SetStream(stream + 1);
    return 2;
}

} // namespace ns3
