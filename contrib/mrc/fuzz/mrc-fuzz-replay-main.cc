/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief A main() for the fuzz harnesses when they are not linked with libFuzzer: it runs
 * LLVMFuzzerTestOneInput once per file named on the command line (directories are walked), so
 * that the seed corpus and every crash ever found replay as ordinary tests with g++.
 */

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size);

int
main(int argc, char* argv[])
{
    std::vector<std::filesystem::path> files;
    for (int i = 1; i < argc; ++i)
    {
        const std::filesystem::path p(argv[i]);
        if (std::filesystem::is_directory(p))
        {
            for (const auto& e : std::filesystem::recursive_directory_iterator(p))
            {
                if (e.is_regular_file())
                {
                    files.push_back(e.path());
                }
            }
        }
        else if (std::filesystem::is_regular_file(p))
        {
            files.push_back(p);
        }
        else
        {
            std::cerr << argv[0] << ": no such file or directory: " << p << "\n";
            return 1;
        }
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
    {
        std::ifstream in(f, std::ios::binary);
        const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                      std::istreambuf_iterator<char>());
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    }
    std::cout << argv[0] << ": " << files.size() << " inputs replayed\n";
    return 0;
}
