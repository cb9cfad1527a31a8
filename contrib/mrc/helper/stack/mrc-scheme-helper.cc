/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-scheme-helper.h"

#include "ns3/mrc-choice-checker.h"
#include "ns3/mrc-dcqcn.h"
#include "ns3/mrc-ecmp-control-plane.h"
#include "ns3/mrc-mutant.h"
#include "ns3/mrc-trimming-queue.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSchemeHelper");
NS_OBJECT_ENSURE_REGISTERED(MrcSchemeHelper);

namespace
{

/**
 * The value an object would get for an attribute: the last of the settings that names it, or
 * the attribute's default in force (Config::SetDefault and --ns3:: options included). Read
 * without creating an object, so that no random variable is made and no stream counted.
 * @param type a TypeId name
 * @param name an attribute of it
 * @param settings settings that win over the default
 * @return the value, serialized
 */
template<typename Settings>
std::string
DefaultOf(const std::string& type, const std::string& name, const Settings& settings)
{
    for (auto it = settings.rbegin(); it != settings.rend(); ++it)
    {
        if (it->name == name)
        {
            return it->value->SerializeToString(nullptr);
        }
    }
    TypeId::AttributeInformation info;
    const bool found = TypeId::LookupByName(type).LookupAttributeByName(name, &info);
    NS_ABORT_MSG_UNLESS(found, "MrcSchemeHelper: " << type << " has no attribute " << name);
    return info.initialValue->SerializeToString(info.checker);
}

} // namespace

