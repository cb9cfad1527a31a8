/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Test runner for the standalone build: every MRC TestSuite is linked in; options as in
 * ns-3's test-runner (--suite=NAME, --list, --verbose, ...).
 */

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
