#pragma once
// After a run: draw RUN_DIR/curves.png with scripts/plot.py (log.plot: true).
#include <string>

namespace troupe::app {

// Runs `PYTHON scripts/plot.py RUN_DIR --out RUN_DIR/curves.png` with the first
// python3 that imports matplotlib. Never throws and never fails the run: when
// the script or such a python is missing, or the plot fails, it prints one
// line saying so. Returns true when curves.png was written.
bool plot_run(const std::string& run_dir);

// Where scripts/plot.py is: installed beside the executable
// (<prefix>/share/troupe/scripts), else beside the sources this binary was
// built from (TROUPE_SOURCE_DIR), else relative to the executable
// (build/../scripts). Empty when none exists.
std::string find_plot_script();

}  // namespace troupe::app
