/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-results-dir.h"

#include "ns3/mrc-sha256.h"

#include "ns3/global-value.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

namespace ns3
{

namespace fs = std::filesystem;

namespace
{

/**
 * @param path a path
 * @return it quoted for /bin/sh
 */
std::string
ShellQuote(const std::string& path)
{
    std::string q = "'";
    for (char c : path)
    {
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return q + "'";
}

/**
 * Run a shell command and read its output.
 * @param cmd the command
 * @param out set to its standard output
 * @return whether it exited 0
 */
bool
Capture(const std::string& cmd, std::string& out)
{
    out.clear();
    std::FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr)
    {
        return false;
    }
    char buf[512];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), p)) > 0)
    {
        out.append(buf, n);
    }
    return pclose(p) == 0;
}

/**
 * @param s text
 * @return it without trailing white space
 */
std::string
Chomp(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
    {
        s.pop_back();
    }
    return s;
}

/**
 * mkdir -p, with the OS's reason on failure.
 * @param dir the directory
 * @param error set on failure
 * @return whether it exists afterwards
 */
bool
MakeDirs(const std::string& dir, std::string& error)
{
    std::string cur;
    for (std::size_t i = 0; i <= dir.size(); ++i)
    {
        if (i == dir.size() || dir[i] == '/')
        {
            if (!cur.empty() && mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST)
            {
                error = "cannot create '" + cur + "': " + std::strerror(errno);
                return false;
            }
        }
        if (i < dir.size())
        {
            cur += dir[i];
        }
    }
    struct stat st;
    if (stat(dir.c_str(), &st) != 0)
    {
        error = "cannot create '" + dir + "': " + std::strerror(errno);
        return false;
    }
    if (!S_ISDIR(st.st_mode))
    {
        error = "'" + dir + "' exists and is not a directory";
        return false;
    }
    if (access(dir.c_str(), W_OK) != 0)
    {
        error = "cannot write into '" + dir + "': " + std::strerror(errno);
        return false;
    }
    return true;
}

/**
 * Write a file through a temporary name, renamed into place once whole.
 * @param path the file
 * @param text its content
 * @param error set on failure, with the OS's reason
 * @return false on failure
 */
bool
WriteAtomic(const std::string& path, const std::string& text, std::string& error)
{
    const std::string tmp = path + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary);
        f << text;
        f.close();
        if (!f)
        {
            error = "cannot write '" + tmp + "': " + std::strerror(errno);
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
    {
        error = "cannot write '" + path + "': " + std::strerror(errno);
        return false;
    }
    return true;
}

/**
 * @param dir a directory
 * @return the files a manifest.json in it lists (relative to it), and its directory entries
 *         (with a trailing '/'); empty if it has none or it is not an MRC manifest
 */
std::set<std::string>
ManifestFiles(const fs::path& dir)
{
    std::set<std::string> out;
    std::ifstream in(dir / MrcResultsDir::MANIFEST);
    if (!in)
    {
        return out;
    }
    try
    {
        const nlohmann::json j = nlohmann::json::parse(in);
        if (!j.is_object() || j.value("format", "") != "mrc-results/1" || !j.contains("files")
            || !j["files"].is_object())
        {
            return out;
        }
        for (const auto& kv : j["files"].items())
        {
            out.insert(kv.key());
        }
        out.insert(MrcResultsDir::MANIFEST);
    }
    catch (const nlohmann::json::exception&)
    {
        out.clear();
    }
    return out;
}

} // namespace

MrcResultsDir::MrcResultsDir()
    : m_lockFd(-1)
    , m_complete(false)
{
}

MrcResultsDir::~MrcResultsDir()
{
    Close();
}

const std::string&
MrcResultsDir::GetPath() const
{
    return m_dir;
}

std::string
MrcResultsDir::Path(const std::string& name) const
{
    return m_dir + "/" + name;
}

void
MrcResultsDir::SetCommandLine(int argc, char* argv[])
{
    m_argv.clear();
    for (int i = 0; i < argc; ++i)
    {
        m_argv.emplace_back(argv[i]);
    }
}

