/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Test runner for the standalone build: every MRC TestSuite is linked in; options as in
 * ns-3's test-runner (--suite=NAME, --list, --verbose, ...).
 *
 * It always runs as with `--stop-on-failure`: a failed NS_TEST_ASSERT_* leaves its test case at
 * once, so the checks after it (which may index what the failed one measured) do not run on a
 * broken model and crash the runner instead of reporting the failure. ns-3 already stops a
 * suite at its first failed test case; the flag only adds that return. (In an ns-3 tree,
 * test.py runs ns-3's own test-runner, which continues after a failed check.)
 */

#include "ns3/test.h"

#include <cstring>
#include <vector>

int
main(int argc, char** argv)
{
    std::vector<char*> args(argv, argv + argc);
    static char stopOnFailure[] = "--stop-on-failure";
    bool given = false;
    for (int i = 1; i < argc; ++i)
    {
        given = given || std::strcmp(argv[i], stopOnFailure) == 0;
    }
    if (!given)
    {
        args.push_back(stopOnFailure);
    }
    args.push_back(nullptr);
    return ns3::TestRunner::Run(static_cast<int>(args.size()) - 1, args.data());
}