TypeId
MrcSchemeHelper::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcSchemeHelper")
              .SetParent<Object>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcSchemeHelper>()
              .AddAttribute(
                  "Scheme",
                  "mrc (multi-plane SRv6, spray, trimming, NSCC), roce (one plane of "
                  "Planes x PlaneRate, ECMP, PFC, DCQCN, go-back-N, InfiniBand timers) "
                  "or roce-multiplane (RoCE on MRC's planes, one queue pair per port)",
                  StringValue("mrc"),
                  MakeStringAccessor(&MrcSchemeHelper::SetScheme, &MrcSchemeHelper::GetScheme),
                  MakeMrcChoiceChecker({"mrc", "roce", "roce-multiplane"}))
              .AddAttribute("Hosts",
                            "Hosts (one NIC each)",
                            UintegerValue(64),
                            MakeUintegerAccessor(&MrcSchemeHelper::m_hosts),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("Planes",
                            "NIC ports per host, each on a plane of its own (MRC); the NIC's "
                            "bandwidth is Planes x PlaneRate for every scheme",
                            UintegerValue(8),
                            MakeUintegerAccessor(&MrcSchemeHelper::m_planes),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("PlaneRate",
                            "Link rate of one plane (roce: its one plane runs at Planes x this)",
                            DataRateValue(DataRate("100Gbps")),
                            MakeDataRateAccessor(&MrcSchemeHelper::m_planeRate),
                            MakeDataRateChecker())
              .AddAttribute("HostsPerT0",
                            "Hosts per T0 (Validate reports one that does not divide Hosts)",
                            UintegerValue(8),
                            MakeUintegerAccessor(&MrcSchemeHelper::m_hostsPerT0),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("T1sPerPlane",
                            "T1 switches per plane (Validate reports one outside 1 to 4096)",
                            UintegerValue(8),
                            MakeUintegerAccessor(&MrcSchemeHelper::m_t1),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("BaselineHostsPerT0",
                            "roce only: hosts per T0 of its fabric (0: HostsPerT0)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&MrcSchemeHelper::m_baselineHostsPerT0),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("BaselineT1sPerPlane",
                            "roce only: T1s of its fabric (0: T1sPerPlane)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&MrcSchemeHelper::m_baselineT1),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("Trim",
                            "mrc: switches trim a packet they cannot queue (false: drop it)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&MrcSchemeHelper::m_trim),
                            MakeBooleanChecker())
              .AddAttribute("Pfc",
                            "roce schemes: the data class is lossless (PFC)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&MrcSchemeHelper::m_pfc),
                            MakeBooleanChecker())
              .AddAttribute(
                  "DcqcnProfile",
                  "roce schemes: the DCQCN profile (MrcDcqcn::GetProfile): default "
                  "(NVIDIA ConnectX's firmware defaults, MrcDcqcn's attribute "
                  "defaults), aggressive (the HPCC simulator's vendor-like DCQCN), "
                  "most-aggressive (uet-htsim's), paper (the DCQCN paper's). A profile "
                  "other than default is applied at Build over any DCQCN setting",
                  StringValue("default"),
                  MakeStringAccessor(&MrcSchemeHelper::m_dcqcnProfile),
                  MakeMrcChoiceChecker({"default", "aggressive", "most-aggressive", "paper"}))
              .AddAttribute("Mutants",
                            "Model variants that each break one mechanism (MrcMutant), "
                            "comma-separated, applied after every other setting to the schemes "
                            "they concern (packet level only); none by default",
                            StringValue(""),
                            MakeStringAccessor(&MrcSchemeHelper::m_mutants),
                            MakeStringChecker());
    return tid;
}

MrcSchemeHelper::MrcSchemeHelper()
    : m_scheme("mrc")
    , m_hosts(64)
    , m_planes(8)
    , m_hostsPerT0(8)
    , m_t1(8)
    , m_baselineHostsPerT0(0)
    , m_baselineT1(0)
    , m_trim(true)
    , m_pfc(true)
{
}

MrcSchemeHelper::~MrcSchemeHelper() = default;

void
MrcSchemeHelper::DoDispose()
{
    m_clos = nullptr;
    m_fabric = nullptr;
    Object::DoDispose();
}

const std::vector<std::string>&
MrcSchemeHelper::GetSchemeNames()
{
    static const std::vector<std::string> names = {"mrc", "roce", "roce-multiplane"};
    return names;
}

bool
MrcSchemeHelper::IsScheme(const std::string& name)
{
    const auto& n = GetSchemeNames();
    return std::find(n.begin(), n.end(), name) != n.end();
}

void
MrcSchemeHelper::SetScheme(const std::string& scheme)
{
    NS_ABORT_MSG_IF(m_fabric, "MrcSchemeHelper: the scheme cannot change after Build()");
    m_scheme = scheme;
    m_stack = MrcStackHelper();
    if (IsRoce())
    {
        m_stack.SetRoceBaseline();
    }
}

std::string
MrcSchemeHelper::GetScheme() const
{
    return m_scheme;
}

bool
MrcSchemeHelper::IsRoce() const
{
    return m_scheme == "roce" || m_scheme == "roce-multiplane";
}

uint32_t
MrcSchemeHelper::GetFabricPlanes() const
{
    return m_scheme == "roce" ? 1 : m_planes;
}

DataRate
MrcSchemeHelper::GetFabricLinkRate() const
{
    return m_scheme == "roce" ? DataRate(m_planeRate.GetBitRate() * m_planes) : m_planeRate;
}

uint32_t
MrcSchemeHelper::GetFabricHostsPerT0() const
{
    return m_scheme == "roce" && m_baselineHostsPerT0 ? m_baselineHostsPerT0 : m_hostsPerT0;
}

uint32_t
MrcSchemeHelper::GetFabricT1s() const
{
    return m_scheme == "roce" && m_baselineT1 ? m_baselineT1 : m_t1;
}

std::string
MrcSchemeHelper::CheckShape() const
{
    if (m_planes < 1 || m_planes > 64)
    {
        return "Planes must be between 1 and 64 (got " + std::to_string(m_planes) + ")";
    }
    if (m_planeRate.GetBitRate() == 0)
    {
        return "PlaneRate must be positive";
    }
    const uint32_t perT0 = GetFabricHostsPerT0();
    if (perT0 == 0 || m_hosts % perT0 != 0)
    {
        return "HostsPerT0 (" + std::to_string(perT0) + ") must divide Hosts ("
             + std::to_string(m_hosts) + ")";
    }
    if (m_hosts / perT0 < 2)
    {
        return "Hosts / HostsPerT0 must give at least 2 T0s (got " + std::to_string(m_hosts / perT0)
             + ")";
    }
    if (GetFabricT1s() == 0)
    {
        return "T1sPerPlane must be at least 1 (got 0)";
    }
    return "";
}

std::string
MrcSchemeHelper::Validate() const
{
    std::vector<const MrcMutant::Entry*> mutants;
    std::string bad;
    if (!MrcMutant::Parse(m_mutants, mutants, bad))
    {
        return "Mutants: " + bad;
    }
    const std::string err = CheckShape();
    return err.empty() ? MakeClos()->Validate() : err;
}

std::string
MrcSchemeHelper::ValidateFluid() const
{
    if (m_scheme == "roce-multiplane")
    {
        return "Scheme roce-multiplane has no flow-level model (accepted there: mrc, roce)";
    }
    if (const std::string err = CheckShape(); !err.empty())
    {
        return err;
    }
    if (GetFabricT1s() > 65535) // (MrcFluidNetwork's T1sPerPlane accepts no more)
    {
        return "T1sPerPlane must be at most 65535 at flow level (got "
             + std::to_string(GetFabricT1s()) + ")";
    }
    return MakeFluid()->Validate();
}

void
MrcSchemeHelper::SetFabricAttribute(const std::string& name, const AttributeValue& value)
{
    m_fabricSettings.push_back(Setting{name, value.Copy()});
}

void
MrcSchemeHelper::SetQueueAttribute(const std::string& name, const AttributeValue& value)
{
    m_queueSettings.push_back(Setting{name, value.Copy()});
}

void
MrcSchemeHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchSettings.push_back(Setting{name, value.Copy()});
}

void
MrcSchemeHelper::SetControlPlaneAttribute(const std::string& name, const AttributeValue& value)
{
    m_controlSettings.push_back(Setting{name, value.Copy()});
}

void
MrcSchemeHelper::SetFluidAttribute(const std::string& name, const AttributeValue& value)
{
    m_fluidSettings.push_back(Setting{name, value.Copy()});
}

MrcStackHelper&
MrcSchemeHelper::GetStack()
{
    return m_stack;
}

Ptr<MrcClosHelper>
MrcSchemeHelper::MakeClos() const
{
    Ptr<MrcClosHelper> clos = CreateObject<MrcClosHelper>();
    const uint32_t perT0 = GetFabricHostsPerT0();
    clos->SetAttribute("HostsPerT0", UintegerValue(perT0));
    clos->SetAttribute("T0sPerPlane", UintegerValue(perT0 ? m_hosts / perT0 : 0));
    clos->SetAttribute("T1sPerPlane", UintegerValue(GetFabricT1s()));
    clos->SetAttribute("Planes", UintegerValue(GetFabricPlanes()));
    clos->SetAttribute("LinkRate", DataRateValue(GetFabricLinkRate()));
    if (m_scheme == "mrc")
    {
        if (!m_trim) // (otherwise the queue's default, true unless changed, stands)
        {
            clos->SetQueueAttribute("TrimEnabled", BooleanValue(false));
        }
    }
    else
    {
        clos->SetRoutedBaseline();
        clos->SetAttribute("Pfc", BooleanValue(m_pfc));
        // Buffers follow the port speed: the queue's defaults are for a PlaneRate port.
        const uint64_t scale = GetFabricLinkRate().GetBitRate() / m_planeRate.GetBitRate();
        if (scale != 1)
        {
            UintegerValue v;
            v.DeserializeFromString(
                DefaultOf("ns3::MrcTrimmingQueue", "DataLimit", std::vector<Setting>()),
                MakeUintegerChecker<uint32_t>());
            // (at most the attribute's largest value: a DataLimit near it means "no limit")
            clos->SetQueueAttribute("DataLimit",
                                    UintegerValue(std::min<uint64_t>(v.Get() * scale, UINT32_MAX)));
        }
        // The RoCE class's ECN marking as deployed: SONiC's lossless WRED profile for a
        // 400G Tomahawk-5 switch (sonic-buildimage, Arista-7060X6-64PE-O128S2/qos.json.j2:
        // green_min 131072, green_max 262144 bytes, 5 %), scaled with the port's rate.
        const double per400G = GetFabricLinkRate().GetBitRate() / 400e9;
        clos->SetQueueAttribute("EcnMinBytes",
                                UintegerValue(static_cast<uint32_t>(RoceEcnMinBytes() * per400G)));
        clos->SetQueueAttribute("EcnMaxBytes",
                                UintegerValue(static_cast<uint32_t>(RoceEcnMaxBytes() * per400G)));
        clos->SetQueueAttribute("EcnMaxProbability", DoubleValue(RoceEcnMaxProbability()));
    }
    for (const auto& s : m_fabricSettings)
    {
        clos->SetAttribute(s.name, *s.value);
    }
    for (const auto& s : m_queueSettings)
    {
        clos->SetQueueAttribute(s.name, *s.value);
    }
    for (const auto& s : m_switchSettings)
    {
        clos->SetSwitchAttribute(s.name, *s.value);
    }
    for (const auto& s : m_controlSettings)
    {
        clos->SetControlPlaneAttribute(s.name, *s.value);
    }
    return clos;
}

Ptr<MrcClosTopology>
MrcSchemeHelper::Build()
{
    NS_ABORT_MSG_IF(m_fabric, "MrcSchemeHelper: Build() once");
    const std::string err = Validate();
    NS_ABORT_MSG_IF(!err.empty(), "MrcSchemeHelper: " << err);
    if (IsRoce() && m_dcqcnProfile != "default")
    {
        std::vector<MrcDcqcn::Setting> settings;
        MrcDcqcn::GetProfile(m_dcqcnProfile, GetFabricLinkRate(), settings);
        for (const auto& st : settings)
        {
            const std::string cc = "ns3::MrcDcqcn::";
            const std::string qp = "ns3::MrcQueuePair::";
            if (st.attribute.rfind(cc, 0) == 0)
            {
                m_stack.SetCongestionControlAttribute(st.attribute.substr(cc.size()),
                                                      StringValue(st.value));
            }
            else if (st.attribute.rfind(qp, 0) == 0)
            {
                m_stack.SetQueuePairAttribute(st.attribute.substr(qp.size()),
                                              StringValue(st.value));
            }
        }
    }
    ApplyMutants();
    m_clos = MakeClos();
    m_fabric = m_clos->Build();
    m_stack.Install(m_fabric);
    return m_fabric;
}

Ptr<MrcClosTopology>
MrcSchemeHelper::GetFabric() const
{
    return m_fabric;
}

Time
MrcSchemeHelper::GetBaseRtt(uint32_t packetBytes, uint32_t src, uint32_t dst) const
{
    return m_fabric ? m_fabric->GetBaseRtt(packetBytes, src, dst)
                    : MrcClosTopology::GetBaseRtt(MakeClos()->GetShape(), packetBytes, src, dst);
}

Ptr<MrcClosHelper>
MrcSchemeHelper::GetClosHelper() const
{
    return m_clos;
}

int64_t
MrcSchemeHelper::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(!m_fabric, "MrcSchemeHelper: AssignStreams after Build()");
    int64_t used = m_fabric->AssignStreams(stream);
    used += m_stack.AssignStreams(stream + used);
    return used;
}

int64_t
MrcSchemeHelper::AssignNicStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(!m_fabric, "MrcSchemeHelper: AssignNicStreams after Build()");
    return m_fabric->AssignNicStreams(stream);
}