bool
MrcResultsDir::Open(const std::string& dir,
                    const std::string& program,
                    bool overwrite,
                    std::string& error)
{
    Close();
    if (dir.empty())
    {
        error = "the results directory must not be empty";
        return false;
    }
    m_dir = dir;
    while (m_dir.size() > 1 && m_dir.back() == '/')
    {
        m_dir.pop_back();
    }
    m_program = program;
    m_files.clear();
    m_inputs.clear();
    m_complete = false;
    if (!MakeDirs(m_dir, error) || !Lock(error))
    {
        return false;
    }
    if (!Prepare(overwrite, error))
    {
        Close();
        return false;
    }
    if (!Save(error))
    {
        Close();
        return false;
    }
    return true;
}

bool
MrcResultsDir::Lock(std::string& error)
{
    const std::string path = Path(LOCK);
    for (int attempt = 0; attempt < 20; ++attempt)
    {
        const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0)
        {
            error = "cannot create '" + path + "': " + std::strerror(errno);
            return false;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0)
        {
            const int err = errno;
            std::string holder;
            if (err == EWOULDBLOCK)
            {
                // The holder writes its name and pid right after locking.
                for (int i = 0; i < 50 && holder.empty(); ++i)
                {
                    char buf[256] = {};
                    const ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
                    holder = Chomp(n > 0 ? std::string(buf, n) : std::string());
                    if (holder.empty())
                    {
                        std::this_thread::sleep_for(std::chrono::milliseconds(10));
                    }
                }
                close(fd);
                std::string prog = holder;
                std::string pid;
                const auto sp = holder.rfind(' ');
                if (sp != std::string::npos)
                {
                    prog = holder.substr(0, sp);
                    pid = holder.substr(sp + 1);
                }
                error = "'" + m_dir + "' is in use by another run ("
                      + (holder.empty() ? std::string("pid unknown")
                                        : prog + (pid.empty() ? "" : ", pid " + pid))
                      + ")";
                return false;
            }
            close(fd);
            error = "cannot lock '" + path + "': " + std::strerror(err);
            return false;
        }
        // The file may have been removed by its previous holder between our open and our lock:
        // then the lock is on a file nobody else will see. Try again.
        struct stat a;
        struct stat b;
        if (fstat(fd, &a) == 0 && stat(path.c_str(), &b) == 0 && a.st_ino == b.st_ino
            && a.st_dev == b.st_dev)
        {
            const std::string me = m_program + " " + std::to_string(getpid()) + "\n";
            if (ftruncate(fd, 0) != 0 || pwrite(fd, me.data(), me.size(), 0) < 0)
            {
                error = "cannot write '" + path + "': " + std::strerror(errno);
                close(fd);
                return false;
            }
            m_lockFd = fd;
            return true;
        }
        close(fd);
    }
    error = "cannot lock '" + path + "' (it keeps being replaced)";
    return false;
}

