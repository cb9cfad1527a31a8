#include "ns3/core-module.h"
#include "ns3/mrc-module.h"
using namespace ns3;
Ptr<MrcPathSelector> g_sel;
void Rec(uint16_t ev, uint8_t from, uint8_t to, uint8_t cause) {
  auto& e = g_sel->GetEv(ev);
  std::cout << Simulator::Now().GetNanoSeconds()/1000.0 << "us ev " << ev << " path " << e.path << " " << MrcPathSelector::StateName(from) << "->" << MrcPathSelector::StateName(to) << " " << MrcPathSelector::CauseName(cause) << "\n";
}
void Tx(Ptr<const Packet> p, uint32_t psn, uint16_t ev, uint8_t cause) {
  if (cause != 0 || (Simulator::Now() > MicroSeconds(74) && Simulator::Now() < MicroSeconds(95))) std::cout << Simulator::Now().GetNanoSeconds()/1000.0 << "us TX psn " << psn << " ev " << ev << " path " << g_sel->GetEv(ev).path << " cause " << unsigned(cause) << "\n";
}
uint32_t g_psn = 81;
void Sniff(std::string who, Ptr<const Packet> p) {
  Ptr<Packet> c = p->Copy(); Ipv6Header ih; c->RemoveHeader(ih); MrcHeader h; c->RemoveHeader(h);
  bool rel = false;
  if (h.opcode <= 1 && h.psn == g_psn) rel = true;
  if (h.opcode <= 1 && who == "h1" && Simulator::Now() > MicroSeconds(74) && Simulator::Now() < MicroSeconds(130)) rel = true;
  if (h.opcode == 2 && (h.cumAck > g_psn || (g_psn >= h.sackBase && g_psn < h.sackBase+64 && (h.sackBitmap >> (g_psn - h.sackBase)) & 1))) rel = true;
  if (h.opcode == 2 && Simulator::Now() > MicroSeconds(75) && Simulator::Now() < MicroSeconds(150)) { std::cout << Simulator::Now().GetNanoSeconds()/1000.0 << " " << who << " ACK cum " << h.cumAck << " base " << h.sackBase << " bits " << std::hex << h.sackBitmap << std::dec << " trig " << h.psn << " path " << h.path << (rel ? " COVERS" : "") << "\n"; return; }
  if (rel) std::cout << Simulator::Now().GetNanoSeconds()/1000.0 << " " << who << " op " << unsigned(h.opcode) << " psn " << h.psn << " cum " << h.cumAck << " path " << h.path << "\n";
}
int main(int argc, char** argv) {
    Ptr<MrcClosHelper> f = CreateObject<MrcClosHelper>();
    f->SetAttribute("Planes", UintegerValue(1));
    f->SetAttribute("HostsPerT0", UintegerValue(1));
    f->SetAttribute("T0sPerPlane", UintegerValue(2));
    f->SetAttribute("T1sPerPlane", UintegerValue(4));
    f->Build();
    MrcStackHelper stack; stack.SetPathSelector("ns3::MrcAdaptiveSpray", "EvSetSize", UintegerValue(16));
    stack.Install(f); int64_t s = 1; s += f->AssignStreams(1); stack.AssignStreams(s);
    auto q = stack.Connect(0,1);
    g_sel = q.first->GetPathSelector();
    g_sel->TraceConnectWithoutContext("EvStateChange", MakeCallback(&Rec)); q.first->TraceConnectWithoutContext("Tx", MakeCallback(&Tx));
    Ptr<MrcChannel> link = f->GetUplink(0, 0, 1);
    Simulator::Schedule(MicroSeconds(20), &MrcChannel::SetUp, link, false);
    Simulator::Schedule(MicroSeconds(300), &MrcChannel::SetUp, link, true);
    f->GetHostPort(1,0)->TraceConnectWithoutContext("Sniffer", MakeBoundCallback(&Sniff, std::string("h1")));
    f->GetHostPort(0,0)->TraceConnectWithoutContext("Sniffer", MakeBoundCallback(&Sniff, std::string("h0")));
    q.first->PostWrite(8000000, 0);
    Simulator::Run();
    std::cout << "placed " << q.second->GetBytesPlaced() << " to " << q.first->GetTimeouts() << " retx " << q.first->GetRetransmissions() << "\n";
    Simulator::Destroy();
}
