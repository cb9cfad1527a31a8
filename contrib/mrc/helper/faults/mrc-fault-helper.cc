/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-fault-helper.h"

#include "ns3/mrc-csv-reader.h"
#include "ns3/mrc-fluid-network.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-number-parser.h"
#include "ns3/mrc-text.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

#include <fstream>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFaultHelper");
NS_OBJECT_ENSURE_REGISTERED(MrcFaultHelper);

namespace
{

/** Largest time in a fault file, microseconds. */
constexpr double MAX_MICROS = 1e15;

} // namespace

TypeId
MrcFaultHelper::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcFaultHelper")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcFaultHelper>();
    return tid;
}

MrcFaultHelper::MrcFaultHelper()
{
    m_factory.SetTypeId(MrcFaultInjector::GetTypeId());
}

MrcFaultHelper::~MrcFaultHelper() = default;

void
MrcFaultHelper::DoDispose()
{
    m_injector = nullptr;
    Object::DoDispose();
}

void
MrcFaultHelper::SetInjectorAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

Ptr<MrcFaultInjector>
MrcFaultHelper::Install(Ptr<MrcClosTopology> fabric)
{
    return InstallOn(fabric, PeekPointer(fabric));
}

Ptr<MrcFaultInjector>
MrcFaultHelper::Install(Ptr<MrcFluidNetwork> fabric)
{
    return InstallOn(fabric, PeekPointer(fabric));
}

Ptr<MrcFaultInjector>
MrcFaultHelper::InstallOn(Ptr<Object> owner, const MrcFaultTargets* targets)
{
    NS_ABORT_MSG_IF(m_injector, "MrcFaultHelper: Install() called twice");
    m_injector = m_factory.Create<MrcFaultInjector>();
    m_injector->SetTargets(owner, targets);
    return m_injector;
}

Ptr<MrcFaultInjector>
MrcFaultHelper::GetInjector() const
{
    return m_injector;
}

int64_t
MrcFaultHelper::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(!m_injector, "MrcFaultHelper: Install() first");
    return m_injector->AssignStreams(stream);
}

bool
MrcFaultHelper::LoadScheduleFile(const std::string& path, std::string& error)
{
    std::string text;
    return MrcCsvReader::ReadFile(path, text, error) && LoadSchedule(text, path, error);
}

bool
MrcFaultHelper::LoadSchedule(const std::string& text, const std::string& name, std::string& error)
{
    NS_ABORT_MSG_IF(!m_injector, "MrcFaultHelper: Install() first");
    /** One row, read. */
    struct Row
    {
        Time at;                 //!< when
        MrcFaultAction action;   //!< the action
        MrcFaultTargetId target; //!< its target
        Time duration;           //!< how long
        double rate;             //!< nic_rx_loss's probability
    };

    MrcCsvReader csv(text, name);
    if (!csv.ReadHeader({{"time_us", "action", "target", "duration_us"},
                         {"time_us", "action", "target", "duration_us", "rate"}},
                        error))
    {
        return false;
    }
    std::vector<Row> rows;
    while (csv.NextRow())
    {
        Row r;
        if (!ReadRow(csv, r.action, r.target, r.at, r.duration, r.rate, error))
        {
            return false;
        }
        rows.push_back(r);
    }
    // Everything checked: only now schedule (a bad file schedules nothing).
    for (const auto& r : rows)
    {
        std::string why;
        NS_ABORT_MSG_UNLESS(m_injector->Schedule(r.at, r.action, r.target, r.duration, why, r.rate),
                            "MrcFaultHelper: a checked fault was refused: " << why);
    }
    return true;
}

bool
MrcFaultHelper::ReadRow(const MrcCsvReader& csv,
                        MrcFaultAction& action,
                        MrcFaultTargetId& target,
                        Time& at,
                        Time& duration,
                        double& rate,
                        std::string& error) const
{
    double atUs = 0;
    double durUs = 0;
    if (!csv.CheckNFields(csv.GetHeader().size(), error)
        || !csv.ReadReal(0, 0, MAX_MICROS, atUs, error)
        || (!csv.GetField(3).empty() && !csv.ReadReal(3, 0, MAX_MICROS, durUs, error)))
    {
        return false;
    }
    const std::string& a = csv.GetField(1);
    if (!MrcFaultActionNames().Parse(a, action))
    {
        return csv.Fail("action",
                        "unknown action '" + a + "' (accepted: " + MrcFaultActionNames().GetNames()
                            + ")",
                        error);
    }
    if ((action == MrcFaultAction::LINK_FLAP || action == MrcFaultAction::SWITCH_REBOOT)
        && durUs <= 0)
    {
        return csv.Fail("duration_us", "action '" + a + "' needs a positive duration", error);
    }
    rate = 0;
    const std::string& rateText = csv.GetField(4);
    std::string why;
    if (action == MrcFaultAction::NIC_RX_LOSS)
    {
        if (!MrcNumberParser::ParseReal(rateText, 0, 1, rate, why) || !(rate > 0))
        {
            return csv.Fail("rate",
                            "action 'nic_rx_loss' needs a loss probability in (0, 1] (got '"
                                + rateText + "')",
                            error);
        }
    }
    else if (!rateText.empty())
    {
        return csv.Fail("rate", "only nic_rx_loss takes a rate (action '" + a + "')", error);
    }
    MrcFaultInjector::Target t;
    if (!MrcFaultTargetId::Parse(csv.GetField(2), target, why)
        || !m_injector->Resolve(target, t, why))
    {
        return csv.Fail("target", why, error);
    }
    if (!m_injector->Check(action, target, rate, why))
    {
        return csv.Fail("action", why, error);
    }
    at = NanoSeconds(static_cast<int64_t>(atUs * 1000));
    duration = NanoSeconds(static_cast<int64_t>(durUs * 1000));
    return true;
}