bool
MrcResultsDir::Prepare(bool overwrite, std::string& error)
{
    std::error_code ec;
    const fs::path root(m_dir);
    // Everything the directory holds (files, links and directories), relative to it.
    std::vector<fs::path> files;
    std::vector<fs::path> dirs;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
    {
        const fs::path rel = it->path().lexically_relative(root);
        if (rel == LOCK)
        {
            continue;
        }
        if (it->is_directory(ec) && !it->is_symlink(ec))
        {
            dirs.push_back(rel);
        }
        else
        {
            files.push_back(rel);
        }
    }
    if (ec)
    {
        error = "cannot read '" + m_dir + "': " + ec.message();
        return false;
    }
    if (files.empty() && dirs.empty())
    {
        return true;
    }
    if (!overwrite)
    {
        error = "'" + m_dir
              + "' exists and is not empty (choose another directory, or add --overwrite=1 to "
                "replace a previous run's results in it)";
        return false;
    }
    // A file is a run's own when the manifest of its directory, or of a directory above it
    // (up to this one), lists it; so are the manifests, locks and temporary files of those.
    std::map<fs::path, std::set<std::string>> manifests;
    manifests[fs::path()] = ManifestFiles(root);
    for (const auto& d : dirs)
    {
        manifests[d] = ManifestFiles(root / d);
    }
    auto owned = [&](const fs::path& rel)
    {
        std::string name = rel.filename().string();
        if (name == LOCK)
        {
            return true;
        }
        fs::path target = rel;
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0)
        {
            target = rel.parent_path() / name.substr(0, name.size() - 4);
        }
        for (fs::path d = target.parent_path();; d = d.parent_path())
        {
            const auto m = manifests.find(d);
            if (m != manifests.end() && !m->second.empty())
            {
                const std::string key = d.empty() ? target.generic_string()
                                                  : target.lexically_relative(d).generic_string();
                if (m->second.count(key) > 0)
                {
                    return true;
                }
            }
            if (d.empty())
            {
                return false;
            }
        }
    };
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
    {
        if (!owned(f))
        {
            if (manifests[fs::path()].empty())
            {
                error = "'" + m_dir + "' holds '" + f.generic_string()
                      + "' and has no manifest.json: it was not written by an MRC program, so "
                        "--overwrite leaves it alone (choose another directory)";
            }
            else
            {
                error = "'" + m_dir + "' holds '" + f.generic_string()
                      + "', which no run wrote; --overwrite removes only a run's own files "
                        "(choose another directory)";
            }
            return false;
        }
    }
    // Every file is a run's: remove them, the manifests last, then the directories they leave
    // empty (deepest first), never the directory itself.
    std::stable_sort(files.begin(),
                     files.end(),
                     [](const fs::path& a, const fs::path& b)
                     {
                         return (a.filename() == MANIFEST) < (b.filename() == MANIFEST);
                     });
    std::set<fs::path> parents;
    for (const auto& f : files)
    {
        if (!fs::remove(root / f, ec) && ec)
        {
            error = "cannot remove '" + (root / f).string() + "': " + ec.message();
            return false;
        }
        for (fs::path d = f.parent_path(); !d.empty(); d = d.parent_path())
        {
            parents.insert(d);
        }
    }
    std::vector<fs::path> order(parents.begin(), parents.end());
    std::sort(order.begin(),
              order.end(),
              [](const fs::path& a, const fs::path& b)
              {
                  return std::distance(a.begin(), a.end()) > std::distance(b.begin(), b.end());
              });
    for (const auto& d : order)
    {
        const fs::path p = root / d;
        const std::string lock = (p / LOCK).string();
        unlink(lock.c_str()); // a point's leftover lock
        if (fs::is_empty(p, ec))
        {
            fs::remove(p, ec);
        }
    }
    return true;
}

bool
MrcResultsDir::Save(std::string& error)
{
    nlohmann::ordered_json j;
    j["format"] = "mrc-results/1";
    j["program"] = m_program;
    j["complete"] = m_complete;
    nlohmann::ordered_json files = nlohmann::ordered_json::object();
    for (const auto& kv : m_files)
    {
        const Entry& e = kv.second;
        if (e.dir)
        {
            files[kv.first] = {{"dir", true}};
        }
        else if (!e.whole)
        {
            files[kv.first] = nullptr;
        }
        else
        {
            nlohmann::ordered_json f;
            f["bytes"] = e.bytes;
            if (e.rows >= 0)
            {
                f["rows"] = e.rows;
            }
            if (!e.sha256.empty())
            {
                f["sha256"] = e.sha256;
            }
            files[kv.first] = f;
        }
    }
    j["files"] = files;
    return WriteAtomic(Path(MANIFEST), j.dump(2) + "\n", error);
}

bool
MrcResultsDir::ReloadManifest(std::string& error)
{
    std::ifstream in(Path(MANIFEST));
    if (!in)
    {
        error = "cannot read '" + Path(MANIFEST) + "': " + std::strerror(errno);
        return false;
    }
    try
    {
        const nlohmann::json j = nlohmann::json::parse(in);
        for (const auto& kv : j.at("files").items())
        {
            if (m_files.count(kv.key()) > 0)
            {
                continue;
            }
            Entry e;
            const auto& v = kv.value();
            if (v.is_object())
            {
                e.dir = v.value("dir", false);
                e.whole = !e.dir;
                e.bytes = v.value("bytes", uint64_t(0));
                e.rows = v.value("rows", int64_t(-1));
                e.sha256 = v.value("sha256", "");
            }
            m_files[kv.key()] = e;
        }
    }
    catch (const nlohmann::json::exception& e)
    {
        error = "cannot read '" + Path(MANIFEST) + "': " + e.what();
        return false;
    }
    return true;
}