Ptr<MrcFluidNetwork>
MrcSchemeHelper::MakeFluid() const
{
    Ptr<MrcFluidNetwork> net = CreateObject<MrcFluidNetwork>();
    const uint32_t perT0 = GetFabricHostsPerT0();
    net->SetAttribute("Scheme", StringValue(IsRoce() ? "baseline" : "mrc"));
    net->SetAttribute("Planes", UintegerValue(GetFabricPlanes()));
    net->SetAttribute("LinkRate", DataRateValue(GetFabricLinkRate()));
    net->SetAttribute("HostsPerT0", UintegerValue(perT0));
    net->SetAttribute("T0sPerPlane", UintegerValue(perT0 ? m_hosts / perT0 : 0));
    net->SetAttribute("T1sPerPlane", UintegerValue(GetFabricT1s()));
    if (IsRoce())
    {
        // The same timers as at packet level, read where they live.
        for (const char* name : {"DetectionDelay", "ReconvergenceDelay"})
        {
            TimeValue t;
            t.DeserializeFromString(DefaultOf("ns3::MrcEcmpControlPlane", name, m_controlSettings),
                                    MakeTimeChecker());
            net->SetAttribute(name, t);
        }
        TimeValue unit;
        UintegerValue exp;
        UintegerValue retries;
        m_stack.GetQueuePairAttribute("AckTimeoutUnit", unit);
        m_stack.GetQueuePairAttribute("AckTimeoutExponent", exp);
        m_stack.GetQueuePairAttribute("RetryLimit", retries);
        net->SetAttribute("AckTimeout", TimeValue(unit.Get() * int64_t(uint64_t(1) << exp.Get())));
        net->SetAttribute("RetryLimit", retries);
    }
    for (const auto& s : m_fluidSettings)
    {
        net->SetAttribute(s.name, *s.value);
    }
    return net;
}