void
MrcFaultHelper::AddCommandLineOptions(MrcCommandLine& cmd, Options& o)
{
    cmd.AddValue("faultFile", "Fault schedule (CSV: time_us,action,target,duration_us)", o.file);
    cmd.AddValue("flapTier",
                 "Stochastic link flaps on this tier: "
                     + MrcLinkTierNames().GetNamesWhere(MrcIsUpwardTier) + ", or none",
                 o.tier);
    cmd.AddValue(
        "flapRate", "Flaps per second (per link, or per tier with --flapPerLink=0)", o.rate);
    cmd.AddValue(
        "flapPerLink", "The flap rate is per link (1) or for the whole tier (0)", o.perLink);
    cmd.AddValue("flapDown", "Mean down time of a flap, microseconds", o.downUs);
    cmd.AddValue("flapPeriodic", "Periodic flaps (1) instead of Poisson (0)", o.periodic);
    cmd.AddValue("flapStart", "No flap before this time, microseconds", o.startUs);
    cmd.AddValue("flapStop", "No flap after this time, microseconds", o.stopUs);
}

bool
MrcFaultHelper::ApplyOptions(const Options& o, std::string& error)
{
    NS_ABORT_MSG_IF(!m_injector, "MrcFaultHelper: Install() first");
    if (!o.file.empty() && !LoadScheduleFile(o.file, error))
    {
        error = "--faultFile: " + error;
        return false;
    }
    if (!(o.rate >= 0 && o.rate <= 1e9))
    {
        std::ostringstream e;
        e << "--flapRate must be between 0 and 1e9 flaps per second (got " << o.rate << ")";
        error = e.str();
        return false;
    }
    const bool none = o.tier.empty() || o.tier == "none";
    MrcLinkTier tier = MrcLinkTier::T0_T1;
    if (!none && (!MrcLinkTierNames().Parse(o.tier, tier) || !MrcIsUpwardTier(tier)))
    {
        error = "--flapTier must be one of " + MrcLinkTierNames().GetNamesWhere(MrcIsUpwardTier)
              + " or none (got '" + o.tier + "')";
        return false;
    }
    if (none || o.rate == 0)
    {
        return true;
    }
    if (!(o.downUs > 0 && o.downUs <= 1e9) || !(o.startUs >= 0) || !(o.stopUs >= o.startUs)
        || !(o.stopUs <= 1e12))
    {
        error = "--flapDown must be between 0 and 1e9 us (exclusive of 0), and 0 <= --flapStart "
                "<= --flapStop <= 1e12 us";
        return false;
    }
    if (o.periodic)
    {
        m_injector->SetAttribute("Periodic", BooleanValue(true));
    }
    if (!m_injector->AddFlapProcess(
            tier,
            o.rate,
            o.perLink,
            NanoSeconds(static_cast<int64_t>(o.downUs * 1000)),
            NanoSeconds(static_cast<int64_t>(o.startUs * 1000)),
            NanoSeconds(static_cast<int64_t>(std::min(o.stopUs, 1e12) * 1000)),
            error))
    {
        error = "--flapTier/--flapRate: " + error;
        return false;
    }
    return true;
}

std::vector<std::string>
MrcFaultHelper::CheckScheduled(Time runEnd) const
{
    std::vector<std::string> out;
    if (m_injector == nullptr)
    {
        return out;
    }
    for (const auto& a : m_injector->GetScheduled())
    {
        std::ostringstream head;
        head << "fault '" << MrcFaultActionNames().GetName(a.action) << " " << a.target.GetName()
             << "' at " << std::setprecision(12) << a.at.GetNanoSeconds() / 1000.0 << " us";
        if (a.at >= runEnd)
        {
            std::ostringstream os;
            os << head.str() << " never fired: the run ended at " << std::setprecision(12)
               << runEnd.GetNanoSeconds() / 1000.0 << " us";
            out.push_back(os.str());
            continue;
        }
        MrcFaultInjector::Target t;
        std::string err;
        if (!m_injector->Resolve(a.target, t, err))
        {
            continue;
        }
        uint64_t bytes = 0;
        bool devices = false;
        for (const auto& ch : t.links)
        {
            for (std::size_t d = 0; d < ch->GetNDevices(); ++d)
            {
                Ptr<MrcNetDevice> dev = DynamicCast<MrcNetDevice>(ch->GetDevice(d));
                if (dev)
                {
                    devices = true;
                    bytes += dev->GetTxBytes();
                }
            }
        }
        if (devices && bytes == 0)
        {
            out.push_back(head.str()
                          + " acted on a target that carried no traffic in this run (no byte "
                            "crossed its cables)");
        }
    }
    return out;
}

} // namespace ns3