bool
MrcResultsDir::Begin(const std::string& name, std::string& error)
{
    const auto slash = name.rfind('/');
    if (slash != std::string::npos && !MakeDirs(Path(name.substr(0, slash)), error))
    {
        return false;
    }
    m_files[name] = Entry();
    return Save(error);
}

int64_t
MrcResultsDir::CountCsvRows(const std::string& path)
{
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr)
    {
        return -1;
    }
    int64_t lines = 0;
    char last = '\n';
    char buf[1 << 16];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
    {
        lines += std::count(buf, buf + n, '\n');
        last = buf[n - 1];
    }
    std::fclose(f);
    lines += last != '\n' ? 1 : 0;
    return std::max<int64_t>(0, lines - 1);
}

bool
MrcResultsDir::Finish(const std::string& name, std::string& error)
{
    const std::string path = Path(name);
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
    {
        error = "cannot read '" + path + "': " + std::strerror(errno);
        return false;
    }
    Entry& e = m_files[name];
    e.whole = true;
    e.bytes = static_cast<uint64_t>(st.st_size);
    const bool csv = name.size() > 4 && name.compare(name.size() - 4, 4, ".csv") == 0;
    e.rows = csv ? CountCsvRows(path) : -1;
    return Save(error);
}

bool
MrcResultsDir::WriteFile(const std::string& name, const std::string& text, std::string& error)
{
    if (!Begin(name, error))
    {
        return false;
    }
    return WriteAtomic(Path(name), text, error) && Finish(name, error);
}

bool
MrcResultsDir::CopyInput(const std::string& kind,
                         const std::string& path,
                         const std::string& copyName,
                         std::string& error)
{
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
    {
        error = "cannot read '" + path + "': " + std::strerror(errno);
        return false;
    }
    std::string sha;
    if (!MrcSha256::File(path, sha, error))
    {
        return false;
    }
    nlohmann::ordered_json j;
    j["kind"] = kind;
    j["path"] = path;
    j["bytes"] = static_cast<uint64_t>(st.st_size);
    j["sha256"] = sha;
    if (static_cast<uint64_t>(st.st_size) > MaxCopyBytes)
    {
        j["copy"] = nullptr;
        j["not_copied"] = "over 64 MiB: only its SHA-256 is recorded";
    }
    else
    {
        const std::string name = "inputs/" + copyName;
        if (!Begin(name, error))
        {
            return false;
        }
        std::error_code ec;
        fs::copy_file(path, Path(name), fs::copy_options::overwrite_existing, ec);
        if (ec)
        {
            error = "cannot copy '" + path + "' to '" + Path(name) + "': " + ec.message();
            return false;
        }
        if (!Finish(name, error))
        {
            return false;
        }
        m_files[name].sha256 = sha;
        j["copy"] = name;
    }
    m_inputs.push_back(j.dump());
    return Save(error);
}

bool
MrcResultsDir::RecordInput(const std::string& kind,
                           const std::string& path,
                           const std::string& why,
                           std::string& error)
{
    std::string sha;
    if (!MrcSha256::File(path, sha, error))
    {
        return false;
    }
    nlohmann::ordered_json j;
    j["kind"] = kind;
    j["path"] = path;
    j["sha256"] = sha;
    j["copy"] = nullptr;
    j["not_copied"] = why;
    m_inputs.push_back(j.dump());
    return true;
}