Ptr<MrcFluidNetwork>
MrcSchemeHelper::BuildFluid()
{
    const std::string err = ValidateFluid();
    NS_ABORT_MSG_IF(!err.empty(), "MrcSchemeHelper: " << err);
    NS_ABORT_MSG_IF(!GetMutantsApplied().empty(),
                    "MrcSchemeHelper: mutants act at packet level only (the flow-level model "
                    "takes its failover costs from packet-level measurements)");
    Ptr<MrcFluidNetwork> net = MakeFluid();
    net->Build();
    return net;
}

std::vector<std::string>
MrcSchemeHelper::GetMutantsApplied() const
{
    std::vector<const MrcMutant::Entry*> mutants;
    std::string err;
    std::vector<std::string> out;
    if (MrcMutant::Parse(m_mutants, mutants, err))
    {
        for (const auto* m : mutants)
        {
            if (m->baseline == IsRoce())
            {
                out.push_back(m->name);
            }
        }
    }
    return out;
}

void
MrcSchemeHelper::ApplyMutants()
{
    for (const auto& name : GetMutantsApplied())
    {
        for (const auto& s : MrcMutant::Find(name)->settings)
        {
            switch (s.target)
            {
                case MrcMutant::QUEUE_PAIR:
                    m_stack.SetQueuePairAttribute(s.name, StringValue(s.value));
                    break;
                case MrcMutant::RECOVERY:
                    m_stack.SetLossRecoveryAttribute(s.name, StringValue(s.value));
                    break;
                case MrcMutant::SELECTOR:
                    m_stack.SetPathSelectorAttribute(s.name, StringValue(s.value));
                    break;
                case MrcMutant::SELECTOR_TYPE:
                    m_stack.SetPathSelector(s.value);
                    break;
                case MrcMutant::CC_TYPE:
                    m_stack.SetCongestionControl(s.value);
                    break;
                case MrcMutant::CONTROL_PLANE:
                    m_controlSettings.push_back(Setting{s.name, Create<StringValue>(s.value)});
                    break;
                case MrcMutant::SCHEME:
                    if (s.name == "Trim")
                    {
                        m_trim = s.value == "true";
                    }
                    else if (s.name == "Pfc")
                    {
                        m_pfc = s.value == "true";
                    }
                    break;
            }
        }
    }
}

uint32_t
MrcSchemeHelper::RoceEcnMinBytes()
{
    return 131072;
}

uint32_t
MrcSchemeHelper::RoceEcnMaxBytes()
{
    return 262144;
}

double
MrcSchemeHelper::RoceEcnMaxProbability()
{
    return 0.05;
}

} // namespace ns3
