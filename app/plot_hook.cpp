#include "app/plot_hook.hpp"

#include <filesystem>
#include <iostream>
#include <system_error>
#include <vector>

#include "bridges/python/interpreter.hpp"
#include "run/run_directory.hpp"

namespace troupe::app {

namespace fs = std::filesystem;

std::string find_plot_script() {
  std::vector<fs::path> candidates;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  // Installed: <prefix>/bin/troupe runs <prefix>/share/troupe/scripts/plot.py.
  if (!ec)
    candidates.push_back(exe.parent_path().parent_path() / "share" / "troupe" / "scripts" / "plot.py");
#ifdef TROUPE_SOURCE_DIR
  candidates.push_back(fs::path(TROUPE_SOURCE_DIR) / "scripts" / "plot.py");
#endif
  if (!ec) {
    candidates.push_back(exe.parent_path().parent_path() / "scripts" / "plot.py");
    candidates.push_back(exe.parent_path() / "scripts" / "plot.py");
  }
  for (const auto& c : candidates)
    if (fs::is_regular_file(c, ec)) return c.string();
  return "";
}

bool plot_run(const std::string& run_dir) {
  const std::string script = find_plot_script();
  if (script.empty()) {
    std::cout << "troupe: log.plot: skipped, scripts/plot.py not found beside the sources or "
                 "the executable"
              << std::endl;
    return false;
  }
  const std::string python = bridges::python::python_with("matplotlib");
  if (python.empty()) {
    std::cout << "troupe: log.plot: skipped, no python3 with matplotlib (install "
                 "python3-matplotlib)"
              << std::endl;
    return false;
  }
  const std::string out = run::run_directory{run_dir}.curves_file();
  const int code = bridges::python::run_program({python, script, run_dir, "--out", out}, false);
  if (code != 0) {
    std::cout << "troupe: log.plot: " << script << " failed (exit " << code << "), no plot"
              << std::endl;
    return false;
  }
  std::cout << "troupe: curves in " << out << std::endl;
  return true;
}

}  // namespace troupe::app
