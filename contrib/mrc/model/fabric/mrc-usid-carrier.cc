/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-usid-carrier.h"

#include "ns3/abort.h"

#include <cstring>

namespace ns3
{

MrcUsidCarrier::MrcUsidCarrier()
    : m_blockBits(32)
{
    std::memset(m_bytes, 0, sizeof(m_bytes));
}

MrcUsidCarrier::MrcUsidCarrier(Ipv6Address block,
                               uint8_t blockBits,
                               const std::vector<uint16_t>& usids)
    : m_blockBits(blockBits)
{
    NS_ABORT_MSG_UNLESS(IsValidBlockBits(blockBits),
                        "MrcUsidCarrier: blockBits must be 16, 32, 48, 64, 80 or 96 (got "
                            << unsigned(blockBits) << ")");
    NS_ABORT_MSG_IF(usids.size() > GetCapacity(),
                    "MrcUsidCarrier: " << usids.size() << " uSIDs do not fit after a "
                                       << unsigned(blockBits) << "-bit block (at most "
                                       << unsigned(GetCapacity()) << ")");
    std::memset(m_bytes, 0, sizeof(m_bytes));
    uint8_t b[16];
    block.GetBytes(b);
    const uint32_t bb = blockBits / 8;
    std::memcpy(m_bytes, b, bb);
    uint32_t pos = bb;
    for (uint16_t u : usids)
    {
        NS_ABORT_MSG_IF(u == 0, "MrcUsidCarrier: uSID 0000 is the end-of-carrier marker");
        m_bytes[pos] = static_cast<uint8_t>(u >> 8);
        m_bytes[pos + 1] = static_cast<uint8_t>(u & 0xff);
        pos += 2;
    }
}

MrcUsidCarrier
MrcUsidCarrier::FromAddress(Ipv6Address address, uint8_t blockBits)
{
    NS_ABORT_MSG_UNLESS(IsValidBlockBits(blockBits), "MrcUsidCarrier: bad blockBits");
    MrcUsidCarrier c;
    c.m_blockBits = blockBits;
    address.GetBytes(c.m_bytes);
    return c;
}

bool
MrcUsidCarrier::IsValidBlockBits(uint32_t blockBits)
{
    return blockBits >= 16 && blockBits <= 96 && blockBits % 16 == 0;
}

Ipv6Address
MrcUsidCarrier::GetAddress() const
{
    uint8_t b[16];
    std::memcpy(b, m_bytes, 16);
    return Ipv6Address(b);
}

uint8_t
MrcUsidCarrier::GetBlockBits() const
{
    return m_blockBits;
}

uint8_t
MrcUsidCarrier::GetCapacity() const
{
    return static_cast<uint8_t>((128 - m_blockBits) / 16);
}

uint16_t
MrcUsidCarrier::GetActive() const
{
    return ActiveOf(m_bytes, m_blockBits / 8);
}

std::vector<uint16_t>
MrcUsidCarrier::GetUsids() const
{
    std::vector<uint16_t> out;
    for (uint32_t pos = m_blockBits / 8; pos + 1 < 16; pos += 2)
    {
        uint16_t u = ActiveOf(m_bytes, pos);
        if (u == 0)
        {
            break;
        }
        out.push_back(u);
    }
    return out;
}

void
MrcUsidCarrier::ShiftBytes(uint8_t* addr, uint32_t blockBytes)
{
    std::memmove(addr + blockBytes, addr + blockBytes + 2, 14 - blockBytes);
    addr[14] = 0;
    addr[15] = 0;
}

void
MrcUsidCarrier::Shift()
{
    ShiftBytes(m_bytes, m_blockBits / 8);
}

bool
MrcUsidCarrier::IsEnd() const
{
    return GetActive() == 0;
}

bool
MrcUsidCarrier::operator==(const MrcUsidCarrier& other) const
{
    return m_blockBits == other.m_blockBits && std::memcmp(m_bytes, other.m_bytes, 16) == 0;
}

std::ostream&
operator<<(std::ostream& os, const MrcUsidCarrier& c)
{
    os << c.GetAddress();
    return os;
}

} // namespace ns3
