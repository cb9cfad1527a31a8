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

/** Accepted actions, for messages. */
const char* const ACTIONS
    = "link_down, link_up, link_flap, switch_reboot, blackhole, nic_port_down, nic_rx_loss";

/**
 * Parse "<prefix><number>".
 * @param s the text
 * @param prefix expected prefix
 * @param out the number
 * @return true on success
 */
bool
ParseIndexed(const std::string& s, const std::string& prefix, uint32_t& out)
{
    if (s.size() <= prefix.size() || s.compare(0, prefix.size(), prefix) != 0)
    {
        return false;
    }
    uint64_t v = 0;
    std::string why;
    if (!MrcNumberParser::ParseUnsigned(s.substr(prefix.size()), 0, 0xffffffffULL, v, why))
    {
        return false;
    }
    out = static_cast<uint32_t>(v);
    return true;
}

/**
 * @param tier an upward tier
 * @return its index among the injector's tiers of cables (host-t0, t0-t1, t1-t2)
 */
uint32_t
TierIndex(MrcLinkTier tier)
{
    return tier == MrcLinkTier::HOST_T0 ? 0 : (tier == MrcLinkTier::T0_T1 ? 1 : 2);
}

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
                            "Down time of stochastic flaps: exponential or constant (the mean)",
                            StringValue("exponential"),
                            MakeStringAccessor(&MrcFaultInjector::m_downDist),
                            MakeMrcChoiceChecker({"exponential", "constant"}))
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
    , m_downDist("exponential")
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
    for (uint32_t h = 0; h < fabric->GetNHosts(); ++h)
    {
        for (uint32_t p = 0; p < fabric->GetNPlanes(); ++p)
        {
            std::ostringstream n;
            n << "host" << h << "/plane" << p;
            m_tiers[0].first.push_back(fabric->GetHostLink(h, p));
            m_tiers[0].second.push_back(n.str());
        }
    }
    for (uint32_t p = 0; p < fabric->GetNPlanes(); ++p)
    {
        for (uint32_t i = 0; i < fabric->GetNT0(); ++i)
        {
            uint32_t j = 0;
            std::string err;
            while (true)
            {
                std::ostringstream n;
                n << "plane" << p << "/t0-" << i << "/t1-" << j;
                Target t;
                if (!Resolve(n.str(), t, err))
                {
                    break;
                }
                m_tiers[1].first.push_back(t.links[0]);
                m_tiers[1].second.push_back(n.str());
                ++j;
            }
        }
        for (uint32_t t1 = 0; t1 < fabric->GetNT1(); ++t1)
        {
            for (uint32_t k = 0; k < fabric->GetNT2(); ++k)
            {
                std::ostringstream n;
                n << "plane" << p << "/t1-" << t1 << "/t2-" << k;
                m_tiers[2].first.push_back(fabric->GetSpineLink(p, t1, k));
                m_tiers[2].second.push_back(n.str());
            }
        }
    }
}