std::string
MrcResultsDir::Provenance()
{
    nlohmann::ordered_json p;
    nlohmann::ordered_json code;
#ifdef MRC_MODULE_SOURCE_DIR
    const std::string src = MRC_MODULE_SOURCE_DIR;
#else
    const std::string src;
#endif
    std::string commit = "unknown";
    std::string dirty = "unknown";
    if (!src.empty())
    {
        std::string out;
        if (Capture("git -C " + ShellQuote(src) + " rev-parse HEAD 2>/dev/null", out))
        {
            commit = Chomp(out);
            if (Capture("git -C " + ShellQuote(src)
                            + " status --porcelain --untracked-files=no 2>/dev/null",
                        out))
            {
                dirty = Chomp(out).empty() ? "false" : "true";
            }
        }
    }
    code["commit"] = commit;
    code["dirty"] = dirty == "unknown" ? nlohmann::ordered_json("unknown")
                                       : nlohmann::ordered_json(dirty == "true");
    code["source_dir"] = src.empty() ? "unknown" : src;
    p["code"] = code;

    nlohmann::ordered_json lib;
    Dl_info info;
    std::string libPath = "unknown";
    if (dladdr(reinterpret_cast<void*>(&Simulator::Now), &info) != 0 && info.dli_fname)
    {
        libPath = info.dli_fname;
        char real[4096];
        if (realpath(info.dli_fname, real) != nullptr)
        {
            libPath = real;
        }
    }
    lib["path"] = libPath;
    // Debian: libns3-core.so.37; ns-3 trees: libns3.40-core-default.so, libns3-dev-core-default.so.
    std::string version = "unknown";
    const std::string base = fs::path(libPath).filename().string();
    const auto so = base.find(".so.");
    const auto core = base.find("-core");
    if (base.rfind("libns3", 0) == 0 && core != std::string::npos)
    {
        std::string mid = base.substr(6, core - 6);
        if (!mid.empty() && (mid[0] == '.' || mid[0] == '-'))
        {
            mid = mid.substr(1);
        }
        if (mid.empty() && so != std::string::npos)
        {
            version = "3." + base.substr(so + 4);
        }
        else if (!mid.empty())
        {
            version = (mid[0] >= '0' && mid[0] <= '9') ? "3." + mid : "3-" + mid;
        }
    }
    lib["version"] = version;
#ifdef MRC_NS3_VERSION
    lib["built_against"] = MRC_NS3_VERSION;
#endif
    p["ns3_library"] = lib;

    nlohmann::ordered_json host;
    char name[256] = {};
    gethostname(name, sizeof(name) - 1);
    host["name"] = name;
    std::string cpu = "unknown";
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line))
    {
        if (line.rfind("model name", 0) == 0)
        {
            const auto colon = line.find(':');
            if (colon != std::string::npos)
            {
                cpu = line.substr(colon + 1);
                cpu.erase(0, cpu.find_first_not_of(' '));
            }
            break;
        }
    }
    host["cpu_model"] = cpu;
    host["cpus"] = sysconf(_SC_NPROCESSORS_ONLN);
    p["host"] = host;
    return p.dump();
}

bool
MrcResultsDir::WriteRunJson(const std::string& program,
                            const std::string& version,
                            uint32_t seed,
                            const std::map<std::string, std::string>& params,
                            const std::map<std::string, std::string>& extra,
                            bool complete,
                            const std::string& reason,
                            std::string& error)
{
    nlohmann::ordered_json j;
    j["program"] = program;
    j["version"] = version;
    j["complete"] = complete;
    j["incomplete_reason"]
        = complete ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(reason);
    j["seed"] = seed;
    j["command_line"] = m_argv;
    // The simulator implementation and the event scheduler leave every output unchanged (the
    // fingerprint tests run both of ns-3's); recorded so that a timing is read with what ran it.
    StringValue impl;
    GlobalValue::GetValueByName("SimulatorImplementationType", impl);
    j["simulator_implementation"] = impl.Get();
    static const std::string provenance = Provenance(); // the same for the whole process
    const nlohmann::ordered_json prov = nlohmann::ordered_json::parse(provenance);
    for (const auto& kv : prov.items())
    {
        j[kv.key()] = kv.value();
    }
    nlohmann::ordered_json p = nlohmann::ordered_json::object();
    for (const auto& kv : params)
    {
        p[kv.first] = kv.second;
    }
    j["parameters"] = p;
    nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
    for (const auto& in : m_inputs)
    {
        inputs.push_back(nlohmann::ordered_json::parse(in));
    }
    j["inputs"] = inputs;
    for (const auto& kv : extra)
    {
        try
        {
            j[kv.first] = nlohmann::ordered_json::parse(kv.second);
        }
        catch (const nlohmann::json::exception&)
        {
            j[kv.first] = kv.second;
        }
    }
    return WriteFile("run.json", j.dump(2) + "\n", error);
}

bool
MrcResultsDir::SetComplete(std::string& error)
{
    m_complete = true;
    const bool ok = Save(error);
    Close();
    return ok;
}

void
MrcResultsDir::Close()
{
    if (m_lockFd >= 0)
    {
        const std::string path = Path(LOCK);
        unlink(path.c_str());
        close(m_lockFd);
        m_lockFd = -1;
    }
}

} // namespace ns3
