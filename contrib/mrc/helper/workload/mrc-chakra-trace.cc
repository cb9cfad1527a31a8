/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-chakra-trace.h"

#include "ns3/log.h"

#include <dlfcn.h>

#include <fstream>
#include <iterator>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcChakraTrace");

namespace
{

/** The decoder's entry point (MrcChakraParse, in the protobuf plugin). */
using MrcChakraParseFn = bool (*)(const std::vector<std::string>* files,
                                  const std::vector<std::string>* names,
                                  MrcJobProgram* program,
                                  std::string* error);

/** The decoder, once looked for. */
struct MrcChakraDecoder
{
    MrcChakraParseFn parse = nullptr; //!< the entry point, or null
    std::string error;                //!< why there is none
};

/**
 * Load the decoder: the plugin MRC_CHAKRA_PLUGIN beside this library. It holds the protobuf
 * code, so that programs that read no trace do not load protobuf (about 8 ms per process).
 * @return the decoder
 */
MrcChakraDecoder
LoadDecoder()
{
    MrcChakraDecoder d;
#ifndef MRC_CHAKRA_PLUGIN
    d.error = "Chakra traces need protobuf, and this build has none (install protobuf-compiler "
              "and libprotobuf-dev, then configure again)";
#else
    Dl_info self{};
    std::string path = MRC_CHAKRA_PLUGIN;
    if (dladdr(reinterpret_cast<void*>(&LoadDecoder), &self) != 0 && self.dli_fname != nullptr)
    {
        const std::string lib = self.dli_fname;
        const auto slash = lib.rfind('/');
        path = (slash == std::string::npos ? std::string(".") : lib.substr(0, slash)) + "/" + path;
    }
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr)
    {
        const char* why = dlerror();
        d.error = "Chakra traces: cannot load the protobuf decoder ("
                + std::string(why != nullptr ? why : path) + "); build it again";
        return d;
    }
    d.parse = reinterpret_cast<MrcChakraParseFn>(dlsym(handle, "MrcChakraParse"));
    if (d.parse == nullptr)
    {
        d.error = "Chakra traces: " + path + " has no MrcChakraParse; build it again";
    }
#endif
    return d;
}

/** @return the decoder, loaded on first use */
const MrcChakraDecoder&
Decoder()
{
    static const MrcChakraDecoder d = LoadDecoder();
    return d;
}

} // namespace

bool
MrcChakraTrace::IsAvailable()
{
    return Decoder().parse != nullptr;
}

std::string
MrcChakraTrace::FileName(const std::string& prefix, uint32_t rank)
{
    return prefix + "." + std::to_string(rank) + ".et";
}

bool
MrcChakraTrace::Load(const std::string& prefix, MrcJobProgram& program, std::string& error)
{
    std::vector<std::string> files;
    std::vector<std::string> names;
    for (uint32_t r = 0;; ++r)
    {
        const std::string name = FileName(prefix, r);
        std::ifstream in(name, std::ios::binary);
        if (!in)
        {
            break;
        }
        files.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        if (in.bad())
        {
            error = name + ": cannot be read";
            return false;
        }
        names.push_back(name);
    }
    if (files.empty())
    {
        error = "chakra trace '" + prefix + "': no file " + FileName(prefix, 0)
              + " (a trace is one file per rank: PREFIX.0.et, PREFIX.1.et, ...)";
        return false;
    }
    return Parse(files, names, program, error);
}

bool
MrcChakraTrace::Parse(const std::vector<std::string>& files,
                      const std::vector<std::string>& names,
                      MrcJobProgram& program,
                      std::string& error)
{
    NS_ABORT_MSG_IF(files.size() != names.size(), "MrcChakraTrace::Parse: one name per file");
    const MrcChakraDecoder& d = Decoder();
    if (d.parse == nullptr)
    {
        error = d.error;
        return false;
    }
    return d.parse(&files, &names, &program, &error);
}

} // namespace ns3