bool
MrcFaultInjector::Resolve(const std::string& name, Target& t, std::string& error) const
{
    NS_ABORT_MSG_IF(m_fabric == nullptr, "MrcFaultInjector: SetTargets() first");
    const auto parts = MrcText::Split(name, '/');
    uint32_t a = 0;
    uint32_t b = 0;
    uint32_t c = 0;
    auto bad = [&error, &name](const std::string& why)
    {
        error = "unknown target '" + name + "': " + why
              + " (accepted: host<H>/plane<P>, plane<P>/t0-<I>/t1-<J>, plane<P>/t1-<J>/t2-<K>, "
                "plane<P>/t0-<I>, plane<P>/t1-<J>, plane<P>/t2-<K>; for nic_rx_loss also "
                "host<H>, hosts)";
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
    if (parts.size() == 2 && ParseIndexed(parts[0], "host", a)
        && ParseIndexed(parts[1], "plane", b))
    {
        if (a >= m_fabric->GetNHosts() || b >= m_fabric->GetNPlanes())
        {
            return bad("no such host or plane");
        }
        t.kind = "nic_port";
        addPorts(a, b, b + 1);
        return true;
    }
    if (parts.size() == 1 && ParseIndexed(parts[0], "host", a))
    {
        if (a >= m_fabric->GetNHosts())
        {
            return bad("no such host");
        }
        t.kind = "nic";
        addPorts(a, 0, m_fabric->GetNPlanes());
        return true;
    }
    if (parts.size() == 1 && parts[0] == "hosts")
    {
        t.kind = "nics";
        for (uint32_t h = 0; h < m_fabric->GetNHosts(); ++h)
        {
            addPorts(h, 0, m_fabric->GetNPlanes());
        }
        return true;
    }
    if (parts.empty() || !ParseIndexed(parts[0], "plane", a) || a >= m_fabric->GetNPlanes())
    {
        return bad("no such plane");
    }
    const uint32_t plane = a;
    if (parts.size() == 3 && ParseIndexed(parts[1], "t0-", b) && ParseIndexed(parts[2], "t1-", c))
    {
        if (b >= m_fabric->GetNT0())
        {
            return bad("no such T0");
        }
        if (c >= m_fabric->GetNUplinks(plane, b))
        {
            return bad("no such T1 in the T0's pod");
        }
        t.kind = "link";
        t.links = {m_fabric->GetUplink(plane, b, c)};
        return true;
    }
    if (parts.size() == 3 && ParseIndexed(parts[1], "t1-", b) && ParseIndexed(parts[2], "t2-", c))
    {
        if (b >= m_fabric->GetNT1() || c >= m_fabric->GetNT2())
        {
            return bad("no such T1 or T2");
        }
        t.kind = "link";
        t.links = {m_fabric->GetSpineLink(plane, b, c)};
        return true;
    }
    if (parts.size() == 2)
    {
        uint32_t tier = 0;
        if (ParseIndexed(parts[1], "t0-", b) && b < m_fabric->GetNT0())
        {
            tier = 0;
        }
        else if (ParseIndexed(parts[1], "t1-", b) && b < m_fabric->GetNT1())
        {
            tier = 1;
        }
        else if (ParseIndexed(parts[1], "t2-", b) && b < m_fabric->GetNT2())
        {
            tier = 2;
        }
        else
        {
            return bad("no such switch");
        }
        t.kind = "switch";
        t.sw = m_fabric->GetSwitchDevice(plane, tier, b);
        t.links = m_fabric->GetSwitchLinks(plane, tier, b);
        return true;
    }
    return bad("malformed");
}

bool
MrcFaultInjector::Schedule(Time at,
                           const std::string& action,
                           const std::string& target,
                           Time duration,
                           std::string& error,
                           double rate)
{
    Target t;
    if (!Resolve(target, t, error))
    {
        return false;
    }
    const bool isSwitch = t.kind == "switch";
    const bool isPort = t.kind == "nic_port";
    const bool isHost = isPort || t.kind == "nic" || t.kind == "nics";
    if (action == "nic_rx_loss")
    {
        if (!isHost)
        {
            error = "action 'nic_rx_loss' needs a host<H>/plane<P>, host<H> or hosts target, not '"
                  + target + "'";
            return false;
        }
        if (!(rate > 0 && rate <= 1))
        {
            std::ostringstream e;
            e << "action 'nic_rx_loss' needs a rate in (0, 1] (got " << rate << ")";
            error = e.str();
            return false;
        }
        if (t.ports.empty())
        {
            error = "action 'nic_rx_loss' needs packet-level NIC ports; the flow-level model "
                    "(--model=fluid) has none";
            return false;
        }
        // The end restores what each port had when it started (an overlapping loss on some
        // of the same ports keeps its rate).
        auto saved = std::make_shared<std::vector<double>>();
        Simulator::Schedule(at, &MrcFaultInjector::SetRxLoss, this, t.ports, rate, target, saved);
        if (duration.IsStrictlyPositive())
        {
            Simulator::Schedule(
                at + duration, &MrcFaultInjector::SetRxLoss, this, t.ports, -1.0, target, saved);
        }
        m_scheduled.push_back(ScheduledAction{at, action, target, duration, rate});
        return true;
    }
    if (rate != 0)
    {
        error = "action '" + action + "' takes no rate (only nic_rx_loss does)";
        return false;
    }
    if (t.kind == "nic" || t.kind == "nics")
    {
        error = "action '" + action + "' needs a link, NIC port or switch target, not '" + target
              + "' (host<H> and hosts are for nic_rx_loss)";
        return false;
    }
    if (action == "link_down" || action == "link_up" || action == "link_flap"
        || action == "nic_port_down")
    {
        if (isSwitch)
        {
            error = "action '" + action + "' needs a link or NIC port target, not '" + target + "'";
            return false;
        }
        if (action == "nic_port_down" && !isPort)
        {
            error = "action 'nic_port_down' needs a host<H>/plane<P> target, not '" + target + "'";
            return false;
        }
        const std::string kind = isPort ? "nic_port" : "link";
        if (action != "link_up")
        {
            Simulator::Schedule(
                at, &MrcFaultInjector::SetLinks, this, t.links, false, kind, target);
        }
        const bool timed = action == "link_flap" || action == "nic_port_down";
        if (action == "link_up" || (timed && duration.IsStrictlyPositive()))
        {
            Simulator::Schedule(action == "link_up" ? at : at + duration,
                                &MrcFaultInjector::SetLinks,
                                this,
                                t.links,
                                true,
                                kind,
                                target);
        }
        m_scheduled.push_back(ScheduledAction{at, action, target, duration});
        return true;
    }
    if (action == "switch_reboot" || action == "blackhole")
    {
        if (!isSwitch)
        {
            error = "action '" + action + "' needs a switch target (plane<P>/t1-<J> ...), not '"
                  + target + "'";
            return false;
        }
        if (action == "switch_reboot")
        {
            Simulator::Schedule(at,
                                &MrcFaultInjector::SetLinks,
                                this,
                                t.links,
                                false,
                                std::string("switch_reboot"),
                                target);
            if (duration.IsStrictlyPositive())
            {
                Simulator::Schedule(at + duration,
                                    &MrcFaultInjector::SetLinks,
                                    this,
                                    t.links,
                                    true,
                                    std::string("switch_reboot"),
                                    target);
            }
        }
        else
        {
            if (t.sw == nullptr)
            {
                error = "action 'blackhole' needs a packet-level switch; the flow-level model "
                        "(--model=fluid) has none (accepted there: link_down, link_up, "
                        "link_flap, switch_reboot, nic_port_down)";
                return false;
            }
            Simulator::Schedule(at, &MrcFaultInjector::SetBlackhole, this, t.sw, true, target);
            if (duration.IsStrictlyPositive())
            {
                Simulator::Schedule(
                    at + duration, &MrcFaultInjector::SetBlackhole, this, t.sw, false, target);
            }
        }
        m_scheduled.push_back(ScheduledAction{at, action, target, duration});
        return true;
    }
    error = "unknown action '" + action + "' (accepted: " + std::string(ACTIONS) + ")";
    return false;
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
    Record("nic_rx_loss", target, start ? "start" : "end");
}

void
MrcFaultInjector::SetLinks(std::vector<Ptr<MrcChannel>> links,
                           bool up,
                           std::string kind,
                           std::string target)
{
    for (auto& l : links)
    {
        l->SetUp(up);
    }
    if (kind == "switch_reboot")
    {
        Record(kind, target, up ? "end" : "start");
    }
    else
    {
        Record(kind, target, up ? "up" : "down");
    }
}

void
MrcFaultInjector::SetBlackhole(Ptr<MrcSwitchNetDevice> sw, bool on, std::string target)
{
    sw->SetBlackhole(on);
    Record("blackhole", target, on ? "start" : "end");
}

void
MrcFaultInjector::Record(const std::string& kind,
                         const std::string& target,
                         const std::string& state)
{
    MrcFaultEvent e{Simulator::Now(), kind, target, state};
    NS_LOG_INFO(e.time.As(Time::US) << " " << kind << " " << target << " " << state);
    m_events.push_back(e);
    m_faultTrace(e);
}

Time
MrcFaultInjector::DrawDownTime(Time meanDown)
{
    if (m_downDist == "constant")
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
    if (m_downDist != "exponential" && m_downDist != "constant")
    {
        error = "DownTimeDistribution must be exponential or constant (got '" + m_downDist + "')";
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
        SetLinks({link}, false, "link", name);
        Simulator::Schedule(down,
                            &MrcFaultInjector::SetLinks,
                            this,
                            std::vector<Ptr<MrcChannel>>{link},
                            true,
                            std::string("link"),
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
        SetLinks({links[l]}, false, "link", m_tiers[tier].second[l]);
        Simulator::Schedule(down,
                            &MrcFaultInjector::SetLinks,
                            this,
                            std::vector<Ptr<MrcChannel>>{links[l]},
                            true,
                            std::string("link"),
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

bool
MrcFaultInjector::IsAction(const std::string& a)
{
    return a == "link_down" || a == "link_up" || a == "link_flap" || a == "switch_reboot"
        || a == "blackhole" || a == "nic_port_down" || a == "nic_rx_loss";
}

const char*
MrcFaultInjector::GetActionNames()
{
    return ACTIONS;
}

} // namespace ns3
