/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Tests of the SRv6 uSID carrier codec (RFC 9800 shift and forward).
 */

#include "ns3/mrc-usid-carrier.h"

#include "ns3/test.h"

using namespace ns3;

/**
 * @ingroup mrc-tests
 * @brief The worked example and the codec's edges.
 */
class MrcUsidCarrierTestCase : public TestCase
{
public:
    MrcUsidCarrierTestCase()
        : TestCase("uSID carrier: build, read, shift and forward")
    {
    }

private:
    void DoRun() override
    {
        const Ipv6Address block("fcbb:bbbb::");
        MrcUsidCarrier c(block, 32, {0x0001, 0x1001, 0x0002, 0xb001, 0xfe09});
        NS_TEST_ASSERT_MSG_EQ(
            c.GetAddress(), Ipv6Address("fcbb:bbbb:1:1001:2:b001:fe09::"), "built address");
        NS_TEST_ASSERT_MSG_EQ(c.GetActive(), 0x0001, "active uSID");
        NS_TEST_ASSERT_MSG_EQ(c.GetCapacity(), 6, "six uSIDs after a 32-bit block");

        const char* expected[] = {"fcbb:bbbb:1001:2:b001:fe09::",
                                  "fcbb:bbbb:2:b001:fe09::",
                                  "fcbb:bbbb:b001:fe09::",
                                  "fcbb:bbbb:fe09::",
                                  "fcbb:bbbb::"};
        const uint16_t active[] = {0x1001, 0x0002, 0xb001, 0xfe09, 0x0000};
        for (int i = 0; i < 5; ++i)
        {
            c.Shift();
            NS_TEST_ASSERT_MSG_EQ(c.GetAddress(), Ipv6Address(expected[i]), "shift " << i);
            NS_TEST_ASSERT_MSG_EQ(c.GetActive(), active[i], "active after shift " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(c.IsEnd(), true, "carrier ended");

        // Six uSIDs fill the address; the raw shift works on bytes alone.
        MrcUsidCarrier full(block, 32, {1, 2, 3, 4, 5, 6});
        NS_TEST_ASSERT_MSG_EQ(full.GetUsids().size(), 6u, "six uSIDs read back");
        uint8_t raw[16];
        full.GetAddress().GetBytes(raw);
        MrcUsidCarrier::ShiftBytes(raw, 4);
        NS_TEST_ASSERT_MSG_EQ(MrcUsidCarrier::ActiveOf(raw, 4), 2, "raw shift");
        NS_TEST_ASSERT_MSG_EQ(Ipv6Address(raw), Ipv6Address("fcbb:bbbb:2:3:4:5:6:0"), "raw bytes");

        // Reading an address back gives the same carrier.
        MrcUsidCarrier back = MrcUsidCarrier::FromAddress(full.GetAddress(), 32);
        NS_TEST_ASSERT_MSG_EQ((back == full), true, "round trip");

        // Other block lengths: a 48-bit block leaves room for five uSIDs.
        MrcUsidCarrier c48(Ipv6Address("fcbb:bbbb:cccc::"), 48, {7, 8});
        NS_TEST_ASSERT_MSG_EQ(c48.GetCapacity(), 5, "five after 48 bits");
        NS_TEST_ASSERT_MSG_EQ(c48.GetAddress(), Ipv6Address("fcbb:bbbb:cccc:7:8::"), "48-bit");
        NS_TEST_ASSERT_MSG_EQ(MrcUsidCarrier::IsValidBlockBits(40), false, "40 bits refused");
        NS_TEST_ASSERT_MSG_EQ(MrcUsidCarrier::IsValidBlockBits(32), true, "32 bits accepted");
    }
};

/**
 * @ingroup mrc-tests
 * @brief uSID test suite.
 */
class MrcUsidTestSuite : public TestSuite
{
public:
    MrcUsidTestSuite()
        : TestSuite("mrc-usid", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcUsidCarrierTestCase);
    }
};

static MrcUsidTestSuite g_mrcUsidTestSuite; //!< static instance
